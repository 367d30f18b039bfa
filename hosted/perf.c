// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmu= under Linux (hosted/perf.h): lib/pmu.c's events as perf events.
 *
 * Each event is Linux's generic one whose encoding, on every vendor
 * lib/pmu.c offers it on, is lib/pmu.c's own (Linux's
 * intel_perfmon_event_map in arch/x86/events/intel/core.c; the AMD maps
 * and amd_hw_cache_event_ids_f17h/amd_hw_cache_event_ids in
 * arch/x86/events/amd/core.c), so that an event counts the same thing in
 * the kernel and here; fills-dram has no generic one and goes as
 * PERF_TYPE_RAW with lib/pmu.c's PerfEvtSel bits.  An event lib/pmu.c
 * has no encoding for on this CPU is skipped with the kernel's reason,
 * though Linux may have a generic event of the name: AMD's
 * cache-references counts L2 requests, not the last level.
 *
 * The events are one group, led by a pinned counter (never multiplexed:
 * on the PMU whenever the thread runs, or in error and read as 0 bytes),
 * so that one read(2) takes them all.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "hosted/perf.h"
#include "lib/format.h"

#define HW(x) PERF_TYPE_HARDWARE, PERF_COUNT_HW_##x
#define L1D_READ(result) PERF_TYPE_HW_CACHE, (PERF_COUNT_HW_CACHE_L1D | \
	PERF_COUNT_HW_CACHE_OP_READ << 8 | PERF_COUNT_HW_CACHE_RESULT_##result << 16)

/* In pmu_events' order. */
static const struct perf_map {
	const char *name;
	u32 type;
	u64 config;		/* PERF_TYPE_RAW: lib/pmu.c's select */
} perf_map[] = {
	{ "instructions", HW(INSTRUCTIONS) },
	{ "cycles", HW(CPU_CYCLES) },
	{ "ref-cycles", HW(REF_CPU_CYCLES) },		/* Intel only */
	{ "llc-references", HW(CACHE_REFERENCES) },	/* Intel: 0x4f2e */
	{ "llc-misses", HW(CACHE_MISSES) },		/* Intel: 0x412e */
	{ "l1d-loads", L1D_READ(ACCESS) },		/* AMD only */
	{ "l1d-misses", L1D_READ(MISS) },		/* AMD only */
	{ "fills-dram", PERF_TYPE_RAW, 0 },		/* AMD, 17h on */
	{ "branches", HW(BRANCH_INSTRUCTIONS) },
	{ "branch-misses", HW(BRANCH_MISSES) },
};

_Static_assert(PERF_MAX == PMU_MAX_SAMPLED, "pmu_no_room's count");

static const char *errno_name(int err)
{
	static const struct { int err; const char *name; } names[] = {
		{ ENOENT, "ENOENT" }, { EACCES, "EACCES" }, { EPERM, "EPERM" },
		{ EINVAL, "EINVAL" }, { EOPNOTSUPP, "EOPNOTSUPP" },
		{ EBUSY, "EBUSY" }, { ENODEV, "ENODEV" }, { ENOSYS, "ENOSYS" },
		{ EMFILE, "EMFILE" }, { ENOSPC, "ENOSPC" }, { E2BIG, "E2BIG" },
	};

	for (u32 i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].err == err)
			return names[i].name;
	return "an errno";
}

/* Linux registers its core PMU as "cpu" (Intel hybrids: cpu_core). */
static bool has_core_pmu(const struct perf_ops *ops)
{
	char buf[32];

	return ops->read_line("/sys/bus/event_source/devices/cpu/type",
			      buf, sizeof(buf)) ||
	       ops->read_line("/sys/bus/event_source/devices/cpu_core/type",
			      buf, sizeof(buf));
}

/*
 * Why perf_event_open(2) refused an event, into @buf.  Short: pmu_skip
 * holds every event's, in a record of at most RECORD_MAX bytes; and
 * never "; ", which separates them there.
 */
static const char *open_reason(const struct perf_ops *ops, int err, char *buf)
{
	char par[16];

	switch (err) {
	case ENOENT:
		return has_core_pmu(ops) ?
		       "perf_event_open: this CPU's PMU lacks the event (ENOENT)" :
		       "perf_event_open: no hardware PMU exposed by this host (ENOENT)";
	case EACCES:
	case EPERM:
		/* exclude_kernel=0 is what needs it */
		if (!ops->read_line("/proc/sys/kernel/perf_event_paranoid",
				    par, sizeof(par)))
			ksnprintf(par, sizeof(par), "unreadable");
		ksnprintf(buf, PERF_REASON_LEN, "perf_event_open: %s: needs "
			  "/proc/sys/kernel/perf_event_paranoid <= 1 (is %s) "
			  "or CAP_PERFMON", errno_name(err), par);
		return buf;
	case EINVAL:
		return "perf_event_open: EINVAL (the event, or the group with "
		       "it, does not fit the PMU)";
	default:
		ksnprintf(buf, PERF_REASON_LEN, "perf_event_open: %s (errno %d)",
			  errno_name(err), err);
		return buf;
	}
}

/* Why lib/pmu.c has no encoding of @e for this CPU, or NULL. */
static const char *vendor_skip(const struct perf_cpu *cpu,
			       const struct pmu_event *e, char *buf)
{
	if (cpu->vendor != PMU_VENDOR_NONE)
		return pmu_encoding_skip(cpu->vendor, cpu->family, e);
	ksnprintf(buf, PERF_REASON_LEN, "no PMU: vendor '%s' is not Intel, "
		  "AMD or Hygon", cpu->vendor_name ? cpu->vendor_name : "?");
	return buf;
}

static void attr_of(struct perf_event_attr *a, u32 ev,
		    const struct perf_cpu *cpu, bool leader)
{
	const struct pmu_event *e = &pmu_events[ev];

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = perf_map[ev].type;
	a->config = perf_map[ev].config;
	if (a->type == PERF_TYPE_RAW)
		a->config = cpu->vendor == PMU_VENDOR_INTEL ? e->intel_sel :
			    cpu->family >= 0x17 ? e->amd_sel : e->amd_k8_sel;
	a->read_format = PERF_FORMAT_GROUP;
	/* The leader starts the group and keeps it on the PMU; the
	 * others count whenever it does. */
	a->disabled = leader;
	a->pinned = leader;
	/* Kernel and user both, as the kernel's USR | OS selects; not the
	 * hypervisor's. */
	a->exclude_hv = 1;
}

static void open_one(struct perf_counters *p, u32 slot,
		     const struct perf_cpu *cpu)
{
	struct pmu_slot *s = &p->plan.slots[slot];
	struct perf_event_attr a;
	int fd;

	attr_of(&a, (u32)s->event, cpu, p->n == 0);
	fd = p->ops->open(&a, 0, cpu->cpu, p->n ? p->fd[0] : -1,
			  PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		s->skip = open_reason(p->ops, -fd, p->reason[slot]);
		return;
	}
	p->delta[p->n] = calloc(p->cap ? p->cap : 1, sizeof(u64));
	if (!p->delta[p->n]) {
		p->ops->close(fd);
		s->skip = "no memory for its samples";
		return;
	}
	p->fd[p->n] = fd;
	p->slot[p->n] = (u8)slot;
	p->n++;
}

static void close_all(struct perf_counters *p)
{
	if (p->n)
		p->ops->ioctl(p->fd[0], PERF_EVENT_IOC_DISABLE,
			      PERF_IOC_FLAG_GROUP);
	for (u32 i = p->n; i-- > 0;) {	/* the leader last */
		p->ops->close(p->fd[i]);
		free(p->delta[i]);
		p->delta[i] = NULL;
	}
	p->n = 0;
}

/* Every counted event skipped after all, for @why. */
static void skip_all(struct perf_counters *p, const char *why)
{
	for (u32 i = 0; i < p->n; i++) {
		u32 slot = p->slot[i];

		ksnprintf(p->reason[slot], PERF_REASON_LEN, "%s", why);
		p->plan.slots[slot].skip = p->reason[slot];
	}
	close_all(p);
}

static bool group_read(struct perf_counters *p, u64 *v)
{
	u64 buf[1 + PERF_MAX];
	long want = (long)((1 + p->n) * sizeof(u64));
	long got = p->ops->read(p->fd[0], buf, (size_t)want);

	if (got == want && buf[0] == p->n) {
		for (u32 i = 0; i < p->n; i++)
			v[i] = buf[1 + i];
		return true;
	}
	if (p->lost)
		return false;
	if (got == 0)
		ksnprintf(p->lost_why, sizeof(p->lost_why), "read(2) of the "
			  "counters gave 0 bytes: the pinned group lost the "
			  "PMU (another pinned event, the NMI watchdog?)");
	else if (got < 0)
		ksnprintf(p->lost_why, sizeof(p->lost_why), "read(2) of the "
			  "counters: %s", errno_name((int)-got));
	else
		ksnprintf(p->lost_why, sizeof(p->lost_why), "read(2) of the "
			  "counters gave %ld bytes, not %ld", got, want);
	p->lost = p->lost_why;
	return false;
}

/* Reset and start the group, then find what an empty bracket counts. */
static void start(struct perf_counters *p)
{
	char why[PERF_REASON_LEN];
	const char *what = "RESET";
	int r;

	r = p->ops->ioctl(p->fd[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
	if (!r) {
		what = "ENABLE";
		r = p->ops->ioctl(p->fd[0], PERF_EVENT_IOC_ENABLE,
				  PERF_IOC_FLAG_GROUP);
	}
	if (r) {
		ksnprintf(why, sizeof(why), "ioctl(PERF_EVENT_IOC_%s): %s",
			  what, errno_name(-r));
		skip_all(p, why);
		return;
	}
	for (u32 i = 0; i < p->n; i++)
		p->bracket[i] = ~0ULL;
	for (u32 t = 0; t < 8; t++) {
		u64 now[PERF_MAX];

		perf_before(p);
		if (!group_read(p, now))
			break;
		for (u32 i = 0; i < p->n; i++)
			p->bracket[i] = MIN(p->bracket[i], now[i] - p->before[i]);
	}
	if (p->lost) {
		ksnprintf(why, sizeof(why), "%s", p->lost);
		skip_all(p, why);
		return;
	}
	/* Into the plan, for the config record: inside every sample, never
	 * subtracted (docs/companion.md) */
	for (u32 i = 0; i < p->n; i++)
		p->plan.slots[p->slot[i]].bracket = p->bracket[i];
	p->plan.bracketed = p->n > 0;
}

u32 perf_open(struct perf_counters *p, const struct perf_ops *ops,
	      const struct perf_cpu *cpu, const u8 *events, u32 n, u32 cap)
{
	memset(p, 0, sizeof(*p));
	p->ops = ops;
	p->cap = cap;
	for (u32 i = 0; i < n && i < PMU_MAX_EVENTS; i++) {
		struct pmu_slot *s = &p->plan.slots[p->plan.nslots++];

		s->event = events[i] < pmu_nevents ? events[i] : -1;
		s->name = s->event < 0 ? "?" : pmu_events[s->event].name;
		if (s->event < 0)
			s->skip = "unknown event";
		else if ((u32)s->event >= ARRAY_SIZE(perf_map))
			s->skip = "no perf event for it";
		else
			s->skip = vendor_skip(cpu, &pmu_events[s->event],
					      p->reason[i]);
		if (!s->skip && p->n == PERF_MAX)
			s->skip = pmu_no_room;
		if (!s->skip)
			open_one(p, i, cpu);
	}
	if (p->n)
		start(p);
	p->plan.ncounted = p->n;
	return p->n;
}

void perf_close(struct perf_counters *p)
{
	close_all(p);
}

void perf_before(struct perf_counters *p)
{
	if (p->n)
		group_read(p, p->before);
}

void perf_after(struct perf_counters *p, u32 k)
{
	u64 now[PERF_MAX];

	if (!p->n || k >= p->cap)
		return;
	if (!group_read(p, now)) {
		for (u32 i = 0; i < p->n; i++)
			p->delta[i][k] = 0;
		return;
	}
	/* 64-bit counts: a difference, never a width to mask to. */
	for (u32 i = 0; i < p->n; i++)
		p->delta[i][k] = now[i] - p->before[i];
}

void perf_pass(struct perf_counters *p, struct bench_pass *bp,
	       struct bench_outcome *o, const char *name)
{
	if (p->lost) {
		bench_fail(o, "%s: pmu: %s", name, p->lost);
		p->lost = NULL;
		return;
	}
	bp->npmu = p->n;
	for (u32 i = 0; i < p->n; i++) {
		bp->pmu_name[i] = p->plan.slots[p->slot[i]].name;
		bp->pmu_v[i] = p->delta[i];
	}
}

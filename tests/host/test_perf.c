// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host tests of hosted/perf.c, the companion's pmu= through
 * perf_event_open(2), over fake system calls: the attributes each event
 * is opened with, the group's reset and enable, the skips and their
 * reasons, and the deltas read around a timed region.
 */
#include <errno.h>
#include <stdlib.h>
#include "hosted/perf.h"
#include "lib/string.h"
#include "tests/host/unit.h"

#define FAKE_MAX 16
#define FIRST_FD 10

/* The system calls' side: what was asked, and what to answer. */
static struct fake {
	u32 nopen;
	struct perf_event_attr attr[FAKE_MAX];
	pid_t pid[FAKE_MAX];
	int cpu[FAKE_MAX], group_fd[FAKE_MAX];
	unsigned long flags[FAKE_MAX];
	int open_err[FAKE_MAX];		/* errno for the i-th open; 0: an fd */
	u32 nioctl;
	struct { int fd; unsigned long req, arg; } ioctl[FAKE_MAX];
	int ioctl_err;
	u32 nclose;
	int closed[FAKE_MAX];
	u32 members, nread;
	u64 value[PERF_MAX], step[PERF_MAX];	/* each read adds step */
	u32 zero_read_at;		/* 1-based read that gives 0 bytes */
	bool has_pmu;
	const char *paranoid;		/* NULL: unreadable */
} fk;

static int fake_open(struct perf_event_attr *a, pid_t pid, int cpu,
		     int group_fd, unsigned long flags)
{
	u32 i = fk.nopen++;

	fk.attr[i] = *a;
	fk.pid[i] = pid;
	fk.cpu[i] = cpu;
	fk.group_fd[i] = group_fd;
	fk.flags[i] = flags;
	if (fk.open_err[i])
		return -fk.open_err[i];
	fk.members++;
	return FIRST_FD + (int)i;
}

static long fake_read(int fd, void *buf, size_t n)
{
	u64 *v = buf;

	(void)fd;
	if (++fk.nread == fk.zero_read_at)
		return 0;
	if (n < (1 + fk.members) * sizeof(u64))
		return -ENOSPC;
	v[0] = fk.members;
	for (u32 i = 0; i < fk.members; i++) {
		fk.value[i] += fk.step[i];
		v[1 + i] = fk.value[i];
	}
	return (long)((1 + fk.members) * sizeof(u64));
}

static int fake_ioctl(int fd, unsigned long req, unsigned long arg)
{
	u32 i = fk.nioctl++;

	fk.ioctl[i].fd = fd;
	fk.ioctl[i].req = req;
	fk.ioctl[i].arg = arg;
	return fk.ioctl_err ? -fk.ioctl_err : 0;
}

static void fake_close(int fd)
{
	fk.closed[fk.nclose++] = fd;
}

static bool fake_read_line(const char *path, char *buf, size_t n)
{
	if (strstr(path, "perf_event_paranoid")) {
		if (!fk.paranoid)
			return false;
		strlcpy(buf, fk.paranoid, n);
		return true;
	}
	if (strstr(path, "/sys/bus/event_source/devices/cpu"))
		return fk.has_pmu;
	return false;
}

static const struct perf_ops fake_ops = {
	fake_open, fake_read, fake_ioctl, fake_close, fake_read_line,
};

static const struct perf_cpu intel = { PMU_VENDOR_INTEL, 6, "GenuineIntel", 3 };
static const struct perf_cpu zen = { PMU_VENDOR_AMD, 0x19, "AuthenticAMD", 1 };
static const struct perf_cpu k10 = { PMU_VENDOR_AMD, 0x15, "AuthenticAMD", 1 };

static void fake_reset(void)
{
	memset(&fk, 0, sizeof(fk));
	fk.has_pmu = true;
	fk.paranoid = "2";
}

static u8 ev(const char *name)
{
	int i = pmu_event_index(name, strlen(name));

	EXPECT(i >= 0, "%s", name);
	return (u8)i;
}

/* Open @names (comma-separated) on @cpu with room for @cap samples. */
static u32 open_names(struct perf_counters *p, const struct perf_cpu *cpu,
		      const char *names, u32 cap)
{
	u8 events[PMU_MAX_EVENTS];
	u32 n = 0;
	const char *s = names;

	while (*s && n < PMU_MAX_EVENTS) {
		const char *e = strchr(s, ',');
		size_t len = e ? (size_t)(e - s) : strlen(s);

		events[n++] = (u8)pmu_event_index(s, len);
		s += len + (e ? 1 : 0);
	}
	return perf_open(p, &fake_ops, cpu, events, n, cap);
}

#define L1D(op, res) (PERF_COUNT_HW_CACHE_L1D | PERF_COUNT_HW_CACHE_OP_##op << 8 | \
		      PERF_COUNT_HW_CACHE_RESULT_##res << 16)

TEST(perf_attrs_and_the_group_start)
{
	static struct perf_counters p;

	fake_reset();
	EXPECT_EQ(open_names(&p, &intel, "instructions,cycles", 4), 2);
	EXPECT_EQ(fk.nopen, 2);
	for (u32 i = 0; i < 2; i++) {
		const struct perf_event_attr *a = &fk.attr[i];

		EXPECT_EQ(a->size, sizeof(*a));
		EXPECT_EQ(a->type, PERF_TYPE_HARDWARE);
		EXPECT_EQ(a->read_format, PERF_FORMAT_GROUP);
		EXPECT_EQ(a->exclude_hv, 1);
		/* kernel and user alike: the fault's clear is the kernel's */
		EXPECT_EQ(a->exclude_kernel, 0);
		EXPECT_EQ(a->exclude_user, 0);
		EXPECT_EQ(a->inherit, 0);
		/* the leader pinned and started by the enable; the others
		 * follow it */
		EXPECT_EQ(a->pinned, i == 0);
		EXPECT_EQ(a->disabled, i == 0);
		EXPECT_EQ(fk.pid[i], 0);	/* this thread */
		EXPECT_EQ(fk.cpu[i], 3);	/* on its CPU */
		EXPECT_EQ(fk.flags[i], PERF_FLAG_FD_CLOEXEC);
	}
	EXPECT_EQ(fk.attr[0].config, PERF_COUNT_HW_INSTRUCTIONS);
	EXPECT_EQ(fk.attr[1].config, PERF_COUNT_HW_CPU_CYCLES);
	EXPECT_EQ(fk.group_fd[0], -1);
	EXPECT_EQ(fk.group_fd[1], FIRST_FD);
	/* reset, then enable, the whole group through its leader */
	EXPECT_EQ(fk.nioctl, 2);
	EXPECT_EQ(fk.ioctl[0].fd, FIRST_FD);
	EXPECT_EQ(fk.ioctl[0].req, PERF_EVENT_IOC_RESET);
	EXPECT_EQ(fk.ioctl[0].arg, PERF_IOC_FLAG_GROUP);
	EXPECT_EQ(fk.ioctl[1].fd, FIRST_FD);
	EXPECT_EQ(fk.ioctl[1].req, PERF_EVENT_IOC_ENABLE);
	EXPECT_EQ(fk.ioctl[1].arg, PERF_IOC_FLAG_GROUP);
	EXPECT_EQ(p.plan.nslots, 2);
	EXPECT_EQ(p.plan.ncounted, 2);
	EXPECT(!p.plan.slots[0].skip && !p.plan.slots[1].skip);
	EXPECT_STR(p.plan.slots[1].name, "cycles");
	perf_close(&p);
	EXPECT_EQ(fk.ioctl[2].req, PERF_EVENT_IOC_DISABLE);
	EXPECT_EQ(fk.nclose, 2);
	EXPECT_EQ(fk.closed[0], FIRST_FD + 1);
	EXPECT_EQ(fk.closed[1], FIRST_FD);	/* the leader last */
}

/* Each event, opened alone: the perf event it becomes on each vendor. */
TEST(perf_event_map)
{
	static const struct {
		const char *name;
		const struct perf_cpu *cpu;
		u32 type;
		u64 config;
		const char *skip;
	} want[] = {
		{ "instructions", &intel, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, NULL },
		{ "instructions", &zen, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, NULL },
		{ "cycles", &zen, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, NULL },
		{ "ref-cycles", &intel, PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, NULL },
		{ "ref-cycles", &zen, 0, 0, "AMD: no encoding for it" },
		{ "llc-references", &intel, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, NULL },
		/* Linux's AMD cache-references is L2: not the last level */
		{ "llc-references", &zen, 0, 0, "AMD: no encoding for it" },
		{ "llc-misses", &intel, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, NULL },
		{ "l1d-loads", &zen, PERF_TYPE_HW_CACHE, L1D(READ, ACCESS), NULL },
		{ "l1d-loads", &intel, 0, 0, "Intel: not an architectural event" },
		{ "l1d-misses", &zen, PERF_TYPE_HW_CACHE, L1D(READ, MISS), NULL },
		{ "l1d-misses", &k10, PERF_TYPE_HW_CACHE, L1D(READ, MISS), NULL },
		{ "fills-dram", &zen, PERF_TYPE_RAW, 0x4843, NULL },
		{ "fills-dram", &k10, 0, 0, "AMD: no encoding before family 17h" },
		{ "branches", &intel, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, NULL },
		{ "branch-misses", &zen, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, NULL },
	};
	static const struct perf_cpu other = { PMU_VENDOR_NONE, 6, "CentaurHauls", 0 };
	static struct perf_counters p;
	u8 e;

	for (u32 i = 0; i < ARRAY_SIZE(want); i++) {
		fake_reset();
		e = ev(want[i].name);
		perf_open(&p, &fake_ops, want[i].cpu, &e, 1, 1);
		EXPECT_EQ(fk.nopen, !want[i].skip);
		if (want[i].skip) {
			EXPECT(p.plan.slots[0].skip &&
			       strcmp(p.plan.slots[0].skip, want[i].skip) == 0,
			       "%s: %s", want[i].name, p.plan.slots[0].skip);
		} else {
			EXPECT(fk.attr[0].type == want[i].type &&
			       fk.attr[0].config == want[i].config,
			       "%s on %s: type %u config %#llx", want[i].name,
			       want[i].cpu->vendor_name, fk.attr[0].type,
			       (unsigned long long)fk.attr[0].config);
		}
		perf_close(&p);
	}
	fake_reset();
	e = ev("cycles");
	perf_open(&p, &fake_ops, &other, &e, 1, 1);
	EXPECT_EQ(fk.nopen, 0);
	EXPECT_STR(p.plan.slots[0].skip,
		   "no PMU: vendor 'CentaurHauls' is not Intel, AMD or Hygon");
}

TEST(perf_enoent_skips_each_event)
{
	static struct perf_counters p;

	/* No PMU at all (a VM that exposes none): every event, this reason. */
	fake_reset();
	fk.has_pmu = false;
	for (u32 i = 0; i < FAKE_MAX; i++)
		fk.open_err[i] = ENOENT;
	EXPECT_EQ(open_names(&p, &zen, "instructions,cycles", 4), 0);
	EXPECT_EQ(fk.nopen, 2);
	EXPECT_EQ(p.plan.nslots, 2);
	EXPECT_EQ(p.plan.ncounted, 0);
	for (u32 i = 0; i < 2; i++)
		EXPECT_STR(p.plan.slots[i].skip, "perf_event_open: no hardware "
			   "PMU exposed by this host (ENOENT)");
	EXPECT_EQ(fk.nioctl, 0);
	perf_before(&p);
	perf_after(&p, 0);
	EXPECT_EQ(fk.nread, 0);		/* nothing to read, nothing timed */
	perf_close(&p);
	EXPECT_EQ(fk.nclose, 0);

	/* A PMU without the leader's event: the next one leads. */
	fake_reset();
	fk.open_err[0] = ENOENT;
	EXPECT_EQ(open_names(&p, &intel, "ref-cycles,cycles", 4), 1);
	EXPECT_STR(p.plan.slots[0].skip,
		   "perf_event_open: this CPU's PMU lacks the event (ENOENT)");
	EXPECT(!p.plan.slots[1].skip);
	EXPECT_EQ(fk.group_fd[1], -1);
	EXPECT_EQ(fk.attr[1].pinned, 1);
	EXPECT_EQ(fk.attr[1].disabled, 1);
	EXPECT_EQ(fk.ioctl[1].fd, FIRST_FD + 1);
	perf_close(&p);
}

TEST(perf_eacces_names_perf_event_paranoid)
{
	static struct perf_counters p;

	fake_reset();
	fk.open_err[0] = EACCES;
	fk.open_err[1] = EPERM;
	EXPECT_EQ(open_names(&p, &intel, "instructions,cycles", 4), 0);
	EXPECT_STR(p.plan.slots[0].skip, "perf_event_open: EACCES: needs "
		   "/proc/sys/kernel/perf_event_paranoid <= 1 (is 2) or "
		   "CAP_PERFMON");
	EXPECT_STR(p.plan.slots[1].skip, "perf_event_open: EPERM: needs "
		   "/proc/sys/kernel/perf_event_paranoid <= 1 (is 2) or "
		   "CAP_PERFMON");
	perf_close(&p);
	fake_reset();
	fk.paranoid = NULL;
	fk.open_err[0] = EACCES;
	open_names(&p, &intel, "instructions", 4);
	EXPECT(strstr(p.plan.slots[0].skip, "(is unreadable)"), "%s",
	       p.plan.slots[0].skip);
	perf_close(&p);
	/* Any other refusal by its name; never "; " (pmu_skip's separator) */
	fake_reset();
	fk.open_err[0] = EBUSY;
	open_names(&p, &intel, "instructions", 4);
	EXPECT_STR(p.plan.slots[0].skip, "perf_event_open: EBUSY (errno 16)");
	perf_close(&p);
}

TEST(perf_deltas_around_the_region)
{
	static struct perf_counters p;
	struct bench_outcome *o = calloc(1, sizeof(*o));
	struct bench_pass bp;

	fake_reset();
	fk.step[0] = 700;		/* what each read(2) itself counts */
	fk.step[1] = 1100;
	EXPECT_EQ(open_names(&p, &zen, "instructions,cycles", 3), 2);
	EXPECT_EQ(p.bracket[0], 700);
	EXPECT_EQ(p.bracket[1], 1100);
	/* and in the plan, for the config record's pmu_bracket */
	EXPECT(p.plan.bracketed, "bracket measured");
	EXPECT_EQ(p.plan.slots[0].bracket, 700);
	EXPECT_EQ(p.plan.slots[1].bracket, 1100);
	/* Counts past 2^32, across 2^48 (no hardware width to mask to) and
	 * across 2^64. */
	fk.value[0] = (1ULL << 48) - 5;
	fk.value[1] = ~0ULL - 10;
	for (u32 k = 0; k < 3; k++) {
		u32 reads = fk.nread;

		perf_before(&p);
		fk.value[0] += (1ULL << 33) * (k + 1);	/* the region's own */
		fk.value[1] += 50;
		perf_after(&p, k);
		EXPECT_EQ(fk.nread, reads + 2);	/* one read(2) each side */
	}
	for (u32 k = 0; k < 3; k++) {
		EXPECT_EQ(p.delta[0][k], (1ULL << 33) * (k + 1) + 700);
		EXPECT_EQ(p.delta[1][k], 50 + 1100);
	}
	perf_after(&p, 3);		/* past cap: not written */
	memset(&bp, 0, sizeof(bp));
	perf_pass(&p, &bp, o, "bare.2M");
	EXPECT_EQ(o->failures, 0);
	EXPECT_EQ(bp.npmu, 2);
	EXPECT_STR(bp.pmu_name[0], "instructions");
	EXPECT_STR(bp.pmu_name[1], "cycles");
	EXPECT(bp.pmu_v[0] == p.delta[0] && bp.pmu_v[1] == p.delta[1]);
	perf_close(&p);
	free(o);
}

TEST(perf_four_sampled_and_lost_reads)
{
	static struct perf_counters p;
	struct bench_outcome *o = calloc(1, sizeof(*o));
	struct bench_pass bp;

	/* A fifth event it could count: skipped, as the kernel samples 4. */
	fake_reset();
	EXPECT_EQ(open_names(&p, &intel, "instructions,cycles,ref-cycles,"
			     "llc-references,llc-misses", 2), 4);
	EXPECT_EQ(fk.nopen, 4);
	EXPECT_STR(p.plan.slots[4].skip, pmu_no_room);	/* the kernel's words */
	/* A pinned group that lost the PMU reads 0 bytes: the pass fails. */
	fk.zero_read_at = fk.nread + 2;
	perf_before(&p);
	perf_after(&p, 0);
	EXPECT_EQ(p.delta[0][0], 0);
	memset(&bp, 0, sizeof(bp));
	perf_pass(&p, &bp, o, "linux.4K.base");
	EXPECT_EQ(o->failures, 1);
	EXPECT(strstr(o->first, "linux.4K.base: pmu: read(2) of the counters "
		      "gave 0 bytes"), "%s", o->first);
	EXPECT_EQ(bp.npmu, 0);
	/* The next pass starts afresh. */
	perf_before(&p);
	perf_after(&p, 1);
	perf_pass(&p, &bp, o, "linux.4K.base");
	EXPECT_EQ(o->failures, 1);
	EXPECT_EQ(bp.npmu, 4);
	perf_close(&p);

	/* Lost before the first pass, or never enabled: skipped, closed. */
	fake_reset();
	fk.zero_read_at = 1;
	EXPECT_EQ(open_names(&p, &intel, "instructions,cycles", 2), 0);
	EXPECT(strstr(p.plan.slots[1].skip, "gave 0 bytes"), "%s",
	       p.plan.slots[1].skip);
	EXPECT_EQ(fk.nclose, 2);
	fake_reset();
	fk.ioctl_err = EBUSY;
	EXPECT_EQ(open_names(&p, &intel, "instructions", 2), 0);
	EXPECT_STR(p.plan.slots[0].skip, "ioctl(PERF_EVENT_IOC_RESET): EBUSY");
	EXPECT_EQ(fk.nclose, 1);
	free(o);
}

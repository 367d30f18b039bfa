// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench=linux-fault: Linux's own demand-fault zeroing, in the workload of
 * perf bench mem mmap -f demand and vm-scalability's anon-w-seq-hugetlb.
 * Map anonymous memory (hugetlb 2M or 1G, THP, or base 4K pages), touch
 * each page once with a one-byte write (timed: the whole fault as this
 * process sees it), then optionally write or read the page (timed on its
 * own), and unmap.  The kernel chooses its own primitive and order; the
 * records call both "linux".  The passes are lib/benchrun.c's, as the
 * kernel's; Linux gives fresh memory, so there is nothing to fill.
 *
 * Its own figure is not the one perf prints (docs/companion.md): it sums
 * each store's TSC window (mmap and the loop outside), maps with
 * MAP_NORESERVE, leaves the warm-ups out and averages per-run GB/s.  So
 * each pass's mmap() and touch loop are also timed on the wall clock, as
 * perf times a loop, and lib/perfbench.c keeps perf's arithmetic beside.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/memops.h"
#include "arch/x86_64/tsc.h"
#include "hosted/companion.h"
#include "hosted/group.h"
#include "hosted/probe.h"
#include "hosted/zeroable.h"
#include "lib/benchrun.h"
#include "lib/format.h"
#include "lib/touch.h"

struct lf_cfg {
	struct bench_desc d;
	enum backing backing;
	struct samples *s;
	struct region r;
	bool mapped;
	u64 bytes;
	u32 count;
	u32 huge_pct;		/* least THP coverage of any pass */
	struct probe probe;	/* probe=latency, this pass */
	volatile u64 current_fault;
	u32 prezero;		/* enum prezero_mode: none or request */
	struct zeroable zz;	/* request: the sysfs files */
};

static bool applies(u32 folio, enum backing b)
{
	if (folio == FOLIO_4K)
		return b == BACKING_BASE;
	if (folio == FOLIO_2M)
		return b == BACKING_HUGETLB || b == BACKING_THP;
	return b == BACKING_HUGETLB;
}

static void op_fill(void *ctx)
{
	(void)ctx;	/* Linux zeroes what it gives; nothing of ours is there */
}

static void op_cache(void *ctx, u32 mode)
{
	(void)ctx, (void)mode;	/* the folios are Linux's to pick */
}

/* The probe beside the touches, on this CPU (the process is pinned). */
#define PROBE_CAP (1u << 20)

static bool start_probe(struct lf_cfg *l, struct bench_outcome *o)
{
	l->current_fault = ~0ULL;
	if (probe_start(&l->probe, l->d.c, host.cpu, &l->current_fault,
			PROBE_CAP))
		return true;
	bench_fail(o, "%s: %s", l->d.name, l->probe.why);
	return false;
}

/* As perf's gettimeofday(), in ns, and without its steps. */
static u64 wall_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (u64)t.tv_sec * 1000000000ULL + (u64)t.tv_nsec;
}

static void op_timed(void *ctx, u32 access, struct bench_pass *p,
		     struct bench_outcome *o)
{
	struct lf_cfg *l = ctx;
	struct samples *s = l->s;
	char why[200];
	u64 w0, w1, w2, w3;

	/* As a write to zeroable_hugepages just before a VM starts. */
	if (l->prezero == PREZERO_REQUEST) {
		u64 want = l->d.c->prezero_n == PREZERO_ALL ? l->count :
			   MIN(l->d.c->prezero_n, (u64)l->count);

		p->prezero_by = "request";
		p->prezero_folios = zeroable_request(&l->zz, want,
						     &p->prezero_ticks);
		p->prezeroed_unknown = true;
	}
	/* perf's window: the mmap() and the touch loop, nothing between */
	w0 = wall_ns();
	l->mapped = region_map(&l->r, l->d.size, l->backing, l->bytes, why,
			       sizeof(why));
	w1 = wall_ns();
	if (!l->mapped) {
		bench_fail(o, "%s: %s", l->d.name, why);
		group_pass_lost(&l->d, p);
		return;
	}
	touch_plan(l->d.c, l->count, l->bytes, (u64)l->r.base, s->page);
	if (l->d.c->probe == PROBE_LATENCY && !start_probe(l, o)) {
		group_pass_lost(&l->d, p);
		return;
	}
	group_pass_begin(&l->d, o);
	w2 = wall_ns();
	for (u32 k = 0; k < l->count; k++) {
		u8 *a = (u8 *)s->page[k];
		u64 t0, t1;

		/* pmu=: the whole fault, Linux's clear in it; the reads
		 * outside the timer pair and the probe's fault window */
		perf_before(&counters);
		l->current_fault = k;
		t0 = tsc_begin();
		*(volatile u8 *)a = 0;
		t1 = tsc_end();
		l->current_fault = ~0ULL;
		perf_after(&counters, k);
		s->fault[k] = t1 - t0;
		s->access[k] = timed_access(a, l->bytes, access);
	}
	w3 = wall_ns();
	group_pass_end(p, o);
	p->has_wall = true;
	p->wall_ns = (w1 - w0) + (w3 - w2);
	perf_pass(&counters, p, o, l->d.name);
	if (l->d.c->probe == PROBE_LATENCY) {
		struct probe_take t;

		probe_stop(&l->probe);
		t = (struct probe_take){ l->probe.late, l->probe.fault,
					 l->probe.n, PROBE_CAP, l->probe.expected,
					 l->probe.truncated };
		bench_take_probe(p, o, l->d.name, &t);
	}
	if (l->backing == BACKING_THP)
		l->huge_pct = MIN(l->huge_pct, region_huge_pct(&l->r));
	p->faults = l->count;
	p->fault = s->fault;
	p->access_t = s->access;
}

static void op_verify(void *ctx, struct bench_pass *p, struct bench_outcome *o)
{
	struct lf_cfg *l = ctx;
	u64 off;

	(void)p;
	if (!l->mapped)
		return;
	off = find_not_qword(l->r.base, 0, l->d.size);
	if (off != ~0ULL)
		bench_fail(o, "%s: Linux gave memory not zero at offset %#llx",
			   l->d.name, (unsigned long long)off);
}

static void op_reset(void *ctx)
{
	struct lf_cfg *l = ctx;

	if (l->mapped)
		region_unmap(&l->r);
	l->mapped = false;
	probe_free(&l->probe);
}

/* On a VM the first touch of guest memory is the hypervisor's fault too:
 * runs that disagree say so rather than average it in. */
static void op_note(void *ctx, const struct bench_outcome *o, char *note,
		    size_t n)
{
	struct lf_cfg *l = ctx;
	u64 lo = ~0ULL, hi = 0;
	size_t len;

	for (u32 i = 0; i < o->nruns; i++) {
		lo = MIN(lo, o->fault_total[i]);
		hi = MAX(hi, o->fault_total[i]);
	}
	if (o->nruns > 1 && lo && hi > lo + lo / 4)
		ksnprintf(note, n, "runs disagree: slowest %llu%% of fastest%s",
			  (unsigned long long)(hi * 100 / lo), host.vm ?
			  " (a VM: first touch of guest memory is the "
			  "hypervisor's fault; raise warmups=)" : "");
	len = strlen(note);
	if (l->backing == BACKING_THP && l->huge_pct < 90)
		ksnprintf(note + len, n - len, "%sonly %u%% of the region got "
			  "huge pages (THP %s, defrag %s)", len ? "; " : "",
			  l->huge_pct, host.thp_enabled, host.thp_defrag);
}

static const struct bench_ops lf_ops = {
	.fill = op_fill,
	.cache = op_cache,
	.timed = op_timed,
	.verify = op_verify,
	.reset = op_reset,
	.note = op_note,
};

/* Why this backing cannot run here for @procs processes, or "". */
static void skip_reason(struct lf_cfg *l, u32 procs, char *why, size_t n)
{
	why[0] = '\0';
	if (l->backing == BACKING_THP && (!host.thp_enabled[0] ||
					   strcmp(host.thp_enabled, "never") == 0))
		ksnprintf(why, n, "transparent huge pages are off or absent "
			  "(/sys/kernel/mm/transparent_hugepage/enabled: '%s')",
			  host.thp_enabled);
	else if (l->prezero == PREZERO_REQUEST && l->backing != BACKING_HUGETLB)
		ksnprintf(why, n, "prezero=request drives hugetlb's "
			  "zeroable_hugepages: %s pages have none",
			  backing_names[l->backing]);
	else if (l->prezero == PREZERO_REQUEST &&
		 !zeroable_find(l->bytes, &l->zz, why, n))
		return;
	else if (l->backing == BACKING_HUGETLB)
		hugetlb_ensure(l->bytes, (u64)l->count * procs, why, n);
}

static void lf_job(struct lf_cfg *l, struct samples *s, struct bench_job *j)
{
	*j = (struct bench_job){
		.w = &records,
		.d = &l->d,
		.ops = &lf_ops,
		.ctx = l,
		.tsc_hz = tsc_hz,
		.net_of = tsc_overhead,
		.fault_net_of = tsc_overhead,
		.scratch = s->scratch,
	};
	l->s = s;
	l->huge_pct = 100;
}

/*
 * One configuration in this process, skipped when @why is not "".  With
 * @rounds (interleave=on) it is a round group of its own: no other
 * configuration shares its memory kind and pool here.
 */
static u32 run_config(struct lf_cfg *l, const char *why, bool rounds)
{
	struct bench_job j;
	struct samples s;
	u32 failed;

	if (!samples_alloc(&s, l->count)) {
		fprintf(stderr, "hugezero-linux: %s: no memory\n", l->d.name);
		samples_free(&s);
		return 1;
	}
	lf_job(l, &s, &j);
	if (rounds) {
		const char *skip = why[0] ? why : NULL;

		failed = companion_run_rounds(&j, &skip, 1, false, false);
	} else {
		failed = companion_run_config(&j, why);
	}
	samples_free(&s);
	return failed;
}

static void group_body_lf(void *ctx)
{
	struct lf_cfg *l = ctx;

	run_config(l, "", l->d.c->interleave);
}

static u32 run_where(struct lf_cfg *l, u32 *id, const struct group_cpus *g)
{
	char why[240];

	skip_reason(l, g ? g->n : 1, why, sizeof(why));
	if (!g) {
		l->d.id = ++*id;
		return run_config(l, why, l->d.c->interleave);
	}
	if (!why[0] && g->numa_skip[0])
		ksnprintf(why, sizeof(why), "%s", g->numa_skip);
	if (why[0])
		return group_skip(g, &l->d, id, why);
	return group_run(g, id, group_body_lf, l);
}

/* Folios per process: @procs of them share MemAvailable. */
static u32 fit_count(const struct hz_config *c, u32 f, enum backing b,
		     u32 procs, bool say)
{
	u64 bytes = folio_bytes[f];
	u32 count = (u32)MIN(c->size / bytes, (u64)(1u << 20));
	u64 room = host.mem_available / 2 / procs;

	if (b != BACKING_HUGETLB && host.mem_available &&
	    (u64)count * bytes > room) {
		count = (u32)(room / bytes);
		if (say)
			fprintf(stderr, "hugezero-linux: size clamped to %llu "
				"MiB: half of MemAvailable%s\n",
				(unsigned long long)((u64)count * bytes >> 20),
				procs > 1 ? ", shared by the processes" : "");
	}
	return count;
}

u32 lf_count(const struct hz_config *c, u32 f, enum backing b)
{
	return fit_count(c, f, b, 1, false);
}

static bool selected(const struct hz_config *c, u32 f, enum backing b)
{
	return c->folios >> f & 1 && c->backings >> b & 1 && applies(f, b);
}

/* @l as the configuration of @f, @b and mode @m; false (said) when it has
 * no memory. */
static bool lf_init(struct lf_cfg *l, const struct hz_config *c, u32 f,
		    enum backing b, u32 m, u32 procs)
{
	memset(l, 0, sizeof(*l));
	l->backing = b;
	l->bytes = folio_bytes[f];
	l->count = fit_count(c, f, b, procs, true);
	l->d.c = c;
	l->d.bench = "linux-fault";
	l->d.folio = folio_names[f];
	l->d.clear = "linux";
	l->d.order = "linux";
	l->d.backing = backing_names[b];
	l->d.size = (u64)l->count * l->bytes;
	l->d.folios = l->count;
	l->d.llc = cpu_info.l3;
	l->d.linux_folios = true;
	l->d.probe_policy = probe_policy(c);
	l->prezero = m;
	l->d.prezero = c->prezeros ? prezero_names[m] : NULL;
	ksnprintf(l->d.name, sizeof(l->d.name), "%s%slinux.%s.%s",
		  c->prezeros ? prezero_names[m] : "",
		  c->prezeros ? "." : "", folio_names[f], backing_names[b]);
	if (l->count)
		return true;
	fprintf(stderr, "hugezero-linux: %s: no memory\n", l->d.name);
	return false;
}

/* Mode @m's configurations of folio size @f over @backings. */
static u32 run_folio(const struct hz_config *c, u32 *id,
		     const struct group_cpus *g, u32 m, u32 f, u64 backings)
{
	u32 failed = 0;

	for (u32 b = 0; b < BACKING_COUNT; b++) {
		struct lf_cfg l;

		if (!selected(c, f, b) || !(backings >> b & 1))
			continue;
		if (!lf_init(&l, c, f, b, m, g ? g->n : 1)) {
			failed++;
			continue;
		}
		failed += run_where(&l, id, g);
	}
	return failed;
}

bool lf_selected(const struct hz_config *c, u32 f, enum backing b)
{
	return selected(c, f, b);
}

u32 run_linux_fault_of(const struct hz_config *c, u32 *id, u32 m, u32 f,
		       u64 backings)
{
	return run_folio(c, id, NULL, m, f, backings);
}

struct lf_lead {
	struct lf_cfg l;
	struct samples s;
};

struct lf_cfg *lf_lead_new(const struct hz_config *c, u32 f, enum backing b,
			   u32 *id, struct bench_job *j, char *why, size_t n)
{
	struct lf_lead *x;

	if (!selected(c, f, b))
		return NULL;
	x = calloc(1, sizeof(*x));
	if (!x || !lf_init(&x->l, c, f, b, PREZERO_NONE, 1) ||
	    !samples_alloc(&x->s, x->l.count)) {
		if (x)
			samples_free(&x->s);
		fprintf(stderr, "hugezero-linux: %s.%s: no memory to lead its "
			"round group\n", folio_names[f], backing_names[b]);
		free(x);
		return NULL;
	}
	skip_reason(&x->l, 1, why, n);
	x->l.d.id = ++*id;
	lf_job(&x->l, &x->s, j);
	return &x->l;
}

void lf_lead_free(struct lf_cfg *l)
{
	/* l is the first member of its struct lf_lead */
	struct lf_lead *x = (struct lf_lead *)l;

	samples_free(&x->s);
	free(x);
}

/* Every folio size and backing of one pre-zeroing mode. */
static u32 run_mode(const struct hz_config *c, u32 *id,
		    const struct group_cpus *g, u32 m)
{
	u32 failed = 0;

	for (u32 f = 0; f < FOLIO_COUNT; f++)
		failed += run_folio(c, id, g, m, f, ~0ULL);
	return failed;
}
u32 run_linux_fault(const struct hz_config *c, u32 *id,
		    const struct group_cpus *g)
{
	u64 modes = c->prezeros ? c->prezeros : 1ULL << PREZERO_NONE;
	u32 failed = 0;

	for (u32 m = 0; m < PREZERO_COUNT; m++)
		if (modes >> m & 1)
			failed += run_mode(c, id, g, m);
	return failed;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench=bare: the clearing alone.  Every primitive x order over memory
 * that is already faulted in and backed by huge pages (hugetlb where the
 * host has a free pool, transparent huge pages otherwise), one folio-sized
 * unit at a time, each timed with the TSC.  The same folio_zero(),
 * primitives, fill and run skeleton as the kernel's fault path; no fault,
 * no mapping.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arch/x86_64/clear.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/memops.h"
#include "arch/x86_64/tsc.h"
#include "hosted/companion.h"
#include "hosted/group.h"
#include "lib/benchiter.h"
#include "lib/benchrun.h"
#include "lib/rethunk.h"
#include "lib/touch.h"
#include "lib/verify.h"
#include "lib/zero.h"

/* Linux's cond_resched() stands here for a real call that finds nothing
 * to do, as the kernel's does without a scheduler. */
static __attribute__((noinline)) void resched(void *ctx)
{
	(void)ctx;
	__asm__ volatile("" ::: "memory");
}

struct bare_cfg {
	struct bench_desc d;
	struct region *r;
	struct samples *s;
	u64 bytes;
	u32 count;
};

static void op_fill(void *ctx)
{
	struct bare_cfg *b = ctx;

	fill_movq(b->r->base, b->r->bytes, FILL_PATTERN);
}

static void op_cache(void *ctx, u32 mode)
{
	struct bare_cfg *b = ctx;

	if (mode == CACHE_COLD)
		flush_range(b->r->base, b->r->bytes, cpu_info.has_clflushopt);
}

static void op_timed(void *ctx, u32 access, struct bench_pass *p,
		     struct bench_outcome *o)
{
	struct bare_cfg *b = ctx;
	struct samples *s = b->s;
	const struct hz_config *c = b->d.c;
	const struct zero_plan *plan = &b->d.plan;
	/* bare_skip() skipped the point where there is no such copy */
	struct zero_ops ops = { prim_thunked(b->d.at.v[AXIS_PRIM],
					     matrix_rethunk_kind(c, &b->d.at),
					     c->rethunk_count, NULL, 0),
				resched, NULL, NULL, NULL, NULL };
	u32 nr = (u32)(b->bytes / SZ_4K);

	touch_plan(c, b->count, b->bytes, (u64)b->r->base, s->scratch);
	if (!gs_missing())
		(void)rethunk_returns_take();	/* this process's, from zero */
	group_pass_begin(&b->d, o);
	p->has_calls = true;
	for (u32 k = 0; k < b->count; k++) {
		u64 off = ALIGN_DOWN(s->scratch[k] - (u64)b->r->base, b->bytes);
		u8 *f = b->r->base + off;
		u64 t0, t1;
		s64 taken;
		u32 calls;

		s->page[k] = (s->scratch[k] - (u64)f) / SZ_4K;
		/* pmu=: the counters bracket the timer pair, read outside it */
		perf_before(&counters);
		t0 = tsc_begin();
		taken = folio_zero_counted(f, nr, (u32)s->page[k], plan, &ops,
					   &calls);
		t1 = tsc_end();
		perf_after(&counters, k);
		s->clear[k] = t1 - t0;
		p->resched += taken > 0 ? (u64)taken : 0;
		p->prim_calls += calls;
		p->prim_calls_max = MAX(p->prim_calls_max, calls);
		s->access[k] = timed_access(f, b->bytes, access);
	}
	group_pass_end(p, o);
	p->has_rethunk_returns = c->rethunk_count;
	p->rethunk_returns = c->rethunk_count ? rethunk_returns_take() : 0;
	perf_pass(&counters, p, o, b->d.name);
	p->faults = b->count;
	p->clear = s->clear;
	p->access_t = s->access;
	p->page = s->page;
}

static void op_verify(void *ctx, struct bench_pass *p, struct bench_outcome *o)
{
	struct bare_cfg *b = ctx;

	(void)p;
	for (u32 k = 0; k < b->count; k++) {
		u64 first;

		if (verify_count_dirty(b->d.c->verify, b->r->base + k * b->bytes,
				       b->bytes, find_nonzero, &first))
			bench_fail(o, "%s: folio %u not zero at offset %#llx",
				   b->d.name, k, (unsigned long long)first);
	}
}

static void op_reset(void *ctx)
{
	(void)ctx;
}

static const struct bench_ops bare_ops = {
	.fill = op_fill,
	.cache = op_cache,
	.timed = op_timed,
	.verify = op_verify,
	.reset = op_reset,
};

static void bare_job(struct bare_cfg *b, struct bench_job *j)
{
	/* The touch plan is built in scratch: keep_run sorts in s->fault. */
	*j = (struct bench_job){
		.w = &records,
		.d = &b->d,
		.ops = &bare_ops,
		.ctx = b,
		.tsc_hz = tsc_hz,
		.net_of = tsc_overhead,
		.fault_net_of = tsc_overhead,
		.scratch = b->s->fault,
	};
}

/* Why this CPU cannot run @b's primitive, into @why; false if it can. */
static bool bare_skip(const struct bare_cfg *b, char *why, size_t n)
{
	const struct hz_config *c = b->d.c;
	u32 kind = matrix_rethunk_kind(c, &b->d.at);

	if (!prim_supported(b->d.at.v[AXIS_PRIM], why, n))
		return true;
	/* the thunks' per-CPU words are at GS base */
	if ((kind == RETHUNK_CALL_DEPTH || c->rethunk_count) && gs_missing()) {
		snprintf(why, n, "rethunk: %s", gs_missing());
		return true;
	}
	return !prim_thunked(b->d.at.v[AXIS_PRIM], kind, c->rethunk_count,
			     why, n);
}

static u32 run_config(struct bare_cfg *b)
{
	struct bench_job j;
	char why[160];

	bare_job(b, &j);
	if (!bare_skip(b, why, sizeof(why)))
		why[0] = '\0';
	return companion_run_config(&j, why);
}

/* Memory for bare clearing: hugetlb when @hugetlb (the pool holds it),
 * else THP, else base pages. */
static bool bare_region(struct region *r, u64 bytes, bool hugetlb, char *why,
			size_t n)
{
	char w2[160];

	if (hugetlb && region_map(r, bytes, BACKING_HUGETLB, SZ_2M, w2, sizeof(w2)))
		goto touch;
	if (!region_map(r, bytes, BACKING_THP, SZ_2M, why, n) &&
	    !region_map(r, bytes, BACKING_BASE, SZ_4K, why, n))
		return false;
touch:
	/* Fault everything in now: bare means no faults while timed. */
	for (u64 i = 0; i < bytes; i += SZ_4K)
		((volatile u8 *)r->base)[i] = 1;
	return true;
}

struct bare_folio {
	const struct hz_config *c;
	u32 f;
	bool hugetlb;		/* the pool holds every process's region */
	bool rounds;		/* interleave=on */
	u32 *id;
	const struct bare_lead *lead;	/* bench=split: the fault first */
	/* run_bare_twin(): the names' prefix, the one memory kind it runs
	 * over (else nothing runs), and no --round-hook after its rounds
	 * (the plain loops pair with the matrix's group alone) */
	const char *prefix, *only;
	bool no_hook;
};

static void bare_desc(struct bare_cfg *b, const struct hz_config *c, u32 f)
{
	memset(b, 0, sizeof(*b));
	b->bytes = folio_bytes[f];
	b->count = (u32)MIN(c->size / b->bytes, (u64)(1u << 20));
	b->d.c = c;
	b->d.bench = "bare";
	b->d.folio = folio_names[f];
	b->d.size = (u64)b->count * b->bytes;
	b->d.folios = b->count;
	b->d.llc = cpu_info.l3;
}

/*
 * The split's round group pairs the fault with Linux's own clearing and
 * the plain loops with the companion's: its members are Linux's
 * clear_page() primitive (and its tree twin) in every order, then erms's
 * and clzero's contiguous-page (what hosted/plain/plain.c runs: REP STOSB
 * and CLZERO over 2M ranges), and nothing else, so that its rounds, of
 * which split_runs= asks many, are short; the rest of the matrix follows
 * in groups of its own.
 */
#define RANK_LEAD 1		/* up to this rank: the fault's group */

static u32 lead_rank(const struct bare_cfg *b, enum prim_id lp)
{
	u32 prim = b->d.at.v[AXIS_PRIM];

	if (prim == lp || prim == prim_tree_twin(lp))
		return 0;
	if (b->d.at.v[AXIS_ORDER] == ORDER_CONTIGUOUS &&
	    (prim == PRIM_ERMS || prim == PRIM_CLZERO))
		return 1;
	return 2;
}

/* Stable, so each rank keeps the matrix's order; renumbered from the
 * first, so the records' numbers follow the order they run in. */
static void lead_order(struct bare_cfg *b, u32 n)
{
	u32 first = n ? b[0].d.id : 0;
	char why[160];
	enum prim_id lp = prim_linux(why, sizeof(why));

	for (u32 i = 1; i < n; i++)
		for (u32 k = i; k > 0 && lead_rank(&b[k], lp) <
					 lead_rank(&b[k - 1], lp); k--) {
			struct bare_cfg t = b[k];

			b[k] = b[k - 1];
			b[k - 1] = t;
		}
	for (u32 i = 0; i < n; i++)
		b[i].d.id = first + i;
}

/* The faults that lead the first round group (bench=split). */
struct bare_leads {
	struct bench_job job[ROUND_GROUP_MAX];
	const char *skip[ROUND_GROUP_MAX];
	u32 n;
};

/* Every configuration of @b, as round groups of ROUND_GROUP_MAX in a
 * row (the first led by @lead's faults, when it has any; the round hook
 * after its rounds unless @no_hook). */
static u32 run_groups(struct bare_cfg *b, u32 n, const struct bare_leads *lead,
		      bool no_hook)
{
	struct bench_job job[ROUND_GROUP_MAX];
	const char *skip[ROUND_GROUP_MAX];
	char why[ROUND_GROUP_MAX][160];
	u32 failed = 0, k = 0, led = lead ? lead->n : 0, first = n;

	if (led) {
		char why_lp[160];
		enum prim_id lp = prim_linux(why_lp, sizeof(why_lp));

		lead_order(b, n);
		for (first = 0; first < n && lead_rank(&b[first], lp) <= RANK_LEAD;)
			first++;
	}
	while (k < n || led) {
		u32 m = 0, end = led ? k + first : n;
		bool leads = led != 0;

		for (; m < led; m++) {
			job[m] = lead->job[m];
			skip[m] = lead->skip[m];
		}
		led = 0;
		for (; m < ROUND_GROUP_MAX && k < end; m++, k++) {
			bare_job(&b[k], &job[m]);
			skip[m] = bare_skip(&b[k], why[m], sizeof(why[m])) ?
				  why[m] : NULL;
		}
		failed += companion_run_rounds(job, skip, m, leads, leads && !no_hook);
	}
	return failed;
}

/* interleave=on: the matrix first, each configuration its own desc over
 * the one region and its samples (a pass fills and verifies it whole, and
 * its samples are in its records before the next pass), then the groups. */
static u32 run_interleaved(const struct bare_folio *bf, struct bare_cfg *proto,
			   const struct bare_leads *lead)
{
	struct matrix_iter it = { { { 0 } }, false };
	struct bare_cfg *b = NULL;
	u32 n = 0, cap = 0, failed;

	for (;;) {
		if (n == cap) {
			struct bare_cfg *nb = realloc(b, (cap + 64) * sizeof(*b));

			if (!nb) {
				fprintf(stderr, "hugezero-linux: bare %s: no memory "
					"for the matrix\n", folio_names[bf->f]);
				free(b);
				return 1;
			}
			b = nb;
			cap += 64;
		}
		b[n] = *proto;
		if (!bench_matrix_next(bf->c, bf->f, bf->prefix ? bf->prefix : "bare.",
				       &it, &b[n].d, bf->id))
			break;
		/* User space under Linux: the host's model, which the host
		 * record names, not one of ours. */
		b[n++].d.preempt = NULL;
	}
	failed = run_groups(b, n, lead, bf->no_hook);
	free(b);
	return failed;
}

/* Every configuration of one folio size, over one region. */
static u32 run_folio(const struct bare_folio *bf)
{
	const struct hz_config *c = bf->c;
	struct matrix_iter it = { { { 0 } }, false };
	u32 failed = 0, f = bf->f;
	struct bare_cfg b;
	struct region r;
	struct samples s;
	char why[200];

	bare_desc(&b, c, f);
	if (!bare_region(&r, b.d.size, bf->hugetlb, why, sizeof(why)) ||
	    !samples_alloc(&s, b.count)) {
		fprintf(stderr, "hugezero-linux: bare %s: %s\n",
			folio_names[f], why);
		return 1;
	}
	if (bf->only && strcmp(r.backing, bf->only) != 0) {
		/* run_bare_twin(): no region of its kind, so no fault to pair */
		fprintf(stderr, "hugezero-linux: bare %s: no %s region (%s), so "
			"no %s fault to pair with: not run\n", folio_names[f],
			bf->only, r.backing, bf->only);
		samples_free(&s);
		region_unmap(&r);
		return 0;
	}
	b.r = &r;
	b.s = &s;
	b.d.backing = r.backing;
	if (strcmp(r.backing, backing_names[BACKING_HUGETLB]) != 0 &&
	    region_huge_pct(&r) < 90)
		fprintf(stderr, "hugezero-linux: bare %s: only %u%% of the "
			"region is in huge pages (%s backing)\n",
			folio_names[f], region_huge_pct(&r), r.backing);
	if (bf->rounds) {
		struct bare_leads lead = { .n = 0 };

		/* Half the group at most: the rest is the bare clearing. */
		if (bf->lead)
			lead.n = bf->lead->start(bf->lead->ctx, r.backing,
						 lead.job, lead.skip,
						 ROUND_GROUP_MAX / 2);
		failed += run_interleaved(bf, &b, &lead);
		if (lead.n)
			bf->lead->done(bf->lead->ctx);
	} else {
		while (bench_matrix_next(c, f, "bare.", &it, &b.d, bf->id)) {
			/* User space under Linux: the host's model, which
			 * the host record names, not one of ours. */
			b.d.preempt = NULL;
			failed += run_config(&b);
		}
	}
	samples_free(&s);
	region_unmap(&r);
	return failed;
}

static void group_body_bare(void *ctx)
{
	run_folio(ctx);
}

/* cpus= with a numa= that cannot run: every configuration skipped. */
static u32 skip_folio(const struct bare_folio *bf, const struct group_cpus *g)
{
	struct matrix_iter it = { { { 0 } }, false };
	struct bare_cfg b;
	u32 scratch = 0;

	bare_desc(&b, bf->c, bf->f);
	/* What it would map. */
	b.d.backing = backing_names[bf->hugetlb ? BACKING_HUGETLB : BACKING_THP];
	while (bench_matrix_next(bf->c, bf->f, "bare.", &it, &b.d, &scratch)) {
		b.d.preempt = NULL;
		group_skip(g, &b.d, bf->id, g->numa_skip);
	}
	return 0;
}

/* The pool holds @procs regions of @b's size now, for this run alone
 * (hugetlb_claim()): free pages another run holds the pool for are that
 * run's, and then the region takes other memory, as when it is short. */
static bool pool_holds(const struct bare_cfg *b, u32 procs)
{
	char why[200];

	if (host_free_hugetlb_2m() * SZ_2M < b->d.size * procs)
		return false;
	if (!hugetlb_claim(false, why, sizeof(why))) {
		fprintf(stderr, "hugezero-linux: bare: not the hugetlb pool: "
			"%s\n", why);
		return false;
	}
	return host_free_hugetlb_2m() * SZ_2M >= b->d.size * procs;
}

u32 run_bare(const struct hz_config *c, u32 *id, const struct group_cpus *g)
{
	u32 failed = 0;

	for (u32 f = 0; f < FOLIO_COUNT; f++) {
		struct bare_folio bf = { .c = c, .f = f, .rounds = c->interleave,
					 .id = id };
		struct bare_cfg b;

		if (!(c->folios >> f & 1))
			continue;
		bare_desc(&b, c, f);
		bf.hugetlb = pool_holds(&b, g ? g->n : 1);
		if (!g)
			failed += run_folio(&bf);
		else if (g->numa_skip[0])
			failed += skip_folio(&bf, g);
		else
			failed += group_run(g, id, group_body_bare, &bf);
	}
	return failed;
}

u32 run_bare_led(const struct hz_config *c, u32 f, u32 *id,
		 const struct bare_lead *lead)
{
	struct bare_folio bf = { .c = c, .f = f, .rounds = c->interleave, .id = id,
				 .lead = lead };
	struct bare_cfg b;

	bare_desc(&b, c, f);
	bf.hugetlb = pool_holds(&b, 1);
	return run_folio(&bf);
}

u32 run_bare_twin(const struct hz_config *c, u32 f, u32 *id, enum backing b,
		  const struct bare_lead *lead)
{
	char why[160];
	enum prim_id lp = prim_linux(why, sizeof(why));
	/* A copy that differs in its primitives alone: its descs point
	 * at it while the group runs. */
	struct hz_config own = *c;
	struct bare_folio bf = { .c = &own, .f = f, .rounds = true, .id = id,
				 .lead = lead, .prefix = "bare.thp.",
				 .only = backing_names[BACKING_THP],
				 .no_hook = true };

	if (b != BACKING_THP || !c->interleave)
		return 0;	/* hugetlb is the matrix's own region */
	own.prims = c->prims & ((1ULL << lp) | (1ULL << prim_tree_twin(lp)));
	if (!own.prims)
		return 0;	/* clear= leaves Linux's own out: nothing to pair */
	return run_folio(&bf);
}

u64 bare_bytes(const struct hz_config *c, u32 f)
{
	struct bare_cfg b;

	bare_desc(&b, c, f);
	return b.d.size;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * folio_zero() against Linux (tests/host/linux_ref.c).  A fake primitive
 * records each call as (first page, pages) and a fake resched point
 * records a marker; that trace must equal the transliterated loop's, call
 * for call, for faults at the edges, near them and in the middle of 2M
 * and 1G folios.  The fake primitive touches nothing, so a 1G folio is
 * only reserved address space.
 */
#include <stdlib.h>
#include <sys/mman.h>
#include "arch/x86_64/clear.h"
#include "lib/string.h"
#include "lib/zero.h"
#include "tests/host/linux_ref.h"
#include "tests/host/unit.h"

static const u32 NR_2M = 512, NR_1G = 262144, BATCH_32M = 8192;

/* The primitive has no context argument: the run it records into. */
static struct fake {
	u8 *base;
	u32 nr;
	struct trace t;
} *cur;

static void fake_prim(void *dst, u64 len)
{
	u64 off = (u64)((u8 *)dst - cur->base);

	EXPECT(off % SZ_4K == 0 && len % SZ_4K == 0 && len,
	       "prim(%#llx, %#llx) not whole pages", (unsigned long long)off,
	       (unsigned long long)len);
	trace_clear(&cur->t, (long)(off / SZ_4K), (long)(len / SZ_4K));
}

static void fake_resched(void *ctx)
{
	trace_resched(&((struct fake *)ctx)->t);
}

static void fake_might_sleep(void *ctx)
{
	trace_might_sleep(&((struct fake *)ctx)->t);
}

/* A 1G folio's worth of address space, reserved once and never touched. */
static u8 *folio_space(void)
{
	static u8 *base;

	if (!base) {
		base = mmap(NULL, SZ_1G, PROT_NONE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (base == MAP_FAILED)
			abort();
	}
	return base;
}

static s64 run(struct fake *f, u32 nr, u32 fault, const struct zero_plan *p)
{
	const struct zero_ops ops = { fake_prim, fake_resched, f, NULL, NULL,
				      fake_might_sleep };

	*f = (struct fake){ .base = folio_space(), .nr = nr };
	cur = f;
	return folio_zero(f->base, nr, fault, p, &ops);
}

/* One fault: the trace against @want, coverage, and the returned count. */
static void check_one(const char *what, u32 nr, u32 fault,
		      const struct zero_plan *p, const struct trace *want)
{
	struct fake f;
	s64 ret = run(&f, nr, fault, p);

	expect_same_trace(what, nr, fault, &f.t, want);
	expect_covers_once(what, nr, &f.t);
	EXPECT(ret == (s64)trace_reschedules(&f.t), "%s nr=%u fault=%u: "
	       "returned %lld, %zu resched points taken", what, nr, fault,
	       (long long)ret, trace_reschedules(&f.t));
	trace_free(&f.t);
}

static void check_zero(enum clear_order o, u32 nr, u32 chunk, u32 radius)
{
	const struct zero_plan p = { o, chunk, radius, false };
	u32 f[16], nf = ref_faults(nr, f, ARRAY_SIZE(f));

	for (u32 k = 0; k < nf; k++) {
		struct trace want = { 0 };

		ref_order(&want, o, nr, f[k], chunk, radius);
		check_one(order_names[o], nr, f[k], &p, &want);
		trace_free(&want);
	}
}

TEST(zero_against_linux)
{
	ref_each_case(check_zero);
}

/* full and lazy: one unit a range; a chunk of a whole folio is the same. */
TEST(zero_neighbourhood_last_whole_ranges)
{
	static const struct ref_model preemptible = { true, BATCH_32M };
	static const u32 nrs[] = { 512, 262144 };

	for (u32 n = 0; n < ARRAY_SIZE(nrs); n++) {
		const struct zero_plan p = { ORDER_NEIGHBOURHOOD, nrs[n], 2, false };
		u32 f[16], nf = ref_faults(nrs[n], f, ARRAY_SIZE(f));

		for (u32 k = 0; k < nf; k++) {
			struct trace want = { 0 };

			ref_folio_zero_user(&want, nrs[n], f[k], 2,
					    &preemptible);
			EXPECT(want.n <= 9);	/* three ranges at most */
			check_one("neighbourhood-last, whole ranges", nrs[n],
				  f[k], &p, &want);
			trace_free(&want);
		}
	}
}

/*
 * Spelled out, in case the transliteration and the planner went wrong
 * together: 7.0 reschedules before every unit, the first of each range
 * included, and each range's clear_contig_highpages() calls might_sleep()
 * first.
 */
TEST(zero_resched_before_each_unit)
{
	const struct zero_plan p = { ORDER_NEIGHBOURHOOD, 128, 2, false };
	static const struct ev want[] = {
		{ EV_MIGHT_SLEEP, 0 }, { EV_RESCHED, 0 }, { 303, 128 },
		{ EV_RESCHED, 0 }, { 431, 81 },
		{ EV_MIGHT_SLEEP, 0 }, { EV_RESCHED, 0 }, { 0, 128 },
		{ EV_RESCHED, 0 }, { 128, 128 }, { EV_RESCHED, 0 }, { 256, 42 },
		{ EV_MIGHT_SLEEP, 0 }, { EV_RESCHED, 0 }, { 298, 5 },
	};
	const struct trace w = { (struct ev *)want, ARRAY_SIZE(want), 0 };
	struct fake f;

	EXPECT_EQ(run(&f, NR_2M, 300, &p), 6);
	expect_same_trace("spelled out", NR_2M, 300, &f.t, &w);
	trace_free(&f.t);
}

TEST(zero_without_resched_callback)
{
	const struct zero_plan p = { ORDER_BATCHED, BATCH_32M, 0, false };
	const struct zero_ops ops = { fake_prim, NULL, NULL, NULL, NULL, NULL };
	struct fake f = { .base = folio_space(), .nr = NR_1G };

	cur = &f;
	EXPECT_EQ(folio_zero(f.base, NR_1G, 0, &p, &ops), 32);
	EXPECT_EQ(f.t.n, 32);	/* the clears, no markers */
	expect_covers_once("no callback", NR_1G, &f.t);
	trace_free(&f.t);
}

TEST(zero_refuses_bad_arguments)
{
	static const struct {
		u32 nr, fault, chunk;
		enum clear_order o;
	} bad[] = {
		{ 512, 512, 1, ORDER_CONTIGUOUS },	/* fault past the end */
		{ 512, 1000, 8192, ORDER_NEIGHBOURHOOD },
		{ 512, 0, 0, ORDER_BATCHED },		/* chunk 0 */
		{ 512, 0, 0, ORDER_NEIGHBOURHOOD },
		{ 0, 0, 1, ORDER_CONTIGUOUS },		/* empty folio */
		{ 512, 0, 1, ORDER_COUNT },		/* no such order */
	};

	for (u32 i = 0; i < ARRAY_SIZE(bad); i++) {
		const struct zero_plan p = { bad[i].o, bad[i].chunk, 2, false };
		struct fake f;

		EXPECT(run(&f, bad[i].nr, bad[i].fault, &p) == -1,
		       "case %u", i);
		EXPECT(f.t.n == 0, "case %u: %zu calls made", i, f.t.n);
		trace_free(&f.t);
	}
}

/* With a real primitive over real memory: the whole folio reads zero. */
TEST(zero_real_folio)
{
	const struct zero_plan p = { ORDER_NEIGHBOURHOOD, 100, 2, false };
	const struct zero_ops ops = { prim_fns[PRIM_REP], NULL, NULL, NULL, NULL, NULL };
	u8 *folio = aligned_alloc(SZ_2M, SZ_2M);
	u64 bad = ~0ULL;

	memset(folio, 0xa5, SZ_2M);
	EXPECT_EQ(folio_zero(folio, NR_2M, 7, &p, &ops), 8);
	for (u64 i = 0; i < SZ_2M && bad == ~0ULL; i++)
		if (folio[i])
			bad = i;
	EXPECT(bad == ~0ULL, "byte %#llx not zero", (unsigned long long)bad);
	free(folio);
}

/*
 * folio_zero_counted(): its count is the primitive calls made, the fake
 * primitive's own count, for order=linux as x86 7.0 runs a 1G folio
 * (three ranges, whole) and as its non-preemptible branch does (32M
 * units); -1 and no calls for a refused plan.
 */
TEST(zero_counts_primitive_calls)
{
	static const struct {
		u32 fault, chunk, calls;
	} c[] = {
		{ 0, NR_1G, 2 },		/* r[1] empty */
		{ 1000, NR_1G, 3 },
		{ NR_1G - 1, NR_1G, 2 },	/* r[0] empty */
		{ 0, BATCH_32M, 33 },	/* 262141 pages in 32, then 3 */
		{ 100000, BATCH_32M, 34 },	/* 162141 in 20, 99998 in 13, 5 */
	};
	const struct zero_ops ops = { fake_prim, NULL, NULL, NULL, NULL, NULL };

	for (u32 i = 0; i < ARRAY_SIZE(c); i++) {
		const struct zero_plan p = { ORDER_NEIGHBOURHOOD, c[i].chunk, 2, false };
		struct fake f = { .base = folio_space(), .nr = NR_1G };
		u32 calls = ~0u;

		cur = &f;
		EXPECT(folio_zero_counted(f.base, NR_1G, c[i].fault, &p, &ops,
					  &calls) >= 0, "case %u", i);
		EXPECT(calls == f.t.n && calls == c[i].calls,
		       "case %u: %u counted, %zu made, %u wanted", i, calls,
		       f.t.n, c[i].calls);
		trace_free(&f.t);
	}
	{
		const struct zero_plan p = { ORDER_NEIGHBOURHOOD, 0, 2, false };
		u32 calls = ~0u;

		EXPECT(folio_zero_counted(folio_space(), NR_2M, 0, &p, &ops,
					  &calls) == -1);
		EXPECT_EQ(calls, 0);
	}
}

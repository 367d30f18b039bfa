// SPDX-License-Identifier: GPL-2.0-only
/*
 * The clearing orders against the Linux algorithms (tests/host/linux_ref.c:
 * process_huge_page(), clear_gigantic_page(), 7.0's clear_contig_highpages()
 * and folio_zero_user()).  The planner's ranges and resched points become
 * the same trace events as Linux's clear calls and cond_resched()s, and the
 * two traces are compared exactly.
 */
#include "lib/order.h"
#include "tests/host/linux_ref.h"
#include "tests/host/unit.h"

static void plan(struct trace *t, enum clear_order o, u32 nr, u32 fault,
		 u32 chunk, u32 radius)
{
	struct order_iter it;
	struct clear_range r;

	EXPECT(order_begin(&it, o, nr, fault, chunk, radius));
	while (order_next(&it, &r)) {
		if (r.might_sleep)
			trace_might_sleep(t);
		if (r.resched)
			trace_resched(t);
		trace_clear(t, r.start, r.npages);
	}
}

static void check_order(enum clear_order o, u32 nr, u32 chunk, u32 radius)
{
	u32 f[16], nf = ref_faults(nr, f, ARRAY_SIZE(f));

	for (u32 k = 0; k < nf; k++) {
		struct trace a = { 0 }, b = { 0 };

		plan(&a, o, nr, f[k], chunk, radius);
		ref_order(&b, o, nr, f[k], chunk, radius);
		expect_same_trace(order_names[o], nr, f[k], &a, &b);
		expect_covers_once(order_names[o], nr, &a);
		trace_free(&a);
		trace_free(&b);
	}
}

TEST(order_against_linux)
{
	ref_each_case(check_order);
}

TEST(order_converging_example_from_notes)
{
	/* nr=512, n=100: 511 down to 200, then 0, 199, 1, 198, ..., 99, 100. */
	struct trace t = { 0 };
	long pages[512];
	size_t k = 0;

	plan(&t, ORDER_CONVERGING, 512, 100, 1, 0);
	for (size_t i = 0; i < t.n && k < ARRAY_SIZE(pages); i++)
		if (t.ev[i].start >= 0)
			pages[k++] = t.ev[i].start;
	EXPECT_EQ(k, 512);
	EXPECT_EQ(pages[0], 511);
	EXPECT_EQ(pages[311], 200);
	EXPECT_EQ(pages[312], 0);
	EXPECT_EQ(pages[313], 199);
	EXPECT_EQ(pages[314], 1);
	EXPECT_EQ(pages[510], 99);
	EXPECT_EQ(pages[511], 100);
	/* a resched point before every page, might_sleep() first */
	EXPECT_EQ(t.n, 1025);
	EXPECT_EQ(t.ev[0].start, EV_MIGHT_SLEEP);
	trace_free(&t);
}

TEST(order_neighbourhood_last_shape)
{
	/* 2M folio, fault at 0, radius 2: right [3,511], left empty, [0,2]. */
	struct order_iter it;
	struct clear_range r;

	EXPECT(order_begin(&it, ORDER_NEIGHBOURHOOD, 512, 0, 8192, 2));
	EXPECT(order_next(&it, &r));
	EXPECT(r.start == 3 && r.npages == 509 && r.resched && r.might_sleep);
	EXPECT(order_next(&it, &r));
	EXPECT(r.start == 0 && r.npages == 3 && r.resched && r.might_sleep);
	EXPECT(!order_next(&it, &r));
	/* Fault at 300: right [303,511], left [0,297], then [298,302]. */
	EXPECT(order_begin(&it, ORDER_NEIGHBOURHOOD, 512, 300, 8192, 2));
	EXPECT(order_next(&it, &r) && r.start == 303 && r.npages == 209);
	EXPECT(order_next(&it, &r) && r.start == 0 && r.npages == 298);
	EXPECT(order_next(&it, &r) && r.start == 298 && r.npages == 5);
	EXPECT(!order_next(&it, &r));
}

TEST(order_rejects_bad_arguments)
{
	struct order_iter it;

	EXPECT(!order_begin(&it, ORDER_CONTIGUOUS, 0, 0, 1, 0));
	EXPECT(!order_begin(&it, ORDER_CONTIGUOUS, 512, 512, 1, 0));
	EXPECT(!order_begin(&it, ORDER_BATCHED, 512, 0, 0, 0));
	EXPECT(!order_begin(&it, ORDER_COUNT, 512, 0, 1, 0));
}

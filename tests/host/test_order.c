// SPDX-License-Identifier: GPL-2.0-only
/*
 * The clearing orders against the Linux algorithms.  The references below
 * are written the way mm/memory.c writes them (process_huge_page(),
 * clear_gigantic_page(), clear_contig_highpages(), 7.0's folio_zero_user()),
 * emitting one event per cleared page and per cond_resched(); the planner's
 * ranges are expanded into the same events and compared exactly.
 */
#include <stdlib.h>
#include "lib/order.h"
#include "lib/string.h"
#include "tests/host/unit.h"

#define RESCHED (-1)

struct trace {
	long *ev;
	size_t n, cap;
};

static void emit(struct trace *t, long v)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 1024;
		t->ev = realloc(t->ev, t->cap * sizeof(long));
	}
	t->ev[t->n++] = v;
}

static void clear_pages(struct trace *t, long first, long n)
{
	for (long i = 0; i < n; i++)
		emit(t, first + i);
}

/* mm/memory.c before 7.0 */
static void ref_process_huge_page(struct trace *t, long nr, long n)
{
	long i, base, l;

	if (2 * n <= nr) {
		base = 0;
		l = n;
		for (i = nr - 1; i >= 2 * n; i--) {
			emit(t, RESCHED);
			emit(t, i);
		}
	} else {
		base = nr - 2 * (nr - n);
		l = nr - n;
		for (i = 0; i < base; i++) {
			emit(t, RESCHED);
			emit(t, i);
		}
	}
	for (i = 0; i < l; i++) {
		long left = base + i, right = base + 2 * l - 1 - i;

		emit(t, RESCHED);
		emit(t, left);
		emit(t, RESCHED);
		emit(t, right);
	}
}

static void ref_clear_gigantic_page(struct trace *t, long nr)
{
	for (long i = 0; i < nr; i++) {
		emit(t, RESCHED);
		emit(t, i);
	}
}

static void ref_converging(struct trace *t, long nr, long n)
{
	if (nr > 1024)	/* MAX_ORDER_NR_PAGES */
		ref_clear_gigantic_page(t, nr);
	else
		ref_process_huge_page(t, nr, n);
}

/* 7.0: clear_contig_highpages() with a batch of @unit pages */
static void ref_contig(struct trace *t, long first, long npages, long unit)
{
	for (long i = 0; i < npages;) {
		long count = unit < npages - i ? unit : npages - i;

		clear_pages(t, first + i, count);
		i += count;
		emit(t, RESCHED);
	}
}

static long clamp(long v, long lo, long hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* 7.0 folio_zero_user() with FOLIO_ZERO_LOCALITY_RADIUS = @radius */
static void ref_neighbourhood(struct trace *t, long nr, long fault,
			      long radius, long unit)
{
	long s[3], e[3];

	s[2] = clamp(fault - radius, 0, nr - 1);
	e[2] = clamp(fault + radius, 0, nr - 1);
	s[1] = 0;
	e[1] = clamp(s[2] - 1, -1, s[2]);
	s[0] = clamp(e[2] + 1, e[2], nr);
	e[0] = nr - 1;
	for (int i = 0; i < 3; i++)
		if (e[i] - s[i] + 1 > 0)
			ref_contig(t, s[i], e[i] - s[i] + 1, unit);
}

static void ref_discontiguous(struct trace *t, long nr)
{
	ref_clear_gigantic_page(t, nr);
}

static void plan(struct trace *t, enum clear_order o, u32 nr, u32 fault,
		 u32 chunk, u32 radius)
{
	struct order_iter it;
	struct clear_range r;

	EXPECT(order_begin(&it, o, nr, fault, chunk, radius));
	while (order_next(&it, &r)) {
		if (r.resched_before)
			emit(t, RESCHED);
		clear_pages(t, r.start, r.npages);
		if (r.resched_after)
			emit(t, RESCHED);
	}
}

static void compare(const char *what, u32 nr, u32 fault, struct trace *a,
		    struct trace *b)
{
	size_t i;

	for (i = 0; i < a->n && i < b->n; i++)
		if (a->ev[i] != b->ev[i])
			break;
	EXPECT(i == a->n && i == b->n, "%s nr=%u fault=%u: differs at event "
	       "%zu (planner %ld, Linux %ld; lengths %zu, %zu)", what, nr,
	       fault, i, i < a->n ? a->ev[i] : -2, i < b->n ? b->ev[i] : -2,
	       a->n, b->n);
}

/* Every page exactly once: the planner's ranges cover the folio. */
static void covers_once(const char *what, u32 nr, struct trace *t)
{
	u8 *seen = calloc(nr, 1);
	size_t pages = 0;

	for (size_t i = 0; i < t->n; i++) {
		if (t->ev[i] == RESCHED)
			continue;
		EXPECT(t->ev[i] >= 0 && t->ev[i] < nr && !seen[t->ev[i]],
		       "%s: page %ld out of range or twice", what, t->ev[i]);
		if (t->ev[i] >= 0 && t->ev[i] < nr)
			seen[t->ev[i]] = 1;
		pages++;
	}
	EXPECT_EQ(pages, nr);
	free(seen);
}

static const u32 NR_2M = 512, NR_1G = 262144;

/* First, last, middle and near-edge pages (those that exist in @nr). */
static u32 faults_for(u32 nr, u32 *f)
{
	long cand[] = { 0, (long)nr - 1, nr / 2, (long)nr / 2 - 1, 1, 2,
			(long)nr - 2, (long)nr - 3, 100 };
	u32 n = 0;

	for (u32 i = 0; i < sizeof(cand) / sizeof(cand[0]); i++) {
		bool dup = false;

		if (cand[i] < 0 || cand[i] >= (long)nr)
			continue;
		for (u32 j = 0; j < n; j++)
			dup |= f[j] == (u32)cand[i];
		if (!dup)
			f[n++] = (u32)cand[i];
	}
	return n;
}

static void check_order(enum clear_order o, u32 nr, u32 chunk, u32 radius)
{
	u32 f[16], nf = faults_for(nr, f);

	for (u32 k = 0; k < nf; k++) {
		struct trace a = { 0 }, b = { 0 };

		plan(&a, o, nr, f[k], chunk, radius);
		switch (o) {
		case ORDER_CONVERGING:
			ref_converging(&b, nr, f[k]);
			break;
		case ORDER_DISCONTIGUOUS:
			ref_discontiguous(&b, nr);
			break;
		case ORDER_CONTIGUOUS:
			clear_pages(&b, 0, nr);
			break;
		case ORDER_BATCHED:
			ref_contig(&b, 0, nr, chunk);
			break;
		case ORDER_NEIGHBOURHOOD:
			ref_neighbourhood(&b, nr, f[k], radius, chunk);
			break;
		default:
			break;
		}
		compare(order_names[o], nr, f[k], &a, &b);
		covers_once(order_names[o], nr, &a);
		free(a.ev);
		free(b.ev);
	}
}

TEST(order_converging_2m_and_1g)
{
	check_order(ORDER_CONVERGING, NR_2M, 1, 0);
	check_order(ORDER_CONVERGING, NR_1G, 1, 0);
	check_order(ORDER_CONVERGING, 1024, 1, 0);	/* 4 MiB: still converging */
	check_order(ORDER_CONVERGING, 2048, 1, 0);	/* 8 MiB: gigantic */
}

TEST(order_converging_example_from_notes)
{
	/* nr=512, n=100: 511 down to 200, then 0, 199, 1, 198, ..., 99, 100. */
	struct trace t = { 0 };
	long pages[512];
	size_t k = 0;

	plan(&t, ORDER_CONVERGING, 512, 100, 1, 0);
	for (size_t i = 0; i < t.n; i++)
		if (t.ev[i] != RESCHED)
			pages[k++] = t.ev[i];
	EXPECT_EQ(k, 512);
	EXPECT_EQ(pages[0], 511);
	EXPECT_EQ(pages[311], 200);
	EXPECT_EQ(pages[312], 0);
	EXPECT_EQ(pages[313], 199);
	EXPECT_EQ(pages[314], 1);
	EXPECT_EQ(pages[510], 99);
	EXPECT_EQ(pages[511], 100);
	EXPECT_EQ(t.n, 1024);	/* a resched point before every page */
	free(t.ev);
}

TEST(order_discontiguous_and_contiguous)
{
	check_order(ORDER_DISCONTIGUOUS, NR_2M, 1, 0);
	check_order(ORDER_DISCONTIGUOUS, NR_1G, 1, 0);
	check_order(ORDER_CONTIGUOUS, NR_2M, 1, 0);
	check_order(ORDER_CONTIGUOUS, NR_1G, 1, 0);
}

TEST(order_batched_chunks)
{
	u32 chunks[] = { 512, 2048, 4096, 8192, 1, 3, 1000000 };	/* 2M..32M */

	for (u32 c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
		check_order(ORDER_BATCHED, NR_2M, chunks[c], 0);
		check_order(ORDER_BATCHED, NR_1G, chunks[c], 0);
	}
}

TEST(order_neighbourhood_last)
{
	u32 radii[] = { 2, 0, 1, 16, 600 };

	for (u32 r = 0; r < sizeof(radii) / sizeof(radii[0]); r++) {
		check_order(ORDER_NEIGHBOURHOOD, NR_2M, 8192, radii[r]);
		check_order(ORDER_NEIGHBOURHOOD, NR_1G, 8192, radii[r]);
		check_order(ORDER_NEIGHBOURHOOD, NR_1G, 512, radii[r]);
	}
}

TEST(order_neighbourhood_last_shape)
{
	/* 2M folio, fault at 0, radius 2: right [3,511], left empty, [0,2]. */
	struct order_iter it;
	struct clear_range r;

	EXPECT(order_begin(&it, ORDER_NEIGHBOURHOOD, 512, 0, 8192, 2));
	EXPECT(order_next(&it, &r));
	EXPECT(r.start == 3 && r.npages == 509 && r.resched_after);
	EXPECT(order_next(&it, &r));
	EXPECT(r.start == 0 && r.npages == 3);
	EXPECT(!order_next(&it, &r));
	/* Fault at 300: right [303,511], left [0,297], then [298,302]. */
	EXPECT(order_begin(&it, ORDER_NEIGHBOURHOOD, 512, 300, 8192, 2));
	EXPECT(order_next(&it, &r) && r.start == 303 && r.npages == 209);
	EXPECT(order_next(&it, &r) && r.start == 0 && r.npages == 298);
	EXPECT(order_next(&it, &r) && r.start == 298 && r.npages == 5);
	EXPECT(!order_next(&it, &r));
}

TEST(order_single_page_folio)
{
	for (int o = 0; o < ORDER_COUNT; o++)
		check_order((enum clear_order)o, 1, 1, 2);
}

TEST(order_rejects_bad_arguments)
{
	struct order_iter it;

	EXPECT(!order_begin(&it, ORDER_CONTIGUOUS, 0, 0, 1, 0));
	EXPECT(!order_begin(&it, ORDER_CONTIGUOUS, 512, 512, 1, 0));
	EXPECT(!order_begin(&it, ORDER_BATCHED, 512, 0, 0, 0));
	EXPECT(!order_begin(&it, ORDER_COUNT, 512, 0, 1, 0));
}

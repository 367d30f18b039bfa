// SPDX-License-Identifier: GPL-2.0-only
/*
 * Clearing orders as iterators.  Each returns ranges in the order Linux
 * clears them; host tests compare them with transliterations of the
 * kernel's loops for faults at the edges and in the middle of folios.
 */
#include "lib/order.h"
#include "lib/string.h"

#define DESC(id, nm, it, chunk, radius, lx)				\
	[ORDER_##id] = { .name = nm, .uses_chunk = chunk,		\
			 .uses_radius = radius, .linux_fn = lx },
const struct order_desc order_descs[ORDER_COUNT] = { ORDERS(DESC) };

#define NAME(id, nm, it, chunk, radius, lx) [ORDER_##id] = nm,
const char *const order_names[ORDER_COUNT + 1] = { ORDERS(NAME) };

/* process_huge_page(): n = fault (clear_gigantic_page() above
 * ORDER_MAX_HUGE_PAGES needs nothing set up). */
static void converging_begin(struct order_iter *it)
{
	u32 nr = it->nr, fault = it->fault;

	if (nr > ORDER_MAX_HUGE_PAGES)
		return;
	if (2 * fault <= nr) {
		it->base = 0;
		it->l = fault;
		it->i = nr;	/* tail: nr-1 down to 2n */
	} else {
		it->base = nr - 2 * (nr - fault);
		it->l = nr - fault;
		it->i = 0;	/* head: 0 up to base-1 */
	}
}

/* r[2]: [fault-radius, fault+radius] clamped; r[1]: left of it; r[0]:
 * right of it.  Cleared r[0], r[1], r[2]. */
static void neighbourhood_begin(struct order_iter *it)
{
	u32 nr = it->nr, fault = it->fault, radius = it->radius;
	u32 lo = fault > radius ? fault - radius : 0;
	u32 hi = nr - 1 - fault > radius ? fault + radius : nr - 1;

	it->rstart[0] = hi + 1;
	it->rlen[0] = nr - 1 - hi;
	it->rstart[1] = 0;
	it->rlen[1] = lo;
	it->rstart[2] = lo;
	it->rlen[2] = hi - lo + 1;
}

static void nothing_begin(struct order_iter *it)
{
	(void)it;
}

#define discontiguous_begin nothing_begin
#define contiguous_begin nothing_begin
#define batched_begin nothing_begin

static bool converging_next(struct order_iter *it, struct clear_range *r);
static bool discontiguous_next(struct order_iter *it, struct clear_range *r);
static bool contiguous_next(struct order_iter *it, struct clear_range *r);
static bool batched_next(struct order_iter *it, struct clear_range *r);
static bool neighbourhood_next(struct order_iter *it, struct clear_range *r);

static const struct {
	void (*begin)(struct order_iter *it);
	bool (*next)(struct order_iter *it, struct clear_range *r);
} iters[ORDER_COUNT] = {
#define ITER(id, nm, it, chunk, radius, lx)				\
	[ORDER_##id] = { it##_begin, it##_next },
	ORDERS(ITER)
};

bool order_begin(struct order_iter *it, enum clear_order order, u32 nr,
		 u32 fault, u32 chunk, u32 radius)
{
	memset(it, 0, sizeof(*it));
	if (nr == 0 || fault >= nr || order >= ORDER_COUNT ||
	    (chunk == 0 && order_uses_chunk(order)))
		return false;
	it->order = order;
	it->nr = nr;
	it->fault = fault;
	it->chunk = chunk;
	it->radius = radius;
	iters[order].begin(it);
	return true;
}

/*
 * Linux before 7.0: process_huge_page() and clear_gigantic_page() call
 * cond_resched() before clearing each 4K page.
 */
static bool one_page(struct clear_range *r, u32 page)
{
	r->start = page;
	r->npages = 1;
	r->resched = true;
	r->might_sleep = false;
	return true;
}

static bool converging_next(struct order_iter *it, struct clear_range *r)
{
	if (it->nr > ORDER_MAX_HUGE_PAGES) {	/* clear_gigantic_page() */
		if (it->i >= it->nr)
			return false;
		return one_page(r, it->i++);
	}
	if (it->phase == 0) {
		if (2 * it->fault <= it->nr) {
			if (it->i > 2 * it->fault)
				return one_page(r, --it->i);
		} else if (it->i < it->base) {
			return one_page(r, it->i++);
		}
		it->phase = 1;
		it->i = 0;
	}
	/* Left, right, left, right ... converging on the fault. */
	if (it->i >= 2 * it->l)
		return false;
	if (it->i % 2 == 0)
		one_page(r, it->base + it->i / 2);
	else
		one_page(r, it->base + 2 * it->l - 1 - it->i / 2);
	it->i++;
	return true;
}

/*
 * Linux 7.0's clear_contig_highpages() (mm/memory.c): its loop over units
 * of at most PROCESS_PAGES_NON_PREEMPT_BATCH pages (the whole range when
 * preempt_model_preemptible()) calls cond_resched() as its first
 * statement, then clear_user_highpages() on the unit.  So the resched
 * point comes before every unit, the first one included, and
 * folio_zero_user() calls it once per non-empty range: each of the three
 * neighbourhood-last ranges starts afresh with a resched point.  (Earlier
 * versions of the series called cond_resched() after each unit.)
 */
static bool next_chunk(struct order_iter *it, struct clear_range *r, u32 start,
		       u32 len)
{
	u32 n = MIN(it->chunk, len - it->i);

	r->start = start + it->i;
	r->npages = n;
	r->resched = true;
	r->might_sleep = it->i == 0;	/* clear_contig_highpages() begins */
	it->i += n;
	return true;
}

static bool neighbourhood_next(struct order_iter *it, struct clear_range *r)
{
	while (it->phase < 3) {
		u32 p = it->phase;

		if (it->i < it->rlen[p])
			return next_chunk(it, r, it->rstart[p], it->rlen[p]);
		it->phase++;
		it->i = 0;
	}
	return false;
}

static bool discontiguous_next(struct order_iter *it, struct clear_range *r)
{
	if (it->i >= it->nr)
		return false;
	return one_page(r, it->i++);
}

static bool contiguous_next(struct order_iter *it, struct clear_range *r)
{
	if (it->phase++)
		return false;
	r->start = 0;
	r->npages = it->nr;
	r->resched = false;
	r->might_sleep = false;
	return true;
}

static bool batched_next(struct order_iter *it, struct clear_range *r)
{
	if (it->i >= it->nr)
		return false;
	return next_chunk(it, r, 0, it->nr);
}

/* The first range of a fault is the first of the Linux function the
 * order stands for, which calls might_sleep() first: an order with resched
 * points (contiguous-page, the preemptible models' one call, has none). */
bool order_next(struct order_iter *it, struct clear_range *r)
{
	if (it->order >= ORDER_COUNT || !iters[it->order].next(it, r))
		return false;
	r->might_sleep |= !it->started && r->resched;
	it->started = true;
	return true;
}

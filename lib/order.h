/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_ORDER_H
#define LIB_ORDER_H

#include "lib/types.h"

/*
 * The clearing-order planner: in which ranges of 4K pages, and in what
 * order, a folio is zeroed on a fault, and where the resched points
 * (cond_resched() in Linux) fall.  Each order reproduces the behaviour of
 * Linux's mm/memory.c; every resched point comes before its range, as
 * every cond_resched() in those loops comes before its clear:
 *
 *  converging-page     Linux before 7.0: folios up to 4 MiB by
 *                      process_huge_page() (converging on the faulting
 *                      page, cleared last), larger ones page by page
 *                      ascending as clear_gigantic_page(); a resched point
 *                      before every page.
 *  discontiguous-page  one 4K page at a time, ascending; resched before each.
 *  contiguous-page     one range over the whole folio (the preemptible
 *                      models, where cond_resched() is a no-op): none.
 *  batched-pages       7.0's clear_contig_highpages() over the whole folio:
 *                      ascending ranges of at most a chunk, resched before
 *                      each.
 *  neighbourhood-last  7.0's folio_zero_user(): right of the fault, then
 *                      left, then the faulting page +- radius, each range
 *                      its own clear_contig_highpages(), so each starts
 *                      with might_sleep() and a resched point.
 *
 * might_sleep() (might_resched(): a resched point under voluntary only)
 * comes once before the first range, as each of those functions calls it
 * first, and again before each neighbourhood-last range.
 *
 * An iterator, not a list: a 1G folio in page order is 262144 ranges, and
 * the fault path must not build that in memory while it is being timed.
 */

/*
 * Each order declared once: its order= word, its iterator (NAME_begin()
 * and NAME_next() in lib/order.c), whether chunk= and radius= apply to
 * it, and the Linux function it reproduces.  The enum, the names and the
 * matrix's choices (these and order=linux) are made from this list.
 */
#define ORDERS(X)							\
	X(CONVERGING, "converging-page", converging, 0, 0,		\
	  "process_huge_page(), clear_gigantic_page() (before 7.0)")	\
	X(DISCONTIGUOUS, "discontiguous-page", discontiguous, 0, 0,	\
	  "clear_gigantic_page() (before 7.0)")				\
	X(CONTIGUOUS, "contiguous-page", contiguous, 0, 0,		\
	  "clear_contig_highpages() when preemptible (7.0)")		\
	X(BATCHED, "batched-pages", batched, 1, 0,			\
	  "clear_contig_highpages() (7.0)")				\
	X(NEIGHBOURHOOD, "neighbourhood-last", neighbourhood, 1, 1,	\
	  "folio_zero_user() (7.0)")

#define ORDER_ENUM(id, name, it, chunk, radius, linux) ORDER_##id,
enum clear_order { ORDERS(ORDER_ENUM) ORDER_COUNT };
#undef ORDER_ENUM

/*
 * Not a planner order: a Linux tree's own folio_zero_user(), order=tree
 * (lib/tree.h), which lib/zero.c runs in the planner's place.  Among
 * order='s choices it follows "linux" (ORDER_LINUX, lib/matrix.h).
 */
#define ORDER_TREE (ORDER_COUNT + 1)

struct order_desc {
	const char *name;
	bool uses_chunk, uses_radius;
	const char *linux_fn;
};

extern const struct order_desc order_descs[ORDER_COUNT];
extern const char *const order_names[];	/* NULL-terminated, by enum */

static inline bool order_uses_chunk(u32 order)
{
	return order < ORDER_COUNT && order_descs[order].uses_chunk;
}

/*
 * Linux 7.0's constants of folio_zero_user(), declared once (the
 * companion records them for the host tools, docs/companion.md).
 */
#define LINUX_BATCH (32 * MiB)	/* PROCESS_PAGES_NON_PREEMPT_BATCH */
#define LINUX_RADIUS 2		/* FOLIO_ZERO_LOCALITY_RADIUS */

/* Linux's MAX_ORDER_NR_PAGES on x86-64: above it, clear_gigantic_page(). */
#define ORDER_MAX_HUGE_PAGES 1024

struct clear_range {
	u32 start;		/* first 4K page, index in the folio */
	u32 npages;
	bool resched;		/* a resched point before this range */
	/* might_sleep() before it (and before its resched point): the
	 * first range of each Linux function the order stands for
	 * (process_huge_page(), clear_gigantic_page(),
	 * clear_contig_highpages(): each calls it first) */
	bool might_sleep;
};

struct order_iter {
	enum clear_order order;
	u32 nr, fault, chunk, radius;
	/* progress */
	u32 phase, i;
	bool started;			/* a range given */
	u32 base, l;			/* converging */
	u32 rstart[3], rlen[3];		/* neighbourhood-last ranges */
};

/*
 * Start planning a folio of @nr pages faulted at page @fault; @chunk is the
 * batch in pages (batched-pages, neighbourhood-last), @radius in pages
 * (neighbourhood-last).  Returns false for impossible arguments.
 */
bool order_begin(struct order_iter *it, enum clear_order order, u32 nr,
		 u32 fault, u32 chunk, u32 radius);
/* The next range in clearing order; false when the folio is done. */
bool order_next(struct order_iter *it, struct clear_range *r);

#endif

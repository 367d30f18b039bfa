/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Linux's huge-page clearing loops, transliterated for the host tests of
 * the planner (test_order.c) and of folio_zero() (test_zero.c).  Each loop
 * is written the way mm/memory.c writes it and records a trace: one event
 * per clear call (its first page and page count), one per cond_resched()
 * and one per might_sleep(), in the order Linux makes them.  The code under test
 * records the same events, and the two traces must be equal.
 */
#ifndef TESTS_HOST_LINUX_REF_H
#define TESTS_HOST_LINUX_REF_H

#include <stddef.h>
#include "lib/order.h"
#include "lib/types.h"

#define EV_RESCHED (-1L)	/* ev.start of a cond_resched() */
#define EV_MIGHT_SLEEP (-2L)	/* ev.start of a might_sleep() */

struct ev {
	long start;		/* first 4K page cleared, or EV_RESCHED */
	long npages;
};

struct trace {
	struct ev *ev;
	size_t n, cap;
};

void trace_clear(struct trace *t, long start, long npages);
void trace_resched(struct trace *t);
void trace_might_sleep(struct trace *t);
size_t trace_reschedules(const struct trace *t);
void trace_free(struct trace *t);

/* Linux before 7.0: folio_zero_user() by process_huge_page() and
 * clear_gigantic_page(). */
void ref_process_huge_page(struct trace *t, long nr, long n);
void ref_clear_gigantic_page(struct trace *t, long nr);
void ref_folio_zero_user_pre70(struct trace *t, long nr, long fault);

/* Linux 7.0: the unit clear_contig_highpages() clears between resched
 * points. */
struct ref_model {
	bool preemptible;	/* preempt_model_preemptible(): full, lazy */
	long batch;		/* PROCESS_PAGES_NON_PREEMPT_BATCH, in pages */
};

void ref_clear_contig_highpages(struct trace *t, long page, long nr_pages,
				const struct ref_model *m);
void ref_folio_zero_user(struct trace *t, long nr, long fault, long radius,
			 const struct ref_model *m);

/*
 * The Linux loop each planner order stands for, with @chunk as the batch
 * of a cooperative (none, voluntary) model.
 */
void ref_order(struct trace *t, enum clear_order o, u32 nr, u32 fault,
	       u32 chunk, u32 radius);

/*
 * Every case both test files compare with Linux: each order over 2M and
 * 1G folios (and the 4M/8M converging boundary, and a one-page folio),
 * batches of 1 page to more than a folio, radii 0 to 600.
 */
void ref_each_case(void (*check)(enum clear_order o, u32 nr, u32 chunk,
				 u32 radius));

/* Faults worth testing in a folio of @nr pages: edges, near them, middle. */
u32 ref_faults(u32 nr, u32 *f, u32 max);

/* EXPECTs: @got equals @want event by event; @t clears each page once. */
void expect_same_trace(const char *what, u32 nr, u32 fault,
		       const struct trace *got, const struct trace *want);
void expect_covers_once(const char *what, u32 nr, const struct trace *t);

#endif

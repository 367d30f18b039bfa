/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_ZERO_H
#define LIB_ZERO_H

#include "lib/order.h"
#include "lib/types.h"

/*
 * folio_zero(): the one clearing path, as Linux's folio_zero_user().  It
 * walks the order planner over the folio, calls the primitive on each
 * range and takes the resched points where the order puts them.  The
 * kernel's fault handler and the companion's bare mode both call it;
 * nothing else loops over a plan.
 *
 * lib/ calls nothing above it: the primitive and the resched point come
 * in as callbacks.
 */
struct zero_ops {
	void (*prim)(void *dst, u64 len);	/* arch/x86_64/clear.asm */
	void (*resched)(void *ctx);		/* cond_resched(); may be NULL */
	void *ctx;
	/* Around each primitive call, or NULL: a SIMD primitive's
	 * kernel_fpu_begin()/end(), with a scheduling model or without
	 * (any kernel SIMD user must), so a resched point between two calls
	 * is still one. */
	void (*enter)(void *ctx), (*leave)(void *ctx);
	/* might_sleep(), where Linux's zeroing calls it (the planner's
	 * clear_range.might_sleep, and order=tree's code): might_resched(),
	 * a resched point under voluntary only; NULL: nothing. */
	void (*might_resched)(void *ctx);
};

/*
 * How a folio is zeroed: the one plan type, made by the matrix
 * (matrix_resolve()) and run by the kernel, the companion and the
 * zeroers.  Records say the chunk in bytes (chunk_bytes()).
 */
struct zero_plan {
	enum clear_order order;
	u32 chunk;		/* pages; batched-pages, neighbourhood-last;
				 * 0 where the order takes none */
	u32 radius;		/* pages; neighbourhood-last */
	bool preemptible;	/* order=tree: what the tree's
				 * preempt_model_preemptible() answers
				 * (matrix_preemptible()) */
};

static inline u64 zero_plan_chunk_bytes(const struct zero_plan *p)
{
	return order_uses_chunk(p->order) ? (u64)p->chunk * SZ_4K : 0;
}

/*
 * Zero the folio of @nr 4K pages at @folio, faulted at page @fault.
 * Returns the number of resched points taken (counted whether or not
 * @ops->resched is set), or -1 for arguments the planner refuses
 * (nothing is cleared then).  A plan of ORDER_TREE runs the tree's own
 * entry instead of the planner (lib/tree.h).
 */
s64 folio_zero(u8 *folio, u32 nr, u32 fault, const struct zero_plan *plan,
	       const struct zero_ops *ops);
/* As folio_zero(), and *@calls set to the primitive calls it made (what
 * the run record's prim_calls counts: 1 per range of the plan). */
s64 folio_zero_counted(u8 *folio, u32 nr, u32 fault,
		       const struct zero_plan *plan, const struct zero_ops *ops,
		       u32 *calls);

#endif

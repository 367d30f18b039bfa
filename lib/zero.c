// SPDX-License-Identifier: GPL-2.0-only
/*
 * folio_zero(): the planner's ranges, in its order, handed to the
 * primitive, with the resched points (and might_sleep()'s) where the
 * planner puts them.
 */
#include "lib/tree.h"
#include "lib/zero.h"

s64 folio_zero(u8 *folio, u32 nr, u32 fault, const struct zero_plan *plan,
	       const struct zero_ops *ops)
{
	u32 calls;

	return folio_zero_counted(folio, nr, fault, plan, ops, &calls);
}

s64 folio_zero_counted(u8 *folio, u32 nr, u32 fault,
		       const struct zero_plan *plan, const struct zero_ops *ops,
		       u32 *calls)
{
	struct order_iter it;
	struct clear_range r;
	s64 points = 0;
	u32 n = 0;

	*calls = 0;
	if (plan->order == ORDER_TREE)
		return tree_folio_zero(folio, nr, fault, plan->preemptible, ops,
				       calls);
	if (!order_begin(&it, plan->order, nr, fault, plan->chunk,
			 plan->radius))
		return -1;
	/* One add per call, stored once at the end: nothing a clear of at
	 * least 4K would notice. */
	while (order_next(&it, &r)) {
		n++;
		if (r.might_sleep && ops->might_resched)
			ops->might_resched(ops->ctx);
		if (r.resched) {
			if (ops->resched)
				ops->resched(ops->ctx);
			points++;
		}
		if (ops->enter)
			ops->enter(ops->ctx);
		ops->prim(folio + (u64)r.start * SZ_4K, (u64)r.npages * SZ_4K);
		if (ops->leave)
			ops->leave(ops->ctx);
	}
	*calls = n;
	return points;
}

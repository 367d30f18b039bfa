// SPDX-License-Identifier: GPL-2.0-only
/*
 * folio_zero(): the planner's ranges, in its order, handed to the
 * primitive, with the resched points where the planner puts them.
 */
#include "lib/zero.h"

s64 folio_zero(u8 *folio, u32 nr, u32 fault, const struct zero_plan *plan,
	       const struct zero_ops *ops)
{
	struct order_iter it;
	struct clear_range r;
	s64 points = 0;

	if (!order_begin(&it, plan->order, nr, fault, plan->chunk,
			 plan->radius))
		return -1;
	while (order_next(&it, &r)) {
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
	return points;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * order=tree at run time: the context the tree's code runs in, and the
 * calls lib/tree_shim.h makes of it (docs/linux-tree.md, "The shim").
 */
#include "lib/tree.h"

/* make LINUX=DIR with DIR/mm/memory.c: BUILD/linux-tree/tree_zero.h
 * (given to every compile) says the generated glue is linked. */
#ifdef LINUX_TREE_ZERO
extern const struct tree_zero_desc tree_zero_built;
const struct tree_zero_desc *const tree_zero = &tree_zero_built;
#else
const struct tree_zero_desc *const tree_zero;
#endif

static struct tree_ctx **one_slot(void)
{
	static struct tree_ctx *ctx;

	return &ctx;
}

static struct tree_ctx **(*slot_of)(void) = one_slot;

void tree_slot_register(struct tree_ctx **(*slot)(void))
{
	slot_of = slot ? slot : one_slot;
}

static struct tree_ctx *ctx_now(void)
{
	return *slot_of();
}

s64 tree_folio_zero(u8 *folio, u32 nr, u32 fault, bool preemptible,
		    const struct zero_ops *ops, u32 *calls)
{
	struct tree_ctx ctx = { .ops = ops, .folio = folio, .nr = nr,
				.preemptible = preemptible };
	struct tree_ctx **slot, *prev;

	*calls = 0;
	if (!tree_zero || nr == 0 || fault >= nr)
		return -1;
	/* The slot is this task's: a resched point inside may run another
	 * task's tree code, in its own slot, before this one goes on. */
	slot = slot_of();
	prev = *slot;
	*slot = &ctx;
	tree_zero->run(folio, nr, fault);
	*slot = prev;
	*calls = ctx.calls;
	return ctx.stray ? -1 : ctx.points;
}

/*
 * clear_user_highpage() (one page), clear_user_highpages() and
 * clear_pages() (a range): the selected primitive, one call each, as
 * folio_zero() makes one call per range; with the same enter and leave
 * (a SIMD primitive's kernel_fpu_begin()/end()) around it.  A range
 * outside the folio is not cleared: the tree's code is refused.
 */
void tree_clear(void *addr, unsigned long npages)
{
	struct tree_ctx *ctx = ctx_now();
	const struct zero_ops *ops = ctx->ops;
	u8 *p = addr;

	if (p < ctx->folio || npages > ctx->nr ||
	    (u64)(p - ctx->folio) / SZ_4K > ctx->nr - npages ||
	    (u64)(p - ctx->folio) % SZ_4K) {
		ctx->stray = true;
		return;
	}
	ctx->calls++;
	if (ops->enter)
		ops->enter(ops->ctx);
	ops->prim(p, (u64)npages * SZ_4K);
	if (ops->leave)
		ops->leave(ops->ctx);
}

/* cond_resched(): the active model's resched point, counted as
 * folio_zero() counts its order's. */
int tree_cond_resched(void)
{
	struct tree_ctx *ctx = ctx_now();
	const struct zero_ops *ops = ctx->ops;

	ctx->points++;
	if (ops->resched)
		ops->resched(ops->ctx);
	return 0;
}

/* might_sleep(): might_resched() in Linux, a resched point under
 * voluntary only (the model's, through @ops); not counted as one. */
void tree_might_sleep(void)
{
	const struct zero_ops *ops = ctx_now()->ops;

	if (ops->might_resched)
		ops->might_resched(ops->ctx);
}

bool tree_preemptible(void)
{
	return ctx_now()->preemptible;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The benchmark's #PF handler.  Only not-present faults inside the active
 * region are ours; anything else falls through to the fatal path.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/traps.h"
#include "arch/x86_64/tsc.h"
#include "kernel/bench/fault.h"

/* A real call, as cond_resched() is in Linux when there is nothing to do. */
__attribute__((noinline)) void cond_resched(void)
{
	this_cpu()->resched_points++;
	barrier();
}

static void clear_folio(struct fault_ctx *fc, u8 *dst, u32 nr, u32 page)
{
	struct order_iter it;
	struct clear_range r;

	order_begin(&it, fc->order, nr, page, fc->chunk_pages, fc->radius);
	while (order_next(&it, &r)) {
		if (r.resched)
			cond_resched();
		fc->clear(dst + (u64)r.start * SZ_4K, (u64)r.npages * SZ_4K);
	}
}

static bool fault_handle(struct regs *r)
{
	struct percpu *pc = this_cpu();
	struct fault_ctx *fc = pc->fault;
	u64 cr2 = read_cr2(), bytes, va, t0, t1, rp;
	struct folio *f;
	u32 page;

	if (!fc || !fc->active || cr2 < fc->region || cr2 >= fc->region_end ||
	    (r->error & PF_ERR_P))
		return false;
	/* More faults than folios: not ours to handle; the fatal path reports. */
	if (fc->nfaults >= fc->max || !(f = pool_take(fc->pool)))
		return false;
	bytes = fc->pool->bytes;
	va = ALIGN_DOWN(cr2, bytes);
	page = (u32)((cr2 - va) / SZ_4K);
	rp = pc->resched_points;
	t0 = tsc_begin();
	clear_folio(fc, phys_to_virt(f->pa), (u32)(bytes / SZ_4K), page);
	t1 = tsc_end();
	if (fc->inject_skip_line && fc->nfaults % 5 == 2)
		*(volatile u64 *)((u8 *)phys_to_virt(f->pa) + bytes / 2 + 64) =
			0x5a5a5a5a5a5a5a5aULL;
	if (pt_map(fc->pml4, va, f->pa, fc->leaf, PTE_U | PTE_W | PTE_NX) != PT_OK)
		return false;
	f->mapped = 1;
	fc->resched += pc->resched_points - rp;
	fc->clear_ticks[fc->nfaults] = t1 - t0;
	fc->fault_page[fc->nfaults] = page;
	fc->nfaults++;
	return true;
}

void fault_init(void)
{
	trap_set_handler(X86_PF, fault_handle);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The benchmark's #PF handler.  Only not-present faults inside the armed
 * region of this CPU are ours; anything else falls through to the fatal
 * path.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/traps.h"
#include "arch/x86_64/tsc.h"
#include "kernel/bench/fault.h"
#include "kernel/sched/fpu.h"
#include "kernel/sched/sched.h"

static struct fault_ctx *armed[MAX_CPUS];

void fault_arm(u32 cpu, struct fault_ctx *fc)
{
	armed[cpu] = fc;
}

void fault_disarm(u32 cpu)
{
	armed[cpu] = NULL;
}

static void resched(void *ctx)
{
	(void)ctx;
	cond_resched();
}

/* order=tree's might_sleep(): might_resched(), as Linux's. */
static void resched_might(void *ctx)
{
	(void)ctx;
	might_resched();
}

/*
 * Around each primitive call: a probe that runs now ran inside a call of
 * fault `current`; a SIMD call runs between kernel_fpu_begin() and
 * kernel_fpu_end(), as Linux's kernel SIMD, model or none (Linux has no
 * kernel SIMD without them), so it is not preemptible but the resched
 * points between calls still are; under a model the first begin of a
 * fault saves the workload's registers, the return to it loads them
 * (kernel/sched/fpu.h).  Each pair is counted.
 */
static void call_enter(void *ctx)
{
	struct fault_ctx *fc = ctx;

	if (fc->simd)
		kernel_fpu_begin();
	fc->current = fc->nfaults;
}

static void call_leave(void *ctx)
{
	struct fault_ctx *fc = ctx;

	fc->current = ~0ULL;
	if (fc->simd) {
		kernel_fpu_end();
		fc->fpu_pairs++;
	}
}

/*
 * Linux: do_huge_pmd_anonymous_page() and hugetlb_no_page() make the
 * entry young, and dirty on a write fault (maybe_pmd_mkwrite(pmd_mkdirty())
 * / huge_pte_mkdirty()), so the retried access needs no A/D assist.  The
 * benchmark's touches are write faults.  A read fault (only the pte
 * self-test makes one, to see the hardware set A) gets Accessed and stays
 * writable: Linux would map the huge zero page (THP) or a read-only entry
 * (private hugetlb) instead.
 */
u64 fault_leaf_flags(bool pte_linux, bool write)
{
	u64 f = PTE_U | PTE_W | PTE_NX;

	if (pte_linux)
		f |= PTE_A | (write ? PTE_D : 0);
	return f;
}

/* inject=skip-line: what a clear that missed these lines would leave. */
/* @folio NULL: a folio zeroed in advance, not cleared here, so nothing
 * of this fault's is planted (and the count says so). */
static void dirty_lines(struct fault_ctx *fc, u8 *folio)
{
	while (fc->next_line < fc->nlines &&
	       fc->lines[fc->next_line].fault == fc->nfaults) {
		if (folio) {
			*(volatile u64 *)(folio + (u64)fc->lines[fc->next_line].line *
					  LINE) = 0x5a5a5a5a5a5a5a5aULL;
			fc->planted++;
		}
		fc->next_line++;
	}
}

/* inject=overrun: what a primitive that wrote past its range would
 * leave, after the clear's timer pair. */
static void overrun(struct fault_ctx *fc, const struct folio *f)
{
	volatile u64 *line;

	if (!fc->overrun_pa || (u32)(f - fc->pool->f) != fc->overrun_folio)
		return;
	line = phys_to_virt(fc->overrun_pa);
	for (u32 i = 0; i < LINE / 8; i++)
		line[i] = 0;
}

static u64 map_pa(struct fault_ctx *fc, const struct folio *f)
{
	/* inject=wrong-pa: the next folio's frame, a mapping bug to catch
	 * (next to the one taken: faults take zeroed folios first). */
	if (fc->nfaults == fc->wrong_pa_fault && fc->pool->n > 1)
		return fc->pool->f[(u32)(f - fc->pool->f + 1) % fc->pool->n].pa;
	return f->pa;
}

static u64 leaf_entry(const u64 *pml4, u64 va)
{
	struct pt_walk w;

	return pt_walk(pml4, va, &w) ? w.entry : 0;
}

static bool fault_handle(struct regs *r)
{
	struct fault_ctx *fc = armed[this_cpu()->cpu];
	u64 cr2 = read_cr2(), bytes, va, t0, t1;
	struct zero_ops ops = { NULL, resched, fc, NULL, NULL, NULL };
	struct folio *f;
	s64 taken;
	u32 page, calls;

	if (!fc || cr2 < fc->region || cr2 >= fc->region_end ||
	    (r->error & PF_ERR_P))
		return false;
	/* More faults than folios: not ours to handle; the fatal path reports. */
	if (fc->nfaults >= fc->max || !(f = pool_take(fc->pool)))
		return false;
	bytes = fc->pool->bytes;
	va = ALIGN_DOWN(cr2, bytes);
	page = (u32)((cr2 - va) / SZ_4K);
	if (fc->taken)		/* self-tests arm without one */
		fc->taken[fc->nfaults] = (u32)(f - fc->pool->f) |
					 (f->zeroed ? TAKEN_ZEROED : 0);
	ops.prim = fc->prim;
	/* do_user_addr_fault(): local_irq_enable() if the faulting context
	 * had interrupts on.  Without a model nothing here changes. */
	if (fc->model_on || fc->simd) {
		ops.enter = call_enter;
		ops.leave = call_leave;
	}
	if (fc->model_on) {
		ops.might_resched = resched_might;
		if (r->rflags & RFLAGS_IF)
			irq_enable();
		/* The folio allocation's might_sleep(): a reschedule point
		 * under voluntary (vma_alloc_folio -> might_alloc), which a
		 * folio zeroed in advance still passes. */
		might_resched();
	}
	/* Zeroed in advance: folio_zero_user() is skipped, nothing else
	 * (its clear is 0). */
	if (f->zeroed) {
		if (fc->model_on)
			irq_disable();
		fc->prezeroed++;
		t0 = t1 = 0;
		for (u32 i = 0; i < fc->npmu; i++)
			fc->pmu_v[i][fc->nfaults] = 0;	/* no clear to count */
		dirty_lines(fc, NULL);
		goto map;
	}
	/* The counters around the clear only, read before and after its
	 * timer pair: nothing written to an MSR in between. */
	for (u32 i = 0; i < fc->npmu; i++)
		fc->pmu_v[i][fc->nfaults] = pmu_read(fc->pmu[i]);
	t0 = tsc_begin();
	taken = folio_zero_counted(phys_to_virt(f->pa), (u32)(bytes / SZ_4K),
				   page, &fc->plan, &ops, &calls);
	t1 = tsc_end();
	for (u32 i = 0; i < fc->npmu; i++)
		fc->pmu_v[i][fc->nfaults] = pmu_value(fc->pmu[i], pmu_read(fc->pmu[i]) -
						      fc->pmu_v[i][fc->nfaults]);
	if (fc->model_on)
		irq_disable();
	if (taken < 0)
		return false;
	fc->resched += (u64)taken;
	fc->prim_calls += calls;
	fc->prim_calls_max = MAX(fc->prim_calls_max, calls);
	dirty_lines(fc, phys_to_virt(f->pa));
	overrun(fc, f);
map:
	if (pt_map(fc->pml4, va, map_pa(fc, f), fc->leaf,
		   fault_leaf_flags(fc->pte_linux, r->error & PF_ERR_W)) != PT_OK)
		return false;
	f->mapped = 1;
	fc->last_entry = leaf_entry(fc->pml4, va);
	fc->clear_ticks[fc->nfaults] = t1 - t0;
	fc->fault_page[fc->nfaults] = page;
	fc->nfaults++;
	return true;
}

void fault_init(void)
{
	trap_set_handler(X86_PF, fault_handle);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Self-tests: the leaf the fault path installs, read back by a page walk.
 * pte=linux installs it Accessed and, on a write fault, Dirty, as Linux
 * does; pte=clean installs neither and the hardware sets them on the
 * retried access (the A/D assist pte=clean measures).  The real #PF
 * handler runs: the test touches a not-present folio at ring 0 in a
 * workload address space of its own.
 */
#include "arch/x86_64/clear.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/percpu.h"
#include "kernel/bench/fault.h"
#include "kernel/bench/workload.h"
#include "kernel/mm/memory.h"
#include "kernel/selftest/selftest.h"
#include "lib/string.h"

struct pte_case {
	bool pte_linux, write;
	u64 installed, after;	/* out: the leaf at install, after the touch */
};

static bool touch_once(struct tctx *t, struct pte_case *pc)
{
	struct workload wl;
	struct fault_ctx fc;
	struct folio slot;
	struct pool pool;
	u64 ticks = 0, page = 0, va = REGION_VA(FOLIO_2M);
	struct pt_walk w;
	bool ok = false;

	if (!workload_create(&wl, WL_MAX_FAULTS, FRAME_ANY_NODE) ||
	    !pool_create(&pool, &slot, SZ_2M, 1)) {
		skip(t, "no memory for a workload address space and a 2M folio");
		workload_destroy(&wl);
		return false;
	}
	memset(&fc, 0, sizeof(fc));
	fc.pml4 = wl.pml4;
	fc.region = va;
	fc.region_end = va + SZ_2M;
	fc.leaf = LEAF_2M;
	fc.pool = &pool;
	fc.prim = prim_fns[PRIM_REP];
	fc.plan = (struct zero_plan){ ORDER_CONTIGUOUS, 1, 0, false };
	fc.pte_linux = pc->pte_linux;
	fc.wrong_pa_fault = ~0u;
	fc.max = 1;
	fc.clear_ticks = &ticks;
	fc.fault_page = &page;
	fault_init();
	workload_enter_space(&wl);
	fault_arm(this_cpu()->cpu, &fc);
	if (pc->write)
		*(volatile u8 *)(va + 64) = 0;
	else
		(void)*(volatile u8 *)(va + 64);
	fault_disarm(this_cpu()->cpu);
	if (check(t, fc.nfaults == 1, "%u faults taken, expected 1", fc.nfaults) &&
	    check(t, pt_walk(wl.pml4, va, &w), "no leaf after the fault")) {
		pc->installed = fc.last_entry;
		pc->after = w.entry;
		ok = true;
	}
	pt_unmap(wl.pml4, va, LEAF_2M, NULL);
	workload_leave_space();
	pool_destroy(&pool);
	workload_destroy(&wl);
	return ok;
}

static bool has(u64 e, u64 bit)
{
	return (e & bit) != 0;
}

static void linux_write(struct tctx *t)
{
	struct pte_case pc = { true, true, 0, 0 };

	if (!touch_once(t, &pc))
		return;
	check(t, has(pc.installed, PTE_A) && has(pc.installed, PTE_D),
	      "installed %#llx: A and D not both set", (unsigned long long)pc.installed);
	check(t, has(pc.after, PTE_A) && has(pc.after, PTE_D),
	      "after the write %#llx: A and D not both set", (unsigned long long)pc.after);
}

static void linux_read(struct tctx *t)
{
	struct pte_case pc = { true, false, 0, 0 };

	if (!touch_once(t, &pc))
		return;
	check(t, has(pc.installed, PTE_A) && !has(pc.installed, PTE_D),
	      "installed %#llx: want A set, D clear (a read fault is not "
	      "dirty)", (unsigned long long)pc.installed);
}

static void clean_read(struct tctx *t)
{
	struct pte_case pc = { false, false, 0, 0 };

	if (!touch_once(t, &pc))
		return;
	check(t, !has(pc.installed, PTE_A) && !has(pc.installed, PTE_D),
	      "installed %#llx: A or D set under pte=clean",
	      (unsigned long long)pc.installed);
	check(t, !has(pc.after, PTE_D), "after a read %#llx: D set",
	      (unsigned long long)pc.after);
	check(t, has(pc.after, PTE_A), "after a read %#llx: the hardware "
	      "did not set A", (unsigned long long)pc.after);
}

static void clean_write(struct tctx *t)
{
	struct pte_case pc = { false, true, 0, 0 };

	if (!touch_once(t, &pc))
		return;
	check(t, !has(pc.installed, PTE_A) && !has(pc.installed, PTE_D),
	      "installed %#llx: A or D set under pte=clean",
	      (unsigned long long)pc.installed);
	check(t, has(pc.after, PTE_A) && has(pc.after, PTE_D),
	      "after a write %#llx: the hardware did not set A and D",
	      (unsigned long long)pc.after);
}

SUITE(suite_pte, "pte",
	{ "linux_write_fault_sets_a_and_d", linux_write },
	{ "linux_read_fault_sets_a_only", linux_read },
	{ "clean_read_fault_hardware_sets_a_not_d", clean_read },
	{ "clean_write_fault_hardware_sets_a_and_d", clean_write },
);

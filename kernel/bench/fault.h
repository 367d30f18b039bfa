/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_BENCH_FAULT_H
#define KERNEL_BENCH_FAULT_H

#include "arch/x86_64/clear.h"
#include "arch/x86_64/paging.h"
#include "arch/x86_64/pmu.h"
#include "kernel/mm/pool.h"
#include "lib/benchrec.h"
#include "lib/verify.h"
#include "lib/zero.h"

/*
 * The page-fault path of the benchmark, as Linux's hugetlb/THP anonymous
 * fault: take a free folio, zero it through the direct map with
 * folio_zero() (timed), install the leaf the way pte= says, return; the
 * touch is retried and succeeds.  One context per CPU, armed for a run.
 */
#define FAULT_PMU_MAX BENCH_PMU_MAX	/* events sampled per fault */

struct fault_ctx {
	u64 *pml4;
	u64 region, region_end;
	enum leaf_size leaf;
	struct pool *pool;
	prim_fn prim;
	struct zero_plan plan;
	bool pte_linux;		/* pte=linux: A and D as Linux installs them */
	/* Test-only faults (inject=): dirty lines, sorted by fault, and the
	 * fault whose folio is mapped at another folio's address (~0: none). */
	const struct dirty_line *lines;
	u32 nlines, next_line;
	u32 planted;		/* lines actually dirtied (not on zeroed ones) */
	u32 wrong_pa_fault;
	/* inject=overrun: clearing this folio writes a line of zeros at
	 * overrun_pa (its guard); overrun_pa 0: none */
	u32 overrun_folio;
	u64 overrun_pa;
	/* results, indexed by fault number */
	u32 nfaults, max;
	u64 *clear_ticks;
	u64 *fault_page;	/* 4K page index within the folio */
	u32 *taken;		/* the folio's index in the pool, and
				 * TAKEN_ZEROED if it came zeroed */
	u32 prezeroed;		/* faults served by a zeroed folio */
	/* pmu=: counted slots, read around each clear; deltas per fault */
	const struct pmu_slot *pmu[FAULT_PMU_MAX];
	u64 *pmu_v[FAULT_PMU_MAX];
	u32 npmu;
	u64 resched;		/* resched points taken, this run */
	/* primitive calls of the faults that cleared, this run: the sum
	 * and the most one fault made (folio_zero_counted()) */
	u64 prim_calls;
	u32 prim_calls_max;
	u64 last_entry;		/* the leaf as installed by the last fault */
	/* Under a scheduling model: interrupts on while clearing, as Linux's
	 * fault path runs. */
	bool model_on;
	/* A SIMD primitive: each call between kernel_fpu_begin/end, with a
	 * model or without (any kernel SIMD user must); the pairs, this run */
	bool simd;
	u64 fpu_pairs;
	volatile u64 current;	/* the fault whose folio_zero() runs; ~0 */
};

#define TAKEN_ZEROED (1u << 31)

/* Hook the #PF vector (once). */
void fault_init(void);
/* Faults in @fc's region on CPU @cpu are @fc's until disarmed. */
void fault_arm(u32 cpu, struct fault_ctx *fc);
void fault_disarm(u32 cpu);
/* The leaf flags a fault installs: pte=linux sets Accessed, and Dirty on
 * a write fault, as Linux's fault path does. */
u64 fault_leaf_flags(bool pte_linux, bool write);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_FAULT_H
#define KERNEL_FAULT_H

#include "arch/x86_64/clear.h"
#include "arch/x86_64/paging.h"
#include "kernel/mm/pool.h"
#include "lib/order.h"

/*
 * The page-fault path of the benchmark, as folio_zero_user() plus the
 * mapping around it: take a free folio, zero it through the direct map
 * with the configured primitive and order (timed), map it, return.
 */
struct fault_ctx {
	bool active;
	u64 *pml4;
	u64 region, region_end;
	enum leaf_size leaf;
	struct pool *pool;
	prim_fn clear;
	enum clear_order order;
	u32 chunk_pages, radius;
	bool inject_skip_line;	/* test the verifier: leave one line dirty */
	/* results, indexed by fault number */
	u32 nfaults, max;
	u64 *clear_ticks;
	u64 *fault_page;	/* 4K page index within the folio */
	u64 resched;		/* resched points passed, this run */
};

/* Hook the #PF vector; a CPU handles faults for this_cpu()->fault. */
void fault_init(void);
/* A resched point: Linux's cond_resched(); counted until scheduling exists. */
void cond_resched(void);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_POOL_H
#define KERNEL_POOL_H

#include "lib/types.h"

#define POOL_MAX 262144		/* 1 GiB of 4K folios; 512 GiB of 2M */
#define POOL_GUARDS 64

/*
 * The folio pool: free folios of one size that faults take, in FIFO order
 * (so run after run, fault k gets the same folio).  Each folio carries a
 * zeroed state for pre-zeroing; nothing sets it yet, so every fault clears.
 * One pool per CPU that faults; its descriptors are that CPU's.
 */
enum folio_state { FOLIO_UNZEROED, FOLIO_ZEROED };

struct folio {
	u64 pa;
	u32 zeroed;		/* enum folio_state */
	u32 mapped;
};

struct pool {
	u64 bytes;		/* folio size */
	u32 n, next;
	struct folio *f;
	u32 nguards;
	u64 guard_pa[POOL_GUARDS];	/* 4K frames next to folios */
};

/*
 * Up to @n folios of @bytes (at most POOL_MAX), described in the caller's
 * @slots: as many as memory holds.  Returns how many.
 */
u32 pool_create(struct pool *p, struct folio *slots, u64 bytes, u32 n);
/* The same, folio i from NUMA node @nodes[i % @nnodes] (numa=). */
u32 pool_create_on(struct pool *p, struct folio *slots, u64 bytes, u32 n,
		   const u32 *nodes, u32 nnodes);
/* Give back every folio past the first @n. */
void pool_shrink(struct pool *p, u32 n);
void pool_destroy(struct pool *p);
struct folio *pool_take(struct pool *p);
/* Every folio back to free, in the original order. */
void pool_reset(struct pool *p);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_POOL_H
#define KERNEL_POOL_H

#include "arch/x86_64/spinlock.h"
#include "lib/types.h"

#define POOL_MAX 262144		/* 1 GiB of 4K folios; 512 GiB of 2M */
#define POOL_GUARDS 64

/*
 * The folio pool: free folios of one size that faults take.  Free folios
 * are kept in two FIFO lists, zeroed and not (Windows' zeroed and free
 * page lists, hugetlb's free list with Li Zhe's zeroed state): a fault
 * takes a zeroed one when there is one.  Without pre-zeroing every folio
 * is on the unzeroed list in index order, so run after run fault k gets
 * folio k.  One pool per CPU that faults; a zeroer on another CPU (the
 * dedicated one) takes folios off it under its lock.
 */
enum folio_state { FOLIO_UNZEROED, FOLIO_ZEROED };

struct folio {
	u64 pa;
	u32 zeroed;		/* enum folio_state */
	u32 mapped;
	u32 next;		/* the list it is on */
};

struct folio_list {
	u32 head, tail, count;
};

struct pool {
	u64 bytes;		/* folio size */
	u32 n;
	struct folio *f;
	struct folio_list zeroed, unzeroed;
	u32 busy;		/* taken by a zeroer, not yet back */
	struct spinlock lock;
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
/*
 * A free folio for a fault: the oldest zeroed one, else the oldest
 * unzeroed one (its zeroed state says which); while a zeroer holds the
 * last free ones, waits for it.  NULL when none is free.
 */
struct folio *pool_take(struct pool *p);
/* For a zeroer: the oldest unzeroed free folio, held until it puts it
 * back zeroed; NULL when there is none. */
struct folio *pool_take_unzeroed(struct pool *p);
void pool_put_zeroed(struct pool *p, struct folio *f);
/* Every folio back to free, in index order on its list: one that was
 * mapped (its contents the workload's) as unzeroed.  No zeroer may hold
 * one. */
void pool_reset(struct pool *p);
/* Free zeroed folios now. */
static inline u32 pool_zeroed(const struct pool *p)
{
	return __atomic_load_n(&p->zeroed.count, __ATOMIC_RELAXED);
}

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_POOL_H
#define KERNEL_POOL_H

#include "arch/x86_64/spinlock.h"
#include "lib/types.h"

#define POOL_MAX 262144		/* 1 GiB of 4K folios; 512 GiB of 2M */
#define POOL_RUNS 64		/* contiguous runs a pool's folios may lie in */
#define POOL_GUARDS (2 * POOL_RUNS)

/*
 * The folio pool: free folios of one size that faults take.  Free folios
 * are kept in two FIFO lists, zeroed and not (Windows' zeroed and free
 * page lists, hugetlb's free list with Li Zhe's zeroed state): a fault
 * takes a zeroed one when there is one.  Without pre-zeroing every folio
 * is on the unzeroed list in index order, so run after run fault k gets
 * folio k.  One pool per CPU that faults; a zeroer on another CPU (the
 * dedicated one) takes folios off it under its lock.
 *
 * Its folios lie in a few contiguous runs, each taken from the frame
 * allocator in one operation and given back in one, so that pools made
 * and freed at once by many CPUs neither interleave nor leave islands.
 * Beside each run lies a guard frame of the pool's own on either side
 * (docs/smp.md, "Memory").
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

/* What one run took from the frame allocator: its folios and pads; its
 * folios are f[first], f[first + stride], ... */
struct pool_run {
	u64 start, end;
	u32 first, stride;
};

/* A 4K frame beside a run, filled with the pattern and checked after
 * every pass: a clear that runs past its folio writes it. */
struct pool_guard {
	u64 pa;
	u32 folio;		/* the folio it lies beside */
	bool after;		/* just past that folio's end, else before it */
	bool claimed;		/* taken on its own, not as its run's pad */
};

struct pool {
	u64 bytes;		/* folio size */
	u32 n;
	struct folio *f;
	struct folio_list zeroed, unzeroed;
	u32 busy;		/* taken by a zeroer, not yet back */
	/* Faults that waited for a zeroer's folio, and for how long (TSC
	 * ticks): hugetlb's hpage_wait_zerobusy() in Frank van der Linden's
	 * pre-zeroing, whose test counts its "prezero waits". */
	u32 waits;
	u64 wait_ticks;
	u64 wait_since;		/* the TSC a wait under way began at; 0 none */
	struct spinlock lock;
	u32 cpu;		/* whose: the CPU that faults on it */
	u32 nruns, nguards;
	struct pool_run run[POOL_RUNS];
	struct pool_guard guard[POOL_GUARDS];
};

/* One pool of a set made together, and where its folios come from. */
struct pool_req {
	struct pool *p;
	struct folio *slots;	/* its descriptors: POOL_MAX of them */
	u32 cpu;
	const u32 *nodes;	/* folio i from NUMA node nodes[i % nnodes] */
	u32 nnodes;		/* 0: anywhere */
};

/*
 * Up to @n folios of @bytes (at most POOL_MAX) from anywhere, described
 * in the caller's @slots: as many as memory holds.  Returns how many.
 */
u32 pool_create(struct pool *p, struct folio *slots, u64 bytes, u32 n);
/*
 * The pools of @nreq CPUs, made by one CPU while no other allocates:
 * each exactly the same number of folios of @bytes, the most up to @want
 * that really fit with @slack bytes and the regions' page tables left
 * free, found by trial allocations that are given back.  Every pool's
 * runs are made before the next pool's, so pools do not interleave.
 * Returns the count (0: none fit, nothing taken).
 */
u32 pools_create(const struct pool_req *r, u32 nreq, u64 bytes, u32 want,
		 u64 slack);
/*
 * Give every run and guard back.  Returns how many frees failed (each
 * reported by the frame allocator): a caller fails the run on any.
 */
u32 pool_destroy(struct pool *p);
/*
 * A free folio for a fault: the oldest zeroed one, else the oldest
 * unzeroed one (its zeroed state says which); while a zeroer holds the
 * last free ones, waits for it (reading, not locking).  NULL when none
 * is free, or the run was aborted while it waited.
 */
struct folio *pool_take(struct pool *p);
/* Count waits from none again (before a pass). */
static inline void pool_wait_reset(struct pool *p)
{
	p->waits = 0;
	p->wait_ticks = 0;
	p->wait_since = 0;
}
/* For a zeroer: the oldest unzeroed free folio, held until it puts it
 * back zeroed; NULL when there is none (seen without the lock). */
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

/*
 * One step of a wait on another CPU: @*spins PAUSEs, doubling up to @max,
 * so that a waiter reads the line it waits on ever less often and still
 * sees a change within @max PAUSEs.  The caller starts @*spins at 0.
 */
static inline void pool_backoff(u32 *spins, u32 max)
{
	for (u32 i = 0; i < *spins; i++)
		cpu_relax();
	*spins = MIN(*spins * 2 + 1, max);
}

#endif

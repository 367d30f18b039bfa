/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_EXTENT_H
#define LIB_EXTENT_H

#include "lib/types.h"

/*
 * The logic of the physical frame allocator: a sorted array of disjoint,
 * non-adjacent free extents [start, end).  Allocation is best fit with
 * natural alignment, so 4K page-table frames come out of small leftovers
 * and 1G folios stay whole.  It knows nothing of hardware and runs on the
 * host under the sanitizers; kernel/mm/memory.c wraps it (under its
 * lock: CPUs allocate at once).
 *
 * Extents, not a bitmap or buddy lists: the kernel makes few, large
 * allocations (page tables, 2M/1G folios for the pool), memory can be
 * terabytes with holes, and a 16-byte entry per free run scales to that.
 */

#define EXTENT_NONE (~0ULL)

struct extent {
	u64 start, end;
};

struct extent_set {
	struct extent *e;
	u32 n, cap;
	u64 free_bytes;
	/* Where e lies when the set took it from itself (extent_keep_room);
	 * EXTENT_NONE for the caller's array (extent_init). */
	u64 buf_pa, buf_bytes;
};

enum extent_err {
	EXTENT_OK = 0,
	EXTENT_EOVERLAP = -1,	/* freeing memory that is already free */
	EXTENT_ENOSPC = -2,	/* the extent array is full */
	EXTENT_EINVAL = -3,	/* empty or inverted range */
};

void extent_init(struct extent_set *s, struct extent *buf, u32 cap);
/* What an enum extent_err says, for messages. */
const char *extent_strerror(int err);
int extent_add(struct extent_set *s, u64 start, u64 end);
int extent_remove(struct extent_set *s, u64 start, u64 end);
/* Best fit of @size bytes aligned to @align, ending at or below @limit. */
u64 extent_alloc(struct extent_set *s, u64 size, u64 align, u64 limit);
/* The same, lying entirely within [@lo, @hi): one NUMA node's memory. */
u64 extent_alloc_range(struct extent_set *s, u64 size, u64 align, u64 lo,
		       u64 hi);
bool extent_is_free(const struct extent_set *s, u64 start, u64 end);
bool extent_overlaps_free(const struct extent_set *s, u64 start, u64 end);
/* How many naturally aligned blocks of @size could be carved out now. */
u64 extent_count_blocks(const struct extent_set *s, u64 size);
/* The same, counting only blocks lying entirely within [@lo, @hi). */
u64 extent_count_blocks_range(const struct extent_set *s, u64 size, u64 lo,
			      u64 hi);


/*
 * Runs: many blocks in one operation, so that a pool of thousands of
 * folios is a few extents taken and given back, not thousands.
 */
struct extent_run {
	u64 pa;		/* the first block */
	u64 n;		/* blocks */
	u64 room;	/* length of the extent it lies in */
};

/*
 * Where a run of up to @max naturally aligned blocks of @size would lie
 * within [@lo, @hi), with @pad more free bytes taken on each side of it
 * (guard frames; they may lie outside [@lo, @hi)): in the shortest
 * extent that holds all @max (best fit, as extent_alloc), else in the
 * one that holds the most.  Nothing is taken; false when not one block
 * fits.
 */
bool extent_find_run(const struct extent_set *s, u64 size, u64 max, u64 pad,
		     u64 lo, u64 hi, struct extent_run *r);
/* Whether @a is a better place than @b for a run of @max blocks. */
bool extent_run_better(const struct extent_run *a, const struct extent_run *b,
		       u64 max);
/* Take [@r->pa - @pad, @r->pa + @r->n * @size + @pad): one operation. */
int extent_take_run(struct extent_set *s, const struct extent_run *r,
		    u64 size, u64 pad);

/*
 * Keep at least @headroom free slots, so that no operation finds the
 * array full: when fewer are left, move the set to an array twice the
 * size, taken from its own free memory (best fit, 4K aligned, below
 * @limit) and reached through @to_virt; an old array that came from the
 * set too is given back to it.  Each operation needs at most one slot, so
 * calling this after every operation with @headroom >= 3 leaves the two
 * the move itself needs.  EXTENT_ENOSPC: no memory for a larger array
 * (the set is unchanged and still works until the slots run out).
 */
int extent_keep_room(struct extent_set *s, u32 headroom, u64 limit,
		     void *(*to_virt)(u64 pa));

#endif

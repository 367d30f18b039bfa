/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_EXTENT_H
#define LIB_EXTENT_H

#include "lib/types.h"

/*
 * The logic of the physical frame allocator: a sorted array of disjoint,
 * non-adjacent free extents [start, end).  Allocation is best fit with
 * natural alignment, so 4K page-table frames come out of small leftovers
 * and 1G folios stay whole.  It knows nothing of hardware and runs on the
 * host under the sanitizers; kernel/mm/memory.c wraps it (no lock yet:
 * one CPU allocates).
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
};

enum extent_err {
	EXTENT_OK = 0,
	EXTENT_EOVERLAP = -1,	/* freeing memory that is already free */
	EXTENT_ENOSPC = -2,	/* the extent array is full */
	EXTENT_EINVAL = -3,	/* empty or inverted range */
};

void extent_init(struct extent_set *s, struct extent *buf, u32 cap);
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

#endif

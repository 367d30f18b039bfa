/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_NUMA_H
#define LIB_NUMA_H

#include "lib/types.h"

/*
 * NUMA nodes as Linux numbers them: dense, 0..n-1, in the order the SRAT
 * first names their proximity domains.  Here, not in lib/srat.h, because
 * the frame allocator (kernel/mm) allocates from a node's ranges without
 * knowing where they came from.
 */
#define NUMA_MAX_NODES 64
#define NUMA_MAX_RANGES 256
#define NUMA_NO_NODE (~0u)

/* Linux's LOCAL_DISTANCE and REMOTE_DISTANCE: what a missing SLIT means. */
#define NUMA_LOCAL_DISTANCE 10
#define NUMA_REMOTE_DISTANCE 20

/* Memory the SRAT puts in one node (it may hold holes the memory map has). */
struct mem_node_range {
	u64 start, end;		/* [start, end) */
	u32 node;
	bool hotplug;		/* may be added or removed at run time */
	bool nonvolatile;	/* persistent memory */
};

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_MM_KMEM_H
#define KERNEL_MM_KMEM_H

#include "lib/types.h"

/*
 * Zeroed kernel memory sized to whole 4K frames rather than 2M ones: one
 * physically contiguous run seen through the direct map, from NUMA node
 * @node where it has such a run (FRAME_ANY_NODE: anywhere), else from
 * anywhere, else vmem_alloc()'s 2M frames.  For a CPU's arrays sized by
 * what its configuration uses, made on the CPU's own node as Linux
 * places each CPU's per-CPU unit (mm/percpu.c, pcpu_fc_alloc():
 * memblock_alloc_try_nid(..., cpu_to_node(cpu))).  NULL without memory.
 */
void *kmem_alloc(u64 bytes, u32 node);
/* Give back what kmem_alloc(@bytes) returned (NULL: nothing). */
void kmem_free(void *p, u64 bytes);

#endif

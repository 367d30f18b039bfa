// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel memory in 4K frames (kernel/mm/kmem.h): a run from the frame
 * allocator seen through the direct map, or vmem_alloc() when no run is
 * that long.
 */
#include "arch/x86_64/paging.h"
#include "kernel/mm/kmem.h"
#include "kernel/mm/memory.h"
#include "kernel/mm/vmem.h"
#include "lib/string.h"

/* A run of exactly @pages 4K frames from @node, or FRAME_NONE. */
static u64 run_of(u64 pages, u32 node)
{
	u64 got, pa = frame_alloc_run(SZ_4K, pages, 0, node, &got);

	if (pa == FRAME_NONE || got == pages)
		return pa;
	/* Only a shorter one there: given back whole. */
	frame_free_range(pa, pa + got * SZ_4K);
	return FRAME_NONE;
}

void *kmem_alloc(u64 bytes, u32 node)
{
	u64 pages = ALIGN_UP(bytes, SZ_4K) / SZ_4K, pa = FRAME_NONE;

	if (!bytes)
		return NULL;
	if (node != FRAME_ANY_NODE)
		pa = run_of(pages, node);
	if (pa == FRAME_NONE)
		pa = run_of(pages, FRAME_ANY_NODE);
	if (pa == FRAME_NONE)
		return vmem_alloc(bytes);
	memset(phys_to_virt(pa), 0, pages * SZ_4K);
	return phys_to_virt(pa);
}

void kmem_free(void *p, u64 bytes)
{
	u64 pa;

	if (!p)
		return;
	pa = virt_to_phys(p);
	/* Not seen through the direct map: vmem_alloc()'s. */
	if (pa == ~0ULL || phys_to_virt(pa) != p) {
		vmem_free(p);
		return;
	}
	frame_free_range(pa, pa + ALIGN_UP(bytes, SZ_4K));
}

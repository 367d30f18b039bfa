// SPDX-License-Identifier: GPL-2.0-only
#include "arch/x86_64/paging.h"
#include "kernel/mm/kstack.h"
#include "kernel/mm/memory.h"
#include "lib/string.h"

/* The window's virtual space is not given back (a bump allocation): a
 * freed stack leaves its addresses unmapped, guard and all. */
void kstack_free(void *base, u64 bytes)
{
	u64 va = (u64)base, pa;

	for (u64 off = 0; off < bytes; off += SZ_4K)
		if (pt_unmap(kernel_pml4, va + off, LEAF_4K, &pa) == PT_OK)
			frame_free(pa, SZ_4K);
}

void *kstack_alloc(u64 bytes)
{
	u64 va = kmap_reserve(SZ_4K + bytes, SZ_4K), pa;

	if (!va || !bytes || !IS_ALIGNED(bytes, SZ_4K))
		return NULL;
	va += SZ_4K;		/* the guard stays unmapped */
	for (u64 off = 0; off < bytes; off += SZ_4K) {
		pa = frame_alloc(SZ_4K);
		if (pa == FRAME_NONE || pt_map(kernel_pml4, va + off, pa,
					       LEAF_4K, PTE_W | PTE_NX)) {
			if (pa != FRAME_NONE)
				frame_free(pa, SZ_4K);
			kstack_free((void *)va, off);
			return NULL;
		}
		memset((void *)(va + off), 0, SZ_4K);
	}
	return (void *)va;
}

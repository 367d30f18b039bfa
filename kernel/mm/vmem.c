// SPDX-License-Identifier: GPL-2.0-only
#include "arch/x86_64/paging.h"
#include "kernel/mm/memory.h"
#include "kernel/mm/vmem.h"
#include "kernel/watch.h"
#include "lib/string.h"

/* A header page before the data says how many frames follow: vmem_free
 * needs nothing else.  The header page is the first 4K of frame 0.  The
 * window's virtual space is a bump allocation and is not given back. */
struct vmem_head {
	u64 nframes;
	u64 pa[];
};

#define HEAD_MAX ((SZ_4K - sizeof(struct vmem_head)) / sizeof(u64))

/* Last frame first: the header lives in frame 0. */
static void unmap_free(u8 *base, struct vmem_head *h, u64 n)
{
	for (u64 i = n; i-- > 0;) {
		u64 pa = h->pa[i];

		spin_lock_watched(&kernel_pt_lock, NULL, "for the kernel page tables");
		pt_unmap(kernel_pml4, (u64)base + i * SZ_2M, LEAF_2M, NULL);
		spin_unlock(&kernel_pt_lock);
		frame_free(pa, SZ_2M);
	}
}

void *vmem_alloc(u64 bytes)
{
	u64 n = (bytes + SZ_4K + SZ_2M - 1) / SZ_2M, va, pa;
	struct vmem_head *h;

	if (!bytes || n > HEAD_MAX || !(va = kmap_reserve(n * SZ_2M, SZ_2M)))
		return NULL;
	h = (struct vmem_head *)va;
	for (u64 i = 0; i < n; i++) {
		int err = PT_ENOMEM;

		pa = frame_alloc(SZ_2M);
		if (pa != FRAME_NONE) {
			spin_lock_watched(&kernel_pt_lock, NULL, "for the kernel page tables");
			err = pt_map(kernel_pml4, va + i * SZ_2M, pa, LEAF_2M,
				     PTE_W | PTE_NX);
			spin_unlock(&kernel_pt_lock);
		}
		if (err != PT_OK) {
			if (pa != FRAME_NONE)
				frame_free(pa, SZ_2M);
			/* The header is readable once frame 0 is mapped. */
			if (i)
				unmap_free((u8 *)va, h, i);
			return NULL;
		}
		memset((u8 *)va + i * SZ_2M, 0, SZ_2M);
		h->nframes = i + 1;
		h->pa[i] = pa;
	}
	return (u8 *)va + SZ_4K;
}

void vmem_free(void *p)
{
	struct vmem_head *h;

	if (!p)
		return;
	h = (struct vmem_head *)((u8 *)p - SZ_4K);
	unmap_free((u8 *)h, h, h->nframes);
}

void *boot_table_alloc(u64 bytes)
{
	u64 n = (bytes + SZ_4K - 1) / SZ_4K, got, pa;

	if (!bytes)
		return NULL;
	pa = frame_alloc_run(SZ_4K, n, 0, FRAME_ANY_NODE, &got);
	if (pa != FRAME_NONE && got == n) {
		memset(phys_to_virt(pa), 0, n * SZ_4K);
		return phys_to_virt(pa);
	}
	if (pa != FRAME_NONE)	/* the longest free run is shorter */
		frame_free_range(pa, pa + got * SZ_4K);
	return vmem_alloc(bytes);
}

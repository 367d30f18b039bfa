// SPDX-License-Identifier: GPL-2.0-only
#include <stddef.h>
#include "arch/x86_64/paging.h"
#include "arch/x86_64/percpu.h"
#include "kernel/mm/kstack.h"
#include "kernel/mm/memory.h"
#include "kernel/watch.h"
#include "lib/string.h"

/* The window's virtual space is not given back (a bump allocation): a
 * freed stack leaves its addresses unmapped, guard and all. */
void kstack_free(void *base, u64 bytes)
{
	u64 va = (u64)base, pa;

	for (u64 off = 0; off < bytes; off += SZ_4K) {
		int err;

		spin_lock_watched(&kernel_pt_lock, NULL, "for the kernel page tables");
		err = pt_unmap(kernel_pml4, va + off, LEAF_4K, &pa);
		spin_unlock(&kernel_pt_lock);
		if (err == PT_OK)
			frame_free(pa, SZ_4K);
	}
}

/*
 * Map fresh zeroed 4K frames at [va, va + bytes) in the kernel window,
 * but not where @guard says (left unmapped); on failure undo and false.
 */
static bool map_pages(u64 va, u64 bytes, bool (*guard)(u64 off))
{
	for (u64 off = 0; off < bytes; off += SZ_4K) {
		int err = PT_ENOMEM;
		u64 pa;

		if (guard && guard(off))
			continue;
		pa = frame_alloc(SZ_4K);
		if (pa != FRAME_NONE) {
			spin_lock_watched(&kernel_pt_lock, NULL, "for the kernel page tables");
			err = pt_map(kernel_pml4, va + off, pa, LEAF_4K,
				     PTE_W | PTE_NX);
			spin_unlock(&kernel_pt_lock);
		}
		if (err != PT_OK) {
			if (pa != FRAME_NONE)
				frame_free(pa, SZ_4K);
			kstack_free((void *)va, off);
			return false;
		}
		memset((void *)(va + off), 0, SZ_4K);
	}
	return true;
}

void *kstack_alloc(u64 bytes)
{
	u64 va = kmap_reserve(SZ_4K + bytes, SZ_4K);

	if (!va || !bytes || !IS_ALIGNED(bytes, SZ_4K))
		return NULL;
	va += SZ_4K;		/* the guard stays unmapped */
	return map_pages(va, bytes, NULL) ? (void *)va : NULL;
}

/* Every page of a CPU's stacks but their guard pages (percpu.h). */
static bool is_stack_guard(u64 off)
{
	return off == offsetof(struct cpu_stacks, guard0) ||
	       off == offsetof(struct cpu_stacks, guard1) ||
	       off == offsetof(struct cpu_stacks, guard2) ||
	       off == offsetof(struct cpu_stacks, guard3);
}

struct cpu_stacks *cpu_stacks_alloc(void)
{
	u64 va = kmap_reserve(sizeof(struct cpu_stacks), SZ_4K);

	if (!va || !map_pages(va, sizeof(struct cpu_stacks), is_stack_guard))
		return NULL;
	return (struct cpu_stacks *)va;
}

/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_PAGING_H
#define ARCH_PAGING_H

#include "lib/memmap.h"
#include "arch/x86_64/spinlock.h"
#include "lib/types.h"

/*
 * Virtual layout:
 *   0 .. 0x7fff_ffff_ffff      user (the benchmark's workload)
 *   PAGE_OFFSET (as Linux)     direct map of all RAM
 *   KMAP_BASE                  kernel window: MMIO, test mappings
 *   KERNEL_VMA                 the kernel image (-mcmodel=kernel)
 */
#define PAGE_OFFSET	0xffff888000000000ULL
#define KMAP_BASE	0xffffc90000000000ULL
#define KMAP_SIZE	(1ULL << 40)
#define KERNEL_VMA	0xffffffff80000000ULL
#define KERNEL_HALF	0xffff800000000000ULL

#define PTE_P		(1ULL << 0)
#define PTE_W		(1ULL << 1)
#define PTE_U		(1ULL << 2)
#define PTE_PWT		(1ULL << 3)
#define PTE_PCD		(1ULL << 4)
#define PTE_A		(1ULL << 5)
#define PTE_D		(1ULL << 6)
#define PTE_PS		(1ULL << 7)
#define PTE_G		(1ULL << 8)
#define PTE_NX		(1ULL << 63)
#define PTE_ADDR	0x000ffffffffff000ULL

enum leaf_size { LEAF_4K = 1, LEAF_2M = 2, LEAF_1G = 3 };	/* = level */

static inline u64 leaf_bytes(enum leaf_size l)
{
	return 1ULL << (12 + 9 * (l - 1));
}

enum pt_err {
	PT_OK = 0,
	PT_EEXIST = -1,		/* something is mapped there already */
	PT_ENOMEM = -2,		/* no frame for a page table */
	PT_EINVAL = -3,		/* misaligned or non-canonical */
	PT_ENOENT = -4,		/* nothing of that size mapped there */
};

struct pt_walk {
	bool present;
	int level;		/* of the leaf: 1 = 4K, 2 = 2M, 3 = 1G */
	u64 entry;		/* the leaf entry */
	u64 pa;			/* physical address of va */
};

/*
 * Why @entry, the leaf a walk found at @level, is not a user, writable,
 * no-execute, write-back leaf of @want size at @want_pa; NULL when it is.
 * Write-back: PAT index 0 (PWT, PCD and the PAT bit clear: bit 7 in a 4K
 * entry, bit 12 in a 2M or 1G one).
 */
static inline const char *pt_leaf_mismatch(u64 entry, int level,
					   enum leaf_size want, u64 want_pa)
{
	u64 bytes = leaf_bytes(want), need = PTE_P | PTE_U | PTE_W | PTE_NX;
	u64 pat = want == LEAF_4K ? PTE_PS : 1ULL << 12;

	if (!(entry & PTE_P))
		return "not mapped";
	if (level != (int)want)
		return "a leaf of the wrong size";
	if ((entry & PTE_ADDR & ~(bytes - 1)) != want_pa)
		return "the wrong physical address";
	if ((entry & need) != need)
		return "wrong permissions";
	if (entry & (PTE_PCD | PTE_PWT | pat))
		return "a cache attribute other than write-back";
	return NULL;
}

extern u64 *kernel_pml4;
/* Held while changing kernel_pml4's tables: CPUs share them. */
extern struct spinlock kernel_pt_lock;
extern u64 direct_map_base;	/* 0 until paging_init() switches */

static inline void *phys_to_virt(u64 pa)
{
	return (void *)(direct_map_base + pa);
}

int pt_map(u64 *pml4, u64 va, u64 pa, enum leaf_size size, u64 flags);
/*
 * Make the intermediate tables for leaves of @size over [va, va+len), so
 * that mapping them later allocates nothing (and cannot run out inside a
 * fault); @flags as pt_map's (PTE_U, PTE_A).
 */
int pt_prepare(u64 *pml4, u64 va, u64 len, enum leaf_size size, u64 flags);
int pt_unmap(u64 *pml4, u64 va, enum leaf_size size, u64 *old_pa);
bool pt_walk(const u64 *pml4, u64 va, struct pt_walk *w);
u64 virt_to_phys(const void *va);

/*
 * Where page-table pages come from: the caller's frame allocator, which
 * returns a 4K frame below @limit (physical), or PT_ALLOC_NONE.
 */
typedef u64 (*pt_alloc_fn)(u64 limit);
#define PT_ALLOC_NONE (~0ULL)

/* Build the kernel's tables (direct map, image with W^X), switch to them;
 * every table, then and later, comes from @alloc. */
void paging_init(const struct mem_range *map, u32 n, u64 load_delta,
		 pt_alloc_fn alloc);
/* Leaf size the direct map uses for its aligned interior. */
enum leaf_size direct_map_leaf(void);
/* Reserve virtual space in the kernel window (not mapped). */
u64 kmap_reserve(u64 size, u64 align);
/* Map physical [pa, pa+size) into the window; uncached for MMIO. */
void *ioremap(u64 pa, u64 size, bool uncached);

#endif

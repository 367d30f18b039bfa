// SPDX-License-Identifier: GPL-2.0-only
/*
 * 4-level page tables: map, unmap and walk leaves of 4K, 2M and 1G, and
 * the kernel's own address space.  Intermediate tables are never freed:
 * the fault path maps and unmaps the same regions over and over, and
 * keeping their tables keeps allocation out of what it measures.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/paging.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/spinlock.h"
#include "lib/printk.h"
#include "lib/string.h"

extern char __text_start[], __text_end[], __rodata_start[], __rodata_end[];
extern char __data_start[], __data_end[];

u64 *kernel_pml4;
struct spinlock kernel_pt_lock = SPINLOCK_INIT;
u64 direct_map_base;
static u64 kernel_delta;
static u64 kmap_next = KMAP_BASE;
static enum leaf_size dm_leaf;
static pt_alloc_fn table_alloc;

static u32 index_at(u64 va, int level)
{
	return (va >> (12 + 9 * (level - 1))) & 511;
}

static bool canonical(u64 va)
{
	return ((s64)(va << 16) >> 16) == (s64)va;
}

static u64 *table_of(u64 entry)
{
	return phys_to_virt(entry & PTE_ADDR);
}

static u64 *alloc_table(void)
{
	/* Before the switch only the boot identity map (4 GiB) reaches them. */
	u64 pa = table_alloc ? table_alloc(direct_map_base ? ~0ULL : 4 * GiB)
			     : PT_ALLOC_NONE;

	if (pa == PT_ALLOC_NONE)
		return NULL;
	memset(phys_to_virt(pa), 0, SZ_4K);
	return phys_to_virt(pa);
}

static bool is_current(const u64 *pml4)
{
	return direct_map_base && (read_cr3() & PTE_ADDR) == virt_to_phys(pml4);
}

/*
 * The table one level above a leaf of @size at @va, made where missing.
 * A new intermediate entry is Accessed when @flags is (as Linux's
 * _PAGE_TABLE entries always are), else left for the hardware to set;
 * an existing one only gains bits: tables are kept, and clearing their A
 * again would charge every later fault assists Linux never takes.
 */
static u64 *leaf_table(u64 *pml4, u64 va, enum leaf_size size, u64 flags,
		       int *err)
{
	u64 inter = PTE_P | PTE_W | (flags & (PTE_U | PTE_A)), *t = pml4;

	for (int level = 4; level > (int)size; level--) {
		u64 *e = &t[index_at(va, level)];

		if (!(*e & PTE_P)) {
			u64 *nt = alloc_table();

			if (!nt) {
				*err = PT_ENOMEM;
				return NULL;
			}
			*e = virt_to_phys(nt) | inter;
		} else if (*e & PTE_PS) {
			*err = PT_EEXIST;
			return NULL;
		}
		*e |= inter & (PTE_U | PTE_A);
		t = table_of(*e);
	}
	return t;
}

int pt_map(u64 *pml4, u64 va, u64 pa, enum leaf_size size, u64 flags)
{
	u64 *t, bytes = leaf_bytes(size);
	int err = PT_OK;

	if (!canonical(va) || !IS_ALIGNED(va, bytes) || !IS_ALIGNED(pa, bytes))
		return PT_EINVAL;
	t = leaf_table(pml4, va, size, flags, &err);
	if (!t)
		return err;
	t = &t[index_at(va, size)];
	if (*t & PTE_P)
		return PT_EEXIST;
	*t = pa | flags | PTE_P | (size > LEAF_4K ? PTE_PS : 0);
	return PT_OK;
}

int pt_prepare(u64 *pml4, u64 va, u64 len, enum leaf_size size, u64 flags)
{
	u64 bytes = leaf_bytes(size), step = size == LEAF_1G ? bytes :
		    leaf_bytes((enum leaf_size)(size + 1));
	int err = PT_OK;

	if (!canonical(va) || !IS_ALIGNED(va, bytes))
		return PT_EINVAL;
	/* One table per span its leaves fill: 2M of 4K leaves, 1G of 2M. */
	for (u64 a = va; a < va + len; a = ALIGN_DOWN(a, step) + step)
		if (!leaf_table(pml4, a, size, flags, &err))
			return err;
	return PT_OK;
}

int pt_unmap(u64 *pml4, u64 va, enum leaf_size size, u64 *old_pa)
{
	u64 *t = pml4;

	if (!canonical(va) || !IS_ALIGNED(va, leaf_bytes(size)))
		return PT_EINVAL;
	for (int level = 4; level > (int)size; level--) {
		u64 e = t[index_at(va, level)];

		if (!(e & PTE_P) || (e & PTE_PS))
			return PT_ENOENT;
		t = table_of(e);
	}
	t = &t[index_at(va, size)];
	if (!(*t & PTE_P) || (size > LEAF_4K && !(*t & PTE_PS)))
		return PT_ENOENT;
	if (old_pa)
		*old_pa = *t & PTE_ADDR & ~(leaf_bytes(size) - 1);
	*t = 0;
	/* INVLPG drops the translation whatever its page size.  The kernel
	 * half is every address space's: drop it whichever is loaded. */
	if (is_current(pml4) || (direct_map_base && va >= KERNEL_HALF))
		invlpg(va);
	return PT_OK;
}

bool pt_walk(const u64 *pml4, u64 va, struct pt_walk *w)
{
	const u64 *t = pml4;

	memset(w, 0, sizeof(*w));
	if (!canonical(va))
		return false;
	for (int level = 4; level >= 1; level--) {
		u64 e = t[index_at(va, level)];

		if (!(e & PTE_P))
			return false;
		if (level == 1 || (e & PTE_PS)) {
			u64 mask = leaf_bytes((enum leaf_size)level) - 1;

			w->present = true;
			w->level = level;
			w->entry = e;
			w->pa = (e & PTE_ADDR & ~mask) | (va & mask);
			return true;
		}
		t = table_of(e);
	}
	return false;
}

u64 virt_to_phys(const void *p)
{
	u64 va = (u64)p;
	struct pt_walk w;

	if (va >= KERNEL_VMA)
		return va - KERNEL_VMA + kernel_delta;
	if (!direct_map_base)
		return va;	/* boot identity map */
	if (va >= PAGE_OFFSET && va < KMAP_BASE)
		return va - PAGE_OFFSET;
	return pt_walk(kernel_pml4, va, &w) ? w.pa : ~0ULL;
}

enum leaf_size direct_map_leaf(void)
{
	return dm_leaf;
}

static void must(int r, const char *what, u64 va)
{
	if (r == PT_OK)
		return;
	printk("hugezero: paging: cannot map %s at %#llx (error %d); halting\n",
	       what, (unsigned long long)va, r);
	for (;;)
		halt();
}

/* Largest leaf that fits at @pa with @left bytes to go. */
static enum leaf_size fit(u64 pa, u64 left)
{
	if (dm_leaf == LEAF_1G && IS_ALIGNED(pa, SZ_1G) && left >= SZ_1G)
		return LEAF_1G;
	if (IS_ALIGNED(pa, SZ_2M) && left >= SZ_2M)
		return LEAF_2M;
	return LEAF_4K;
}

static void map_direct(u64 *pml4, const struct mem_range *map, u32 n)
{
	for (u32 i = 0; i < n; i++) {
		u64 pa = ALIGN_DOWN(map[i].start, SZ_4K);
		u64 end = ALIGN_UP(map[i].end, SZ_4K);

		if (!mem_type_is_ram(map[i].type))
			continue;
		while (pa < end) {
			enum leaf_size l = fit(pa, end - pa);

			must(pt_map(pml4, PAGE_OFFSET + pa, pa, l,
				    PTE_W | PTE_NX), "direct map", pa);
			pa += leaf_bytes(l);
		}
	}
}

static bool is_guard(u64 va)
{
	struct cpu_stacks *s = &bsp_stacks;
	u64 g[] = { (u64)s->guard0, (u64)s->guard1, (u64)s->guard2,
		    (u64)s->guard3 };

	for (u32 i = 0; i < ARRAY_SIZE(g); i++)
		if (va == g[i])
			return true;
	return false;
}

static void map_image(u64 *pml4, char *start, char *end, u64 flags)
{
	for (u64 va = (u64)start; va < (u64)end; va += SZ_4K)
		if (!is_guard(va))
			must(pt_map(pml4, va, va - KERNEL_VMA + kernel_delta,
				    LEAF_4K, flags), "kernel image", va);
}

void paging_init(const struct mem_range *map, u32 n, u64 delta,
		 pt_alloc_fn alloc)
{
	u64 *pml4;

	table_alloc = alloc;
	kernel_delta = delta;
	dm_leaf = cpu_info.has_pdpe1gb ? LEAF_1G : LEAF_2M;
	pml4 = alloc_table();
	if (!pml4)
		must(PT_ENOMEM, "top-level table", 0);
	map_direct(pml4, map, n);
	map_image(pml4, __text_start, __text_end, 0);
	map_image(pml4, __rodata_start, __rodata_end, PTE_NX);
	map_image(pml4, __data_start, __data_end, PTE_W | PTE_NX);
	/* Every address space copies the kernel half's top-level entries
	 * when it is made: the window's must exist before any is. */
	for (u64 va = KMAP_BASE; va < KMAP_BASE + KMAP_SIZE; va += 1ULL << 39)
		must(pt_prepare(pml4, va, SZ_1G, LEAF_1G, 0), "kernel window", va);
	write_cr3(virt_to_phys(pml4));
	/* Firmware may leave SMEP/SMAP on: the cpl=0 workload runs user
	 * pages, and the verifier reads folios at their user addresses. */
	write_cr4(read_cr4() & ~(CR4_SMEP | CR4_SMAP));
	kernel_pml4 = (u64 *)((u64)pml4 + PAGE_OFFSET);
	direct_map_base = PAGE_OFFSET;
}

u64 kmap_reserve(u64 size, u64 align)
{
	static struct spinlock lock = SPINLOCK_INIT;
	u64 flags = spin_lock_irqsave(&lock), va = ALIGN_UP(kmap_next, align);

	if (va + size > KMAP_BASE + KMAP_SIZE)
		va = 0;
	else
		kmap_next = va + size;
	spin_unlock_irqrestore(&lock, flags);
	return va;
}

void *ioremap(u64 pa, u64 size, bool uncached)
{
	u64 off = pa & (SZ_4K - 1), base = pa - off;
	u64 len = ALIGN_UP(size + off, SZ_4K), va = kmap_reserve(len, SZ_4K);
	u64 flags = PTE_W | PTE_NX | (uncached ? PTE_PCD | PTE_PWT : 0);

	bool ok = true;

	if (!va)
		return NULL;
	spin_lock(&kernel_pt_lock);
	for (u64 i = 0; ok && i < len; i += SZ_4K)
		ok = pt_map(kernel_pml4, va + i, base + i, LEAF_4K, flags) == PT_OK;
	spin_unlock(&kernel_pt_lock);
	return ok ? (void *)(va + off) : NULL;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Self-tests: page tables.  Every mapping is checked twice, by walking
 * the tables and by touching memory through it, and every unmap by the
 * #PF that must follow.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/paging.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/traps.h"
#include "kernel/mm/memory.h"
#include "kernel/selftest/selftest.h"

extern char __text_start[], __rodata_start[], __data_start[];

struct access {
	u64 addr, val;
	bool write;
};

static void do_access(void *arg)
{
	struct access *a = arg;

	if (a->write)
		*(volatile u64 *)a->addr = a->val;
	else
		a->val = *(volatile u64 *)a->addr;
}

/* Read (or write) one word; returns 0 or the trap's vector + 1. */
static u64 probe(u64 addr, bool write, u64 *val, struct trap_info *ti)
{
	struct access a = { addr, write ? *val : 0, write };
	u64 r = trap_try(do_access, &a, ti);

	if (val)
		*val = a.val;
	return r;
}

static const char *leaf_name(enum leaf_size l)
{
	return l == LEAF_4K ? "4K" : l == LEAF_2M ? "2M" : "1G";
}

static void map_leaf(struct tctx *t, enum leaf_size l)
{
	u64 size = leaf_bytes(l), pa, va, v = 0, old = 0, r;
	struct pt_walk w;
	struct trap_info ti;

	if (l == LEAF_1G && !cpu_info.has_pdpe1gb) {
		skip(t, "CPU lacks 1 GiB pages (CPUID 80000001h:EDX[26] clear)");
		return;
	}
	pa = frame_alloc(size);
	if (pa == FRAME_NONE) {
		skip(t, "no free %s frame", leaf_name(l));
		return;
	}
	va = kmap_reserve(size, size);
	check(t, pt_map(kernel_pml4, va, pa, l, PTE_W | PTE_NX) == PT_OK,
	      "pt_map failed");
	check(t, pt_walk(kernel_pml4, va + size - 8, &w) && w.level == (int)l &&
	      w.pa == pa + size - 8, "walk: level %d pa %#llx", w.level,
	      (unsigned long long)w.pa);
	for (u64 off = 0; off < size; off += size / 4) {
		v = 0x5a5a0000ULL + off;
		check(t, probe(va + off, true, &v, &ti) == 0, "write at +%#llx "
		      "faulted", (unsigned long long)off);
		check(t, *(u64 *)phys_to_virt(pa + off) == v, "direct map "
		      "does not see the write at +%#llx",
		      (unsigned long long)off);
	}
	check(t, pt_unmap(kernel_pml4, va, l, &old) == PT_OK && old == pa,
	      "pt_unmap failed or gave %#llx", (unsigned long long)old);
	check(t, !pt_walk(kernel_pml4, va, &w), "still mapped after unmap");
	r = probe(va, false, &v, &ti);
	check(t, r == X86_PF + 1 && ti.cr2 == va, "no #PF at the unmapped "
	      "address (trap %llu, cr2 %#llx)", (unsigned long long)r,
	      (unsigned long long)ti.cr2);
	frame_free(pa, size);
}

static void map_4k(struct tctx *t) { map_leaf(t, LEAF_4K); }
static void map_2m(struct tctx *t) { map_leaf(t, LEAF_2M); }
static void map_1g(struct tctx *t) { map_leaf(t, LEAF_1G); }

static void remap_flushes_tlb(struct tctx *t)
{
	u64 a = frame_alloc(SZ_4K), b = frame_alloc(SZ_4K);
	u64 va = kmap_reserve(SZ_4K, SZ_4K), v = 0;
	struct trap_info ti;

	if (!check(t, a != FRAME_NONE && b != FRAME_NONE, "no frames"))
		return;
	*(u64 *)phys_to_virt(a) = 0xaaaa;
	*(u64 *)phys_to_virt(b) = 0xbbbb;
	pt_map(kernel_pml4, va, a, LEAF_4K, PTE_W | PTE_NX);
	probe(va, false, &v, &ti);	/* the translation is now cached */
	check(t, v == 0xaaaa, "first mapping reads %#llx",
	      (unsigned long long)v);
	pt_unmap(kernel_pml4, va, LEAF_4K, NULL);
	pt_map(kernel_pml4, va, b, LEAF_4K, PTE_W | PTE_NX);
	probe(va, false, &v, &ti);
	check(t, v == 0xbbbb, "stale translation: read %#llx after remap",
	      (unsigned long long)v);
	pt_unmap(kernel_pml4, va, LEAF_4K, NULL);
	frame_free(a, SZ_4K);
	frame_free(b, SZ_4K);
}

static void map_refuses(struct tctx *t)
{
	u64 pa = frame_alloc(SZ_2M), va = kmap_reserve(SZ_2M, SZ_2M);

	if (!check(t, pa != FRAME_NONE, "no 2M frame"))
		return;
	check(t, pt_map(kernel_pml4, va, pa, LEAF_2M, PTE_NX) == PT_OK, "map");
	check(t, pt_map(kernel_pml4, va, pa, LEAF_2M, PTE_NX) == PT_EEXIST,
	      "double map not refused");
	check(t, pt_map(kernel_pml4, va + SZ_4K, pa, LEAF_4K, PTE_NX) ==
	      PT_EEXIST, "4K inside a 2M leaf not refused");
	check(t, pt_unmap(kernel_pml4, va, LEAF_4K, NULL) == PT_ENOENT,
	      "4K unmap of a 2M leaf not refused");
	check(t, pt_map(kernel_pml4, va + SZ_4K, pa, LEAF_2M, PTE_NX) ==
	      PT_EINVAL, "misaligned 2M map not refused");
	check(t, pt_map(kernel_pml4, 0x0000800000000000ULL, pa, LEAF_4K, 0) ==
	      PT_EINVAL, "non-canonical address not refused");
	pt_unmap(kernel_pml4, va, LEAF_2M, NULL);
	frame_free(pa, SZ_2M);
}

static void user_leaf(struct tctx *t)
{
	u64 pa = frame_alloc(SZ_4K), va = 0x0000100000000000ULL;
	const u64 *pml4 = kernel_pml4;
	struct pt_walk w;

	if (!check(t, pa != FRAME_NONE, "no frame"))
		return;
	check(t, pt_map(kernel_pml4, va, pa, LEAF_4K, PTE_U | PTE_W) == PT_OK,
	      "map");
	check(t, pt_walk(pml4, va, &w) && (w.entry & PTE_U), "leaf lacks U");
	check(t, pml4[(va >> 39) & 511] & PTE_U, "PML4 entry lacks U");
	pt_unmap(kernel_pml4, va, LEAF_4K, NULL);
	frame_free(pa, SZ_4K);
}

static void direct_map(struct tctx *t)
{
	u32 checked = 0, leaves[4] = { 0 };
	struct trap_info ti;
	struct pt_walk w;

	for (u32 i = 0; i < memory.nmap; i++) {
		const struct mem_range *r = &memory.map[i];
		u64 step = 64 * MiB, a, v = 0;

		if (!mem_type_is_ram(r->type))
			continue;
		for (a = ALIGN_UP(r->start, 8); a < r->end; a += step) {
			u64 last = MIN(a, r->end - 8);

			if (!check(t, pt_walk(kernel_pml4, PAGE_OFFSET + last, &w) &&
				   w.pa == last && (w.entry & PTE_NX) &&
				   (w.entry & PTE_W), "RAM at %#llx not in the "
				   "direct map", (unsigned long long)last))
				return;
			leaves[w.level]++;
			check(t, probe(PAGE_OFFSET + last, false, &v, &ti) == 0,
			      "read of RAM at %#llx faulted",
			      (unsigned long long)last);
			checked++;
		}
		check(t, pt_walk(kernel_pml4, PAGE_OFFSET + r->end - 8, &w),
		      "end of RAM range %#llx unmapped",
		      (unsigned long long)r->end);
	}
	note(t, "%u addresses checked: %u in 1G, %u in 2M, %u in 4K leaves",
	     checked, leaves[3], leaves[2], leaves[1]);
	if (cpu_info.has_pdpe1gb && memory.ram_bytes >= 2 * GiB)
		check(t, leaves[3] > 0, "1G pages available but not used");
	if (!cpu_info.has_pdpe1gb)
		check(t, leaves[3] == 0, "1G leaves without CPU support");
}

static void kernel_wx(struct tctx *t)
{
	struct pt_walk w;
	struct trap_info ti;
	u64 v = 1;

	check(t, pt_walk(kernel_pml4, (u64)__text_start, &w) &&
	      !(w.entry & PTE_W) && !(w.entry & PTE_NX), "text not R-X");
	check(t, pt_walk(kernel_pml4, (u64)__rodata_start, &w) &&
	      !(w.entry & PTE_W) && (w.entry & PTE_NX), "rodata not R--");
	check(t, pt_walk(kernel_pml4, (u64)__data_start, &w) &&
	      (w.entry & PTE_W) && (w.entry & PTE_NX), "data not RW-");
	check(t, probe((u64)__rodata_start, true, &v, &ti) == X86_PF + 1 &&
	      (ti.error & (PF_ERR_P | PF_ERR_W)) == (PF_ERR_P | PF_ERR_W),
	      "write to rodata did not fault (CR0.WP)");
}

static u8 data_page[64] __aligned(64);

static void call_data(void *arg)
{
	((void (*)(void))arg)();
}

static void nx_enforced(struct tctx *t)
{
	struct trap_info ti;

	u64 r;

	data_page[0] = 0xc3;	/* ret */
	r = trap_try(call_data, data_page, &ti);
	check(t, r == X86_PF + 1 && (ti.error & PF_ERR_I) &&
	      ti.rip == (u64)data_page, "executing data did not fault with "
	      "I/D set (trap %llu, error %#llx)", (unsigned long long)r,
	      (unsigned long long)ti.error);
}

static void guards_unmapped(struct tctx *t)
{
	struct pt_walk w;
	struct trap_info ti;
	u64 v = 0;

	check(t, !pt_walk(kernel_pml4, (u64)bsp_stacks.guard0, &w),
	      "stack guard page mapped");
	check(t, probe(0, false, &v, &ti) == X86_PF + 1, "address 0 readable");
	check(t, !pt_walk(kernel_pml4, 0x1000000, &w), "identity map left "
	      "behind at 16 MiB");
}

SUITE(suite_paging, "paging",
	{ "map_4k", map_4k },
	{ "map_2m", map_2m },
	{ "map_1g", map_1g },
	{ "remap_flushes_tlb", remap_flushes_tlb },
	{ "map_refuses", map_refuses },
	{ "user_leaf", user_leaf },
	{ "direct_map", direct_map },
	{ "kernel_wx", kernel_wx },
	{ "nx_enforced", nx_enforced },
	{ "guards_unmapped", guards_unmapped },
);

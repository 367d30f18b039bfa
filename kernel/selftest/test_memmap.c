// SPDX-License-Identifier: GPL-2.0-only
/* Self-tests: the normalized memory map and what is reserved in it. */
#include "kernel/bootinfo.h"
#include "kernel/mm/memory.h"
#include "kernel/selftest/selftest.h"

static void map_present(struct tctx *t)
{
	check(t, memory.nmap > 0, "empty memory map");
	check(t, memory.usable_bytes >= 16 * MiB, "only %llu bytes free",
	      (unsigned long long)memory.usable_bytes);
	check(t, memory.usable_bytes <= memory.ram_bytes,
	      "more free than RAM");
}

static void sorted_disjoint(struct tctx *t)
{
	const struct mem_range *m = memory.map;

	for (u32 i = 0; i < memory.nmap; i++) {
		check(t, m[i].start < m[i].end, "range %u empty", i);
		if (i && !check(t, m[i - 1].end <= m[i].start,
				"ranges %u and %u overlap", i - 1, i))
			return;
		if (i && m[i - 1].end == m[i].start)
			check(t, m[i - 1].type != m[i].type,
			      "ranges %u and %u not merged", i - 1, i);
	}
}

static bool in_usable(u64 s, u64 e)
{
	for (u32 i = 0; i < memory.nmap; i++)
		if (memory.map[i].type == MEM_USABLE &&
		    memory.map[i].start <= s && memory.map[i].end >= e)
			return true;
	return false;
}

static void kernel_reserved(struct tctx *t)
{
	check(t, !frame_overlaps_free(memory.kernel_start, memory.kernel_end),
	      "kernel image is in the free pool");
	check(t, in_usable(memory.kernel_start, memory.kernel_end),
	      "kernel image not inside usable RAM");
	check(t, !frame_overlaps_free(0, LOW_RESERVED), "low 1 MiB is free");
}

static void bootinfo_reserved(struct tctx *t)
{
	const struct boot_info *b = &boot_info;

	check(t, !frame_overlaps_free(b->mbi_pa, b->mbi_pa + b->mbi_size),
	      "boot information is in the free pool");
	for (u32 i = 0; i < b->nmodules; i++)
		check(t, !frame_overlaps_free(b->modules[i].start,
					      b->modules[i].end),
		      "module %u is in the free pool", i);
}

static void free_only_usable(struct tctx *t)
{
	/* Every non-usable range must be entirely outside the pool. */
	for (u32 i = 0; i < memory.nmap; i++)
		if (memory.map[i].type != MEM_USABLE)
			check(t, !frame_overlaps_free(memory.map[i].start,
						      memory.map[i].end),
			      "%s range %#llx is in the free pool",
			      mem_type_name(memory.map[i].type),
			      (unsigned long long)memory.map[i].start);
}

static u64 usable_total(const struct mem_range *in, u32 n)
{
	static struct mem_range out[MEMMAP_MAX];
	u64 sum = 0;
	u32 m = MIN(memmap_normalize(in, n, out, MEMMAP_MAX), (u32)MEMMAP_MAX);

	for (u32 i = 0; i < m; i++)
		if (out[i].type == MEM_USABLE)
			sum += out[i].end - out[i].start;
	return sum;
}

static void maps_agree(struct tctx *t)
{
	const struct boot_info *b = &boot_info;
	u64 bios, efi, diff;

	if (!b->nbios || !b->nefi) {
		skip(t, "the loader gave only the %s memory map",
		     b->nefi ? "EFI" : "BIOS");
		return;
	}
	bios = usable_total(b->bios, b->nbios);
	efi = usable_total(b->efi, b->nefi);
	diff = bios > efi ? bios - efi : efi - bios;
	check(t, diff <= efi / 100, "E820 says %llu usable, EFI %llu",
	      (unsigned long long)bios, (unsigned long long)efi);
}

SUITE(suite_memmap, "memmap",
	{ "map_present", map_present },
	{ "sorted_disjoint", sorted_disjoint },
	{ "kernel_reserved", kernel_reserved },
	{ "bootinfo_reserved", bootinfo_reserved },
	{ "free_only_usable", free_only_usable },
	{ "maps_agree", maps_agree },
);

/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_MEMMAP_H
#define LIB_MEMMAP_H

#include "lib/types.h"

/*
 * The physical memory map as firmware reports it is unsorted, may overlap
 * and comes in two vocabularies (BIOS E820 types, EFI memory types).
 * memmap_normalize() turns it into sorted, disjoint, merged ranges of our
 * own types; where entries overlap, the more restrictive type wins, so
 * memory is only ever used when every report agrees it is free.
 */

enum mem_type {
	MEM_USABLE = 1,	/* free RAM once boot services are gone */
	MEM_ACPI,	/* ACPI reclaimable: RAM holding ACPI tables */
	MEM_NVS,	/* ACPI NVS: RAM firmware keeps */
	MEM_RESERVED,	/* anything else: firmware, MMIO, persistent memory */
	MEM_BAD,	/* reported defective */
};

struct mem_range {
	u64 start, end;		/* [start, end) */
	u32 type;
};

/*
 * The most entries the kernel keeps of a firmware map (E820 or EFI): a
 * longer one ends the boot with a message (kernel/mm/memory.c), never
 * read in part.  memmap_normalize() itself has no limit.
 */
#define MEMMAP_MAX_INPUT 4096

u32 mem_type_from_e820(u32 t);
u32 mem_type_from_efi(u32 t);
const char *mem_type_name(u32 t);
/* True for types that are RAM (cacheable memory), free or not. */
bool mem_type_is_ram(u32 t);

/*
 * The @len bytes of EFI memory descriptors of @dsize bytes each (UEFI
 * 2.10 7.2 EFI_MEMORY_DESCRIPTOR; @dsize at least 40, firmware's own
 * stride, often 48), or of E820 entries of @esize bytes (at least 20:
 * base, length, type), into @out: at most @cap written.  Returns how many
 * the bytes hold, all counted: more than @cap means @out is short.
 */
u32 memmap_from_efi(const u8 *p, u32 len, u32 dsize, struct mem_range *out,
		    u32 cap);
u32 memmap_from_e820(const u8 *p, u32 len, u32 esize, struct mem_range *out,
		     u32 cap);

/*
 * Sort, resolve overlaps and merge adjacent ranges of the same type.
 * Writes at most @cap ranges to @out and returns how many it needed
 * (more than @cap means @out was too small and is truncated).
 */
u32 memmap_normalize(const struct mem_range *in, u32 n, struct mem_range *out,
		     u32 cap);

#endif

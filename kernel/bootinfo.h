/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_BOOTINFO_H
#define KERNEL_BOOTINFO_H

#include "lib/memmap.h"
#include "lib/types.h"

#define BOOT_CMDLINE_MAX 2048
#define BOOT_MODULES_MAX 8
#define BOOT_ERRORS_MAX 4

/*
 * What the boot loader told us, copied out of the multiboot2 information
 * while it is still identity-mapped, so nothing later depends on where
 * GRUB left it.
 */
struct boot_module {
	u64 start, end;
	char name[64];
};

struct boot_info {
	u64 mbi_pa, mbi_size;
	u32 tags_seen;			/* bit n: a tag of type n (< 32) */
	char cmdline[BOOT_CMDLINE_MAX];
	bool cmdline_truncated;
	char loader[64];
	u32 nbios, nefi;		/* raw entries from tags 6 and 17 */
	struct mem_range bios[MEMMAP_MAX_INPUT];
	struct mem_range efi[MEMMAP_MAX_INPUT];
	/* Entries the tags hold: above MEMMAP_MAX_INPUT, map_overflow, and
	 * memory_init() ends the boot naming the count. */
	u32 bios_given, efi_given;
	bool map_overflow;
	u32 nmodules;
	struct boot_module modules[BOOT_MODULES_MAX];
	u8 rsdp[36];
	u32 rsdp_len;			/* 0 if the loader gave none */
	bool has_load_base;
	u64 load_base;			/* tag 21 */
	bool efi64;			/* tag 12: booted through UEFI */
	u32 nerrors;
	char errors[BOOT_ERRORS_MAX][96];
};

extern struct boot_info boot_info;

/* Parse the multiboot2 information at physical @mbi (identity-mapped). */
void bootinfo_parse(u32 magic, u64 mbi);

#endif

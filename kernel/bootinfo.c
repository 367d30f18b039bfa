// SPDX-License-Identifier: GPL-2.0-only
/*
 * Multiboot2 boot information: tags of (type, size, payload), 8-byte
 * aligned, ending with type 0.  Every size is checked against the total
 * before it is trusted; a malformed list is reported, not followed.
 */
#include "kernel/bootinfo.h"
#include "lib/format.h"
#include "lib/string.h"

struct boot_info boot_info;

enum {
	TAG_END = 0, TAG_CMDLINE = 1, TAG_LOADER = 2, TAG_MODULE = 3,
	TAG_MMAP = 6, TAG_EFI64 = 12, TAG_ACPI_OLD = 14, TAG_ACPI_NEW = 15,
	TAG_EFI_MMAP = 17, TAG_LOAD_BASE = 21,
};

struct tag {
	u32 type, size;
} __packed;

static void error(const char *msg, u32 type)
{
	struct boot_info *b = &boot_info;

	if (b->nerrors < BOOT_ERRORS_MAX)
		ksnprintf(b->errors[b->nerrors], sizeof(b->errors[0]),
			  "boot information: %s (tag type %u)", msg, type);
	b->nerrors++;
}

static void copy_string(char *dst, size_t size, const u8 *p, u32 len,
			bool *truncated)
{
	size_t n = strnlen((const char *)p, len);

	if (n >= size) {
		n = size - 1;
		if (truncated)
			*truncated = true;
	}
	memcpy(dst, p, n);
	dst[n] = '\0';
}

/* Tag 6: (entry size, version), then E820 entries. */
static void parse_mmap(const u8 *p, u32 len)
{
	u32 esize = *(const u32 *)p;
	struct boot_info *b = &boot_info;

	if (esize < 24) {
		error("memory map entry size below 24", TAG_MMAP);
		return;
	}
	b->bios_given = memmap_from_e820(p + 8, len - 8, esize, b->bios,
					 MEMMAP_MAX_INPUT);
	b->nbios = MIN(b->bios_given, (u32)MEMMAP_MAX_INPUT);
	b->map_overflow |= b->bios_given > MEMMAP_MAX_INPUT;
}

/* Tag 17: (descriptor size, version), then the firmware's descriptors. */
static void parse_efi_mmap(const u8 *p, u32 len)
{
	u32 dsize = *(const u32 *)p;
	struct boot_info *b = &boot_info;

	if (dsize < 40) {
		error("EFI memory descriptor size below 40", TAG_EFI_MMAP);
		return;
	}
	b->efi_given = memmap_from_efi(p + 8, len - 8, dsize, b->efi,
				       MEMMAP_MAX_INPUT);
	b->nefi = MIN(b->efi_given, (u32)MEMMAP_MAX_INPUT);
	b->map_overflow |= b->efi_given > MEMMAP_MAX_INPUT;
}

static void parse_module(const u8 *p, u32 len)
{
	struct boot_info *b = &boot_info;
	struct boot_module *m;

	if (b->nmodules == BOOT_MODULES_MAX) {
		error("too many modules; the rest are not reserved", TAG_MODULE);
		return;
	}
	m = &b->modules[b->nmodules++];
	m->start = *(const u32 *)(p + 8);
	m->end = *(const u32 *)(p + 12);
	copy_string(m->name, sizeof(m->name), p + 16, len - 16, NULL);
}

static void parse_tag(const struct tag *t)
{
	const u8 *p = (const u8 *)t;
	struct boot_info *b = &boot_info;

	if (t->type < 32)
		b->tags_seen |= 1u << t->type;
	switch (t->type) {
	case TAG_CMDLINE:
		copy_string(b->cmdline, sizeof(b->cmdline), p + 8, t->size - 8,
			    &b->cmdline_truncated);
		break;
	case TAG_LOADER:
		copy_string(b->loader, sizeof(b->loader), p + 8, t->size - 8,
			    NULL);
		break;
	case TAG_MODULE:
		if (t->size >= 17)
			parse_module(p, t->size);
		break;
	case TAG_MMAP:
		if (t->size >= 16)
			parse_mmap(p + 8, t->size - 8);
		break;
	case TAG_EFI_MMAP:
		if (t->size >= 16)
			parse_efi_mmap(p + 8, t->size - 8);
		break;
	case TAG_ACPI_OLD:
	case TAG_ACPI_NEW:
		/* Prefer the ACPI 2.0+ RSDP when both are given. */
		if (b->rsdp_len == 36 || t->size - 8 < 20)
			break;
		b->rsdp_len = MIN(t->size - 8, (u32)sizeof(b->rsdp));
		memcpy(b->rsdp, p + 8, b->rsdp_len);
		break;
	case TAG_EFI64:
		b->efi64 = true;
		break;
	case TAG_LOAD_BASE:
		if (t->size >= 12) {
			b->has_load_base = true;
			b->load_base = *(const u32 *)(p + 8);
		}
		break;
	}
}

void bootinfo_parse(u32 magic, u64 mbi)
{
	struct boot_info *b = &boot_info;
	u32 total, off = 8;

	(void)magic;	/* checked by the boot path */
	b->mbi_pa = mbi;
	total = *(const u32 *)mbi;
	b->mbi_size = total;
	if (total < 16 || total > 4 * MiB) {
		error("implausible total size", 0);
		return;
	}
	while (off + 8 <= total) {
		const struct tag *t = (const struct tag *)(mbi + off);

		if (t->size < 8 || off + t->size > total) {
			error("tag overruns the information", t->type);
			return;
		}
		if (t->type == TAG_END)
			return;
		parse_tag(t);
		off += ALIGN_UP(t->size, 8);
	}
	error("no end tag", 0);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host tests of memory-map normalization, and of reading EFI descriptors
 * and E820 entries: maps of 1024+ entries, in arrays of exactly their
 * size (ASan: nothing read or written past them).
 */
#include <stdlib.h>
#include "lib/memmap.h"
#include "lib/string.h"
#include "tests/host/unit.h"

TEST(memmap_sorts_and_merges)
{
	struct mem_range in[] = {
		{ 0x100000, 0x200000, MEM_USABLE },
		{ 0x0, 0x9fc00, MEM_USABLE },
		{ 0x200000, 0x300000, MEM_USABLE },
		{ 0x9fc00, 0xa0000, MEM_RESERVED },
	}, out[8];
	u32 n = memmap_normalize(in, 4, out, 8);

	EXPECT_EQ(n, 3);
	EXPECT_EQ(out[0].start, 0);
	EXPECT_EQ(out[0].end, 0x9fc00);
	EXPECT_EQ(out[1].type, MEM_RESERVED);
	EXPECT_EQ(out[2].start, 0x100000);
	EXPECT_EQ(out[2].end, 0x300000);
}

TEST(memmap_overlap_restrictive_wins)
{
	struct mem_range in[] = {
		{ 0x0, 0x1000000, MEM_USABLE },
		{ 0x400000, 0x500000, MEM_ACPI },
		{ 0x480000, 0x600000, MEM_BAD },
	}, out[8];
	u32 n = memmap_normalize(in, 3, out, 8);

	EXPECT_EQ(n, 4);
	EXPECT_EQ(out[1].start, 0x400000);
	EXPECT_EQ(out[1].end, 0x480000);
	EXPECT_EQ(out[1].type, MEM_ACPI);
	EXPECT_EQ(out[2].type, MEM_BAD);
	EXPECT_EQ(out[2].end, 0x600000);
	EXPECT_EQ(out[3].start, 0x600000);
	EXPECT_EQ(out[3].type, MEM_USABLE);
}

TEST(memmap_above_4g_holes_and_empties)
{
	struct mem_range in[] = {
		{ 0x100000000ULL, 0x480000000ULL, MEM_USABLE },
		{ 0x5000, 0x5000, MEM_USABLE },		/* empty: dropped */
		{ 0x7000, 0x6000, MEM_USABLE },		/* inverted: dropped */
		{ 0x10000000000ULL, 0x20000000000ULL, MEM_USABLE },
	}, out[8];
	u32 n = memmap_normalize(in, 4, out, 8);

	EXPECT_EQ(n, 2);
	EXPECT_EQ(out[0].start, 0x100000000ULL);
	EXPECT_EQ(out[1].end, 0x20000000000ULL);
}

TEST(memmap_output_too_small)
{
	struct mem_range in[6], out[3];

	for (u32 i = 0; i < 6; i++) {
		in[i].start = i * 0x2000;
		in[i].end = i * 0x2000 + 0x1000;
		in[i].type = MEM_USABLE;
	}
	EXPECT_EQ(memmap_normalize(in, 6, out, 3), 6);
	EXPECT_EQ(out[2].start, 0x4000);
}

TEST(memmap_type_translation)
{
	EXPECT_EQ(mem_type_from_e820(1), MEM_USABLE);
	EXPECT_EQ(mem_type_from_e820(3), MEM_ACPI);
	EXPECT_EQ(mem_type_from_e820(4), MEM_NVS);
	EXPECT_EQ(mem_type_from_e820(5), MEM_BAD);
	EXPECT_EQ(mem_type_from_e820(12), MEM_RESERVED);
	EXPECT_EQ(mem_type_from_efi(7), MEM_USABLE);
	EXPECT_EQ(mem_type_from_efi(3), MEM_USABLE);	/* boot services */
	EXPECT_EQ(mem_type_from_efi(5), MEM_RESERVED);	/* runtime code */
	EXPECT_EQ(mem_type_from_efi(9), MEM_ACPI);
	EXPECT_EQ(mem_type_from_efi(14), MEM_RESERVED);	/* persistent */
	EXPECT(mem_type_is_ram(MEM_NVS) && !mem_type_is_ram(MEM_RESERVED));
}

/* @n EFI descriptors of @dsize bytes, 2 pages each, back to back, from
 * 1 MiB; type: conventional (7) or, every other one with @alt, MMIO (11). */
static u8 *efi_map(u32 n, u32 dsize, bool alt)
{
	u8 *p = calloc(n, dsize);

	for (u32 i = 0; i < n; i++) {
		u8 *d = p + (size_t)i * dsize;
		u64 start = 0x100000ULL + (u64)i * 2 * SZ_4K, pages = 2;
		u32 type = alt && (i & 1) ? 11 : 7;

		memcpy(d, &type, 4);
		memcpy(d + 8, &start, 8);
		memcpy(d + 24, &pages, 8);
	}
	return p;
}

/* A server's map of 1024+ descriptors: every one read, none past @cap. */
TEST(memmap_efi_1500_descriptors)
{
	u8 *p = efi_map(1500, 48, true);
	struct mem_range *in = malloc(1500 * sizeof(*in));
	struct mem_range *out = malloc(1500 * sizeof(*out));
	struct mem_range *few = malloc(512 * sizeof(*few));

	EXPECT_EQ(memmap_from_efi(p, 1500 * 48, 48, in, 1500), 1500);
	EXPECT_EQ(in[1499].start, 0x100000ULL + 1499ULL * 8192);
	EXPECT_EQ(in[1499].type, MEM_RESERVED);
	EXPECT_EQ(in[1498].type, MEM_USABLE);
	/* Alternating types: nothing merges, 1500 ranges in order. */
	EXPECT_EQ(memmap_normalize(in, 1500, out, 1500), 1500);
	EXPECT_EQ(out[0].start, 0x100000);
	EXPECT_EQ(out[1499].end, 0x100000ULL + 1500ULL * 8192);
	for (u32 i = 1; i < 1500; i++)
		EXPECT(out[i].start == out[i - 1].end);
	/* Short of room: all counted, 512 written (ASan: none past). */
	EXPECT_EQ(memmap_from_efi(p, 1500 * 48, 48, few, 512), 1500);
	EXPECT_EQ(memmap_normalize(in, 1500, few, 512), 1500);
	/* A cut descriptor at the end is not one. */
	EXPECT_EQ(memmap_from_efi(p, 1500 * 48 - 1, 48, in, 1500), 1499);
	free(p);
	free(in);
	free(out);
	free(few);
}

/* 1024 descriptors of one type, shuffled: one range. */
TEST(memmap_efi_1024_merge)
{
	u8 *p = efi_map(1024, 40, false);
	struct mem_range *in = malloc(1024 * sizeof(*in)), out[4], t;

	EXPECT_EQ(memmap_from_efi(p, 1024 * 40, 40, in, 1024), 1024);
	for (u32 i = 0; i < 1024; i += 3) {	/* out of order, as firmware may */
		t = in[i];
		in[i] = in[1023 - i];
		in[1023 - i] = t;
	}
	EXPECT_EQ(memmap_normalize(in, 1024, out, 4), 1);
	EXPECT_EQ(out[0].start, 0x100000);
	EXPECT_EQ(out[0].end, 0x100000ULL + 1024ULL * 8192);
	EXPECT_EQ(out[0].type, MEM_USABLE);
	EXPECT_EQ(memmap_from_efi(p, 1024 * 40, 39, in, 1024), 0);
	free(p);
	free(in);
}

/* E820 entries (multiboot2 tag 6: 24-byte entries). */
TEST(memmap_e820_entries)
{
	u8 e[3 * 24] = { 0 };
	u64 v[3][2] = { { 0, 0x9fc00 }, { 0x100000, 0x7ff00000 },
			{ 0xfee00000, 0x1000 } };
	u32 type[3] = { 1, 1, 2 };
	struct mem_range r[3];

	for (u32 i = 0; i < 3; i++) {
		memcpy(e + i * 24, v[i], 16);
		memcpy(e + i * 24 + 16, &type[i], 4);
	}
	EXPECT_EQ(memmap_from_e820(e, sizeof(e), 24, r, 3), 3);
	EXPECT_EQ(r[1].end, 0x80000000ULL);
	EXPECT_EQ(r[2].type, MEM_RESERVED);
	EXPECT_EQ(memmap_from_e820(e, sizeof(e), 24, r, 1), 3);
}

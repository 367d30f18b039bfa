// SPDX-License-Identifier: GPL-2.0-only
/* Host tests of memory-map normalization. */
#include "lib/memmap.h"
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

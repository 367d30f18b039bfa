// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SPCR parser on synthetic tables: an I/O-port 16550, an MMIO one, an
 * interface type the kernel cannot drive, the baud-rate codes, and tables
 * too short to be one.
 */
#include "lib/spcr.h"
#include "lib/string.h"
#include "tests/host/unit.h"

static u8 tab[128];

/* A revision-2 SPCR: interface @type, the UART in @space at @addr. */
static void build(u8 type, u8 space, u8 width, u8 access, u64 addr, u8 baud)
{
	memset(tab, 0, sizeof(tab));
	memcpy(tab, "SPCR", 4);
	tab[4] = SPCR_MIN_LEN;
	tab[8] = 2;
	tab[36] = type;
	tab[40] = space;
	tab[41] = width;
	tab[43] = access;
	for (int i = 0; i < 8; i++)
		tab[44 + i] = (u8)(addr >> (8 * i));
	tab[58] = baud;
	tab[59] = 0;
	tab[60] = 1;
}

TEST(spcr_io_port_16550)
{
	struct spcr s;
	char name[24];

	build(SPCR_16550, 1, 8, 1, 0x2f8, 7);
	EXPECT(spcr_parse(tab, SPCR_MIN_LEN, &s));
	EXPECT_EQ(s.revision, 2);
	EXPECT(s.is_16550);
	EXPECT_EQ(s.space, 1);
	EXPECT_EQ(s.address, 0x2f8);
	EXPECT_EQ(s.baud, 115200);
	EXPECT_EQ(s.parity, 0);
	EXPECT_EQ(s.stop_bits, 1);
	EXPECT_STR(spcr_interface_name(&s, name, sizeof(name)), "16550");
	build(SPCR_16450, 1, 8, 1, 0x3f8, 6);
	EXPECT(spcr_parse(tab, sizeof(tab), &s));
	EXPECT(s.is_16550);
	EXPECT_EQ(s.address, 0x3f8);
	EXPECT_EQ(s.baud, 57600);
	EXPECT_STR(spcr_interface_name(&s, name, sizeof(name)), "16450");
}

TEST(spcr_mmio_16550)
{
	struct spcr s;
	char name[24];

	build(SPCR_16550_GAS, 0, 32, 3, 0xfedc9000ull, 7);
	EXPECT(spcr_parse(tab, SPCR_MIN_LEN, &s));
	EXPECT(s.is_16550);
	EXPECT_EQ(s.space, 0);
	EXPECT_EQ(s.bit_width, 32);
	EXPECT_EQ(s.access_size, 3);
	EXPECT_EQ(s.address, 0xfedc9000ull);
	EXPECT_STR(spcr_interface_name(&s, name, sizeof(name)),
		     "16550 (GAS)");
	build(SPCR_16550, 0, 8, 1, 0x1234567890ull, 7);
	EXPECT(spcr_parse(tab, SPCR_MIN_LEN, &s));
	EXPECT_EQ(s.address, 0x1234567890ull);	/* all 64 bits */
}

TEST(spcr_unknown_interface)
{
	struct spcr s;
	char name[24];

	build(0x0e, 0, 32, 3, 0x9000000, 7);	/* ARM SBSA generic UART */
	EXPECT(spcr_parse(tab, SPCR_MIN_LEN, &s));
	EXPECT(!s.is_16550);
	EXPECT_STR(spcr_interface_name(&s, name, sizeof(name)), "type 0x0e");
	build(0x03, 0, 32, 3, 0x9000000, 7);	/* ARM PL011 */
	EXPECT(spcr_parse(tab, SPCR_MIN_LEN, &s));
	EXPECT(!s.is_16550);
}

TEST(spcr_baud_codes)
{
	static const struct { u8 code; u32 baud; } map[] = {
		{ 0, 0 }, { 3, 9600 }, { 4, 19200 }, { 6, 57600 },
		{ 7, 115200 }, { 5, 0 }, { 1, 0 }, { 0xff, 0 },
	};
	struct spcr s;

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		build(SPCR_16550, 1, 8, 1, 0x3f8, map[i].code);
		EXPECT(spcr_parse(tab, SPCR_MIN_LEN, &s));
		EXPECT_EQ(s.baud_code, map[i].code);
		EXPECT_EQ(s.baud, map[i].baud);
	}
}

TEST(spcr_too_short)
{
	struct spcr s;

	build(SPCR_16550, 1, 8, 1, 0x2f8, 7);
	EXPECT(!spcr_parse(tab, SPCR_MIN_LEN - 1, &s));
	EXPECT(!spcr_parse(tab, 36, &s));
	EXPECT(!spcr_parse(tab, 0, &s));
}

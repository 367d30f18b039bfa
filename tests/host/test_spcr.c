// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SPCR parser and the UART it names (spcr_uart(), Linux's
 * acpi_parse_spcr()) on synthetic tables: I/O-port and MMIO 16550s with
 * 8-, 16- and 32-bit registers, the interface types, each baud-rate code,
 * revision 3's clock and revision 4's precise baud rate, and tables too
 * short or broken to read.
 */
#include "lib/spcr.h"
#include "lib/string.h"
#include "tests/host/unit.h"

static u8 tab[128];
static char why[192];

static void put32(u32 off, u32 v)
{
	for (int i = 0; i < 4; i++)
		tab[off + i] = (u8)(v >> (8 * i));
}

/* An SPCR of revision @rev and @len bytes: interface @type, the UART in
 * @space at @addr with GAS @access size. */
static void build_rev(u8 rev, u32 len, u8 type, u8 space, u8 width,
		      u8 access, u64 addr, u8 baud)
{
	memset(tab, 0, sizeof(tab));
	memcpy(tab, "SPCR", 4);
	put32(4, len);
	tab[8] = rev;
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

static void build(u8 type, u8 space, u8 width, u8 access, u64 addr, u8 baud)
{
	build_rev(2, SPCR_MIN_LEN, type, space, width, access, addr, baud);
}

/* Parse tab (as long as it says) and take its UART; false if either fails. */
static bool uart_of(struct spcr_uart *u)
{
	struct spcr s;

	why[0] = '\0';
	return spcr_parse(tab, sizeof(tab), &s, why, sizeof(why)) &&
	       spcr_uart(&s, u, why, sizeof(why));
}

TEST(spcr_io_port_16550)
{
	struct spcr s;
	struct spcr_uart u;
	char name[24];

	build(SPCR_16550, 1, 8, 1, 0x2f8, 7);
	EXPECT(spcr_parse(tab, SPCR_MIN_LEN, &s, why, sizeof(why)));
	EXPECT_EQ(s.revision, 2);
	EXPECT_EQ(s.length, SPCR_MIN_LEN);
	EXPECT(s.is_16550);
	EXPECT_EQ(s.space, 1);
	EXPECT_EQ(s.address, 0x2f8);
	EXPECT_EQ(s.baud, 115200);
	EXPECT_EQ(s.parity, 0);
	EXPECT_EQ(s.stop_bits, 1);
	EXPECT_STR(spcr_interface_name(&s, name, sizeof(name)), "16550");
	EXPECT(spcr_uart(&s, &u, why, sizeof(why)));
	EXPECT(!u.mmio);
	EXPECT_EQ(u.address, 0x2f8);
	EXPECT_EQ(u.width, 1);
	EXPECT(u.fifo);
	EXPECT_EQ(u.baud, 115200);
	EXPECT_EQ(u.clock, UART_CLOCK_HZ);
	EXPECT_EQ(u.divisor, 1);
	EXPECT_STR(u.note, "");
	build(SPCR_16450, 1, 8, 1, 0x3f8, 6);
	EXPECT(spcr_parse(tab, sizeof(tab), &s, why, sizeof(why)));
	EXPECT(s.is_16550);
	EXPECT_EQ(s.address, 0x3f8);
	EXPECT_EQ(s.baud, 57600);
	EXPECT_STR(spcr_interface_name(&s, name, sizeof(name)), "16450");
	EXPECT(spcr_uart(&s, &u, why, sizeof(why)));
	EXPECT(!u.fifo);		/* the 16450 subset has none */
	EXPECT_EQ(u.divisor, 2);
}

TEST(spcr_mmio_16550)
{
	struct spcr s;
	char name[24];

	build(SPCR_16550_GAS, 0, 32, 3, 0xfedc9000ull, 7);
	EXPECT(spcr_parse(tab, SPCR_MIN_LEN, &s, why, sizeof(why)));
	EXPECT(s.is_16550);
	EXPECT_EQ(s.space, 0);
	EXPECT_EQ(s.bit_width, 32);
	EXPECT_EQ(s.access_size, 3);
	EXPECT_EQ(s.address, 0xfedc9000ull);
	EXPECT_STR(spcr_interface_name(&s, name, sizeof(name)),
		   "16550 (GAS)");
	build(SPCR_16550, 0, 8, 1, 0x1234567890ull, 7);
	EXPECT(spcr_parse(tab, SPCR_MIN_LEN, &s, why, sizeof(why)));
	EXPECT_EQ(s.address, 0x1234567890ull);	/* all 64 bits */
}

/* The access size picks the register width and stride, as "mmio32". */
TEST(spcr_mmio_access_widths)
{
	static const struct { u8 access, width; bool noted; } map[] = {
		{ 1, 1, false }, { 2, 2, false }, { 3, 4, false },
		{ 0, 1, true }, { 4, 1, true }, { 0x20, 1, true },
	};
	struct spcr_uart u;

	for (size_t i = 0; i < ARRAY_SIZE(map); i++) {
		build(SPCR_16550_GAS, 0, 32, map[i].access, 0xfe030000ull, 7);
		EXPECT(uart_of(&u), "access %u: %s", map[i].access, why);
		EXPECT(u.mmio);
		EXPECT_EQ(u.address, 0xfe030000ull);
		EXPECT_EQ(u.width, map[i].width);
		EXPECT_EQ(strstr(u.note, "GAS access size") != NULL,
			  map[i].noted);
	}
	/* Bit width 8 but dword access: the access size decides, as Linux. */
	build(SPCR_16550, 0, 8, 3, 0xfe030000ull, 7);
	EXPECT(uart_of(&u));
	EXPECT_EQ(u.width, 4);
}

TEST(spcr_interface_types)
{
	static const u8 ok[] = { SPCR_16550, SPCR_16450, SPCR_16550_NVIDIA,
				 SPCR_16550_GAS };
	struct spcr_uart u;

	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		build(ok[i], 1, 8, 1, 0x3f8, 7);
		EXPECT(uart_of(&u), "type %#x: %s", ok[i], why);
	}
	build(0x0e, 0, 32, 3, 0x9000000, 7);	/* ARM SBSA generic UART */
	EXPECT(!uart_of(&u));
	EXPECT_STR(why, "the ACPI SPCR table's UART is interface type 0x0e, "
		   "not a 16550, which is not supported");
	build(0x03, 0, 32, 3, 0x9000000, 7);	/* ARM PL011 */
	EXPECT(!uart_of(&u));
	build(0x42, 1, 8, 1, 0x3f8, 7);	/* no such type */
	EXPECT(!uart_of(&u));
	EXPECT(strstr(why, "interface type 0x42, not a 16550") != NULL, "%s",
	       why);
}

TEST(spcr_addresses_refused)
{
	struct spcr_uart u;

	build(SPCR_16550, 1, 8, 1, 0, 7);
	EXPECT(!uart_of(&u));
	EXPECT(strstr(why, "address is 0 (console redirection disabled)"),
	       "%s", why);
	build(SPCR_16550, 0, 32, 3, 0, 7);
	EXPECT(!uart_of(&u));
	build(SPCR_16550, 1, 8, 1, 0x10000, 7);
	EXPECT(!uart_of(&u));
	EXPECT(strstr(why, "(space 1, 0x10000) is no I/O port"), "%s", why);
	build(SPCR_16550, 0, 32, 3, 0xfffffffffffff000ull, 7);
	EXPECT(!uart_of(&u));
	EXPECT(strstr(why, "0xfffffffffffff000 is beyond any physical address"),
	       "%s", why);
	build(SPCR_16550, 2, 8, 1, 0x3f8, 7);	/* PCI configuration space */
	EXPECT(!uart_of(&u));
	EXPECT(strstr(why, "(space 2, 0x3f8)"), "%s", why);
}

TEST(spcr_baud_codes)
{
	static const struct { u8 code; u32 baud, divisor; bool unknown; } map[] = {
		{ 0, 0, 0, false }, { 3, 9600, 12, false },
		{ 4, 19200, 6, false }, { 6, 57600, 2, false },
		{ 7, 115200, 1, false }, { 5, 0, 0, true }, { 1, 0, 0, true },
		{ 0xff, 0, 0, true },
	};
	struct spcr s;
	struct spcr_uart u;

	for (size_t i = 0; i < ARRAY_SIZE(map); i++) {
		build(SPCR_16550, 1, 8, 1, 0x3f8, map[i].code);
		EXPECT(spcr_parse(tab, SPCR_MIN_LEN, &s, why, sizeof(why)));
		EXPECT_EQ(s.baud_code, map[i].code);
		EXPECT_EQ(s.baud, map[i].baud);
		/* Every code gives a usable UART; 0 and unknown: as is. */
		EXPECT(spcr_uart(&s, &u, why, sizeof(why)));
		EXPECT_EQ(u.baud, map[i].baud);
		EXPECT_EQ(u.divisor, map[i].divisor);
		EXPECT((strstr(u.note, "not known") != NULL) == map[i].unknown,
		       "code %u: note \"%s\"", map[i].code, u.note);
	}
}

/* Revision 3's UART clock for the divisor; revision 2's field is reserved. */
TEST(spcr_uart_clock)
{
	struct spcr_uart u;

	build_rev(3, SPCR_MIN_LEN, SPCR_16550_GAS, 0, 32, 3, 0xfe030000, 7);
	put32(76, 24000000);
	EXPECT(uart_of(&u));
	EXPECT_EQ(u.clock, 24000000);
	EXPECT_EQ(u.divisor, 13);	/* 24 MHz / 16 / 115200 = 13.02 */
	build_rev(3, SPCR_MIN_LEN, SPCR_16550, 1, 8, 1, 0x3f8, 3);
	put32(76, 0);			/* not given: the PC's 1.8432 MHz */
	EXPECT(uart_of(&u));
	EXPECT_EQ(u.clock, UART_CLOCK_HZ);
	EXPECT_EQ(u.divisor, 12);
	build_rev(2, SPCR_MIN_LEN, SPCR_16550, 1, 8, 1, 0x3f8, 7);
	put32(76, 24000000);
	EXPECT(uart_of(&u));
	EXPECT_EQ(u.clock, UART_CLOCK_HZ);
}

/* Revision 4's precise baud rate wins over the code when not zero. */
TEST(spcr_precise_baud)
{
	struct spcr_uart u;

	build_rev(4, 88, SPCR_16550_GAS, 0, 32, 3, 0xfe030000, 7);
	put32(76, 48000000);
	put32(80, 1500000);
	EXPECT(uart_of(&u));
	EXPECT_EQ(u.baud, 1500000);
	EXPECT_EQ(u.divisor, 2);
	put32(80, 0);			/* the code's, then */
	EXPECT(uart_of(&u));
	EXPECT_EQ(u.baud, 115200);
	EXPECT_EQ(u.divisor, 26);	/* 48 MHz / 16 / 115200 = 26.04 */
	/* Beyond what the clock can divide to: as is, and said. */
	put32(76, 0);
	put32(80, 3000000);
	EXPECT(uart_of(&u));
	EXPECT_EQ(u.baud, 0);
	EXPECT_EQ(u.divisor, 0);
	EXPECT(strstr(u.note, "3000000 baud is not reachable from a 1843200 "
		      "Hz clock: as is"), "%s", u.note);
	/* A revision 4 table of revision 2's size has no such field. */
	build_rev(4, SPCR_MIN_LEN, SPCR_16550, 1, 8, 1, 0x3f8, 7);
	put32(80, 1500000);
	EXPECT(uart_of(&u));
	EXPECT_EQ(u.baud, 115200);
}

TEST(spcr_line_format_note)
{
	struct spcr_uart u;

	build(SPCR_16550, 1, 8, 1, 0x3f8, 7);
	tab[59] = 2;
	EXPECT(uart_of(&u));
	EXPECT(strstr(u.note, "parity 2, stop bits 1 not followed: 8n1"), "%s",
	       u.note);
	build(SPCR_16550, 1, 8, 1, 0x3f8, 0);	/* as is: the firmware's */
	tab[59] = 2;
	EXPECT(uart_of(&u));
	EXPECT_STR(u.note, "");
}

TEST(uart_divisors)
{
	EXPECT_EQ(uart_divisor_for(UART_CLOCK_HZ, 115200), 1);
	EXPECT_EQ(uart_divisor_for(UART_CLOCK_HZ, 1200), 96);
	EXPECT_EQ(uart_divisor_for(UART_CLOCK_HZ, 0), 0);
	EXPECT_EQ(uart_divisor_for(UART_CLOCK_HZ, 4000000), 0);
	EXPECT_EQ(uart_divisor_for(UART_CLOCK_HZ, 1), 0);	/* 115200 > 65535 */
	EXPECT_EQ(uart_divisor_for(0xffffffffu, 115200), 2330);
}

TEST(spcr_too_short_or_broken)
{
	struct spcr s;

	build(SPCR_16550, 1, 8, 1, 0x2f8, 7);
	EXPECT(!spcr_parse(tab, SPCR_MIN_LEN - 1, &s, why, sizeof(why)));
	EXPECT_STR(why, "its length field says 80 bytes, but only 79 are there");
	EXPECT(!spcr_parse(tab, 20, &s, why, sizeof(why)));
	EXPECT_STR(why, "20 bytes, shorter than an ACPI table header");
	EXPECT(!spcr_parse(tab, 0, &s, why, sizeof(why)));
	put32(4, 60);			/* a table that says it is short */
	EXPECT(!spcr_parse(tab, 60, &s, why, sizeof(why)));
	EXPECT_STR(why, "60 bytes, too short (an SPCR has at least 80)");
	build(SPCR_16550, 1, 8, 1, 0x2f8, 7);
	memcpy(tab, "SPCX", 4);
	EXPECT(!spcr_parse(tab, SPCR_MIN_LEN, &s, why, sizeof(why)));
	EXPECT_STR(why, "signature 'SPCX', not SPCR");
}

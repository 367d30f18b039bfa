/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_SPCR_H
#define LIB_SPCR_H

#include "lib/types.h"

/*
 * The ACPI SPCR table (Serial Port Console Redirection, Microsoft's
 * specification, revision 1 and later): the UART the firmware console is
 * on.  Pure: the kernel hands it a mapped, checksummed table; host tests
 * hand it synthetic ones.
 */
#define SPCR_MIN_LEN	80	/* revision 1's size; every later one is longer */
/* The clock of a PC's 16550 (and of Linux's earlycon without one given). */
#define UART_CLOCK_HZ	1843200

/* The DBG2 port subtypes SPCR's interface type takes (ACPICA's names). */
enum spcr_interface {
	SPCR_16550 = 0x00,		/* ACPI_DBG2_16550_COMPATIBLE: full 16550 */
	SPCR_16450 = 0x01,		/* ACPI_DBG2_16550_SUBSET: 16450 subset */
	SPCR_16550_NVIDIA = 0x05,	/* ACPI_DBG2_16550_NVIDIA */
	SPCR_16550_GAS = 0x12,		/* ACPI_DBG2_16550_WITH_GAS: width from the GAS */
};

struct spcr {
	u8 revision;
	u32 length;
	u8 interface;		/* enum spcr_interface, or another (unsupported) */
	bool is_16550;		/* one of the 16550-compatible interface types */
	u8 space;		/* Generic Address Structure: 0 MMIO, 1 I/O port */
	u8 bit_width;
	u8 access_size;		/* 0 undefined, 1 byte, 2 word, 3 dword, 4 qword */
	u64 address;		/* 0: console redirection disabled */
	u8 baud_code;		/* as in the table */
	u32 baud;		/* from baud_code; 0: "as is" or a code not known */
	u8 parity;		/* 0: none; others reserved */
	u8 stop_bits;		/* 1: one; others reserved */
	u32 uart_clock;		/* revision 3 and later: Hz; 0 not given */
	u32 precise_baud;	/* revision 4 and later: wins over baud_code; 0 none */
};

/*
 * Parse the @len bytes of an SPCR at @table (header included).  False,
 * with why into @why, when it is not one that can be read (too short,
 * another signature, a length field beyond @len).
 */
bool spcr_parse(const void *table, u32 len, struct spcr *s, char *why,
		size_t whylen);
/* "16550", "16450", "16550 (GAS)" or "type 0x0e" into @buf; returns @buf. */
const char *spcr_interface_name(const struct spcr *s, char *buf, size_t size);

/*
 * The 16550 an SPCR names, as Linux's acpi_parse_spcr() reads it for the
 * 8250 earlycon ("uart,mmio32,0xfedc9000,115200").
 */
struct spcr_uart {
	bool mmio;		/* system memory; else an I/O port */
	u64 address;
	u8 width;		/* bytes per register, and its stride: 1, 2 or 4 */
	bool fifo;		/* not the 16450 subset */
	u32 baud;		/* 0: as is (leave the divisor the firmware set) */
	u32 clock;		/* Hz the divisor is computed from */
	u32 divisor;		/* for baud from clock; 0 with baud 0 */
	char note[192];		/* what in the table was not followed, or "" */
};

/*
 * The UART of @s into @u; false, with why into @why, when it names none
 * hugezero can drive (not a 16550, redirection disabled, no address).
 */
bool spcr_uart(const struct spcr *s, struct spcr_uart *u, char *why,
	       size_t whylen);
/*
 * The 16550 divisor for @baud from @clock Hz, rounded to the closest as
 * the 8250 earlycon's init_port(); 0 when no divisor (1..65535) gives it.
 */
u32 uart_divisor_for(u32 clock, u32 baud);

#endif

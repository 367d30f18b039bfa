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

enum spcr_interface {
	SPCR_16550 = 0x00,		/* full 16550 */
	SPCR_16450 = 0x01,		/* 16450-compatible subset of 16550 */
	SPCR_16550_GAS = 0x12,		/* 16550, register width from the GAS */
};

struct spcr {
	u8 revision;
	u8 interface;		/* enum spcr_interface, or another (unsupported) */
	bool is_16550;		/* one of the 16550-compatible interface types */
	u8 space;		/* Generic Address Structure: 0 MMIO, 1 I/O port */
	u8 bit_width;
	u8 access_size;		/* 1 byte, 2 word, 3 dword, 4 qword */
	u64 address;
	u8 baud_code;		/* as in the table */
	u32 baud;		/* from baud_code; 0: "as is" or a code not known */
	u8 parity;		/* 0: none; others reserved */
	u8 stop_bits;		/* 1: one; others reserved */
};

/*
 * Parse the @len bytes of an SPCR at @table (header included).  False
 * when it is too short to be one.  Whether the UART it names can be used
 * is the caller's to judge from @s (is_16550, space).
 */
bool spcr_parse(const void *table, u32 len, struct spcr *s);
/* "16550", "16450", "16550 (GAS)" or "type 0x0e" into @buf; returns @buf. */
const char *spcr_interface_name(const struct spcr *s, char *buf, size_t size);

#endif

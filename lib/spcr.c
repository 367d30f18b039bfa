// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ACPI SPCR table, read as Linux's acpi_parse_spcr()
 * (drivers/acpi/spcr.c) reads it to set up the 8250 earlycon: which
 * interface types are a 16550, how the Generic Address Structure's access
 * size gives the register width, what the baud-rate codes mean.  Where
 * hugezero does otherwise (an unknown baud code) it says so in a note.
 */
#include <stdarg.h>
#include "lib/format.h"
#include "lib/spcr.h"
#include "lib/string.h"
#include "lib/unaligned.h"

enum {
	SPCR_HEADER = 36,	/* the ACPI table header */
	SPCR_INTERFACE = 36,
	SPCR_BASE = 40,		/* Generic Address Structure, 12 bytes */
	SPCR_BAUD = 58,
	SPCR_PARITY = 59,
	SPCR_STOP = 60,
	SPCR_CLOCK = 76,	/* revision 3: UART Clock Frequency */
	SPCR_PRECISE = 80,	/* revision 4: Precise Baud Rate */
};
/* x86-64's 52-bit physical addresses, less the eight widest registers. */
#define SPCR_MMIO_LIMIT ((1ull << 52) - 32)

/* The table's baud-rate codes (0: as the firmware left it). */
static u32 baud_of(u8 code)
{
	switch (code) {
	case 3:
		return 9600;
	case 4:
		return 19200;
	case 6:
		return 57600;
	case 7:
		return 115200;
	default:
		return 0;
	}
}

bool spcr_parse(const void *table, u32 len, struct spcr *s, char *why,
		size_t whylen)
{
	const u8 *t = table;

	memset(s, 0, sizeof(*s));
	if (len < SPCR_HEADER) {
		ksnprintf(why, whylen, "%u bytes, shorter than an ACPI table "
			  "header", len);
		return false;
	}
	if (memcmp(t, "SPCR", 4) != 0) {
		ksnprintf(why, whylen, "signature '%.4s', not SPCR",
			  (const char *)t);
		return false;
	}
	s->length = get_unaligned_le32(t + 4);
	if (s->length > len) {
		ksnprintf(why, whylen, "its length field says %u bytes, but "
			  "only %u are there", s->length, len);
		return false;
	}
	if (s->length < SPCR_MIN_LEN) {
		ksnprintf(why, whylen, "%u bytes, too short (an SPCR has at "
			  "least %u)", s->length, SPCR_MIN_LEN);
		return false;
	}
	s->revision = t[8];
	s->interface = t[SPCR_INTERFACE];
	/* The 16550-compatible types acpi_parse_spcr() gives "uart" for. */
	s->is_16550 = s->interface == SPCR_16550 ||
		      s->interface == SPCR_16450 ||
		      s->interface == SPCR_16550_NVIDIA ||
		      s->interface == SPCR_16550_GAS;
	s->space = t[SPCR_BASE];
	s->bit_width = t[SPCR_BASE + 1];
	s->access_size = t[SPCR_BASE + 3];
	s->address = get_unaligned_le64(t + SPCR_BASE + 4);
	s->baud_code = t[SPCR_BAUD];
	s->baud = baud_of(s->baud_code);
	s->parity = t[SPCR_PARITY];
	s->stop_bits = t[SPCR_STOP];
	/* Reserved (zero) before the revision that defined them. */
	if (s->revision >= 3)
		s->uart_clock = get_unaligned_le32(t + SPCR_CLOCK);
	if (s->revision >= 4 && s->length >= SPCR_PRECISE + 4)
		s->precise_baud = get_unaligned_le32(t + SPCR_PRECISE);
	return true;
}

const char *spcr_interface_name(const struct spcr *s, char *buf, size_t size)
{
	switch (s->interface) {
	case SPCR_16550:
		ksnprintf(buf, size, "16550");
		break;
	case SPCR_16450:
		ksnprintf(buf, size, "16450");
		break;
	case SPCR_16550_NVIDIA:
		ksnprintf(buf, size, "16550 (NVIDIA)");
		break;
	case SPCR_16550_GAS:
		ksnprintf(buf, size, "16550 (GAS)");
		break;
	default:
		ksnprintf(buf, size, "type 0x%02x", s->interface);
		break;
	}
	return buf;
}

u32 uart_divisor_for(u32 clock, u32 baud)
{
	u64 div;

	if (!baud)
		return 0;
	div = ((u64)clock + 8ull * baud) / (16ull * baud);
	return div >= 1 && div <= 0xffff ? (u32)div : 0;
}

/* Append "; " and a clause to @u's note. */
static void __printf(2, 3) note(struct spcr_uart *u, const char *fmt, ...)
{
	size_t n = strlen(u->note);
	va_list ap;

	if (n && n + 2 < sizeof(u->note)) {
		memcpy(u->note + n, "; ", 3);
		n += 2;
	}
	va_start(ap, fmt);
	kvsnprintf(u->note + n, sizeof(u->note) - n, fmt, ap);
	va_end(ap);
}

/*
 * MMIO register width from the GAS access size, as acpi_parse_spcr():
 * byte "mmio", word "mmio16", dword "mmio32", each register that many
 * bytes apart (the earlycon's regshift 0, 1, 2); any other size is a
 * firmware bug Linux answers with bytes.
 */
static u8 mmio_width(const struct spcr *s, struct spcr_uart *u)
{
	switch (s->access_size) {
	case 1:
		return 1;
	case 2:
		return 2;
	case 3:
		return 4;
	default:
		note(u, "GAS access size %u is not 1, 2 or 3: byte registers, "
		     "as Linux", s->access_size);
		return 1;
	}
}

/* The baud rate and divisor; 0 and 0 for "as is". */
static void line_speed(const struct spcr *s, struct spcr_uart *u)
{
	u->clock = s->uart_clock ? s->uart_clock : UART_CLOCK_HZ;
	if (s->precise_baud) {
		/* SPCR 1.09: a non-zero Precise Baud Rate overrides the code. */
		u->baud = s->precise_baud;
	} else if (s->baud_code && !s->baud) {
		/* Linux ignores the whole table; the UART is still usable. */
		note(u, "baud code %u not known (3, 4, 6, 7 or 0): as is",
		     s->baud_code);
	} else {
		u->baud = s->baud;	/* 0: SPCR 1.04's "as is" */
	}
	u->divisor = uart_divisor_for(u->clock, u->baud);
	if (u->baud && !u->divisor) {
		note(u, "%u baud is not reachable from a %u Hz clock: as is",
		     u->baud, u->clock);
		u->baud = 0;
	}
	if (u->baud && (s->parity || s->stop_bits != 1))
		note(u, "the table's parity %u, stop bits %u not followed: 8n1",
		     s->parity, s->stop_bits);
}

bool spcr_uart(const struct spcr *s, struct spcr_uart *u, char *why,
	       size_t whylen)
{
	char type[24];

	memset(u, 0, sizeof(*u));
	if (!s->is_16550) {
		ksnprintf(why, whylen, "the ACPI SPCR table's UART is interface "
			  "%s, not a 16550, which is not supported",
			  spcr_interface_name(s, type, sizeof(type)));
		return false;
	}
	if (!s->address) {
		ksnprintf(why, whylen, "the ACPI SPCR table's UART address is 0 "
			  "(console redirection disabled)");
		return false;
	}
	if (s->space == 0 && s->address < SPCR_MMIO_LIMIT) {
		u->mmio = true;
		u->width = mmio_width(s, u);
	} else if (s->space == 0) {
		ksnprintf(why, whylen, "the ACPI SPCR table's UART address "
			  "%#llx is beyond any physical address",
			  (unsigned long long)s->address);
		return false;
	} else if (s->space == 1 && s->address <= 0xfff8) {
		u->width = 1;
	} else {
		/* Linux takes any space but memory for I/O ports. */
		ksnprintf(why, whylen, "the ACPI SPCR table's UART address "
			  "(space %u, %#llx) is no I/O port and not memory",
			  s->space, (unsigned long long)s->address);
		return false;
	}
	u->address = s->address;
	u->fifo = s->interface != SPCR_16450;
	line_speed(s, u);
	return true;
}

// SPDX-License-Identifier: GPL-2.0-only
#include "lib/format.h"
#include "lib/spcr.h"
#include "lib/string.h"
#include "lib/unaligned.h"

enum {
	SPCR_INTERFACE = 36,
	SPCR_BASE = 40,		/* Generic Address Structure, 12 bytes */
	SPCR_BAUD = 58,
	SPCR_PARITY = 59,
	SPCR_STOP = 60,
};

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

bool spcr_parse(const void *table, u32 len, struct spcr *s)
{
	const u8 *t = table;

	memset(s, 0, sizeof(*s));
	if (len < SPCR_MIN_LEN)
		return false;
	s->revision = t[8];
	s->interface = t[SPCR_INTERFACE];
	s->is_16550 = s->interface == SPCR_16550 ||
		      s->interface == SPCR_16450 ||
		      s->interface == SPCR_16550_GAS;
	s->space = t[SPCR_BASE];
	s->bit_width = t[SPCR_BASE + 1];
	s->access_size = t[SPCR_BASE + 3];
	s->address = get_unaligned_le64(t + SPCR_BASE + 4);
	s->baud_code = t[SPCR_BAUD];
	s->baud = baud_of(s->baud_code);
	s->parity = t[SPCR_PARITY];
	s->stop_bits = t[SPCR_STOP];
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
	case SPCR_16550_GAS:
		ksnprintf(buf, size, "16550 (GAS)");
		break;
	default:
		ksnprintf(buf, size, "type 0x%02x", s->interface);
		break;
	}
	return buf;
}

// SPDX-License-Identifier: GPL-2.0-only
#include "lib/madt_irq.h"
#include "lib/string.h"
#include "lib/unaligned.h"

#define HEADER		36
#define MADT_FIXED	(HEADER + 8)

enum { MADT_IOAPIC = 1, MADT_ISO = 2 };

static void add_ioapic(struct madt_irq *m, const u8 *e)
{
	struct madt_ioapic *a;

	if (m->nioapics == MADT_MAX_IOAPICS) {
		m->dropped++;
		return;
	}
	a = &m->ioapic[m->nioapics++];
	a->id = e[2];
	a->address = get_unaligned_le32(e + 4);
	a->gsi_base = get_unaligned_le32(e + 8);
}

static void add_iso(struct madt_irq *m, const u8 *e)
{
	struct madt_iso *o;

	/* Bus 0 is ISA, the only one the table defines. */
	if (e[2] != 0)
		return;
	if (m->nisos == MADT_MAX_ISOS) {
		m->dropped++;
		return;
	}
	o = &m->iso[m->nisos++];
	o->source = e[3];
	o->gsi = get_unaligned_le32(e + 4);
	o->flags = (u16)(e[8] | e[9] << 8);
}

bool madt_irq_parse(const void *table, u32 len, struct madt_irq *m)
{
	const u8 *t = table;
	u32 off = MADT_FIXED;

	memset(m, 0, sizeof(*m));
	if (len < MADT_FIXED || memcmp(t, "APIC", 4) != 0)
		return false;
	while (off + 2 <= len) {
		const u8 *e = t + off;
		u8 elen = e[1];

		if (elen < 2 || elen > len - off)
			break;		/* malformed: madt_parse() counts it */
		if (e[0] == MADT_IOAPIC && elen >= 12)
			add_ioapic(m, e);
		else if (e[0] == MADT_ISO && elen >= 10)
			add_iso(m, e);
		off += elen;
	}
	return true;
}

u32 madt_irq_isa_gsi(const struct madt_irq *m, u8 irq, bool *active_low)
{
	*active_low = false;
	for (u32 i = 0; i < m->nisos; i++) {
		const struct madt_iso *o = &m->iso[i];

		if (o->source != irq)
			continue;
		*active_low = (o->flags & 3) == 3;
		return o->gsi;
	}
	return irq;
}

int madt_irq_ioapic_of(const struct madt_irq *m, u32 gsi,
		       u32 (*pins)(const struct madt_ioapic *a, void *ctx),
		       void *ctx)
{
	for (u32 i = 0; i < m->nioapics; i++) {
		const struct madt_ioapic *a = &m->ioapic[i];

		if (gsi >= a->gsi_base && gsi - a->gsi_base < pins(a, ctx))
			return (int)i;
	}
	return -1;
}

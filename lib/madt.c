// SPDX-License-Identifier: GPL-2.0-only
#include "lib/madt.h"
#include "lib/string.h"
#include "lib/unaligned.h"

#define HEADER		36	/* the ACPI table header */
#define MADT_FIXED	(HEADER + 8)	/* + local APIC address, flags */

enum {
	MADT_LAPIC = 0,
	MADT_LAPIC_OVERRIDE = 5,
	MADT_X2APIC = 9,
};

static void add_cpu(struct madt *m, u32 id, u32 uid, u32 flags, bool x2)
{
	struct madt_cpu *c;

	for (u32 i = 0; i < m->ncpus; i++)
		if (m->cpu[i].apic_id == id)
			return;
	if (m->ncpus == MADT_MAX_CPUS) {
		m->dropped++;
		return;
	}
	c = &m->cpu[m->ncpus++];
	c->apic_id = id;
	c->uid = uid;
	c->enabled = flags & 1;
	c->online_capable = flags & 2;
	c->x2apic = x2;
	m->nenabled += c->enabled;
}

/* One entry; false when its length cannot be right (the walk stops). */
static bool entry(struct madt *m, const u8 *e, u32 left)
{
	u8 type, len;

	if (left < 2 || (len = e[1]) < 2 || len > left)
		return false;
	type = e[0];
	if (type == MADT_LAPIC) {
		if (len < 8)
			return false;
		/* acpi_parse_lapic(): "Ignore invalid ID"; xAPIC's 0xff
		 * is the broadcast address, an INIT to it would reset
		 * every CPU already running. */
		if (e[3] == 0xff)
			m->invalid_id++;
		else
			add_cpu(m, e[3], e[2], get_unaligned_le32(e + 4), false);
	} else if (type == MADT_X2APIC) {
		if (len < 16)
			return false;
		if (get_unaligned_le32(e + 4) == 0xffffffff)	/* acpi_parse_x2apic() */
			m->invalid_id++;
		else
			add_cpu(m, get_unaligned_le32(e + 4),
				get_unaligned_le32(e + 12),
				get_unaligned_le32(e + 8), true);
	} else if (type == MADT_LAPIC_OVERRIDE) {
		if (len < 12)
			return false;
		m->lapic_base = get_unaligned_le64(e + 4);
	}
	return true;
}

bool madt_parse(const void *table, u32 len, struct madt *m)
{
	const u8 *t = table;
	u32 off = MADT_FIXED;

	memset(m, 0, sizeof(*m));
	if (len < MADT_FIXED || memcmp(t, "APIC", 4) != 0)
		return false;
	m->lapic_base = get_unaligned_le32(t + HEADER);
	m->pcat_compat = get_unaligned_le32(t + HEADER + 4) & 1;
	while (off < len) {
		if (!entry(m, t + off, len - off)) {
			m->bad++;
			break;
		}
		off += t[off + 1];
	}
	return true;
}

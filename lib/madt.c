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
	if (m->ncpus == m->cap) {
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

/* The length of the entry at @e if it can be right for its type, else 0. */
static u8 entry_len(const u8 *e, u32 left)
{
	u8 len;

	if (left < 2 || (len = e[1]) < 2 || len > left)
		return 0;
	if ((e[0] == MADT_LAPIC && len < 8) || (e[0] == MADT_X2APIC && len < 16) ||
	    (e[0] == MADT_LAPIC_OVERRIDE && len < 12))
		return 0;
	return len;
}

static void lapic_entry(struct madt *m, const u8 *e)
{
	/* acpi_parse_lapic(): "Ignore invalid ID"; xAPIC's 0xff is the
	 * broadcast address, an INIT to it would reset every CPU already
	 * running. */
	if (e[3] == 0xff)
		m->invalid_id++;
	else
		add_cpu(m, e[3], e[2], get_unaligned_le32(e + 4), false);
}

static void x2apic_entry(struct madt *m, const u8 *e)
{
	u32 id = get_unaligned_le32(e + 4);

	if (id == 0xffffffff)	/* acpi_parse_x2apic(): invalid ID */
		m->invalid_id++;
	else if (m->has_lapic_cpus && id < 0xff)
		m->x2apic_low++;	/* each would cost a start timeout */
	else
		add_cpu(m, id, get_unaligned_le32(e + 12),
			get_unaligned_le32(e + 8), true);
}

/*
 * Call @fn on every entry of the MADT @t (whose length was checked) up to
 * the first malformed one; false if there was one.
 */
static bool walk(const u8 *t, u32 len, void (*fn)(struct madt *, const u8 *),
		 struct madt *m)
{
	for (u32 off = MADT_FIXED; off < len;) {
		u8 n = entry_len(t + off, len - off);

		if (!n)
			return false;
		fn(m, t + off);
		off += n;
	}
	return true;
}

/*
 * acpi_check_lapic(): a type 0 entry with a valid ID that
 * acpi_is_processor_usable() takes: enabled, or online-capable where the
 * MADT has the bit (revision 5 on); before 5 the bit is reserved and
 * every entry is usable.
 */
static void check_lapic(struct madt *m, const u8 *e)
{
	u32 flags = get_unaligned_le32(e + 4);

	if (e[0] != MADT_LAPIC || e[3] == 0xff)
		return;
	if ((flags & 1) || m->revision < 5 || (flags & 2))
		m->has_lapic_cpus = true;
}

static void count_entry(struct madt *m, const u8 *e)
{
	m->ncpus += e[0] == MADT_LAPIC || e[0] == MADT_X2APIC;
}

static void entry(struct madt *m, const u8 *e)
{
	if (e[0] == MADT_LAPIC)
		lapic_entry(m, e);
	else if (e[0] == MADT_X2APIC)
		x2apic_entry(m, e);
	else if (e[0] == MADT_LAPIC_OVERRIDE)
		m->lapic_base = get_unaligned_le64(e + 4);
}

static bool is_madt(const u8 *t, u32 len)
{
	return len >= MADT_FIXED && memcmp(t, "APIC", 4) == 0;
}

u32 madt_processor_entries(const void *table, u32 len)
{
	struct madt m;

	memset(&m, 0, sizeof(m));
	if (!is_madt(table, len))
		return 0;
	walk(table, len, count_entry, &m);
	return m.ncpus;
}

bool madt_parse(const void *table, u32 len, struct madt *m,
		struct madt_cpu *cpu, u32 cap)
{
	const u8 *t = table;

	memset(m, 0, sizeof(*m));
	m->cpu = cpu;
	m->cap = cpu ? cap : 0;
	if (!is_madt(t, len))
		return false;
	m->lapic_base = get_unaligned_le32(t + HEADER);
	m->pcat_compat = get_unaligned_le32(t + HEADER + 4) & 1;
	m->revision = t[8];
	walk(t, len, check_lapic, m);
	if (!walk(t, len, entry, m))
		m->bad++;
	return true;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The MADT parser on synthetic tables: local APIC and x2APIC entries,
 * APIC IDs with gaps and above 255, the enabled and online-capable flags,
 * the address override, duplicates, and malformed entries.
 */
#include "lib/madt.h"
#include "lib/string.h"
#include "tests/host/unit.h"

static u8 tab[512];
static u32 len;

static void put(const u8 *b, u32 n)
{
	memcpy(tab + len, b, n);
	len += n;
}

static void begin(void)
{
	static const u8 fixed[8] = { 0x00, 0x00, 0xe0, 0xfe, 1, 0, 0, 0 };

	memset(tab, 0, sizeof(tab));
	memcpy(tab, "APIC", 4);
	len = 36;
	put(fixed, 8);	/* 0xfee00000, PCAT_COMPAT */
}

static void lapic(u8 uid, u8 id, u8 flags)
{
	const u8 e[8] = { 0, 8, uid, id, flags, 0, 0, 0 };

	put(e, 8);
}

static void x2apic(u32 id, u32 flags, u32 uid)
{
	const u8 e[16] = { 9, 16, 0, 0, (u8)id, (u8)(id >> 8), (u8)(id >> 16),
			   (u8)(id >> 24), (u8)flags, 0, 0, 0, (u8)uid, 0, 0, 0 };

	put(e, 16);
}

TEST(madt_processors_and_flags)
{
	static struct madt m;
	static const u8 over[12] = { 5, 12, 0, 0, 0, 0, 0xd0, 0xfe, 0, 0, 0, 0 };

	begin();
	lapic(0, 0, 1);
	lapic(1, 2, 2);		/* a gap in the IDs; online-capable, not enabled */
	x2apic(300, 1, 5);	/* above 255 */
	x2apic(0, 1, 0);	/* listed again as x2APIC: kept once */
	put(over, 12);
	EXPECT(madt_parse(tab, len, &m));
	EXPECT_EQ(m.ncpus, 3);
	EXPECT_EQ(m.nenabled, 2);
	EXPECT_EQ(m.bad, 0);
	EXPECT(m.pcat_compat);
	EXPECT_EQ(m.lapic_base, 0xfed00000ULL);
	EXPECT(m.cpu[0].apic_id == 0 && m.cpu[0].enabled && !m.cpu[0].x2apic);
	EXPECT(m.cpu[1].apic_id == 2 && !m.cpu[1].enabled && m.cpu[1].online_capable);
	EXPECT(m.cpu[2].apic_id == 300 && m.cpu[2].x2apic && m.cpu[2].uid == 5);
}

TEST(madt_refuses_and_stops_on_bad_entries)
{
	static struct madt m;
	static const u8 broken[2] = { 0, 1 };	/* length below its header */

	begin();
	EXPECT(!madt_parse(tab, 40, &m));	/* shorter than the fixed part */
	memcpy(tab, "FACP", 4);
	EXPECT(!madt_parse(tab, len, &m));
	begin();
	lapic(0, 0, 1);
	put(broken, 2);
	lapic(1, 1, 1);		/* after a bad entry: not trusted */
	EXPECT(madt_parse(tab, len, &m));
	EXPECT_EQ(m.ncpus, 1);
	EXPECT_EQ(m.bad, 1);
	begin();
	lapic(0, 0, 1);
	EXPECT(madt_parse(tab, len - 3, &m));	/* the table cut in an entry */
	EXPECT_EQ(m.ncpus, 0);
	EXPECT_EQ(m.bad, 1);
}

/* acpi_parse_lapic()/acpi_parse_x2apic(): the invalid IDs are ignored. */
TEST(madt_ignores_invalid_apic_ids)
{
	static struct madt m;

	begin();
	lapic(0, 0, 1);
	lapic(7, 0xff, 1);		/* xAPIC broadcast: never a CPU */
	x2apic(0xffffffffu, 1, 8);
	x2apic(256, 1, 9);
	EXPECT(madt_parse(tab, len, &m));
	EXPECT_EQ(m.ncpus, 2);
	EXPECT_EQ(m.invalid_id, 2);
	EXPECT_EQ(m.cpu[1].apic_id, 256);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The MADT parser on synthetic tables: local APIC and x2APIC entries,
 * APIC IDs with gaps and above 255, the enabled and online-capable flags,
 * the address override, duplicates, malformed entries; x2APIC IDs below
 * 0xff beside local APIC entries (ignored, as Linux); a table of 1024
 * x2APIC entries, sized by madt_processor_entries() (under ASan: nothing
 * written past the room given).
 */
#include "lib/madt.h"
#include "lib/string.h"
#include "tests/host/unit.h"
#include <stdlib.h>

static u8 tab[36 + 8 + 16 * 1100];
static u32 len;

static void put(const u8 *b, u32 n)
{
	memcpy(tab + len, b, n);
	len += n;
}

/* Parse into exactly the room madt_processor_entries() asks for. */
static bool parse(struct madt *m, u32 n)
{
	static struct madt_cpu *cpu;
	u32 want = madt_processor_entries(tab, n);

	free(cpu);
	cpu = want ? malloc(want * sizeof(*cpu)) : NULL;
	return madt_parse(tab, n, m, cpu, want);
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
			   (u8)(id >> 24), (u8)flags, 0, 0, 0, (u8)uid,
			   (u8)(uid >> 8), (u8)(uid >> 16), (u8)(uid >> 24) };

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
	x2apic(300, 1, 6);	/* listed twice: kept once */
	put(over, 12);
	EXPECT(parse(&m, len));
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
	EXPECT(!parse(&m, 40));	/* shorter than the fixed part */
	memcpy(tab, "FACP", 4);
	EXPECT(!parse(&m, len));
	begin();
	lapic(0, 0, 1);
	put(broken, 2);
	lapic(1, 1, 1);		/* after a bad entry: not trusted */
	EXPECT(parse(&m, len));
	EXPECT_EQ(m.ncpus, 1);
	EXPECT_EQ(m.bad, 1);
	begin();
	lapic(0, 0, 1);
	EXPECT(parse(&m, len - 3));	/* the table cut in an entry */
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
	EXPECT(parse(&m, len));
	EXPECT_EQ(m.ncpus, 2);
	EXPECT_EQ(m.invalid_id, 2);
	EXPECT_EQ(m.cpu[1].apic_id, 256);
}

/*
 * acpi_parse_madt_lapic_entries(): with a usable local APIC entry
 * anywhere in the table, x2APIC entries below 0xff are ignored
 * (acpi_parse_x2apic()), before or after it; 0xff and above are kept.
 */
TEST(madt_ignores_low_x2apic_beside_lapic)
{
	static struct madt m;

	begin();
	x2apic(1, 1, 1);	/* before the LAPIC entries: still ignored */
	lapic(0, 0, 1);
	lapic(1, 1, 1);
	x2apic(0, 1, 0);
	x2apic(0xfe, 1, 2);
	x2apic(0xff, 1, 3);	/* not below 0xff: kept */
	x2apic(300, 1, 4);
	EXPECT(parse(&m, len));
	EXPECT(m.has_lapic_cpus);
	EXPECT_EQ(m.ncpus, 4);
	EXPECT_EQ(m.x2apic_low, 3);
	EXPECT_EQ(m.cpu[2].apic_id, 0xff);
	EXPECT_EQ(m.cpu[3].apic_id, 300);
	/* No usable LAPIC entry (only the invalid ID): low x2APIC IDs count. */
	begin();
	lapic(0, 0xff, 1);
	x2apic(3, 1, 1);
	x2apic(4, 0, 2);	/* disabled: listed, not used */
	EXPECT(parse(&m, len));
	EXPECT(!m.has_lapic_cpus);
	EXPECT_EQ(m.ncpus, 2);
	EXPECT_EQ(m.nenabled, 1);
	EXPECT_EQ(m.x2apic_low, 0);
}

/*
 * acpi_is_processor_usable(): before MADT revision 5 the online-capable
 * bit is reserved and any valid-ID LAPIC entry is usable, so a disabled
 * one still makes low x2APIC IDs ignored; from 5, only enabled or
 * online-capable ones.
 */
TEST(madt_lapic_usable_by_revision)
{
	static struct madt m;

	for (u8 rev = 4; rev <= 5; rev++) {
		for (u8 flags = 0; flags <= 2; flags++) {
			begin();
			tab[8] = rev;
			lapic(0, 1, flags);
			x2apic(0, 1, 0);
			EXPECT(parse(&m, len));
			EXPECT_EQ(m.has_lapic_cpus, rev < 5 || flags != 0);
			EXPECT_EQ(m.x2apic_low, rev < 5 || flags != 0);
		}
	}
}

/* A server of 1024 APIC IDs (x2APIC, with gaps): every one kept. */
TEST(madt_1024_x2apic_entries)
{
	static struct madt m;
	static struct madt_cpu few[10];

	begin();
	for (u32 i = 0; i < 1024; i++)
		x2apic(i * 2 + (i >= 512 ? 100 : 0), i % 7 != 3, i);
	EXPECT_EQ(madt_processor_entries(tab, len), 1024);
	EXPECT(parse(&m, len));
	EXPECT_EQ(m.ncpus, 1024);
	EXPECT_EQ(m.dropped, 0);
	EXPECT_EQ(m.bad, 0);
	EXPECT_EQ(m.nenabled, 1024 - 146);
	EXPECT_EQ(m.cpu[0].apic_id, 0);
	EXPECT_EQ(m.cpu[1023].apic_id, 1023 * 2 + 100);
	EXPECT_EQ(m.cpu[1023].uid, 1023);
	/* Less room than entries: the rest counted, nothing written past. */
	EXPECT(madt_parse(tab, len, &m, few, 10));
	EXPECT_EQ(m.ncpus, 10);
	EXPECT_EQ(m.dropped, 1014);
	EXPECT(madt_parse(tab, len, &m, NULL, 0));
	EXPECT_EQ(m.ncpus, 0);
	EXPECT_EQ(m.dropped, 1024);
	/* More than 1024: 1100 entries, still all kept. */
	for (u32 i = 1024; i < 1100; i++)
		x2apic(5000 + i, 1, i);
	EXPECT(parse(&m, len));
	EXPECT_EQ(m.ncpus, 1100);
}

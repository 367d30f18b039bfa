// SPDX-License-Identifier: GPL-2.0-only
/*
 * The MADT's interrupt routing on synthetic tables: I/O APICs, ISA
 * overrides (IRQ0 on GSI 2, an active-low one, a non-ISA bus ignored),
 * more entries than kept, and a malformed entry that ends the walk.
 */
#include "lib/madt_irq.h"
#include "lib/string.h"
#include "tests/host/unit.h"

static u8 tab[1024];
static u32 len;

static void put(const u8 *b, u32 n)
{
	memcpy(tab + len, b, n);
	len += n;
}

static void begin(void)
{
	memset(tab, 0, sizeof(tab));
	memcpy(tab, "APIC", 4);
	len = 44;
}

static void ioapic(u8 id, u32 addr, u32 gsi)
{
	const u8 e[12] = { 1, 12, id, 0, (u8)addr, (u8)(addr >> 8),
			   (u8)(addr >> 16), (u8)(addr >> 24), (u8)gsi,
			   (u8)(gsi >> 8), 0, 0 };

	put(e, 12);
}

static void iso(u8 bus, u8 src, u32 gsi, u16 flags)
{
	const u8 e[10] = { 2, 10, bus, src, (u8)gsi, (u8)(gsi >> 8), 0, 0,
			   (u8)flags, (u8)(flags >> 8) };

	put(e, 10);
}

static u32 pins24(const struct madt_ioapic *a, void *ctx)
{
	(void)a;
	(void)ctx;
	return 24;
}

TEST(madt_irq_routing)
{
	static struct madt_irq m;
	bool low;

	begin();
	ioapic(0, 0xfec00000, 0);
	ioapic(1, 0xfec01000, 24);
	iso(0, 0, 2, 0);	/* IRQ0 -> GSI 2, conforming */
	iso(0, 9, 9, 0xd);	/* SCI: level, active high */
	iso(0, 5, 21, 0xf);	/* active low */
	iso(1, 3, 40, 0);	/* not ISA: ignored */
	EXPECT(madt_irq_parse(tab, len, &m));
	EXPECT_EQ(m.nioapics, 2);
	EXPECT_EQ(m.ioapic[1].address, 0xfec01000);
	EXPECT_EQ(m.ioapic[1].gsi_base, 24);
	EXPECT_EQ(m.nisos, 3);
	EXPECT_EQ(madt_irq_isa_gsi(&m, 0, &low), 2);
	EXPECT(!low);
	EXPECT_EQ(madt_irq_isa_gsi(&m, 5, &low), 21);
	EXPECT(low);
	EXPECT_EQ(madt_irq_isa_gsi(&m, 3, &low), 3);	/* identity */
	EXPECT_EQ(madt_irq_ioapic_of(&m, 2, pins24, NULL), 0);
	EXPECT_EQ(madt_irq_ioapic_of(&m, 30, pins24, NULL), 1);
	EXPECT_EQ(madt_irq_ioapic_of(&m, 48, pins24, NULL), -1);
}

TEST(madt_irq_limits)
{
	static struct madt_irq m;

	begin();
	for (u32 i = 0; i < MADT_MAX_IOAPICS + 3; i++)
		ioapic((u8)i, 0xfec00000 + i * 0x1000, i * 24);
	EXPECT(madt_irq_parse(tab, len, &m));
	EXPECT_EQ(m.nioapics, MADT_MAX_IOAPICS);
	EXPECT_EQ(m.dropped, 3);
	/* A zero-length entry ends the walk, nothing past it taken. */
	begin();
	ioapic(0, 0xfec00000, 0);
	put((const u8[]){ 1, 0 }, 2);
	ioapic(1, 0xfec01000, 24);
	EXPECT(madt_irq_parse(tab, len, &m));
	EXPECT_EQ(m.nioapics, 1);
	EXPECT(!madt_irq_parse(tab, 20, &m));
}

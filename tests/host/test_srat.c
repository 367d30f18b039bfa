// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SRAT and SLIT parsers on synthetic tables: nodes numbered as Linux
 * numbers them, local APIC and x2APIC affinity (IDs above 255, 32-bit
 * domains), disabled entries, memory with holes, malformed lengths, the
 * bounds, and SLITs good and bad; 1100 x2APIC affinity entries in an
 * array of exactly the size srat_processor_entries() asks (ASan).
 */
#include "lib/srat.h"
#include "lib/string.h"
#include "tests/host/unit.h"
#include <stdlib.h>

static u8 tab[48 + 24 * 1200];
static u32 len;

static void put32(u8 *p, u32 v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (u8)(v >> (8 * i));
}

static void put64(u8 *p, u64 v)
{
	put32(p, (u32)v);
	put32(p + 4, (u32)(v >> 32));
}

static void begin(const char *sig, u8 revision, u32 fixed)
{
	memset(tab, 0, sizeof(tab));
	memcpy(tab, sig, 4);
	tab[8] = revision;
	len = fixed;
}

/* Parse into exactly the room srat_processor_entries() asks for. */
static bool parse(u32 n, struct srat *s)
{
	static struct srat_cpu *cpu;
	u32 want = srat_processor_entries(tab, n);

	free(cpu);
	cpu = want ? malloc(want * sizeof(*cpu)) : NULL;
	return srat_parse(tab, n, s, cpu, want);
}

static void srat(u8 revision)
{
	begin("SRAT", revision, 48);
	tab[36] = 1;	/* the reserved field ACPI wants as 1 */
}

/* Room for an entry of @type and @n bytes at the table's end. */
static u8 *entry(u8 type, u8 n)
{
	u8 *e = tab + len;

	e[0] = type;
	e[1] = n;
	len += n;
	return e;
}

static void lapic(u8 apic_id, u32 pxm, u32 flags)
{
	u8 *e = entry(0, 16);

	e[2] = (u8)pxm;
	e[3] = apic_id;
	put32(e + 4, flags);
	e[9] = (u8)(pxm >> 8);
	e[10] = (u8)(pxm >> 16);
	e[11] = (u8)(pxm >> 24);
}

static void x2apic(u32 apic_id, u32 pxm, u32 flags)
{
	u8 *e = entry(2, 24);

	put32(e + 4, pxm);
	put32(e + 8, apic_id);
	put32(e + 12, flags);
}

static void mem(u32 pxm, u64 base, u64 size, u32 flags)
{
	u8 *e = entry(1, 40);

	put32(e + 2, pxm);
	put64(e + 8, base);
	put64(e + 16, size);
	put32(e + 28, flags);
}

/* A SLIT of @n localities whose distances are @d (n * n of them). */
static void slit(u64 n, const u8 *d, u32 nd)
{
	begin("SLIT", 1, 44);
	put64(tab + 36, n);
	memcpy(tab + 44, d, nd);
	len += nd;
}

static u32 ranges_of(const struct srat *s, u32 node, u64 *bytes)
{
	const struct mem_node_range *r;
	u32 i = 0, n = 0;

	*bytes = 0;
	while ((r = srat_next_range(s, node, &i))) {
		*bytes += r->end - r->start;
		n++;
	}
	return n;
}

TEST(srat_two_nodes_with_a_hole)
{
	static struct srat s;
	u64 bytes;

	srat(3);
	mem(7, 0x20000000, 0x20000000, 1);	/* first, yet node 1 */
	lapic(0, 5, 1);
	lapic(1, 7, 1);
	mem(5, 0, 0xa0000, 1);
	mem(5, 0x100000, 0x1ff00000, 1);	/* the hole 640K..1M */
	EXPECT(parse(len, &s));
	EXPECT_EQ(s.nnodes, 2);
	EXPECT_EQ(s.pxm[0], 5);	/* processors first, as Linux walks */
	EXPECT_EQ(s.pxm[1], 7);
	EXPECT_EQ(s.ncpus, 2);
	EXPECT_EQ(s.nmem, 3);
	EXPECT_EQ(s.bad + s.disabled + s.dropped + s.empty, 0);
	EXPECT_EQ(srat_node_of_apic(&s, 0), 0);
	EXPECT_EQ(srat_node_of_apic(&s, 1), 1);
	EXPECT_EQ(srat_node_of_apic(&s, 2), NUMA_NO_NODE);
	EXPECT_EQ(ranges_of(&s, 0, &bytes), 2);
	EXPECT_EQ(bytes, 0xa0000 + 0x1ff00000);
	EXPECT_EQ(ranges_of(&s, 1, &bytes), 1);
	EXPECT_EQ(bytes, 0x20000000);
	EXPECT_EQ(ranges_of(&s, 2, &bytes), 0);
	/* No SLIT: Linux's 10 local, 20 remote. */
	EXPECT_EQ(srat_distance(&s, 0, 0), 10);
	EXPECT_EQ(srat_distance(&s, 0, 1), 20);
	EXPECT_EQ(srat_nearest_node(&s, 0), 1);
	EXPECT_EQ(srat_nearest_node(&s, 1), 0);
	EXPECT_EQ(srat_nearest_node(&s, 2), NUMA_NO_NODE);
}

TEST(srat_x2apic_and_wide_domains)
{
	static struct srat s;

	srat(3);
	x2apic(300, 0x10000, 1);	/* above 255; a 32-bit domain */
	x2apic(0x12345, 2, 1);
	lapic(4, 0x010102, 1);		/* domain bytes 2 and 9..11 */
	lapic(4, 2, 1);		/* listed again: the later wins */
	mem(0x10000, 0x100000000ULL, 1ULL << 32, 1 | 2 | 4);
	EXPECT(parse(len, &s));
	EXPECT_EQ(s.nnodes, 3);
	EXPECT_EQ(s.ncpus, 3);
	EXPECT(s.cpu[0].apic_id == 300 && s.cpu[0].x2apic);
	EXPECT_EQ(s.cpu[0].node, 0);
	EXPECT_EQ(srat_node_of_apic(&s, 0x12345), 1);
	EXPECT_EQ(s.pxm[2], 0x010102);
	EXPECT_EQ(srat_node_of_apic(&s, 4), 1);
	EXPECT(!s.cpu[2].x2apic);
	EXPECT(s.mem[0].node == 0 && s.mem[0].hotplug && s.mem[0].nonvolatile);
	EXPECT_EQ(s.mem[0].end, 0x200000000ULL);
	/* Node 1 has no memory: not a node to take folios from. */
	EXPECT_EQ(srat_nearest_node(&s, 0), NUMA_NO_NODE);
	EXPECT_EQ(srat_nearest_node(&s, 1), 0);
}

TEST(srat_revision_1_has_8_bit_domains)
{
	static struct srat s;

	srat(1);
	lapic(0, 0x0301, 1);	/* the upper bytes were reserved then */
	mem(0x0201, 0, 0x1000000, 1);
	EXPECT(parse(len, &s));
	EXPECT_EQ(s.nnodes, 1);
	EXPECT_EQ(s.pxm[0], 1);
	EXPECT_EQ(s.mem[0].node, 0);
}

TEST(srat_skips_disabled_and_empty_entries)
{
	static struct srat s;

	srat(3);
	lapic(0, 0, 1);
	lapic(1, 9, 0);			/* not enabled: names no node */
	x2apic(2, 9, 0);
	mem(9, 0x40000000, 0x40000000, 0);
	mem(0, 0, 0, 1);		/* empty */
	mem(0, ~0ULL - 0xfff, 0x2000, 1);	/* wraps */
	mem(0, 0, 0x40000000, 1);
	EXPECT(parse(len, &s));
	EXPECT_EQ(s.nnodes, 1);
	EXPECT_EQ(s.ncpus, 1);
	EXPECT_EQ(s.nmem, 1);
	EXPECT_EQ(s.disabled, 3);
	EXPECT_EQ(s.empty, 2);
	EXPECT_EQ(srat_node_of_apic(&s, 1), NUMA_NO_NODE);
}

TEST(srat_stops_at_malformed_entries)
{
	static struct srat s;

	srat(3);
	lapic(0, 0, 1);
	entry(3, 8);			/* another type (GICC): skipped */
	mem(0, 0, 0x1000000, 1);
	tab[len - 40 + 1] = 32;		/* shorter than a memory entry */
	len -= 8;
	lapic(1, 1, 1);			/* after it: not trusted */
	EXPECT(parse(len, &s));
	EXPECT_EQ(s.bad, 1);
	EXPECT_EQ(s.ncpus, 1);
	EXPECT_EQ(s.nmem, 0);
	srat(3);
	lapic(0, 0, 1);
	tab[len - 16 + 1] = 20;		/* type 0 must be exactly 16 */
	EXPECT(parse(len + 4, &s));
	EXPECT(s.bad == 1 && s.ncpus == 0);
	srat(3);
	x2apic(0, 0, 1);
	EXPECT(parse(len - 1, &s));	/* cut inside the entry */
	EXPECT(s.bad == 1 && s.ncpus == 0);
	srat(3);
	tab[len + 1] = 0;		/* a zero length never advances */
	EXPECT(parse(len + 2, &s));
	EXPECT_EQ(s.bad, 1);
}

TEST(srat_refuses_short_or_foreign_tables)
{
	static struct srat s;

	srat(3);
	EXPECT(!parse(47, &s));
	EXPECT(parse(48, &s));
	EXPECT_EQ(s.nnodes, 0);
	memcpy(tab, "APIC", 4);
	EXPECT(!parse(48, &s));
}

TEST(srat_bounds_are_counted)
{
	static struct srat s;

	srat(3);
	for (u32 i = 0; i <= NUMA_MAX_NODES; i++)
		lapic((u8)i, i, 1);
	EXPECT(parse(len, &s));
	EXPECT_EQ(s.nnodes, NUMA_MAX_NODES);
	EXPECT_EQ(s.ncpus, NUMA_MAX_NODES);
	EXPECT_EQ(s.dropped, 1);
	srat(3);
	for (u32 i = 0; i <= NUMA_MAX_RANGES; i++)
		mem(0, (u64)i << 30, 1ULL << 29, 1);
	EXPECT(parse(len, &s));
	EXPECT_EQ(s.nmem, NUMA_MAX_RANGES);
	EXPECT_EQ(s.dropped, 1);
}

/* Three CPUs, APIC IDs 0-2, in domains @cpu_pxm; three GiBs of memory
 * from 0 up, in domains @mem_pxm. */
static void srat_three(struct srat *s, const u32 cpu_pxm[3],
		       const u32 mem_pxm[3])
{
	srat(3);
	for (u32 i = 0; i < 3; i++)
		lapic((u8)i, cpu_pxm[i], 1);
	for (u32 i = 0; i < 3; i++)
		mem(mem_pxm[i], (u64)i << 30, 1ULL << 30, 1);
	EXPECT(parse(len, s));
}

/* Domains 1 and 0 are nodes 0 and 1: the SLIT is by domain. */
static void srat_domains_1_0_2(struct srat *s)
{
	srat_three(s, (const u32[]){ 1, 0, 2 }, (const u32[]){ 1, 0, 2 });
}

TEST(slit_distances_by_domain)
{
	static struct srat s;
	static const u8 d[9] = { 10, 30, 21,  30, 10, 40,  21, 40, 10 };
	static const u8 d2[4] = { 10, 30,  30, 10 };

	srat_domains_1_0_2(&s);
	slit(3, d, 9);
	EXPECT(srat_apply_slit(&s, tab, len));
	EXPECT(s.has_slit);
	EXPECT_EQ(s.localities, 3);
	EXPECT_EQ(srat_distance(&s, 0, 1), 30);	/* domains 1 and 0 */
	EXPECT_EQ(srat_distance(&s, 0, 2), 40);	/* domains 1 and 2 */
	EXPECT_EQ(srat_distance(&s, 1, 2), 21);
	EXPECT_EQ(srat_distance(&s, 2, 2), 10);
	EXPECT_EQ(srat_nearest_node(&s, 0), 1);
	EXPECT_EQ(srat_nearest_node(&s, 1), 2);
	EXPECT_EQ(srat_nearest_node(&s, 2), 1);
	/* Fewer localities than domains: the rest keep the defaults. */
	slit(2, d2, 4);
	EXPECT(srat_apply_slit(&s, tab, len));
	EXPECT_EQ(srat_distance(&s, 0, 1), 30);
	EXPECT_EQ(srat_distance(&s, 0, 2), 20);
}

TEST(slit_ties_go_round)
{
	static struct srat s;

	srat_domains_1_0_2(&s);
	/* Without a SLIT every other node is 20 away: the next one. */
	EXPECT_EQ(srat_nearest_node(&s, 0), 1);
	EXPECT_EQ(srat_nearest_node(&s, 1), 2);
	EXPECT_EQ(srat_nearest_node(&s, 2), 0);
}

/*
 * Node 1 has CPUs and no memory; node 3 memory and no CPUs.  Its memory
 * comes from the node local_memory_node() names: by distance, one more
 * below it and one more with CPUs (find_next_best_node()).
 */
static void srat_memoryless_1(struct srat *s)
{
	srat_three(s, (const u32[]){ 0, 1, 2 }, (const u32[]){ 0, 2, 3 });
	EXPECT_EQ(s->nnodes, 4);
}

TEST(srat_memory_node_of_a_memoryless_node)
{
	static struct srat s;
	static const u8 near0[16] = { 10, 12, 20, 20,  12, 10, 21, 30,
				      20, 21, 10, 20,  20, 30, 20, 10 };
	static const u8 tie[16] = { 10, 21, 20, 20,  21, 10, 22, 30,
				    20, 22, 10, 20,  20, 30, 20, 10 };

	srat_memoryless_1(&s);
	/* A node with memory is its own. */
	EXPECT_EQ(srat_memory_node(&s, 0), 0);
	EXPECT_EQ(srat_memory_node(&s, 2), 2);
	EXPECT_EQ(srat_memory_node(&s, 3), 3);
	/* All at 20: node 3 (above, headless) before 2 (CPUs) before 0. */
	EXPECT_EQ(srat_memory_node(&s, 1), 3);
	EXPECT_EQ(srat_memory_node(&s, 4), NUMA_NO_NODE);
	/* Node 0 at 12 wins though below and with CPUs. */
	slit(4, near0, 16);
	EXPECT(srat_apply_slit(&s, tab, len));
	EXPECT_EQ(srat_memory_node(&s, 1), 0);
	/* 21 + 1 + 1 against 22 + 0 + 1: a tie goes to the lowest. */
	srat_memoryless_1(&s);
	slit(4, tie, 16);
	EXPECT(srat_apply_slit(&s, tab, len));
	EXPECT_EQ(srat_memory_node(&s, 1), 0);
	/* No node with memory: none to name. */
	srat(3);
	lapic(0, 0, 1);
	EXPECT(parse(len, &s));
	EXPECT_EQ(srat_memory_node(&s, 0), NUMA_NO_NODE);
}

TEST(slit_refused_with_a_reason)
{
	static struct srat s;
	static const u8 diag[4] = { 10, 20, 20, 11 };
	static const u8 flat[4] = { 10, 10, 10, 10 };

	srat_domains_1_0_2(&s);
	slit(2, diag, 4);
	EXPECT(!srat_apply_slit(&s, tab, len));
	EXPECT(!s.has_slit);
	EXPECT_STR(s.slit_reason, "locality 1 is 11 from itself, not 10");
	EXPECT_EQ(srat_distance(&s, 0, 1), 20);
	slit(2, flat, 4);	/* what many BIOSes fill in, as Linux says */
	EXPECT(!srat_apply_slit(&s, tab, len));
	EXPECT_STR(s.slit_reason,
		   "localities 0 and 1 are 10 apart, not more than local (10)");
	slit(3, diag, 4);	/* nine distances wanted, four there */
	EXPECT(!srat_apply_slit(&s, tab, len));
	EXPECT_STR(s.slit_reason,
		   "3 localities need 3*3 bytes of distances, the table has 4");
	slit(1ULL << 40, diag, 4);	/* n * n would overflow */
	EXPECT(!srat_apply_slit(&s, tab, len));
	EXPECT_STR(s.slit_reason, "1099511627776 localities need "
		   "1099511627776*1099511627776 bytes of distances, the table "
		   "has 4");
	slit(0, diag, 0);
	EXPECT(!srat_apply_slit(&s, tab, len));
	EXPECT_STR(s.slit_reason, "no localities");
	EXPECT(!srat_apply_slit(&s, tab, 43));
	EXPECT_STR(s.slit_reason, "43 bytes: not a SLIT");
}

/* A server of 1100 processors, two domains: every one kept, by count. */
TEST(srat_1100_x2apic_processors)
{
	static struct srat s;
	static struct srat_cpu few[8];

	srat(3);
	for (u32 i = 0; i < 1100; i++)
		x2apic(2 * i, i < 550 ? 7 : 9, 1);
	EXPECT_EQ(srat_processor_entries(tab, len), 1100);
	EXPECT(parse(len, &s));
	EXPECT_EQ(s.ncpus, 1100);
	EXPECT_EQ(s.dropped, 0);
	EXPECT_EQ(s.nnodes, 2);
	EXPECT_EQ(srat_node_of_apic(&s, 2 * 1099), 1);
	EXPECT_EQ(srat_node_of_apic(&s, 2 * 549), 0);
	EXPECT_EQ(srat_node_of_apic(&s, 1), NUMA_NO_NODE);
	/* Less room: the rest dropped and counted, nothing written past. */
	EXPECT(srat_parse(tab, len, &s, few, 8));
	EXPECT_EQ(s.ncpus, 8);
	EXPECT_EQ(s.dropped, 1092);
	EXPECT_EQ(srat_processor_entries(tab, 40), 0);
}

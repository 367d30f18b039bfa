// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SRAT and SLIT, in the steps of Linux's drivers/acpi/numa/srat.c and
 * arch/x86/mm/srat.c:
 *   acpi_numa_init()                      processors first, then memory:
 *                                         srat_parse()
 *   acpi_numa_processor_affinity_init()   type 0: add_cpu()
 *   acpi_numa_x2apic_affinity_init()      type 2: add_cpu()
 *   acpi_numa_memory_affinity_init()      type 1: add_mem()
 *   acpi_map_pxm_to_node()                node_of_pxm()
 *   slit_valid(), acpi_numa_slit_init()   slit_valid(), srat_apply_slit()
 *   node_distance() without a SLIT        srat_distance()
 *   local_memory_node() through           srat_memory_node()
 *   find_next_best_node() (mm/page_alloc.c)
 * One difference: where Linux's bad_srat() drops the whole SRAT on a
 * malformed entry, the walk here stops at it and keeps what came before,
 * counted in @bad so that the boot says so.
 */
#include "lib/format.h"
#include "lib/srat.h"
#include "lib/string.h"
#include "lib/unaligned.h"

#define HEADER		36		/* the ACPI table header */
#define SRAT_FIXED	(HEADER + 12)	/* + reserved 4 and 8 bytes */
#define SLIT_FIXED	(HEADER + 8)	/* + number of localities */

enum {
	SRAT_LAPIC = 0,
	SRAT_MEMORY = 1,
	SRAT_X2APIC = 2,
};

enum {
	AFFINITY_ENABLED = 1 << 0,
	MEM_HOTPLUG = 1 << 1,
	MEM_NONVOLATILE = 1 << 2,
};

/* The lengths Linux's affinity handlers accept; other types are skipped. */
static bool length_ok(u8 type, u8 len)
{
	switch (type) {
	case SRAT_LAPIC:
		return len == 16;
	case SRAT_MEMORY:
		return len >= 40;
	case SRAT_X2APIC:
		return len >= 24;
	default:
		return len >= 2;
	}
}

/* Where the walk ends: the table's end, or its first malformed entry. */
static u32 walk_end(const u8 *t, u32 len, u32 *bad)
{
	u32 off = SRAT_FIXED;

	while (off < len) {
		if (len - off < 2 || t[off + 1] > len - off ||
		    !length_ok(t[off], t[off + 1])) {
			(*bad)++;
			break;
		}
		off += t[off + 1];
	}
	return off;
}

/* Dense node numbers in the order domains first appear, as Linux's. */
static u32 node_of_pxm(struct srat *s, u32 pxm)
{
	for (u32 n = 0; n < s->nnodes; n++)
		if (s->pxm[n] == pxm)
			return n;
	if (s->nnodes == NUMA_MAX_NODES)
		return NUMA_NO_NODE;
	s->pxm[s->nnodes] = pxm;
	return s->nnodes++;
}

static void add_cpu(struct srat *s, u32 apic_id, u32 pxm, u32 flags, bool x2)
{
	u32 node, i = 0;

	if (!(flags & AFFINITY_ENABLED)) {
		s->disabled++;
		return;
	}
	node = node_of_pxm(s, pxm);
	while (i < s->ncpus && s->cpu[i].apic_id != apic_id)
		i++;
	if (node == NUMA_NO_NODE || i == s->cpu_cap) {
		s->dropped++;
		return;
	}
	/* Listed twice: the later entry wins, as set_apicid_to_node(). */
	s->cpu[i].apic_id = apic_id;
	s->cpu[i].node = node;
	s->cpu[i].x2apic = x2;
	s->ncpus += i == s->ncpus;
}

/* Revision 1 tables had 8-bit domains; the bytes above were reserved. */
static u32 lapic_pxm(const struct srat *s, const u8 *e)
{
	u32 hi = e[9] | (u32)e[10] << 8 | (u32)e[11] << 16;

	return e[2] | (s->revision >= 2 ? hi << 8 : 0);
}

static void add_mem(struct srat *s, const u8 *e)
{
	u64 base = get_unaligned_le64(e + 8), size = get_unaligned_le64(e + 16);
	u32 pxm = get_unaligned_le32(e + 2), flags = get_unaligned_le32(e + 28);
	struct mem_node_range *r;
	u32 node;

	if (!(flags & AFFINITY_ENABLED)) {
		s->disabled++;
		return;
	}
	node = node_of_pxm(s, s->revision >= 2 ? pxm : pxm & 0xff);
	if (node == NUMA_NO_NODE || s->nmem == NUMA_MAX_RANGES) {
		s->dropped++;
		return;
	}
	/* Linux maps the domain, then ignores such a block. */
	if (size == 0 || base + size < base) {
		s->empty++;
		return;
	}
	r = &s->mem[s->nmem++];
	r->start = base;
	r->end = base + size;
	r->node = node;
	r->hotplug = flags & MEM_HOTPLUG;
	r->nonvolatile = flags & MEM_NONVOLATILE;
}

/* Linux walks processors, then memory: node numbers follow that order. */
static void walk(struct srat *s, const u8 *t, u32 end, bool memory)
{
	for (u32 off = SRAT_FIXED; off < end; off += t[off + 1]) {
		const u8 *e = t + off;

		if (memory && e[0] == SRAT_MEMORY)
			add_mem(s, e);
		else if (!memory && e[0] == SRAT_LAPIC)
			add_cpu(s, e[3], lapic_pxm(s, e),
				get_unaligned_le32(e + 4), false);
		else if (!memory && e[0] == SRAT_X2APIC)
			add_cpu(s, get_unaligned_le32(e + 8),
				get_unaligned_le32(e + 4),
				get_unaligned_le32(e + 12), true);
	}
}

u32 srat_processor_entries(const void *table, u32 len)
{
	const u8 *t = table;
	u32 end, bad = 0, n = 0;

	if (len < SRAT_FIXED || memcmp(t, "SRAT", 4) != 0)
		return 0;
	end = walk_end(t, len, &bad);
	for (u32 off = SRAT_FIXED; off < end; off += t[off + 1])
		n += t[off] == SRAT_LAPIC || t[off] == SRAT_X2APIC;
	return n;
}

bool srat_parse(const void *table, u32 len, struct srat *s,
		struct srat_cpu *cpu, u32 cap)
{
	const u8 *t = table;
	u32 end;

	memset(s, 0, sizeof(*s));
	s->cpu = cpu;
	s->cpu_cap = cpu ? cap : 0;
	if (len < SRAT_FIXED || memcmp(t, "SRAT", 4) != 0)
		return false;
	s->revision = t[8];
	end = walk_end(t, len, &s->bad);
	walk(s, t, end, false);
	walk(s, t, end, true);
	return true;
}

/* Linux's slit_valid(), after checking the matrix is all there. */
static bool slit_valid(struct srat *s, const u8 *t, u32 len, u64 n)
{
	char *why = s->slit_reason;
	u32 room = len - SLIT_FIXED;

	if (n == 0) {
		ksnprintf(why, sizeof(s->slit_reason), "no localities");
		return false;
	}
	if (n > room || n * n > room) {
		ksnprintf(why, sizeof(s->slit_reason), "%llu localities need "
			  "%llu*%llu bytes of distances, the table has %u",
			  (unsigned long long)n, (unsigned long long)n,
			  (unsigned long long)n, room);
		return false;
	}
	for (u64 i = 0; i < n; i++) {
		for (u64 j = 0; j < n; j++) {
			u8 d = t[SLIT_FIXED + n * i + j];

			if (i == j && d != NUMA_LOCAL_DISTANCE) {
				ksnprintf(why, sizeof(s->slit_reason),
					  "locality %llu is %u from itself, "
					  "not 10", (unsigned long long)i, d);
				return false;
			}
			if (i != j && d <= NUMA_LOCAL_DISTANCE) {
				ksnprintf(why, sizeof(s->slit_reason),
					  "localities %llu and %llu are %u "
					  "apart, not more than local (10)",
					  (unsigned long long)i,
					  (unsigned long long)j, d);
				return false;
			}
		}
	}
	return true;
}

static u32 default_distance(u32 a, u32 b)
{
	return a == b ? NUMA_LOCAL_DISTANCE : NUMA_REMOTE_DISTANCE;
}

bool srat_apply_slit(struct srat *s, const void *table, u32 len)
{
	const u8 *t = table;
	u64 n;

	s->has_slit = false;
	s->localities = 0;
	s->slit_reason[0] = '\0';
	if (len < SLIT_FIXED || memcmp(t, "SLIT", 4) != 0) {
		ksnprintf(s->slit_reason, sizeof(s->slit_reason),
			  "%u bytes: not a SLIT", len);
		return false;
	}
	n = s->localities = get_unaligned_le64(t + HEADER);
	if (!slit_valid(s, t, len, n))
		return false;
	/* Localities the SRAT does not name are left out, as in Linux. */
	for (u32 a = 0; a < s->nnodes; a++) {
		for (u32 b = 0; b < s->nnodes; b++) {
			u64 pa = s->pxm[a], pb = s->pxm[b];

			s->dist[a][b] = pa < n && pb < n ?
				t[SLIT_FIXED + n * pa + pb] :
				default_distance(a, b);
		}
	}
	s->has_slit = true;
	return true;
}

u32 srat_node_of_apic(const struct srat *s, u32 apic_id)
{
	for (u32 i = 0; i < s->ncpus; i++)
		if (s->cpu[i].apic_id == apic_id)
			return s->cpu[i].node;
	return NUMA_NO_NODE;
}

const struct mem_node_range *srat_next_range(const struct srat *s, u32 node,
					     u32 *i)
{
	for (; *i < s->nmem; (*i)++)
		if (s->mem[*i].node == node)
			return &s->mem[(*i)++];
	return NULL;
}

u32 srat_distance(const struct srat *s, u32 a, u32 b)
{
	if (s->has_slit && a < s->nnodes && b < s->nnodes)
		return s->dist[a][b];
	return default_distance(a, b);
}

/* Folios can come only from a node with memory. */
static bool has_memory(const struct srat *s, u32 node)
{
	u32 i = 0;

	return srat_next_range(s, node, &i) != NULL;
}

u32 srat_nearest_node(const struct srat *s, u32 node)
{
	u32 best = NUMA_NO_NODE, best_d = ~0u;

	if (node >= s->nnodes)
		return NUMA_NO_NODE;
	/* From the next node round: a tie goes to the first met. */
	for (u32 k = 1; k < s->nnodes; k++) {
		u32 n = (node + k) % s->nnodes, d;

		if (!has_memory(s, n))
			continue;
		d = srat_distance(s, node, n);
		if (d < best_d) {
			best = n;
			best_d = d;
		}
	}
	return best;
}

/* Whether the SRAT puts a processor in @node. */
static bool has_cpus(const struct srat *s, u32 node)
{
	for (u32 i = 0; i < s->ncpus; i++)
		if (s->cpu[i].node == node)
			return true;
	return false;
}

/*
 * The first node of @node's zonelist as build_zonelists() orders it
 * (find_next_best_node()): itself when it has memory; else by distance,
 * one more for a node below it ("prefer the next node") and one more for
 * a node with CPUs (PENALTY_FOR_NODE_WITH_CPUS), ties to the lowest.
 * Linux's node_load[] term, which spreads ties over the zonelists as it
 * builds them one after another, is left out: one list is asked for.
 */
u32 srat_memory_node(const struct srat *s, u32 node)
{
	u32 best = NUMA_NO_NODE, best_v = ~0u;

	if (node >= s->nnodes)
		return NUMA_NO_NODE;
	if (has_memory(s, node))
		return node;
	for (u32 n = 0; n < s->nnodes; n++) {
		u32 v;

		if (n == node || !has_memory(s, n))
			continue;
		v = srat_distance(s, node, n) + (n < node) + has_cpus(s, n);
		if (v < best_v) {
			best = n;
			best_v = v;
		}
	}
	return best;
}

/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_SRAT_H
#define LIB_SRAT_H

#include "lib/numa.h"
#include "lib/types.h"

/*
 * The ACPI SRAT ("SRAT", ACPI 6.5, 5.2.16) and SLIT ("SLIT", 5.2.17),
 * parsed from their bytes: which NUMA node each processor (by APIC ID)
 * and each memory range belongs to, and how far apart the nodes are.
 * Pure, as lib/madt.c: the kernel hands it mapped, checksummed tables;
 * host tests hand it synthetic ones.  The processors have no fixed limit:
 * the caller sizes their array by srat_processor_entries() (the kernel
 * from its allocator); nodes and memory ranges are bounded by lib/numa.h.
 */

struct srat_cpu {
	u32 apic_id;
	u32 node;
	bool x2apic;		/* from a type 2 entry */
};

struct srat {
	u8 revision;		/* 1: 8-bit proximity domains */
	u32 nnodes;
	u32 pxm[NUMA_MAX_NODES];	/* each node's proximity domain */
	u32 ncpus;
	u32 cpu_cap;		/* room in cpu[] */
	struct srat_cpu *cpu;
	u32 nmem;
	struct mem_node_range mem[NUMA_MAX_RANGES];
	/* Entries skipped: not enabled; memory empty or wrapping */
	u32 disabled, empty;
	u32 dropped;		/* beyond the nodes', ranges' or CPUs' bound */
	u32 bad;		/* a length was wrong: the walk ended there */
	/* From the SLIT, once srat_apply_slit() accepted one */
	bool has_slit;
	u64 localities;
	char slit_reason[128];	/* why a SLIT was not used */
	u8 dist[NUMA_MAX_NODES][NUMA_MAX_NODES];
};

/*
 * How many processor affinity entries (types 0 and 2) the SRAT at @table
 * has up to the first malformed one: room enough for srat_parse().
 */
u32 srat_processor_entries(const void *table, u32 len);
/*
 * Parse the @len bytes of an SRAT at @table (header included), its
 * processors into @cpu (room for @cap; beyond it dropped, counted).  False
 * when it is too short to be one; a malformed entry ends the walk,
 * counted in @s->bad, and what came before it is kept.
 */
bool srat_parse(const void *table, u32 len, struct srat *s,
		struct srat_cpu *cpu, u32 cap);
/*
 * Take the node distances from the SLIT at @table.  False when it is not
 * usable (too short, distances cut off, a node not at 10 from itself or
 * not farther from the others): @s->slit_reason says why, and distances
 * stay Linux's defaults.
 */
bool srat_apply_slit(struct srat *s, const void *table, u32 len);

/* The node of processor @apic_id; NUMA_NO_NODE when the SRAT omits it. */
u32 srat_node_of_apic(const struct srat *s, u32 apic_id);
/* The next memory range of @node from index *@i on (advanced), or NULL. */
const struct mem_node_range *srat_next_range(const struct srat *s, u32 node,
					     u32 *i);
/* From the SLIT if one was accepted, else 10 local, 20 remote. */
u32 srat_distance(const struct srat *s, u32 a, u32 b);
/*
 * The nearest other node with memory: least distance, ties to the first
 * after @node in cyclic order (so without a SLIT it is the next node).
 * NUMA_NO_NODE when there is none.
 */
u32 srat_nearest_node(const struct srat *s, u32 node);
/*
 * Where @node's memory comes from, as Linux's local_memory_node() says
 * for a memoryless node (mm/page_alloc.c): @node itself when the SRAT
 * gives it memory, else the nearest node with memory as the node's
 * zonelist orders them.  NUMA_NO_NODE when no node has memory.
 */
u32 srat_memory_node(const struct srat *s, u32 node);

#endif

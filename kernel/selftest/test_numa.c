// SPDX-License-Identifier: GPL-2.0-only
/*
 * Self-tests: frames from one NUMA node.  With the SRAT's nodes, every
 * frame lies in a range of the node asked for; with one node (no SRAT,
 * QEMU's default), node 0 is frame_alloc().
 */
#include "kernel/acpi.h"
#include "kernel/mm/memory.h"
#include "kernel/selftest/selftest.h"

static u32 nodes(void)
{
	return acpi.has_srat ? acpi.srat.nnodes : 1;
}

static bool in_node(u64 pa, u64 size, u32 node)
{
	const struct mem_node_range *r;
	u32 i = 0;

	if (!acpi.has_srat)
		return true;
	while ((r = srat_next_range(&acpi.srat, node, &i)))
		if (pa >= r->start && pa + size <= r->end)
			return true;
	return false;
}

/* One frame of @size from @node: inside it, taken, given back. */
static void alloc_one(struct tctx *t, u64 size, const char *name, u32 node)
{
	u64 before = frame_count_free_blocks_node(size, node), pa;

	if (before == 0) {
		note(t, "node %u: no free %s frame", node, name);
		return;
	}
	pa = frame_alloc_node(size, node);
	if (!check(t, pa != FRAME_NONE, "node %u: %s allocation failed with "
		   "%llu free", node, name, (unsigned long long)before))
		return;
	check(t, IS_ALIGNED(pa, size), "%#llx not aligned",
	      (unsigned long long)pa);
	check(t, in_node(pa, size, node), "%#llx not in node %u",
	      (unsigned long long)pa, node);
	check(t, frame_count_free_blocks_node(size, node) == before - 1,
	      "node %u: free count not one less", node);
	check(t, frame_free(pa, size) == 0, "free of %#llx failed",
	      (unsigned long long)pa);
}

static void alloc_each_node(struct tctx *t)
{
	static const u64 sizes[] = { SZ_4K, SZ_2M, SZ_1G };
	static const char *const names[] = { "4K", "2M", "1G" };

	for (u32 n = 0; n < nodes(); n++)
		for (u32 i = 0; i < ARRAY_SIZE(sizes); i++)
			alloc_one(t, sizes[i], names[i], n);
	check(t, frame_alloc_node(SZ_2M, nodes()) == FRAME_NONE,
	      "a frame from node %u, which does not exist", nodes());
	check(t, frame_alloc_node(SZ_2M + SZ_4K, 0) == FRAME_NONE,
	      "a frame of a size that is not 4K, 2M or 1G");
}

/* The nodes' blocks are the machine's, unless the SRAT leaves RAM out. */
static void counts_add_up(struct tctx *t)
{
	u64 sum = 0, all = frame_count_free_blocks(SZ_2M);

	for (u32 n = 0; n < nodes(); n++)
		sum += frame_count_free_blocks_node(SZ_2M, n);
	check(t, sum <= all, "nodes have %llu free 2M frames, the machine "
	      "%llu", (unsigned long long)sum, (unsigned long long)all);
	if (!acpi.has_srat)
		check(t, sum == all, "node 0 has %llu free 2M frames of %llu",
		      (unsigned long long)sum, (unsigned long long)all);
	note(t, "%u node%s, %llu of %llu free 2M frames in them", nodes(),
	     nodes() == 1 ? "" : "s", (unsigned long long)sum,
	     (unsigned long long)all);
}

SUITE(suite_numa, "numa",
	{ "alloc_each_node", alloc_each_node },
	{ "counts_add_up", counts_add_up },
);

// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench=fault's placement and pools: where each member's folios come
 * from (numa=), the pools its group's leader makes for every member at
 * once, and the frames check once every member has given its pool back.
 */
#include "arch/x86_64/paging.h"
#include "kernel/acpi.h"
#include "kernel/bench/bench_cpu.h"
#include "kernel/mm/memory.h"
#include "kernel/sched/sched.h"
#include "kernel/smp/smp.h"
#include "lib/benchsize.h"
#include "lib/format.h"
#include "lib/matrix.h"
#include "lib/printk.h"
#include "lib/string.h"

/*
 * Where CPU @cpu's memory comes from: its node's, or for a node without
 * memory the nearest node with memory, as Linux's local_memory_node()
 * (numa_mem_id()) says (lib/srat.h); its node without an SRAT.
 */
u32 cpu_memory_node(u32 cpu)
{
	const struct smp_cpu *sc = cpu < MAX_CPUS ? smp.by_cpu[cpu] : NULL;
	u32 node = sc ? sc->node : 0, mem;

	if (!acpi.has_srat || acpi.srat.nnodes < 2)
		return node;
	mem = srat_memory_node(&acpi.srat, node);
	return mem == NUMA_NO_NODE ? node : mem;
}

/* numa=local from a node without memory: said once for the node. */
static void say_fallback(u32 node, u32 mem)
{
	static u64 said;
	u64 bit = 1ULL << (node % 64);

	if (__atomic_fetch_or(&said, bit, __ATOMIC_RELAXED) & bit)
		return;
	printk("hugezero: bench: numa=local: node %u has no memory; its CPUs' "
	       "folios come from node %u, the nearest with memory "
	       "(local_memory_node())\n", node, mem);
}

/* Where this CPU's folios come from (numa=), and what the record says;
 * NULL, or why that cannot be. */
const char *place(struct bench_cfg *b, char *mem_node, size_t n)
{
	const struct smp_cpu *sc = smp.by_cpu[b->bc->cpu];
	const struct srat *sr = &acpi.srat;
	u32 node = sc ? sc->node : 0, far;

	b->smp.node = node;
	b->nnodes = 0;
	ksnprintf(mem_node, n, "%u", node);
	b->smp.mem_node = mem_node;
	b->smp.numa = "none";
	if (!acpi.has_srat || sr->nnodes < 2)
		return b->c->numa == NUMA_LOCAL ? NULL :
		       "numa=remote and numa=interleave need two NUMA nodes; "
		       "this machine has one (no SRAT)";
	b->smp.numa = numa_names[b->c->numa];
	if (b->c->numa == NUMA_INTERLEAVE) {
		for (u32 i = 0; i < sr->nnodes; i++)
			if (frame_count_free_blocks_node(SZ_4K, i))
				b->nodes[b->nnodes++] = i;
		strlcpy(mem_node, numa_names[NUMA_INTERLEAVE], n);
		return NULL;
	}
	far = b->c->numa == NUMA_REMOTE ? srat_nearest_node(sr, node) :
	      cpu_memory_node(b->bc->cpu);
	if (far == NUMA_NO_NODE)
		return "numa=remote: no other NUMA node has memory";
	if (b->c->numa == NUMA_LOCAL && far != node)
		say_fallback(node, far);
	b->nodes[b->nnodes++] = far;
	ksnprintf(mem_node, n, "%u", far);
	return NULL;
}

/*
 * The group's pools, made by its leader alone once every member has
 * said where its folios come from (lead_pools), and the frames free
 * before them, compared once every member has given its pool back
 * (check_frames).  One group runs at a time.
 */
static struct {
	struct bench_cfg *member[MAX_CPUS];	/* posted before the leader reads */
	struct pool_req req[MAX_CPUS];
	u32 count;			/* folios each member got */
	const char *none;		/* why none, when no member says */
	const char *clamped;		/* why fewer than size= asks; NULL */
	char fail[160];			/* clamp=off: why the configurations fail */
	u64 free_before, kept_before, errors_before;
	u32 bad_frees;			/* pool_destroy()'s, every member's */
} pools;

/*
 * Room left free beside the pools for what a configuration allocates
 * while it runs, sized by the group (lib/benchsize.h): for the group,
 * the frame allocator's extent table doubling and the kernel window's
 * tables; for each member, its share of that table (the few extents its
 * runs and guards split, 16 bytes each, doubled) and, with probe=latency
 * under a model, its probe's task and stack.  prezero_pool=apart's
 * folios are their own, skipped when they do not fit.
 */
#define SLACK_BASE (2 * MiB)
#define SLACK_PER_CPU (1 * KiB)

static u64 slack_for(const struct bench_cfg *lb)
{
	bool probe = lb->c->probe == PROBE_LATENCY && lb->c->preempts;

	return bench_slack(SLACK_BASE, SLACK_PER_CPU +
			   (probe ? task_create_bytes() : 0), lb->g->n);
}

/* The most folios every member's arrays hold (state.c sized them). */
static u32 members_cap(u32 n)
{
	u32 cap = ~0u;

	for (u32 i = 0; i < n; i++)
		cap = MIN(cap, pools.member[i]->bc->cap);
	return cap;
}

/* What bounds @max folios other than free memory. */
static const char *limit_why(const struct bench_cfg *lb, u32 max)
{
	return max == WL_MAX_FAULTS ? "the most one run records" :
	       max == REGION_MAX / lb->bytes ? "the most one region maps" :
	       "the most its CPUs' sample arrays hold";
}

/* Fewer folios than size= asks for: said once, and in each config
 * record (clamp=on), or the reason every configuration fails (off). */
static void clamp_say(const struct bench_cfg *lb, u64 ask, u32 max)
{
	const struct hz_config *c = lb->c;
	char a[16], bsz[16], why[64];

	if (pools.count < max)
		strlcpy(why, lb->g->n > 1 ? "per CPU fit in free memory" :
			"fit in free memory", sizeof(why));
	else
		ksnprintf(why, sizeof(why), "(%s)", limit_why(lb, max));

	size_name(c->size, a, sizeof(a));
	if (!c->clamp) {
		ksnprintf(pools.fail, sizeof(pools.fail), "size=%s of %s "
			  "folios: %u of %llu folios %s (clamp=off)", a,
			  lb->d.folio, pools.count, (unsigned long long)ask, why);
		printk("hugezero: bench: %s: its configurations fail\n",
		       pools.fail);
		return;
	}
	if (!pools.count)
		return;
	pools.clamped = pools.count < max ? "the most that fit in free memory" :
			limit_why(lb, max);
	printk("hugezero: bench: size=%s of %s folios clamped to %s: %u folios "
	       "%s\n", a, lb->d.folio,
	       size_name((u64)pools.count * lb->bytes, bsz, sizeof(bsz)),
	       pools.count, why);
}

/*
 * The leader, alone, every member's previous pool given back: the frames
 * free now, then each member's pool of the same count, the most up to
 * size= that really fits (kernel/mm/pool.c), member after member.
 */
static void lead_pools(void *arg)
{
	const struct bench_cfg *lb = arg;
	const struct bench_group *g = lb->g;
	u64 ask = lb->c->size / lb->bytes;
	u32 max = (u32)MIN(MIN(ask, (u64)WL_MAX_FAULTS), REGION_MAX / lb->bytes);
	bool can = true;

	pools.free_before = frame_free_bytes();
	pools.kept_before = frame_kept_bytes();
	pools.errors_before = frame_errors();
	pools.bad_frees = 0;
	pools.none = pools.clamped = NULL;
	pools.fail[0] = '\0';
	for (u32 i = 0; i < g->n; i++) {
		struct bench_cfg *m = pools.member[i];

		can &= !m->no_folio;
		pools.req[i] = (struct pool_req){ &m->bc->pool, m->bc->slots,
						  m->bc->cpu, m->nodes,
						  m->nnodes };
	}
	/* A member that cannot have one: its reason is the group's. */
	max = MIN(max, members_cap(g->n));
	pools.count = pools_create(pools.req, g->n, lb->bytes, can ? max : 0,
				   slack_for(lb));
	if (!can)
		return;
	if (!ask)
		pools.none = "size= is smaller than one folio of this size";
	else if (pools.count < ask)
		clamp_say(lb, ask, max);
	if (!pools.count && !pools.none)
		pools.none = "not one folio of this size fits in free memory";
}

/* This member's folios, made by the leader with every member's. */
void make_pool(struct bench_cfg *b, u32 f)
{
	struct bench_cpu *bc = b->bc;

	pools.member[b->idx] = b;
	if (!group_lead(b->g, b->idx, lead_pools, b)) {
		b->count = 0;
		b->no_folio = "the run was aborted on another CPU";
		return;
	}
	b->count = pools.count;
	b->d.clamped = pools.clamped;
	b->clamp_fail = pools.fail[0] ? pools.fail : NULL;
	if (!b->no_folio && !b->count && !b->clamp_fail)
		b->no_folio = pools.none ? pools.none : "";	/* another member's */
	/* The region's tables now, not inside a timed fault. */
	if (b->count && pt_prepare(bc->wl.pml4, b->region, (u64)b->count *
				   b->bytes, leaf_of(f), PTE_U |
				   (b->c->pte == PTE_MODE_LINUX ? PTE_A : 0))) {
		b->count = 0;
		b->clamp_fail = NULL;
		b->no_folio = "no memory for the region's page tables";
	}
}

void count_bad_frees(u32 bad)
{
	if (bad)
		__atomic_add_fetch(&pools.bad_frees, bad, __ATOMIC_RELAXED);
}

/*
 * The leader, alone, every member's pool given back: the frames free
 * plus those held on purpose (page tables, which are kept, and the frame
 * allocator's own table) must be what they were before the pools, and
 * no free may have failed; else the benchmark fails, naming the group.
 */
static void check_frames(void *arg)
{
	const struct bench_cfg *b = arg;
	struct bench_group *g = b->g;
	u64 free = frame_free_bytes(), kept = frame_kept_bytes();
	u64 errs = frame_errors() - pools.errors_before;
	u64 before = pools.free_before + pools.kept_before;

	if (free + kept == before && !errs && !pools.bad_frees) {
		printk("hugezero: bench: cpus %s, %s folios: frames free before "
		       "and after equal (%llu KiB; %llu KiB more held in page "
		       "tables)\n", g->cpus, b->d.folio,
		       (unsigned long long)(pools.free_before / KiB),
		       (unsigned long long)((kept - pools.kept_before) / KiB));
		return;
	}
	printk("hugezero: bench: cpus %s, %s folios: frames free before and "
	       "after differ: %llu KiB before, %llu KiB after, %lld KiB lost "
	       "(page tables counted); %llu frees failed\n", g->cpus,
	       b->d.folio, (unsigned long long)(pools.free_before / KiB),
	       (unsigned long long)(free / KiB),
	       (long long)((s64)(before - free - kept) / (s64)KiB),
	       (unsigned long long)errs);
	ktap_diag(g->k, "cpus %s, %s folios: frames free before and after "
		  "differ by %lld KiB; %llu frees failed", g->cpus, b->d.folio,
		  (long long)((s64)(before - free - kept) / (s64)KiB),
		  (unsigned long long)errs);
	/* Counted as a failed result: the fault subtest ends not ok. */
	g->k->fail++;
}

/* Every member gives its pool back; then the leader checks the frames. */
void drop_pool(struct bench_cfg *b)
{
	count_bad_frees(pool_destroy(&b->bc->pool));
	group_lead(b->g, b->idx, check_frames, b);
}

/* Where the first @n folios of @p lie: lowest and highest address. */
void pool_span(const struct pool *p, u32 n, u64 *lo, u64 *hi)
{
	*lo = *hi = 0;
	for (u32 i = 0; i < n && i < p->n; i++) {
		if (!i || p->f[i].pa < *lo)
			*lo = p->f[i].pa;
		if (p->f[i].pa > *hi)
			*hi = p->f[i].pa;
	}
}

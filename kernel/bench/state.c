// SPDX-License-Identifier: GPL-2.0-only
/*
 * Each CPU's bench=fault state, made by the boot CPU before its group
 * runs and kept for the boot: sized by what the configuration uses (its
 * runs' folios, its round groups, its probe), on the CPU's NUMA node, as
 * Linux sizes and places each CPU's per-CPU unit (mm/percpu.c,
 * pcpu_embed_first_chunk()).  A CPU whose state does not fit is left out
 * by the caller, with the reason.
 */
#include "kernel/bench/bench_cpu.h"
#include "kernel/mm/kmem.h"
#include "lib/benchsize.h"
#include "lib/matrix.h"

static struct bench_cpu *bench_cpus[MAX_CPUS];

void *bench_cpu_array(const struct bench_cpu *bc, u64 elem)
{
	return kmem_alloc(bench_array_bytes(bc->cap, elem), bc->node);
}

static void array_free(const struct bench_cpu *bc, void *p, u64 elem)
{
	kmem_free(p, bench_array_bytes(bc->cap, elem));
}

/* Everything state_make() made of @bc, and @bc itself. */
static void state_free(struct bench_cpu *bc)
{
	workload_destroy(&bc->wl);
	array_free(bc, bc->taken, sizeof(u32));
	array_free(bc, bc->slots, sizeof(struct folio));
	kmem_free(bc->probe.late, PROBE_MAX * sizeof(u64));
	kmem_free(bc->probe.fault, PROBE_MAX * sizeof(u64));
	kmem_free(bc->out, bc->nmembers * sizeof(*bc->out));
	kmem_free(bc->members, bc->nmembers * sizeof(*bc->members));
	kmem_free(bc, sizeof(*bc));
}

/* The probe's samples, only where a configuration can start one. */
static bool probe_make(struct bench_cpu *bc, const struct hz_config *c)
{
	if (c->probe != PROBE_LATENCY || !c->preempts)
		return true;
	bc->probe.late = kmem_alloc(PROBE_MAX * sizeof(u64), bc->node);
	bc->probe.fault = kmem_alloc(PROBE_MAX * sizeof(u64), bc->node);
	bc->probe.cap = bc->probe.late && bc->probe.fault ? PROBE_MAX : 0;
	return bc->probe.cap;
}

static struct bench_cpu *state_make(u32 cpu, const struct hz_config *c,
				    u64 free, u32 ncpus)
{
	u32 node = cpu_memory_node(cpu);
	struct bench_size_in in = { c->folios, c->size, free, ncpus,
				    WL_MAX_FAULTS, REGION_MAX };
	struct bench_cpu *bc = kmem_alloc(sizeof(*bc), node);

	if (!bc)
		return NULL;
	bc->cpu = cpu;
	bc->node = node;
	bc->cap = bench_faults_cap(&in);
	/* A round group holds points of one folio size: no more than the
	 * configurations there are. */
	bc->nmembers = c->interleave ? MIN(CPU_GROUP_MAX, matrix_count(c)) : 1;
	bc->nmembers = MAX(bc->nmembers, 1u);
	bc->members = kmem_alloc(bc->nmembers * sizeof(*bc->members), node);
	bc->out = kmem_alloc(bc->nmembers * sizeof(*bc->out), node);
	bc->slots = bench_cpu_array(bc, sizeof(struct folio));
	bc->taken = bench_cpu_array(bc, sizeof(u32));
	if (bc->members && bc->out && bc->slots && bc->taken &&
	    probe_make(bc, c) && workload_create(&bc->wl, bc->cap, node))
		return bc;
	state_free(bc);
	return NULL;
}

struct bench_cpu *bench_cpu_get(u32 cpu, const struct hz_config *c, u64 free,
				u32 ncpus)
{
	if (cpu >= MAX_CPUS)
		return NULL;
	if (!bench_cpus[cpu])
		bench_cpus[cpu] = state_make(cpu, c, free, ncpus);
	return bench_cpus[cpu];
}

struct bench_cpu *bench_cpu_of(u32 cpu)
{
	return bench_cpus[cpu];
}

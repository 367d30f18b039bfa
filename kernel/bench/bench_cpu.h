/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_BENCH_BENCH_CPU_H
#define KERNEL_BENCH_BENCH_CPU_H

/*
 * bench=fault's own state, private to kernel/bench: one CPU's (struct
 * bench_cpu) and one configuration's on it (struct bench_cfg), each
 * member grouped with the file that uses it.
 */
#include "arch/x86_64/fpu.h"
#include "arch/x86_64/freq.h"
#include "arch/x86_64/percpu.h"
#include "kernel/bench/fault.h"
#include "kernel/bench/group.h"
#include "kernel/bench/prezero.h"
#include "kernel/bench/probe.h"
#include "kernel/bench/workload.h"
#include "kernel/mm/pool.h"
#include "lib/benchrec.h"
#include "lib/outcome.h"
#include "lib/benchrun.h"
#include "lib/numa.h"
#include "lib/params.h"
#include "lib/pmu.h"
#include "lib/verify.h"

struct bench_cpu;

/* One configuration on one CPU. */
struct bench_cfg {
	struct bench_desc d;
	struct bench_cpu *bc;
	const struct hz_config *c;

	/* The group: the CPUs running it together */
	struct bench_group *g;
	u32 idx;		/* this one's place among them */
	struct bench_smp smp;	/* where it runs, for its records */

	/* The folio size, its region and pool */
	u32 folio;
	u64 bytes;		/* folio size */
	u32 count;		/* folios in the region */
	u64 region;
	const char *no_folio;	/* why count is 0 */
	u32 nodes[NUMA_MAX_NODES];	/* where its folios come from */
	u32 nnodes;		/* 0: anywhere (one node) */
	const char *clamp_fail;	/* clamp=off and size= does not fit: why */

	/* Its round group on this CPU */
	u32 member;		/* its place among the members */
	char skip[200];		/* the CPUs' agreed reason to skip; "" */

	/* This point of the matrix */
	bool model_on;		/* this point has a scheduling model */
	u32 prezero;		/* enum prezero_mode of this point */
};

/*
 * The most points of one round group on a CPU (lib/benchrun.h allows
 * ROUND_GROUP_MAX): each keeps an outcome of ~100 KiB, made only with
 * interleave=on (one otherwise), so that cpus=all on a large server
 * takes no more memory from the pools than the configuration uses.
 */
#define CPU_GROUP_MAX 8

/* One CPU's benchmark: its address space, folios, fault path, results. */
struct bench_cpu {
	u32 cpu;
	u32 node;		/* NUMA node its state was made on */

	/*
	 * What a run works on (the run's ops), made once per CPU by
	 * state.c, each array sized for @cap folios: no run here has more
	 * (lib/benchsize.h)
	 */
	u32 cap;
	struct workload wl;
	struct pool pool;
	struct folio *slots;	/* the pool's descriptors: cap */
	struct fault_ctx fault;
	u32 *taken;		/* per fault: its folio (fault.h) */
	struct dirty_line lines[INJECT_MAX_LINES];
	struct bench_probe probe;
	/* The round group running (lib/benchrun.h): its points, outcomes;
	 * CPU_GROUP_MAX of each with interleave=on, else one */
	u32 nmembers;
	struct bench_cfg *members;
	struct bench_outcome *out;

	/* Measured and started on the CPU before any configuration */
	u64 fault_timer;	/* the timer pairs inside one fault window */
	u64 fpu_save_pair;	/* the workload's registers saved and
				 * loaded again, ticks */
	u64 cal[1024];		/* the timer-cost measurements' samples */
	u8 fpu_area[8192] __aligned(FPU_ALIGN);	/* the workload's registers */
	struct freq_caps freq;	/* APERF/MPERF and SMI count, or why not */
	struct pmu_plan pmu;	/* pmu=: this CPU's counters */
	u32 npmu;		/* the counted ones sampled, <= FAULT_PMU_MAX */
	const struct pmu_slot *pmu_slot[FAULT_PMU_MAX];
	u64 *pmu_v[FAULT_PMU_MAX];

	/* Pre-zeroing (prezero=) */
	struct prezero prezero;
	struct pool apart;	/* prezero_pool=apart: the zeroer's own */
	struct folio *apart_slots;	/* cap */
};

_Static_assert(CPU_GROUP_MAX <= ROUND_GROUP_MAX, "lib's arrays hold a group");

/* run.c: what each step of lib/benchrun.c's skeleton means here */
extern const struct bench_ops bench_fault_ops;

/* state.c: each CPU's state, sized by what the configuration uses */
/*
 * CPU @cpu's state and address space, made by the boot CPU beforehand
 * for @c with @free bytes free shared by @ncpus CPUs (kept for the boot,
 * made once); NULL without memory for it.
 */
struct bench_cpu *bench_cpu_get(u32 cpu, const struct hz_config *c, u64 free,
				u32 ncpus);
/* The state bench_cpu_get() made for @cpu. */
struct bench_cpu *bench_cpu_of(u32 cpu);
/* Zeroed memory for an array of the CPU's @cap entries of @elem bytes,
 * on its node; NULL without. */
void *bench_cpu_array(const struct bench_cpu *bc, u64 elem);

/* cpu.c: per-CPU set-up */
/* On the CPU, before its first configuration and after its last. */
struct bench_cpu *bench_cpu_start(u32 cpu, const struct hz_config *c);
void bench_cpu_stop(struct bench_cpu *bc);
/* A scheduling model for this configuration, or why it cannot have one. */
bool model_up(struct bench_cfg *b, char *why, size_t n);

/* prezero.c: a configuration's pre-zeroing (prezero=) */
/* Its mode and zeroer; every configuration starts with no folio zeroed. */
void prezero_config(struct bench_cfg *b);
/* Whether it can run here, or why not. */
bool prezero_can(struct bench_cfg *b, char *why, size_t n);
/* Before the timed part: the zeroing that comes first. */
void prezero_before(struct bench_cfg *b, struct bench_outcome *o);
/* dedicated: its CPU left out, so the configuration fails, named. */
void prezero_lost(struct bench_cfg *b, struct bench_outcome *o);
/* The pre-zeroing CPUs left out so far, as a cpulist into @list, and
 * their count; @reset: none from now on. */
u32 prezero_lost_cpus(char *list, size_t n, bool reset);
/* Who zeroed ahead in the pass, and what it spent, into @p. */
void prezero_account(struct bench_cfg *b, struct bench_pass *p);

/* pools.c: placement and pools */
/* Where CPU @cpu's memory comes from: its node's, or the nearest with
 * memory for a node without (local_memory_node()). */
u32 cpu_memory_node(u32 cpu);
/* Where this CPU's folios come from (numa=), and what the record says;
 * NULL, or why that cannot be. */
const char *place(struct bench_cfg *b, char *mem_node, size_t n);
/* This member's folios, made by the leader with every member's. */
void make_pool(struct bench_cfg *b, u32 f);
/* Every member gives its pool back; then the leader checks the frames. */
void drop_pool(struct bench_cfg *b);
/* Where the first @n folios of @p lie: lowest and highest address. */
void pool_span(const struct pool *p, u32 n, u64 *lo, u64 *hi);
/* Folios pool_destroy() could not free, counted for the frames check. */
void count_bad_frees(u32 bad);

static inline enum leaf_size leaf_of(u32 folio)
{
	return folio == FOLIO_4K ? LEAF_4K : folio == FOLIO_2M ? LEAF_2M :
	       LEAF_1G;
}

#endif

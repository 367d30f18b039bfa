/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_BENCHREC_H
#define LIB_BENCHREC_H

#include "lib/boost.h"
#include "lib/matrix.h"
#include "lib/params.h"
#include "lib/pmu.h"
#include "lib/record.h"

/*
 * The benchmark's records, shared by the kernel (bench=fault) and the
 * Linux companion (bench=bare, bench=linux-fault) so that both write
 * exactly the same format (docs/records.md).  What a configuration found
 * and its summary record are lib/outcome.h's; the configurations come
 * from lib/benchiter.h; the run skeleton that produces them is
 * lib/benchrun.c.
 */
#define BENCH_MAX_RUNS BENCH_RUNS_MAX	/* runs=, max_runs= */
/* pmu=: events sampled per fault (the kernel's FAULT_PMU_MAX) */
#define BENCH_PMU_MAX PMU_MAX_SAMPLED

/* Where one CPU of a group ran (docs/smp.md): NULL outside a group. */
struct bench_smp {
	const char *cpus;		/* the group's cpulist */
	u32 ncpus, cpu, node;
	bool has_apic_id;		/* the kernel's; Linux does not say */
	u32 apic_id;
	const char *mem_node;		/* a node's number, or "interleave" */
	const char *numa;		/* local, remote, interleave; none */
	u32 group;
};

struct bench_desc {
	const struct hz_config *c;
	u32 id;
	char name[64];
	const char *bench, *folio, *clear, *order;
	u64 chunk, radius;		/* bytes, pages; 0 when not used */
	u64 size, folios;		/* what was used (after clamping) */
	const char *clamped;		/* why size is less than size=; NULL */
	/* kernel: the lowest and highest folio's physical address; 0, 0 unknown */
	u64 pa_min, pa_max;
	const char *backing;		/* companion: hugetlb, thp, base; else NULL */
	struct matrix_point at;		/* where in the matrix */
	struct zero_plan plan;		/* what the planner runs there */
	const char *preempt;		/* "off" or the model */
	/* rethunk: "off" or "on"; the thunk its primitive returns through
	 * ("none" with off); NULL both where there is no primitive of ours
	 * (the companion's linux-fault) */
	const char *rethunk, *rethunk_thunk;
	/* order=linux: "yes" where x86 Linux 7.0 runs its plan, "no" under
	 * none and voluntary (matrix_linux_offered()); else NULL */
	const char *linux_offered;
	u64 llc;			/* last-level cache bytes, 0 unknown */
	/* The group's regions on this CPU's LLC, its own included
	 * (lib/llc.h); 0 or 1: its own alone */
	u32 llc_regions;
	bool linux_folios;		/* Linux allocates and fills them */
	const char *probe_policy;	/* companion: the probe's policy */
	/* A SIMD clear under a model: the user's registers saved and loaded
	 * again (once per fault), and a kernel_fpu_begin()/end() pair that
	 * saves nothing (per call), ticks; 0: none */
	u64 kernel_fpu_save_ticks, kernel_fpu_call_ticks;
	const struct bench_smp *smp;	/* one CPU of a group, or NULL */
	const char *prezero;		/* prezero= given: the mode; else NULL */
	u32 prezero_cpu;		/* dedicated: the zeroing CPU */
	const struct pmu_plan *pmu;	/* pmu=: what each event became */
	const char *freq_src, *smi_src;	/* how they are read, or why not */
	const struct boost_cpu *boost;	/* kernel: this CPU's boost=; NULL */
	/* interleave=on: the round group its measured passes ran in (the
	 * id of its first configuration); 0 with interleave=off */
	u32 round_group;
	/* Its measured passes where not runs= (bench=split's split_runs=
	 * for the group its fault leads); 0: runs= */
	u32 runs;
};

struct bench_pass {
	u32 run;
	const char *pass;		/* verify, warmup, measure */
	u32 access;			/* enum access_mode */
	u32 faults;
	u64 resched;
	/* Primitive calls of the faults that cleared (not those served by a
	 * zeroed folio): the sum and the most one fault made; has_calls
	 * false where the writer does not count them */
	bool has_calls;
	u64 prim_calls;
	u32 prim_calls_max;
	/* rethunk_count=: returns through a thunk in the pass's faults */
	bool has_rethunk_returns;
	u64 rethunk_returns;
	/* Kernel: kernel_fpu_begin()/end() pairs around the pass's SIMD
	 * primitive calls (0 for another primitive); has_fpu_pairs false
	 * where nothing counts them (the companion runs in user space) */
	bool has_fpu_pairs;
	u64 fpu_pairs;
	const u64 *fault, *clear, *access_t;	/* per-folio ticks, or NULL */
	const u64 *page;		/* faulting 4K page per folio, or NULL */
	const char *verify;		/* ok, fail, n/a */
	/* inject=skip-line: lines planted, found, and planted where the
	 * verifier reads (all of them under verify=full) */
	u32 injected, detected, injected_seen;
	bool verified;			/* the zero check ran on this pass */
	/* probe=latency: each wake-up's lateness (actual - deadline, ticks)
	 * and the fault it fell in (its index; ~0 between faults).  Written
	 * as samples first, then sorted in place by bench_keep_run(). */
	u64 *probe;
	const u64 *probe_fault;
	u32 nprobe;
	u64 probe_expected;		/* deadlines the pass passed */
	/* Kernel: what interrupted the pass (counted in the handlers) */
	bool counted;
	u64 irqs, irq_ticks, switches, preemptions;
	bool has_lazy;		/* the kernel's: lazy_ticks counted */
	u64 lazy_ticks;		/* ticks that made a lazy request due */
	u64 fpu_saves, fpu_restores;	/* user FPU registers saved, loaded */
	/* Companion, in a group: getrusage()'s system and user time over
	 * the timed part, microseconds */
	bool rusage;
	u64 stime_us, utime_us;
	/* prezero= (docs/prezero.md): who zeroed ahead, and what it cost */
	const char *prezero_by;		/* request, free, dedicated, idle; NULL */
	u32 prezeroed;			/* faults served by a zeroed folio */
	bool prezeroed_unknown;		/* Linux does not say which were */
	u64 prezero_ticks, prezero_folios;
	/* The kernel's: the resched points the zeroing ahead took, and
	 * the faults that waited for a folio a zeroer held, and how long
	 * (TSC ticks, inside their fault windows) */
	bool zeroer_counted;
	u64 prezero_resched, prezero_waits, prezero_wait_ticks;
	/* The core's effective frequency over the pass (APERF/MPERF
	 * against the TSC) and the SMIs that arrived in it */
	bool has_freq, has_smi;
	u64 eff_khz, smis;
	/* Companion, linux-fault: the pass's mmap() and touch loop on the
	 * wall clock, ns (lib/perfbench.h) */
	bool has_wall;
	u64 wall_ns;
	/* pmu=: per fault, each counted event's delta around the clear */
	u32 npmu;
	const char *pmu_name[BENCH_PMU_MAX];
	const u64 *pmu_v[BENCH_PMU_MAX];
	/* interleave=on, a measured pass: its round and its place in the
	 * round's seeded order, both from 0 */
	bool has_round;
	u32 round, slot;
};

/* Who measured: the same fields whichever side wrote them. */
struct machine_id {
	const char *vendor, *brand, *hypervisor, *features;
	u32 family, model, stepping, phys_bits, line;
	u64 microcode;			/* ~0: not readable */
	u64 l1d, l2, l3, mem;
	/* Linux's default return thunk for the CPU and why (lib/rethunk.h) */
	const char *rethunk_linux, *rethunk_why;
	/* prim_linux_read(): IA32_MISC_ENABLE's fast strings (on, off,
	 * unknown, n/a); the kernel's clear_page() and why (the companion
	 * says them in its host record: NULL, not written) */
	const char *fast_strings, *linux_clear, *linux_clear_why;
};

struct timebase_id {
	u64 tsc_hz;
	const char *source, *references;
	bool invariant;
	u64 disagreement_ppm, overhead_min, overhead_median;
	/* Kernel: "name:N,..." windows discarded for a stall and measured
	 * again; references left out as outliers ("" none); NULL: n/a. */
	const char *retries, *outliers;
	u64 consensus_ppm;
};

struct preset_sizing;
/* preset=: what the preset expanded to and how it was sized here, or
 * (!@ok) why it did not run. */
void bench_rec_preset(struct rec_writer *w, u32 id, bool companion, bool ok,
		      const struct preset_sizing *z, const char *linux_clear);
/* pmu_firmware*: the counters the firmware left enabled (none: nothing). */
void rec_pmu_firmware(struct rec *r, const struct pmu_firmware *fw);
/* boot: the first record; end: the last, with the count. */
void bench_rec_boot(struct rec_writer *w, const char *loader,
		    const char *firmware, const char *cmdline);
void bench_rec_end(struct rec_writer *w);
void bench_rec_machine(struct rec_writer *w, const struct machine_id *m);
void bench_rec_timebase(struct rec_writer *w, const struct timebase_id *t);
void bench_rec_config(struct rec_writer *w, const struct bench_desc *d);
void bench_rec_run(struct rec_writer *w, const struct bench_desc *d,
		   const struct bench_pass *p);
void bench_rec_samples(struct rec_writer *w, u32 cfg, u32 run, const char *kind,
		       const u64 *v, u32 n);

#endif

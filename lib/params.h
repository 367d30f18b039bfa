/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_PARAMS_H
#define LIB_PARAMS_H

#include "lib/cmdline.h"
#include "lib/cpulist.h"
#include "lib/msrtrace.h"
#include "lib/pmu.h"
#include "lib/preempt.h"

/*
 * hugezero's configuration: every boot command-line key, with its
 * default.  The kernel and the Linux companion both parse with this
 * schema; docs/cmdline.md's key tables are made from it (lib/params.c
 * says how to add a key).
 */

enum exit_mode { EXIT_AUTO, EXIT_QEMU, EXIT_HALT, EXIT_REBOOT };
enum hang_at { HANG_AT_BENCH, HANG_AT_BRINGUP, HANG_AT_TSC_SYNC, HANG_AT_IDLE,
	       HANG_AT_ZEROER };
enum watchdog_mode {
	WATCHDOG_AUTO, WATCHDOG_PMU, WATCHDOG_HPET, WATCHDOG_PIT, WATCHDOG_OFF
};
/* Test-only faults of the watchdog's timers (watchdog_fault=). */
enum watchdog_fault {
	WD_FAULT_NONE, WD_FAULT_DEAF_HPET, WD_FAULT_DEAF_PIT, WD_FAULT_DEAF_ALL,
	WD_FAULT_HPET_LEGACY, WD_FAULT_STRAY_NMI, WD_FAULT_UNARMED_HPET
};
enum crash_mode { CRASH_NONE, CRASH_PF, CRASH_UD, CRASH_GP, CRASH_DE,
		  CRASH_STACK, CRASH_HANG, CRASH_HANG_IRQ, CRASH_HOLD_CONSOLE,
		  CRASH_CUT_RECORD, CRASH_DEAF_WRITER,
		  CRASH_STREAM_WRITER };

/*
 * The bench= kinds, one row each: its word, the side that runs it
 * (KERNEL or COMPANION), and what it runs there -- a KTAP case of its
 * own in the kernel's stream; Linux's demand faults and bare clearing in
 * the companion (both: bench=split, which pairs them).  Every check of
 * which side runs what reads bench_kinds[].
 */
#define BENCH_KINDS(X)							\
	X(NONE, "none", KERNEL, false, false, false)			\
	X(FAULT, "fault", KERNEL, true, false, false)			\
	X(BARE, "bare", COMPANION, false, false, true)			\
	X(LINUX_FAULT, "linux-fault", COMPANION, false, true, false)	\
	X(SPLIT, "split", COMPANION, false, true, true)			\
	X(INFO, "info", KERNEL, true, false, false)

#define BENCH_ENUM(id, name, side, ktap, lf, bare) BENCH_##id,
enum bench_kind { BENCH_KINDS(BENCH_ENUM) BENCH_KIND_COUNT };
#undef BENCH_ENUM

struct bench_kind_row {
	enum param_scope side;		/* PARAM_KERNEL or PARAM_COMPANION */
	bool ktap_case;			/* kernel: a top-level KTAP case */
	bool linux_fault, bare;		/* companion: what it runs */
};
extern const struct bench_kind_row bench_kinds[BENCH_KIND_COUNT];
enum backing { BACKING_HUGETLB, BACKING_THP, BACKING_BASE, BACKING_COUNT };
#define CPU_AUTO 4096
enum folio_size { FOLIO_4K, FOLIO_2M, FOLIO_1G, FOLIO_COUNT };
enum touch_order { TOUCH_SEQ, TOUCH_REVERSE, TOUCH_RANDOM };
enum touch_offset { OFFSET_FIRST, OFFSET_MIDDLE, OFFSET_LAST, OFFSET_RANDOM };
enum access_mode { ACCESS_NONE, ACCESS_WRITE, ACCESS_READ };
/* cold: every line of the pool written back and invalidated after the
 * fill; warm: the fill's lines left in the cache; wbinvd: all caches. */
enum cache_mode { CACHE_COLD, CACHE_WARM, CACHE_WBINVD };
/* linux: leaves installed Accessed and Dirty (intermediates Accessed), as
 * Linux on a write fault; clean: both left to the hardware. */
enum pte_mode { PTE_MODE_LINUX, PTE_MODE_CLEAN };
enum verify_mode { VERIFY_FULL, VERIFY_SAMPLE };
enum samples_mode { SAMPLES_ALL, SAMPLES_NONE };
/* Test-only faults, to prove the verifier: dirty lines left after the
 * clear, one folio mapped at a wrong physical address, one marked zeroed
 * that is not, a line of zeros written past a folio. */
enum inject_mode { INJECT_NONE, INJECT_SKIP_LINE, INJECT_WRONG_PA,
		   INJECT_MARK_ZEROED, INJECT_OVERRUN };
enum probe_mode { PROBE_NONE, PROBE_LATENCY };
/* Pre-zeroing free folios (docs/prezero.md) */
enum prezero_mode { PREZERO_NONE, PREZERO_REQUEST, PREZERO_IDLE,
		    PREZERO_DEDICATED, PREZERO_ON_FREE, PREZERO_COUNT };
#define PREZERO_ALL (~0ULL)	/* prezero_n=all */
#define PREZERO_N_MAX 262144	/* the most folios a pool holds */
#define PREZERO_SAME (~0u)	/* prezero_clear=same, prezero_order=same */
/* dedicated: zero the faults' own pool, or one apart that no fault takes
 * (the interference scenario: bandwidth taken, nothing given back) */
enum prezero_pool { PREZERO_POOL_SHARED, PREZERO_POOL_APART };
enum probe_class { PROBE_NORMAL, PROBE_RT };
/* Turbo/boost for the run: left as the firmware set it (and recorded),
 * or forced off or on on every CPU (docs/hardware.md, "Boost"). */
enum boost_mode { BOOST_FIRMWARE, BOOST_OFF, BOOST_ON };

#define MAX_CHUNKS 8
/* All CPUs at once (docs/smp.md) */
enum numa_mode { NUMA_LOCAL, NUMA_REMOTE, NUMA_INTERLEAVE };
#define MAX_SCALE 16
#define SCALE_ALL 0	/* a scale= step of every selected CPU */
#define INJECT_MAX_LINES 4096
#define BENCH_RUNS_MAX 1000	/* runs=, max_runs=: lib/benchrec.h's BENCH_MAX_RUNS */

struct console_spec {
	bool autosel;		/* console=auto: SPCR's UART, else COM1, else any */
	u32 port;		/* ttyS<port>, 0..3 */
	u32 baud;
	char parity;		/* 'n', 'o', 'e' */
	u32 bits;		/* 5..8 */
};

struct hz_config {
	u32 preset;		/* enum preset_id (lib/preset.h); 0: none */
	struct console_spec console;
	u32 exit;		/* enum exit_mode */
	bool selftest;
	u32 crash;		/* enum crash_mode */
	u64 calib_ms;		/* TSC calibration window per reference */
	u64 tsc_tolerance_ppm;	/* allowed disagreement between references */
	u64 tsc_skew_ns;	/* cross-CPU TSC skew an aggregate tolerates */
	u64 deadline_s;		/* the run ends by then; 0: never */
	u64 ap_fail;		/* test-only: this CPU cannot answer; 0 none */
	u64 work_fail;		/* test-only: its first work IPI fails; 0 none */
	u64 memmap_keep;	/* test-only: the memory map's limit, lowered */
	u64 answer_ms;		/* test-only: the waits' answer bound, lowered */
	struct cpu_set hang_cpu;	/* test-only: CPUs that hang at hang_at */
	/* test-only: the CPUs inject= plants on; empty: every one */
	struct cpu_set inject_cpu;
	u32 hang_at;		/* enum hang_at */
	u32 watchdog;		/* enum watchdog_mode */
	u32 watchdog_fault;	/* test-only: enum watchdog_fault */
	u32 boost;		/* enum boost_mode, on every CPU for the boot */
	u32 nmsr_gp;		/* test-only: MSRs whose accesses #GP */
	u64 msr_gp[MSR_GP_MAX];
	bool boost_assume;	/* test-only: CPUID's boost bits taken as set */

	/* The benchmark (docs/cmdline.md) */
	u32 bench;		/* enum bench_kind */
	u64 folios;		/* bitmask of enum folio_size */
	u64 prims;		/* bitmask of enum prim_id */
	u64 orders;		/* bitmask of enum clear_order */
	u64 size;		/* bytes of region per configuration */
	bool clamp;		/* run a smaller size when size= does not fit */
	/* interleave=on: the measured passes of configurations that share a
	 * pool run round by round (lib/benchrun.h, docs/statistics.md) */
	bool interleave;
	u64 runs, warmups;
	/* bench=split: the paired group's measured rounds (0: runs) */
	u64 split_runs;
	/* runs=auto (docs/statistics.md, "runs=auto"): measured passes until
	 * the 95% interval of the mean GB/s is within precision_x100 (% of
	 * the mean x 100), or max_runs, or budget_s (0: none) stops them */
	bool runs_auto;
	u64 precision_x100, max_runs, budget_s;
	u32 nchunks;
	u64 chunks[MAX_CHUNKS];	/* bytes; batched-pages, neighbourhood-last */
	u64 radius;		/* pages; neighbourhood-last */
	u32 touch, offset, access, cache, verify, samples, inject;
	u32 pte;		/* enum pte_mode */
	u64 inject_lines;	/* inject=skip-line: dirty lines per run */
	u64 cpl;		/* the ring the workload runs in: 0 or 3 */
	u64 seed;

	/* Scheduling models (docs/sched.md) */
	u64 preempts;		/* preempt_bit()s of the models; 0: none */
	u64 hz;			/* the tick under a model: 100, 250, 1000 */
	u32 probe;		/* enum probe_mode */
	u64 probe_us;		/* the probe's period */
	u32 probe_class;	/* enum probe_class */

	/* All CPUs at once (docs/smp.md) */
	struct cpu_set cpus;	/* which CPUs run the workload */
	u32 nscale;		/* 0: one step, every CPU of cpus */
	u64 scale[MAX_SCALE];	/* CPUs per step; SCALE_ALL: all of cpus */
	u32 numa;		/* enum numa_mode */

	/* Pre-zeroing (docs/prezero.md) */
	u64 prezeros;		/* bitmask of enum prezero_mode; 0: not given */
	u64 prezero_n;		/* request: folios, or PREZERO_ALL */
	u32 prezero_clear;	/* a prim, or PREZERO_SAME */
	u32 prezero_order;	/* a planner order, or PREZERO_SAME */
	u64 prezero_cpu;	/* dedicated: the zeroing CPU, or CPU_AUTO */
	u64 prezero_low, prezero_high;	/* watermarks, % of the pool */
	u64 prezero_idle_ms;	/* idle, dedicated: refill time before a pass */
	u32 prezero_pool;	/* dedicated: enum prezero_pool */

	/* Return thunks (docs/hardware.md, "Return thunks") */
	u64 rethunks;		/* bitmask of enum rethunk_mode; 0: not given */
	u32 rethunk_assume;	/* test-only: rethunk_assume_names[]; 0: none */
	bool rethunk_count;	/* test-only: count the thunk's returns */
	/* Not keys: Linux's default (enum rethunk_mode) and the thunk
	 * rethunk=on runs, for this CPU (or rethunk_assume=), filled in by
	 * the kernel and the companion once CPUID is read */
	u32 rethunk_default, rethunk_on_kind;

	/* Performance counters (docs/hardware.md, "Counters") */
	u32 npmu;		/* 0: pmu=none */
	u8 pmu[PMU_MAX_EVENTS];	/* indices in pmu_events, as given */

	/* The Linux companion only */
	u64 cpu;		/* CPU to pin to, or CPU_AUTO */
	u64 backings;		/* bitmask of enum backing (linux-fault) */
};

extern const struct param hz_params[];
extern const size_t hz_nparams;
extern const char *const exit_names[];
extern const char *const hang_at_names[];
extern const char *const watchdog_names[];
extern const char *const watchdog_fault_names[];
extern const char *const crash_names[];
extern const char *const bench_names[], *const folio_names[],
	*const touch_names[], *const offset_names[], *const access_names[],
	*const cache_names[], *const verify_names[], *const samples_names[],
	*const inject_names[], *const backing_names[],
	*const pte_names[], *const probe_names[],
	*const probe_class_names[], *const order_choice_names[],
	*const numa_names[], *const prezero_names[], *const prezero_pool_names[],
	*const boost_names[];
extern const u64 folio_bytes[FOLIO_COUNT];

void config_defaults(struct hz_config *c);
bool config_parse(const char *line, struct hz_config *c,
		  struct cmdline_result *res);
/*
 * As config_parse, with preset= expanded for the program that reads the
 * line: the preset's keys first (the kernel's or the companion's), the
 * line's own over them.  @res says which keys the line itself gave.
 */
bool config_parse_target(const char *line, struct hz_config *c,
			 struct cmdline_result *res, bool companion);
/*
 * Refuse combinations that make no sense (size not a whole number of
 * folios, benchmark keys without bench=, ...): adds errors to @res.
 */
bool config_check(const struct hz_config *c, struct cmdline_result *res);
/*
 * Refuse what the program reading the line cannot do: kernel-only keys
 * (console=, crash=, cpl=, ...) in the Linux companion, companion-only
 * keys (cpu=, backing=) in the kernel, and each one's bench= values.
 */
bool config_check_target(const struct hz_config *c, struct cmdline_result *res,
			 bool companion);
/* Whether the line that filled @res had @key (cpus= given or left at
 * its default). */
bool config_given(const struct cmdline_result *res, const char *key);

/*
 * The keys' documentation, made from hz_params[] (lib/params_doc.c) for
 * the companion's --help and --keys, which scripts/hugezero keys and
 * docs/cmdline.md's tables are made from.
 */
/* "both", "kernel", "companion" */
const char *param_scope_name(enum param_scope scope);
/* @p's default, shown from config_defaults(); false (and "") when the
 * default is no value: the key not given, which @p->unset explains. */
bool param_default(const struct param *p, char *buf, size_t size);
/* What @p takes, for docs: param_values(), then the names a custom
 * value uses and the old names it accepts. */
void param_doc_values(const struct param *p, char *buf, size_t size);
/* One key of --help: "  key=VALUES  default: X" (or "not given: " and
 * what that does), wrapped to lines of 79 columns at most, "\n" between
 * them and none at the end. */
void param_help_line(const struct param *p, char *buf, size_t size);
/* One tab-separated line of --keys, in param_tsv_header's columns; no
 * field holds a tab or a newline (tests/host checks). */
extern const char param_tsv_header[];
void param_tsv_line(const struct param *p, char *buf, size_t size);

/* precision= as given, from its value x 100: two decimals at most, no
 * trailing zeros (500 "5", 250 "2.5", 1 "0.01"); --help, the keys'
 * tables and the config record all write it so. */
void precision_format(u64 precision_x100, char *buf, size_t size);

/* "ttyS1", "ttyS1,115200", "ttyS1,115200n8" */
bool console_spec_parse(const char *s, size_t len, struct console_spec *out,
			char *err, size_t errlen);

#endif

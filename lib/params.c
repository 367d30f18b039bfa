// SPDX-License-Identifier: GPL-2.0-only
/*
 * The command-line schema: every key, declared once.  Adding a key:
 * - its field in struct hz_config (lib/params.h);
 * - its row in hz_params[]: its default as a value (.def, which its own
 *   parser reads; without one, .unset says what not giving it means, and
 *   a P_U64 field may hold a sentinel, .none), type, field, choices or
 *   range, .scope (both sides, PARAM_KERNEL or PARAM_COMPANION), .bench,
 *   .test_only (a hidden key: the tests'); for
 *   P_CUSTOM a parser (lib/params_parse.c) and a shower that writes the
 *   field back as a value (lib/params_show.c); its documentation:
 *   .values when the type cannot say it, .meaning (one or two sentences,
 *   at most PARAM_MEANING_MAX), .unset when the default is no value,
 *   .more when a doc says more (a section below docs/cmdline.md's tables
 *   for what does not fit a cell);
 * - checks across keys in lib/params_check.c;
 * - make, then scripts/hugezero keys --markdown --write docs/cmdline.md
 *   (tests/test_keys.py fails until the committed tables match);
 * - a host test in tests/host/test_cmdline.c.
 */
#include <stddef.h>
#include "lib/memmap.h"
#include "lib/order.h"
#include "lib/params.h"
#include "lib/params_parse.h"
#include "lib/preset.h"
#include "lib/prims.h"
#include "lib/rethunk.h"
#include "lib/string.h"

const char *const exit_names[] = { "auto", "qemu", "halt", "reboot", NULL };
const char *const hang_at_names[] = { "bench", "bringup", "tsc-sync", "idle",
				      "zeroer", NULL };
const char *const watchdog_names[] = { "auto", "pmu", "hpet", "pit", "off",
					NULL };
const char *const watchdog_fault_names[] = { "none", "deaf-hpet", "deaf-pit",
					      "deaf-all", "hpet-legacy",
					      "stray-nmi", "unarmed-hpet", NULL };
const char *const crash_names[] = { "none", "pf", "ud", "gp", "de", "stack",
				    "hang", "hang-irq", "hold-console",
				    "cut-record", "deaf-writer", "stream-writer",
				    NULL };

#define BENCH_NAME(id, name, side, ktap, lf, bare) [BENCH_##id] = name,
const char *const bench_names[BENCH_KIND_COUNT + 1] = { BENCH_KINDS(BENCH_NAME) };
#define BENCH_ROW(id, name, sd, ktap, lf, br)				\
	[BENCH_##id] = { .side = PARAM_##sd, .ktap_case = ktap,		\
			 .linux_fault = lf, .bare = br },
const struct bench_kind_row bench_kinds[BENCH_KIND_COUNT] = {
	BENCH_KINDS(BENCH_ROW)
};
const char *const backing_names[] = { "hugetlb", "thp", "base", NULL };
const char *const folio_names[] = { "4K", "2M", "1G", NULL };
const char *const touch_names[] = { "seq", "reverse", "random", NULL };
const char *const offset_names[] = { "first", "middle", "last", "random", NULL };
const char *const access_names[] = { "none", "write", "read", NULL };
const char *const cache_names[] = { "cold", "warm", "wbinvd", NULL };
static const struct param_alias cache_aliases[] = {
	{ "asis", "warm" }, { "clflush", "cold" }, { NULL, NULL },
};
const char *const pte_names[] = { "linux", "clean", NULL };
const char *const probe_names[] = { "none", "latency", NULL };
const char *const probe_class_names[] = { "normal", "rt", NULL };
/* order=: the planner's orders, "linux": what merged Linux 7.0 picks for
 * the configuration's model (lib/matrix.c resolves it), and "tree": the
 * tree's own (make LINUX=DIR, lib/tree.h). */
#define ORDER_CHOICE(id, name, it, chunk, radius, linux) name,
const char *const order_choice_names[] = { ORDERS(ORDER_CHOICE) "linux", "tree",
					    NULL };
const char *const numa_names[] = { "local", "remote", "interleave", NULL };
const char *const prezero_names[] = { "none", "request", "idle", "dedicated",
				      "on-free", NULL };
const char *const prezero_pool_names[] = { "shared", "apart", NULL };
const char *const boost_names[] = { "firmware", "off", "on", NULL };
const char *const verify_names[] = { "full", "sample", NULL };
const char *const samples_names[] = { "all", "none", NULL };
const char *const inject_names[] = { "none", "skip-line", "wrong-pa",
				     "mark-zeroed", "overrun", NULL };
/* Numbers that must be one of these: parse_u64_choice() keeps the number. */
static const char *const cpl_choices[] = { "0", "3", NULL };
static const char *const hz_choices[] = { "100", "250", "1000", NULL };
const u64 folio_bytes[FOLIO_COUNT] = { SZ_4K, SZ_2M, SZ_1G };

#define F(x) offsetof(struct hz_config, x)
/* .more: a section of docs/cmdline.md below its key tables */
#define BELOW(section) "docs/cmdline.md, \"" section "\""

const struct param hz_params[] = {
	{ .key = "console", .def = "auto",
	  .type = P_CUSTOM, .offset = F(console),
	  .parse = parse_console, .show = show_console, .scope = PARAM_KERNEL,
	  .values = "auto|ttyS0..3[,baud[n|o|e][5-8]]",
	  .meaning = "The serial console: `auto` is the ACPI SPCR table's UART "
	  "if it is a 16550 that answers, else COM1 if it answers, else the "
	  "first that does; `ttyS1` is COM2 (0x2f8), usual for IPMI "
	  "serial-over-LAN. Without baud and format, `115200n8`.",
	  .more = BELOW("console=") },
	{ .key = "exit", .def = "auto", .type = P_ENUM, .offset = F(exit),
	  .choices = exit_names, .scope = PARAM_KERNEL,
	  .meaning = "How the run ends, after `hugezero: done rc=N`: `auto` "
	  "writes rc to isa-debug-exit under QEMU, else halts; `qemu` always "
	  "writes it, then halts; `halt` stops with interrupts off; `reboot` "
	  "resets the machine, for labs that loop through boot entries.",
	  .more = BELOW("exit=") },
	{ .key = "selftest", .def = "on", .type = P_BOOL, .offset = F(selftest),
	  .scope = PARAM_KERNEL,
	  .meaning = "Run the boot self-tests (KTAP). Off: the KTAP plan is "
	  "`1..0`." },
	{ .key = "crash", .def = "none", .type = P_ENUM, .offset = F(crash),
	  .choices = crash_names, .scope = PARAM_KERNEL, .test_only = true,
	  .meaning = "After the self-tests, raise an unexpected exception, "
	  "hang with interrupts off or on, have the first AP hold the "
	  "console lock for good, fault halfway through a record, have "
	  "the first AP miss the stop while it writes, or write long lines "
	  "without a pause as the run ends: for testing the crash "
	  "report, the harness, `deadline_s=` and the console's end.",
	  .more = BELOW("crash=") },
	{ .key = "calib_ms", .def = "50",
	  .type = P_U64, .offset = F(calib_ms), .min = 1,
	  .max = 1000, .scope = PARAM_KERNEL,
	  .meaning = "TSC calibration window per reference clock and run (3 "
	  "runs each; a window a stall may have fooled is measured again, up "
	  "to 5 times per run)." },
	{ .key = "tsc_tolerance_ppm", .def = "2000", .type = P_U64,
	  .offset = F(tsc_tolerance_ppm), .min = 1, .max = 1000000,
	  .scope = PARAM_KERNEL,
	  .meaning = "Largest disagreement between two precise reference "
	  "clocks that still agree. With three or more, one outside the "
	  "others' agreement is an outlier and not used; "
	  "`tsc.references_agree` fails when no agreement is left." },
	{ .key = "deadline_s", .def = "3600",
	  .type = P_U64, .offset = F(deadline_s),
	  .max = 1000000000, .values = "0..1000000000 (0: none)",
	  .scope = PARAM_KERNEL,
	  .meaning = "The run ends by then: past it the kernel says what it "
	  "was doing, fails the KTAP stream and ends with rc=4 as `exit=` "
	  "says; `0`: no deadline.",
	  .more = "docs/hardware.md, \"The run deadline\"" },
	{ .key = "tsc_skew_ns", .def = "1000",
	  .type = P_U64, .offset = F(tsc_skew_ns),
	  .max = 1000000, .scope = PARAM_KERNEL,
	  .meaning = "The cross-CPU TSC skew an aggregate tolerates before it "
	  "refuses to compare start and finish times across CPUs.",
	  .more = "docs/smp.md, \"TSC synchronisation\"" },
	{ .key = "ap_fail", .type = P_U64, .offset = F(ap_fail), .min = 1,
	  .max = CPUSET_MAX - 1, .scope = PARAM_KERNEL, .test_only = true,
	  .unset = "every CPU answers",
	  .meaning = "That CPU's INIT and STARTUP IPIs go to an APIC ID no "
	  "processor has, so it cannot answer: the timeout path (the CPU is "
	  "reported `no-answer` and left out)." },
	{ .key = "answer_ms", .type = P_U64, .offset = F(answer_ms),
	  .min = 100, .max = 8000, .scope = PARAM_KERNEL, .test_only = true,
	  .unset = "8000 ms",
	  .meaning = "How long the boot CPU waits for another CPU to answer "
	  "one step (take its work, a TSC sync ping) before it leaves it out, "
	  "lowered: for the tests of a CPU that never answers. The watchdog's "
	  "progress bound follows it: this (at least the 2 s an AP has to "
	  "start), rounded up to seconds, plus 2 s.",
	  .more = "docs/smp.md, \"Every wait bounded, and named\"" },
	{ .key = "memmap_keep", .type = P_U64, .offset = F(memmap_keep),
	  .min = 1, .max = MEMMAP_MAX_INPUT, .scope = PARAM_KERNEL,
	  .test_only = true, .unset = "4096, the limit of lib/memmap.h",
	  .meaning = "The memory map's entries (as the loader gives them) and "
	  "ranges (overlaps resolved) hugezero keeps, lowered: a map longer "
	  "ends the boot with `hugezero: FATAL: memory: ...` and rc 3, as one "
	  "past 4096 does.",
	  .more = "docs/hardware.md, \"Firmware tables at scale\"" },
	{ .key = "work_fail", .type = P_U64, .offset = F(work_fail), .min = 1,
	  .max = CPUSET_MAX - 1, .scope = PARAM_KERNEL, .test_only = true,
	  .unset = "every IPI with work is sent",
	  .meaning = "That CPU's first IPI of `smp_run()` (the boost "
	  "set-up's) is taken as stuck in the ICR once its work is posted, "
	  "its INIT too: the step is called off, the CPU left out and the "
	  "step made again without it; the IPI comes late, then, and the CPU "
	  "runs nothing of it.",
	  .more = "docs/smp.md, \"Waiting, and ending a run early\"" },
	{ .key = "msr_gp", .type = P_CUSTOM, .offset = F(msr_gp),
	  .parse = parse_msr_gp, .show = show_msr_gp, .scope = PARAM_KERNEL,
	  .test_only = true, .unset = "no MSR faults",
	  .values = "MSR[,MSR...] (at most 16: 0xc0011029,0x8b)",
	  .meaning = "Every guarded access (`rdmsrq_safe()`/`wrmsrq_safe()`) "
	  "to one of these MSRs takes a real #GP in the accessor instead of "
	  "touching the MSR, as a hypervisor refusing it would; the console "
	  "says how many, and each vendor path's `msr:` line names the fault.",
	  .more = "docs/hardware.md, \"CPUID and MSR lines\"" },
	{ .key = "boost", .def = "firmware", .type = P_ENUM, .offset = F(boost),
	  .choices = boost_names,
	  .meaning = "Turbo (Intel) or Core Performance Boost (AMD) for the "
	  "whole boot, on every CPU: `firmware` leaves it as found and "
	  "records it; `off` and `on` set it before the benchmark and record "
	  "each CPU's state before and after.",
	  .more = BELOW("boost=") },
	{ .key = "boost_assume", .def = "off",
	  .type = P_BOOL, .offset = F(boost_assume),
	  .scope = PARAM_KERNEL, .test_only = true,
	  .meaning = "CPUID's boost bit (AMD's CPB, Intel's IDA) taken as set "
	  "on every CPU, so that QEMU, which reports none, runs `boost=`'s "
	  "writes; the `boost` records say `assumed=1`." },
	{ .key = "preset", .def = "none", .type = P_ENUM, .offset = F(preset),
	  .choices = preset_names,
	  .meaning = "One seed thread's experiment: its keys, parsed before "
	  "the line's own so that any key given beside it wins, then sized "
	  "to the machine where the line left `size`, `folio` or `clear` "
	  "open. The kernel and the companion each expand it to their own "
	  "side.",
	  .more = BELOW("preset=") },
	{ .key = "bench", .def = "none", .type = P_ENUM, .offset = F(bench),
	  .choices = bench_names,
	  .meaning = "What to measure: `fault`, the demand-fault benchmark "
	  "(below), or `info`, the hardware inventory (docs/hardware.md), in "
	  "the kernel; `bare`, `linux-fault` or `split` in the Linux "
	  "companion. Benchmark keys without `bench=` are refused; each "
	  "program refuses the other's values.",
	  .more = "docs/companion.md, \"Modes\"" },
	{ .key = "folio", .def = "2M", .type = P_ENUM_LIST, .offset = F(folios),
	  .choices = folio_names, .bench = true,
	  .meaning = "Folio (page) sizes. 1G needs CPUID `pdpe1gb`." },
	{ .key = "clear", .def = "all", .type = P_ENUM_LIST, .offset = F(prims),
	  .choices = prim_names, .bench = true,
	  .meaning = "Clearing primitives. One the CPU lacks is reported "
	  "`skip` with the CPUID bit." },
	{ .key = "order", .def = "all",
	  .type = P_ENUM_LIST, .offset = F(orders),
	  .choices = order_choice_names, .max = (1ULL << ORDER_COUNT) - 1,
	  .bench = true,
	  .meaning = "Clearing orders; `all` is the five planner orders. "
	  "`linux` is what merged Linux 7.0 clears with under the "
	  "configuration's model. `tree` runs the zeroing of the tree "
	  "built in with `make LINUX=DIR` (its mm/memory.c's "
	  "folio_zero_user()) as it is written.",
	  .more = BELOW("Orders") },
	{ .key = "size", .def = "64M",
	  .type = P_SIZE, .offset = F(size), .min = SZ_4K,
	  .max = 64 * 1024 * GiB, .bench = true,
	  .values = "4K..64T (a whole number of each folio size)",
	  .meaning = "Region faulted in per configuration (per CPU with "
	  "`cpus=`). With `clamp=on`, clamped, with a message and `clamped=` "
	  "in the config records, to what free memory holds (and to 262144 "
	  "folios, one run's sample array); refused if not a whole number of "
	  "folios." },
	{ .key = "clamp", .def = "on", .type = P_BOOL, .offset = F(clamp),
	  .scope = PARAM_KERNEL, .bench = true,
	  .meaning = "What a configuration does when its `size=` does not "
	  "fit: `on` runs it at the most folios that fit, the same on every "
	  "CPU of a group, and says so; `off` fails it without running it. A "
	  "folio size of which not one folio fits is skipped with `on` and "
	  "fails with `off`.",
	  .more = BELOW("clamp=") },
	{ .key = "runs", .def = "3", .type = P_CUSTOM, .offset = F(runs),
	  .parse = parse_runs, .show = show_runs, .values = "1..1000|auto",
	  .bench = true,
	  .meaning = "Measured runs per configuration. `auto`: measured "
	  "passes until the 95% interval of the mean GB/s is within "
	  "`precision=` of the mean, or `max_runs=` or `budget_s=` stops "
	  "them; the CPUs of `cpus=` or a `scale=` step stop after the same "
	  "round.",
	  .more = BELOW("runs=") },
	{ .key = "precision", .def = "5",
	  .type = P_CUSTOM, .offset = F(precision_x100),
	  .parse = parse_precision, .show = show_precision, .bench = true,
	  .values = "0.01..100 (% of the mean: 5, 5%, 2.5)",
	  .meaning = "`runs=auto`: the half-width of the 95% interval of the "
	  "mean, in % of the mean, at which passes stop (at most two "
	  "decimals). Refused without `runs=auto`." },
	{ .key = "max_runs", .def = "30",
	  .type = P_U64, .offset = F(max_runs), .min = 3,
	  .max = BENCH_RUNS_MAX, .bench = true,
	  .meaning = "`runs=auto`: the most measured passes. Refused without "
	  "`runs=auto`." },
	{ .key = "budget_s", .def = "0", .type = P_U64, .offset = F(budget_s),
	  .max = 1000000, .values = "0..1000000 (0: none)", .bench = true,
	  .meaning = "`runs=auto`: seconds of measured rounds (warm-ups and "
	  "the companion's `--round-hook` not counted); no round starts that "
	  "would, at the mean round's length, end past it. Refused without "
	  "`runs=auto`.",
	  .more = BELOW("budget_s=") },
	{ .key = "interleave", .def = "on",
	  .type = P_BOOL, .offset = F(interleave),
	  .bench = true,
	  .meaning = "`on`: the measured passes of configurations that share "
	  "a pool run round by round, each a pass a round in an order "
	  "shuffled from `seed=`; records carry `round_group`, `round` and "
	  "`slot`. `off`: one configuration's passes back to back, as "
	  "hugezero did before round groups.",
	  .more = BELOW("interleave=") },
	{ .key = "split_runs", .def = "0",
	  .type = P_U64, .offset = F(split_runs),
	  .max = BENCH_RUNS_MAX, .values = "0..1000 (0: as runs=)",
	  .scope = PARAM_COMPANION, .bench = true,
	  .meaning = "`bench=split`: measured rounds of each round group a "
	  "Linux fault leads, pairing it with the bare clearing; the other "
	  "groups run `runs=`. Refused where no fault leads a group (not "
	  "`bench=split`, `interleave=off`, `cpus=`, no `prezero=none`) and "
	  "with `runs=auto`.",
	  .more = "docs/companion.md, \"Reading the split\"" },
	{ .key = "warmups", .def = "1",
	  .type = P_U64, .offset = F(warmups), .max = 100,
	  .bench = true,
	  .meaning = "Runs before the measured ones, recorded as "
	  "`pass=warmup` and left out of every summary." },
	{ .key = "chunk", .def = "32M", .type = P_CUSTOM, .offset = F(chunks),
	  .parse = parse_chunks, .show = show_chunks, .bench = true,
	  .values = "SIZE[,SIZE...] (multiples of 4K)",
	  .meaning = "Batch of `batched-pages` and `neighbourhood-last` "
	  "(Linux's `PROCESS_PAGES_NON_PREEMPT_BATCH` is 32M). Each is its "
	  "own configuration." },
	{ .key = "radius", .def = "2",
	  .type = P_U64, .offset = F(radius), .max = 262143,
	  .values = "0..262143 (pages)", .bench = true,
	  .meaning = "`neighbourhood-last`: pages each side of the fault "
	  "cleared last (Linux's `FOLIO_ZERO_LOCALITY_RADIUS`)." },
	{ .key = "touch", .def = "seq", .type = P_ENUM, .offset = F(touch),
	  .choices = touch_names, .bench = true,
	  .meaning = "Order the workload touches folios in. `random` is a "
	  "seeded shuffle." },
	{ .key = "offset", .def = "first", .type = P_ENUM, .offset = F(offset),
	  .choices = offset_names, .bench = true,
	  .meaning = "Which 4K page of the folio is touched: the first, the "
	  "middle, the last, or a random one per fault (recorded as `page` "
	  "samples). The orders that clear the fault's neighbourhood last "
	  "depend on it." },
	{ .key = "access", .def = "none", .type = P_ENUM, .offset = F(access),
	  .choices = access_names, .bench = true,
	  .meaning = "After each fault, the workload writes the whole folio "
	  "(`p[i] = i`, as vm-scalability's anon-w-seq) or reads it, timed on "
	  "its own. With `write`, an extra untimed-for-results `verify` pass "
	  "with no access checks the zeroing first." },
	{ .key = "cache", .def = "cold", .type = P_ENUM, .offset = F(cache),
	  .choices = cache_names, .aliases = cache_aliases, .bench = true,
	  .meaning = "Cache state before each run, after the pattern fill: "
	  "`cold` writes back and invalidates every line of the pool; `warm` "
	  "leaves the fill's lines in the cache; `wbinvd` writes back and "
	  "invalidates every cache (ring 0 only).",
	  .more = BELOW("cache=") },
	{ .key = "pte", .def = "linux", .type = P_ENUM, .offset = F(pte),
	  .choices = pte_names, .scope = PARAM_KERNEL, .bench = true,
	  .meaning = "Page-table bits of the leaf a fault installs: `linux` "
	  "sets Accessed, and Dirty on a write fault, as Linux's fault path "
	  "does (so the retried store takes no A/D assist); `clean` leaves "
	  "them to the hardware, so the assist is measured inside the fault.",
	  .more = BELOW("pte=") },
	{ .key = "verify", .def = "full", .type = P_ENUM, .offset = F(verify),
	  .choices = verify_names, .bench = true,
	  .meaning = "After each run every faulted folio is checked through "
	  "the workload's own mapping: its leaf, then its contents, every "
	  "line (`full`) or one 64-byte line per 4K page plus both ends "
	  "(`sample`). Every dirty line is counted.",
	  .more = BELOW("verify=") },
	{ .key = "samples", .def = "all", .type = P_ENUM, .offset = F(samples),
	  .choices = samples_names, .bench = true,
	  .meaning = "Print every per-fault sample (raw TSC ticks), or only "
	  "per-run totals and summaries. At 115200 baud, 262144 samples take "
	  "minutes." },
	{ .key = "inject", .def = "none", .type = P_ENUM, .offset = F(inject),
	  .choices = inject_names, .scope = PARAM_KERNEL, .bench = true,
	  .test_only = true,
	  .meaning = "Plants a fault the verifier must find: `skip-line` "
	  "leaves dirty lines after the clear, `wrong-pa` maps a folio at the "
	  "next folio's frame, `mark-zeroed` maps one marked zeroed that is "
	  "not, `overrun` writes a line of zeros past a folio into its guard. "
	  "The configuration must then fail.",
	  .more = BELOW("inject=") },
	{ .key = "inject_lines", .def = "16",
	  .type = P_U64, .offset = F(inject_lines),
	  .min = 1, .max = INJECT_MAX_LINES, .scope = PARAM_KERNEL,
	  .bench = true, .test_only = true,
	  .meaning = "`inject=skip-line`: dirty lines per pass (fewer if the "
	  "region has fewer lines)." },
	{ .key = "inject_cpu", .type = P_CUSTOM, .offset = F(inject_cpu),
	  .parse = parse_cpus, .show = show_cpus, .values = "CPULIST|all",
	  .scope = PARAM_KERNEL, .bench = true, .test_only = true,
	  .unset = "every CPU",
	  .meaning = "The CPUs of a group on which `inject=` plants its "
	  "fault; the others run clean, so that one member fails while the "
	  "rest go on (docs/statistics.md, \"`runs=auto` in a group of "
	  "CPUs\"). Refused without `inject=`." },
	{ .key = "hang_cpu", .type = P_CUSTOM, .offset = F(hang_cpu),
	  .parse = parse_cpus, .show = show_cpus, .values = "CPULIST|all",
	  .scope = PARAM_KERNEL, .test_only = true,
	  .unset = "no CPU hangs",
	  .meaning = "Those CPUs hang with interrupts masked at `hang_at=`, "
	  "as hung CPUs would: in `bench`, members of `cpus=` inside their "
	  "first timed pass; the run ends at `deadline_s=` or by the "
	  "watchdog, naming the phase and a CPU.",
	  .more = "docs/hardware.md, \"The watchdog\"" },
	{ .key = "hang_at", .def = "bench",
	  .type = P_ENUM, .offset = F(hang_at),
	  .choices = hang_at_names, .scope = PARAM_KERNEL, .test_only = true,
	  .meaning = "Where `hang_cpu=` hangs: `bench` (the first timed "
	  "pass), `bringup` (an AP once checked in; the boot CPU once the APs "
	  "are started), `tsc-sync` (in the TSC ping-pong), `idle` (an AP, "
	  "at its next work after the TSC sync's: never taken), `zeroer` "
	  "(`prezero=dedicated`'s CPU, at the zeroer's work: never taken).",
	  .more = "docs/hardware.md, \"The watchdog\"" },
	{ .key = "watchdog", .def = "auto",
	  .type = P_ENUM, .offset = F(watchdog),
	  .choices = watchdog_names, .scope = PARAM_KERNEL,
	  .meaning = "The NMI that ends a hang no CPU is left to see: `auto` "
	  "the boot CPU's cycle counter where it has a PMU (one counter "
	  "fewer for `counters=`), else an HPET comparator, else the PIT, "
	  "each an NMI to the boot CPU, heard before it is taken; `pmu`, `hpet`, `pit` that one alone; "
	  "`off` none (a hang of every CPU, interrupts masked, lasts).",
	  .more = "docs/hardware.md, \"The watchdog\"" },
	{ .key = "watchdog_fault", .def = "none",
	  .type = P_ENUM, .offset = F(watchdog_fault),
	  .choices = watchdog_fault_names, .scope = PARAM_KERNEL,
	  .test_only = true,
	  .meaning = "Watchdog timer faults: `deaf-hpet`, `deaf-pit`, "
	  "`deaf-all` mask its I/O APIC input (no NMI; the next source is "
	  "taken); `stray-nmi`: `deaf-hpet` and one NMI from elsewhere; "
	  "`unarmed-hpet` stops the HPET once set to its period; "
	  "`hpet-legacy` leaves the HPET in legacy replacement mode, which "
	  "keeps IRQ0 from the PIT.",
	  .more = "docs/hardware.md, \"The watchdog\"" },
	{ .key = "cpl", .def = "3", .type = P_CUSTOM, .offset = F(cpl),
	  .choices = cpl_choices, .parse = parse_u64_choice,
	  .show = show_u64_choice, .scope = PARAM_KERNEL, .bench = true,
	  .meaning = "Privilege of the workload: ring 3 in its own address "
	  "space (a user fault, as in Linux), or ring 0 in the same address "
	  "space (no ring transition)." },
	{ .key = "seed", .def = "1",
	  .type = P_U64, .offset = F(seed), .max = ~0ULL,
	  .values = "NUMBER", .bench = true,
	  .meaning = "Seed of `touch=random`, `offset=random` and of the "
	  "order `interleave=on` shuffles passes in." },
	{ .key = "preempt", .type = P_ENUM_LIST, .offset = F(preempts),
	  .choices = preempt_names, .scope = PARAM_KERNEL, .bench = true,
	  .unset = "no model, no scheduling at all",
	  .meaning = "Linux's preemption models, each its own configuration "
	  "(named `MODEL.FOLIO.CLEAR.ORDER...`; records carry `preempt=`). "
	  "Not given: no tick, interrupts masked while measuring, records say "
	  "`preempt=off`.",
	  .more = BELOW("preempt=") },
	{ .key = "hz", .def = "250", .type = P_CUSTOM, .offset = F(hz),
	  .choices = hz_choices, .parse = parse_u64_choice,
	  .show = show_u64_choice, .scope = PARAM_KERNEL, .bench = true,
	  .meaning = "The tick under a model." },
	{ .key = "probe", .def = "none", .type = P_ENUM, .offset = F(probe),
	  .choices = probe_names, .bench = true,
	  .meaning = "The competing task: `latency` sleeps until a TSC "
	  "deadline every `probe_us` and records how late it ran. Needs "
	  "`preempt=` in the kernel." },
	{ .key = "probe_us", .def = "1000",
	  .type = P_U64, .offset = F(probe_us), .min = 10,
	  .max = 1000000, .values = "10..1000000 (microseconds)",
	  .bench = true,
	  .meaning = "The probe's period." },
	{ .key = "probe_class", .def = "normal",
	  .type = P_ENUM, .offset = F(probe_class),
	  .choices = probe_class_names, .bench = true,
	  .meaning = "The probe's class: under `lazy` a normal-class wake-up "
	  "waits for the tick, an `rt` one preempts at once." },
	{ .key = "cpus", .def = "0", .type = P_CUSTOM, .offset = F(cpus),
	  .parse = parse_cpus, .show = show_cpus, .bench = true,
	  .values = "CPULIST|all (0-3,8; 0-15:2/4)",
	  .meaning = "The CPUs that run the workload at once, each over its "
	  "own region of `size`. The kernel numbers CPUs boot CPU first, then "
	  "the MADT's enabled processors in table order; one not up (or "
	  "absent) is left out with a message. Its list in records is at "
	  "most 127 characters (a longer one is refused). KTAP cases are "
	  "then named `cpusLIST.NAME`.",
	  .more = "docs/smp.md" },
	{ .key = "scale", .type = P_CUSTOM, .offset = F(scale),
	  .parse = parse_scale, .show = show_scale, .bench = true,
	  .values = "N[,N...] (CPUs per step: a count or all)",
	  .unset = "one step, every CPU of `cpus`",
	  .meaning = "One step per value: the whole matrix on the first N "
	  "CPUs of `cpus` (`scale=1,2,4,all`: the scaling curve in one boot). "
	  "A step larger than `cpus` has is skipped, saying so (cases "
	  "`xN.NAME`).",
	  .more = "docs/smp.md" },
	{ .key = "numa", .def = "local", .type = P_ENUM, .offset = F(numa),
	  .choices = numa_names, .bench = true,
	  .meaning = "Where each CPU's folios come from: its node, the nearest "
	  "other (SLIT distance), or round-robin over the nodes with memory. "
	  "Without an SRAT (one node) records say `numa=none` and "
	  "`remote`/`interleave` configurations are skipped with the "
	  "reason.",
	  .more = "docs/smp.md" },
	{ .key = "rethunk", .type = P_ENUM_LIST, .offset = F(rethunks),
	  .choices = rethunk_mode_names, .bench = true,
	  .unset = "what Linux's default mitigation picks for the CPU (the "
	  "`machine` record's `rethunk_linux`), names as before",
	  .meaning = "`on`: every primitive returns through the return thunk "
	  "Linux's mitigation uses on this CPU (`retbleed_return_thunk`, "
	  "`srso_return_thunk`, `srso_alias_return_thunk`, "
	  "`call_depth_return_thunk`), as a 6.x `clear_page()` does per 4K "
	  "page; `off`: a plain RET. Given, names gain `rethunk-MODE.`.",
	  .more = "docs/hardware.md, \"Return thunks\"" },
	{ .key = "rethunk_assume", .def = "none",
	  .type = P_ENUM, .offset = F(rethunk_assume),
	  .choices = rethunk_assume_names, .bench = true, .test_only = true,
	  .meaning = "Take the return-thunk choice for a named CPU instead of "
	  "this one (`zen4`: family 19h model 11h), so QEMU reaches every "
	  "thunk; `machine` records say it was assumed." },
	{ .key = "rethunk_count", .def = "off",
	  .type = P_BOOL, .offset = F(rethunk_count),
	  .bench = true, .test_only = true,
	  .meaning = "Count every return through a thunk (an add to a per-CPU "
	  "count per return, in the timed region): run records gain "
	  "`rethunk_returns`. For tests, not for numbers." },
	{ .key = "prezero", .type = P_ENUM_LIST, .offset = F(prezeros),
	  .choices = prezero_names, .bench = true,
	  .unset = "no pre-zeroing, records as before",
	  .meaning = "Pre-zeroing free folios, each mode a configuration "
	  "named `MODE.FOLIO...`, tuned by the `prezero_*` keys. The "
	  "companion runs `none` and `request` (Linux's zeroable_hugepages) "
	  "in `bench=linux-fault`.",
	  .more = "docs/prezero.md, \"Modes\"" },
	{ .key = "prezero_n", .def = "all",
	  .type = P_CUSTOM, .offset = F(prezero_n),
	  .parse = parse_prezero_n, .show = show_prezero_n,
	  .values = "0..262144|all", .bench = true,
	  .meaning = "`request`: folios zeroed per request." },
	{ .key = "prezero_clear", .def = "same", .type = P_CUSTOM,
	  .offset = F(prezero_clear), .choices = prim_names,
	  .parse = parse_prezero_clear, .show = show_prezero_clear,
	  .values = "same|PRIMITIVE", .bench = true,
	  .meaning = "How the zeroers clear: the configuration's primitive "
	  "(`same`), or another, e.g. a non-temporal one for background "
	  "zeroing. Its effect on the foreground is measured, not assumed." },
	{ .key = "prezero_order", .def = "contiguous-page", .type = P_CUSTOM,
	  .offset = F(prezero_order), .parse = parse_prezero_order,
	  .show = show_prezero_order, .values = "same|ORDER (not linux or tree)",
	  .bench = true,
	  .meaning = "The zeroers' order: one call per folio by default. With "
	  "`batched-pages`, the idle task takes resched points between "
	  "units." },
	{ .key = "prezero_cpu", .type = P_U64, .offset = F(prezero_cpu),
	  .max = CPUSET_MAX - 1, .none = CPU_AUTO, .bench = true,
	  .unset = "the highest CPU that is up and not in `cpus=`",
	  .meaning = "`dedicated`: the zeroing CPU." },
	{ .key = "prezero_low", .def = "33",
	  .type = P_U64, .offset = F(prezero_low),
	  .max = 100, .values = "0..100 (% of the pool)", .bench = true,
	  .meaning = "Low watermark: zeroing starts below it (FreeBSD's 1/3). "
	  "Must be below `prezero_high`." },
	{ .key = "prezero_high", .def = "50",
	  .type = P_U64, .offset = F(prezero_high),
	  .min = 1, .max = 100, .values = "1..100 (% of the pool)",
	  .bench = true,
	  .meaning = "High watermark: zeroing stops at it (FreeBSD's 1/2)." },
	{ .key = "prezero_idle_ms", .def = "20", .type = P_U64,
	  .offset = F(prezero_idle_ms), .max = 100000,
	  .values = "0..100000 (ms)", .bench = true,
	  .meaning = "`idle` and `dedicated`: the refill window before each "
	  "pass's timed part." },
	{ .key = "prezero_pool", .def = "shared",
	  .type = P_ENUM, .offset = F(prezero_pool),
	  .choices = prezero_pool_names, .bench = true,
	  .meaning = "`dedicated`: zero the faults' own pool, or as many "
	  "folios again that no fault takes, round and round with no "
	  "watermark, so the foreground only meets the contention for memory "
	  "bandwidth (the interference scenario).",
	  .more = "docs/prezero.md, \"Scenarios\"" },
	{ .key = "pmu", .def = "none", .type = P_CUSTOM, .offset = F(npmu),
	  .choices = pmu_event_names, .parse = parse_pmu, .show = show_pmu,
	  .values = "none|EVENT[,EVENT...]", .bench = true,
	  .meaning = "Performance-counter events to count, in the order "
	  "given; the first four counted are sampled per fault. An event the "
	  "CPU cannot count is skipped with its reason. The kernel reads them "
	  "with RDPMC around each fault's clear, the companion through "
	  "perf_event_open(2).",
	  .more = BELOW("pmu=") },
	{ .key = "cpu", .type = P_U64, .offset = F(cpu), .max = CPU_AUTO - 1,
	  .none = CPU_AUTO, .scope = PARAM_COMPANION,
	  .unset = "the highest CPU the process may use, away from CPU 0's "
	  "interrupts",
	  .meaning = "The CPU the companion's one process is pinned to; "
	  "`cpus=`, one process per CPU, excludes it.",
	  .more = "docs/companion.md, \"All CPUs at once\"" },
	{ .key = "backing", .def = "all",
	  .type = P_ENUM_LIST, .offset = F(backings),
	  .choices = backing_names, .scope = PARAM_COMPANION, .bench = true,
	  .meaning = "`bench=linux-fault`'s memory kinds, each with the folio "
	  "sizes it has: `hugetlb` (2M, 1G), `thp` (transparent huge pages, "
	  "2M, MADV_HUGEPAGE), `base` (4K, MADV_NOHUGEPAGE).",
	  .more = "docs/companion.md, \"Modes\"" },
};

const size_t hz_nparams = ARRAY_SIZE(hz_params);
_Static_assert(ARRAY_SIZE(hz_params) <= CMDLINE_MAX_PARAMS,
	       "hz_params[] outgrew CMDLINE_MAX_PARAMS (lib/cmdline.h): raise it");

/* Each key's default from its row (.def, or .none): the one list of
 * them.  A .def that does not parse is the table's bug, which the host
 * tests refuse. */
void config_defaults(struct hz_config *c)
{
	char err[CMDLINE_ERR_LEN];

	memset(c, 0, sizeof(*c));
	cmdline_defaults(hz_params, hz_nparams, c, err, sizeof(err));
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The command-line schema.  Adding a key: a field in struct hz_config, a
 * default in config_defaults(), a row in hz_params[], a section in
 * docs/cmdline.md, and a host test.
 */
#include <stddef.h>
#include "lib/order.h"
#include "lib/params.h"
#include "lib/params_parse.h"
#include "lib/preset.h"
#include "lib/prims.h"
#include "lib/string.h"

const char *const exit_names[] = { "auto", "qemu", "halt", "reboot", NULL };
const char *const crash_names[] = { "none", "pf", "ud", "gp", "de", "stack",
				    "hang", "hang-irq", "hold-console", NULL };

const char *const bench_names[] = { "none", "fault", "bare", "linux-fault",
				    "split", "info", NULL };
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
/* order=: the planner's orders, and "linux": what merged Linux 7.0 picks
 * for the configuration's model (lib/matrix.c resolves it). */
#define ORDER_CHOICE(id, name, it, chunk, radius, linux) name,
const char *const order_choice_names[] = { ORDERS(ORDER_CHOICE) "linux", NULL };
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

const struct param hz_params[] = {
	{ .key = "console", .type = P_CUSTOM, .offset = F(console),
	  .parse = parse_console,
	  .help = "console=auto|ttyS0..3[,baud[n|o|e][5-8]]",
	  .scope = PARAM_KERNEL },
	{ .key = "exit", .type = P_ENUM, .offset = F(exit),
	  .choices = exit_names, .help = "exit=auto|qemu|halt|reboot",
	  .scope = PARAM_KERNEL },
	{ .key = "selftest", .type = P_BOOL, .offset = F(selftest),
	  .help = "selftest=on|off", .scope = PARAM_KERNEL },
	{ .key = "crash", .type = P_ENUM, .offset = F(crash),
	  .choices = crash_names,
	  .help = "crash=none|pf|ud|gp|de|stack|hang|hang-irq|hold-console",
	  .scope = PARAM_KERNEL },
	{ .key = "calib_ms", .type = P_U64, .offset = F(calib_ms), .min = 1,
	  .max = 1000, .help = "calib_ms=1..1000", .scope = PARAM_KERNEL },
	{ .key = "tsc_tolerance_ppm", .type = P_U64,
	  .offset = F(tsc_tolerance_ppm), .min = 1, .max = 1000000,
	  .help = "tsc_tolerance_ppm=1..1000000", .scope = PARAM_KERNEL },
	{ .key = "deadline_s", .type = P_U64, .offset = F(deadline_s),
	  .max = 1000000000, .help = "deadline_s=0..1000000000 (0: none)",
	  .scope = PARAM_KERNEL },
	{ .key = "tsc_skew_ns", .type = P_U64, .offset = F(tsc_skew_ns),
	  .max = 1000000, .help = "tsc_skew_ns=0..1000000",
	  .scope = PARAM_KERNEL },
	{ .key = "ap_fail", .type = P_U64, .offset = F(ap_fail), .min = 1,
	  .max = CPUSET_MAX - 1, .help = "ap_fail=1..1023 (test-only)",
	  .scope = PARAM_KERNEL },
	{ .key = "hang_cpu", .type = P_U64, .offset = F(hang_cpu),
	  .max = CPUSET_MAX - 1, .help = "hang_cpu=0..1023 (test-only)",
	  .scope = PARAM_KERNEL, .bench = true },
	{ .key = "msr_gp", .type = P_CUSTOM, .offset = F(msr_gp),
	  .parse = parse_msr_gp,
	  .help = "msr_gp=MSR[,MSR...] (test-only, at most 16)",
	  .scope = PARAM_KERNEL },
	{ .key = "boost", .type = P_ENUM, .offset = F(boost),
	  .choices = boost_names, .help = "boost=firmware|off|on" },
	{ .key = "boost_assume", .type = P_BOOL, .offset = F(boost_assume),
	  .help = "boost_assume=on|off (test-only)", .scope = PARAM_KERNEL },
	{ .key = "preset", .type = P_ENUM, .offset = F(preset),
	  .choices = preset_names,
	  .help = "preset=none|seed-000|seed-001|seed-002 (docs/reproducing.md)" },
	{ .key = "bench", .type = P_ENUM, .offset = F(bench),
	  .choices = bench_names,
	  .help = "bench=none|fault|info (kernel), bare|linux-fault|split (companion)" },
	{ .key = "folio", .type = P_ENUM_LIST, .offset = F(folios),
	  .choices = folio_names, .help = "folio=4K,2M,1G|all", .bench = true },
	{ .key = "clear", .type = P_ENUM_LIST, .offset = F(prims),
	  .choices = prim_names, .bench = true },
	{ .key = "order", .type = P_ENUM_LIST, .offset = F(orders),
	  .choices = order_choice_names, .max = (1ULL << ORDER_COUNT) - 1,
	  .bench = true },
	{ .key = "size", .type = P_SIZE, .offset = F(size), .min = SZ_4K,
	  .max = 64 * 1024 * GiB, .help = "size=4K..64T", .bench = true },
	{ .key = "clamp", .type = P_BOOL, .offset = F(clamp),
	  .help = "clamp=on|off", .scope = PARAM_KERNEL, .bench = true },
	{ .key = "runs", .type = P_CUSTOM, .offset = F(runs),
	  .parse = parse_runs, .help = "runs=1..1000|auto", .bench = true },
	{ .key = "precision", .type = P_CUSTOM, .offset = F(precision_x100),
	  .parse = parse_precision,
	  .help = "precision=0.01..100 (% of the mean; runs=auto)",
	  .bench = true },
	{ .key = "max_runs", .type = P_U64, .offset = F(max_runs), .min = 3,
	  .max = BENCH_RUNS_MAX, .help = "max_runs=3..1000 (runs=auto)",
	  .bench = true },
	{ .key = "budget_s", .type = P_U64, .offset = F(budget_s),
	  .max = 1000000, .help = "budget_s=0..1000000 (runs=auto; 0: none)",
	  .bench = true },
	{ .key = "interleave", .type = P_BOOL, .offset = F(interleave),
	  .help = "interleave=on|off", .bench = true },
	{ .key = "warmups", .type = P_U64, .offset = F(warmups), .max = 100,
	  .help = "warmups=0..100", .bench = true },
	{ .key = "chunk", .type = P_CUSTOM, .offset = F(chunks),
	  .parse = parse_chunks,
	  .help = "chunk=SIZE[,SIZE...] (multiples of 4K)", .bench = true },
	{ .key = "radius", .type = P_U64, .offset = F(radius), .max = 262143,
	  .help = "radius=0..262143 (pages)", .bench = true },
	{ .key = "touch", .type = P_ENUM, .offset = F(touch),
	  .choices = touch_names, .help = "touch=seq|reverse|random",
	  .bench = true },
	{ .key = "offset", .type = P_ENUM, .offset = F(offset),
	  .choices = offset_names, .help = "offset=first|middle|last|random",
	  .bench = true },
	{ .key = "access", .type = P_ENUM, .offset = F(access),
	  .choices = access_names, .help = "access=none|write|read",
	  .bench = true },
	{ .key = "cache", .type = P_ENUM, .offset = F(cache),
	  .choices = cache_names, .help = "cache=cold|warm|wbinvd",
	  .aliases = cache_aliases, .bench = true },
	{ .key = "pte", .type = P_ENUM, .offset = F(pte),
	  .choices = pte_names, .help = "pte=linux|clean",
	  .scope = PARAM_KERNEL, .bench = true },
	{ .key = "verify", .type = P_ENUM, .offset = F(verify),
	  .choices = verify_names, .help = "verify=full|sample",
	  .bench = true },
	{ .key = "samples", .type = P_ENUM, .offset = F(samples),
	  .choices = samples_names, .help = "samples=all|none", .bench = true },
	{ .key = "inject", .type = P_ENUM, .offset = F(inject),
	  .choices = inject_names,
	  .help = "inject=none|skip-line|wrong-pa|mark-zeroed|overrun",
	  .scope = PARAM_KERNEL, .bench = true },
	{ .key = "inject_lines", .type = P_U64, .offset = F(inject_lines),
	  .min = 1, .max = INJECT_MAX_LINES, .help = "inject_lines=1..4096",
	  .scope = PARAM_KERNEL, .bench = true },
	{ .key = "cpl", .type = P_CUSTOM, .offset = F(cpl),
	  .choices = cpl_choices, .parse = parse_u64_choice,
	  .scope = PARAM_KERNEL, .bench = true },
	{ .key = "seed", .type = P_U64, .offset = F(seed), .max = ~0ULL,
	  .help = "seed=NUMBER", .bench = true },
	{ .key = "preempt", .type = P_ENUM_LIST, .offset = F(preempts),
	  .choices = preempt_names, .scope = PARAM_KERNEL, .bench = true },
	{ .key = "hz", .type = P_CUSTOM, .offset = F(hz),
	  .choices = hz_choices, .parse = parse_u64_choice,
	  .scope = PARAM_KERNEL, .bench = true },
	{ .key = "probe", .type = P_ENUM, .offset = F(probe),
	  .choices = probe_names, .help = "probe=none|latency", .bench = true },
	{ .key = "probe_us", .type = P_U64, .offset = F(probe_us), .min = 10,
	  .max = 1000000, .help = "probe_us=10..1000000", .bench = true },
	{ .key = "probe_class", .type = P_ENUM, .offset = F(probe_class),
	  .choices = probe_class_names, .help = "probe_class=normal|rt",
	  .bench = true },
	{ .key = "cpus", .type = P_CUSTOM, .offset = F(cpus),
	  .parse = parse_cpus, .help = "cpus=CPULIST (0-3,8; 0-15:2/4)|all",
	  .bench = true },
	{ .key = "scale", .type = P_CUSTOM, .offset = F(scale),
	  .parse = parse_scale,
	  .help = "scale=N[,N...] (CPUs per step; 'all')", .bench = true },
	{ .key = "numa", .type = P_ENUM, .offset = F(numa),
	  .choices = numa_names, .help = "numa=local|remote|interleave",
	  .bench = true },
	{ .key = "prezero", .type = P_ENUM_LIST, .offset = F(prezeros),
	  .choices = prezero_names,
	  .help = "prezero=none,request,idle,dedicated,on-free|all",
	  .bench = true },
	{ .key = "prezero_n", .type = P_CUSTOM, .offset = F(prezero_n),
	  .parse = parse_prezero_n, .help = "prezero_n=N|all", .bench = true },
	{ .key = "prezero_clear", .type = P_CUSTOM,
	  .offset = F(prezero_clear), .parse = parse_prezero_clear,
	  .help = "prezero_clear=same|PRIMITIVE", .bench = true },
	{ .key = "prezero_order", .type = P_CUSTOM,
	  .offset = F(prezero_order), .parse = parse_prezero_order,
	  .help = "prezero_order=same|ORDER", .bench = true },
	{ .key = "prezero_cpu", .type = P_U64, .offset = F(prezero_cpu),
	  .max = CPUSET_MAX - 1, .help = "prezero_cpu=0..1023", .bench = true },
	{ .key = "prezero_low", .type = P_U64, .offset = F(prezero_low),
	  .max = 100, .help = "prezero_low=0..100 (% of the pool)",
	  .bench = true },
	{ .key = "prezero_high", .type = P_U64, .offset = F(prezero_high),
	  .min = 1, .max = 100, .help = "prezero_high=1..100 (% of the pool)",
	  .bench = true },
	{ .key = "prezero_idle_ms", .type = P_U64,
	  .offset = F(prezero_idle_ms), .max = 100000,
	  .help = "prezero_idle_ms=0..100000", .bench = true },
	{ .key = "prezero_pool", .type = P_ENUM, .offset = F(prezero_pool),
	  .choices = prezero_pool_names, .help = "prezero_pool=shared|apart",
	  .bench = true },
	{ .key = "pmu", .type = P_CUSTOM, .offset = F(npmu),
	  .parse = parse_pmu,
	  .help = "pmu=none|EVENT[,EVENT...] (instructions, cycles, ...)",
	  .bench = true },
	{ .key = "cpu", .type = P_U64, .offset = F(cpu), .max = CPU_AUTO - 1,
	  .help = "cpu=0..4095", .scope = PARAM_COMPANION },
	{ .key = "backing", .type = P_ENUM_LIST, .offset = F(backings),
	  .choices = backing_names, .help = "backing=hugetlb,thp,base|all",
	  .scope = PARAM_COMPANION, .bench = true },
};

const size_t hz_nparams = ARRAY_SIZE(hz_params);
_Static_assert(ARRAY_SIZE(hz_params) <= CMDLINE_MAX_PARAMS,
	       "hz_params[] outgrew CMDLINE_MAX_PARAMS (lib/cmdline.h): raise it");

void config_defaults(struct hz_config *c)
{
	memset(c, 0, sizeof(*c));
	c->console.autosel = true;
	c->console.port = 0;
	c->console.baud = 115200;
	c->console.parity = 'n';
	c->console.bits = 8;
	c->exit = EXIT_AUTO;
	c->selftest = true;
	c->crash = CRASH_NONE;
	c->calib_ms = 50;
	c->tsc_tolerance_ppm = 2000;
	c->tsc_skew_ns = 1000;
	c->deadline_s = 3600;
	c->bench = BENCH_NONE;
	c->folios = 1ULL << FOLIO_2M;
	c->prims = (1ULL << PRIM_COUNT) - 1;
	c->orders = (1ULL << ORDER_COUNT) - 1;
	c->size = 64 * MiB;
	c->clamp = true;
	c->runs = 3;
	c->precision_x100 = 500;	/* runs=auto: 5% of the mean */
	c->max_runs = 30;
	c->interleave = true;
	c->warmups = 1;
	c->nchunks = 1;
	c->chunks[0] = LINUX_BATCH;
	c->radius = LINUX_RADIUS;
	c->cpl = 3;
	c->cache = CACHE_COLD;
	c->pte = PTE_MODE_LINUX;
	c->inject_lines = 16;
	c->hz = 250;
	c->probe_us = 1000;
	c->seed = 1;
	c->cpu = CPU_AUTO;
	c->hang_cpu = CPU_AUTO;
	cpu_set_add(&c->cpus, 0);	/* the boot CPU alone, as before SMP */
	c->numa = NUMA_LOCAL;
	c->prezero_n = PREZERO_ALL;
	c->prezero_clear = PREZERO_SAME;
	c->prezero_order = ORDER_CONTIGUOUS;	/* one call per folio */
	c->prezero_cpu = CPU_AUTO;
	c->prezero_low = 33;			/* FreeBSD's 1/3 and 1/2 */
	c->prezero_high = 50;
	c->prezero_idle_ms = 20;
	c->backings = (1ULL << BACKING_COUNT) - 1;
}

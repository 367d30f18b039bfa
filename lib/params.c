// SPDX-License-Identifier: GPL-2.0-only
/*
 * The command-line schema.  Adding a key: a field in struct hz_config, a
 * default in config_defaults(), a row in hz_params[], a section in
 * docs/cmdline.md, and a host test.
 */
#include <stddef.h>
#include <stdarg.h>
#include "lib/format.h"
#include "lib/order.h"
#include "lib/params.h"
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
const char *const verify_names[] = { "full", "sample", NULL };
const char *const samples_names[] = { "all", "none", NULL };
const char *const inject_names[] = { "none", "skip-line", "wrong-pa",
				     "mark-zeroed", "overrun", NULL };
const char *const cpl_names[] = { "0", "3", NULL };
const u64 folio_bytes[FOLIO_COUNT] = { SZ_4K, SZ_2M, SZ_1G };

static const u32 bauds[] = { 1200, 2400, 4800, 9600, 19200, 38400, 57600,
			     115200 };

bool console_spec_parse(const char *s, size_t len, struct console_spec *out,
			char *err, size_t errlen)
{
	struct console_spec c = { false, 0, 115200, 'n', 8 };
	size_t i = 4, j;
	u64 baud = 0;
	bool baud_ok = false;

	if (len == 4 && memcmp(s, "auto", 4) == 0) {
		c.autosel = true;
		*out = c;
		return true;
	}
	if (len < 5 || memcmp(s, "ttyS", 4) != 0 || s[4] < '0' || s[4] > '3' ||
	    (len > 5 && s[5] != ',')) {
		ksnprintf(err, errlen, "'%.*s' is not a serial console "
			  "(auto, ttyS0..ttyS3[,baud[parity bits]])", (int)len, s);
		return false;
	}
	c.port = (u32)(s[4] - '0');
	if (len > 5) {
		i = 6;
		for (j = i; j < len && s[j] >= '0' && s[j] <= '9'; j++)
			;
		if (j == i || !parse_u64(s + i, j - i, &baud)) {
			ksnprintf(err, errlen, "'%.*s': no baud rate after ','",
				  (int)len, s);
			return false;
		}
		for (u32 k = 0; k < ARRAY_SIZE(bauds); k++)
			baud_ok |= bauds[k] == baud;
		if (!baud_ok) {
			ksnprintf(err, errlen, "baud rate %llu is not one a "
				  "16550 divides 115200 into exactly",
				  (unsigned long long)baud);
			return false;
		}
		c.baud = (u32)baud;
		if (j < len) {
			if (s[j] != 'n' && s[j] != 'o' && s[j] != 'e') {
				ksnprintf(err, errlen, "'%.*s': parity must be "
					  "n, o or e", (int)len, s);
				return false;
			}
			c.parity = s[j++];
		}
		if (j < len) {
			if (j + 1 != len || s[j] < '5' || s[j] > '8') {
				ksnprintf(err, errlen, "'%.*s': data bits "
					  "must be 5..8", (int)len, s);
				return false;
			}
			c.bits = (u32)(s[j] - '0');
		}
	}
	*out = c;
	return true;
}

static bool parse_console(const struct param *p, const char *val, size_t len,
			  void *field, char *err, size_t errlen)
{
	(void)p;
	return console_spec_parse(val, len, field, err, errlen);
}

/* chunk=2M,8M,32M: a list of sizes, each a multiple of 4K. */
static bool parse_chunks(const struct param *p, const char *val, size_t len,
			 void *field, char *err, size_t errlen)
{
	struct hz_config *c = (struct hz_config *)((u8 *)field -
						   offsetof(struct hz_config, chunks));
	const char *s = val, *end = val + len, *it;
	size_t il;
	u32 n = 0;

	(void)p;
	while (list_next(&s, end, &it, &il)) {
		u64 v;

		if (n == MAX_CHUNKS) {
			ksnprintf(err, errlen, "more than %d chunk sizes", MAX_CHUNKS);
			return false;
		}
		if (!parse_size(it, il, &v) || v < SZ_4K || v % SZ_4K ||
		    v > 64 * GiB) {
			ksnprintf(err, errlen, "'%.*s' is not a size that is a "
				  "multiple of 4K, from 4K to 64G", (int)il, it);
			return false;
		}
		c->chunks[n++] = v;
	}
	c->nchunks = n;
	return true;
}

static bool parse_cpus(const struct param *p, const char *val, size_t len,
		       void *field, char *err, size_t errlen)
{
	(void)p;
	return cpulist_parse(val, len, field, err, errlen);
}

/* scale=1,2,4,all: CPUs per step, each step a set of its own. */
static bool parse_scale(const struct param *p, const char *val, size_t len,
			void *field, char *err, size_t errlen)
{
	struct hz_config *c = (struct hz_config *)((u8 *)field -
						   offsetof(struct hz_config, scale));
	const char *s = val, *end = val + len, *it;
	size_t il;
	u32 n = 0;

	(void)p;
	while (list_next(&s, end, &it, &il)) {
		u64 v;

		if (n == MAX_SCALE) {
			ksnprintf(err, errlen, "more than %d scale steps", MAX_SCALE);
			return false;
		}
		if (str_eq_n(it, il, "all"))
			v = SCALE_ALL;
		else if (!parse_u64(it, il, &v) || !v || v > CPUSET_MAX) {
			ksnprintf(err, errlen, "'%.*s' is not a number of CPUs "
				  "(1..%d) or 'all'", (int)il, it, CPUSET_MAX);
			return false;
		}
		c->scale[n++] = (u32)v;
	}
	c->nscale = n;
	return true;
}

/* prezero_n=N|all */
static bool parse_prezero_n(const struct param *p, const char *val, size_t len,
			    void *field, char *err, size_t errlen)
{
	u64 v;

	(void)p;
	if (len == 3 && memcmp(val, "all", 3) == 0) {
		*(u64 *)field = PREZERO_ALL;
		return true;
	}
	if (!parse_u64(val, len, &v) || v > PREZERO_N_MAX) {
		ksnprintf(err, errlen, "'%.*s' is not a number of folios "
			  "(0..%u) or 'all'", (int)len, val, PREZERO_N_MAX);
		return false;
	}
	*(u64 *)field = v;
	return true;
}

/* prezero_clear=same|PRIM, prezero_order=same|ORDER: one of @names. */
static bool parse_same_or(const char *const *names, const char *what,
			  const char *val, size_t len, u32 *out, char *err,
			  size_t errlen)
{
	int i;

	if (len == 4 && memcmp(val, "same", 4) == 0) {
		*out = PREZERO_SAME;
		return true;
	}
	i = choice_index(names, val, len);
	if (i < 0) {
		ksnprintf(err, errlen, "'%.*s' is not 'same' or %s", (int)len,
			  val, what);
		return false;
	}
	*out = (u32)i;
	return true;
}

static bool parse_prezero_clear(const struct param *p, const char *val,
				size_t len, void *field, char *err, size_t errlen)
{
	(void)p;
	return parse_same_or(prim_names, "a primitive (clear=)", val, len,
			     field, err, errlen);
}

static bool parse_prezero_order(const struct param *p, const char *val,
				size_t len, void *field, char *err, size_t errlen)
{
	(void)p;
	return parse_same_or(order_choice_names, "an order (order=, not linux)",
			     val, len, field, err, errlen) &&
	       (*(u32 *)field == PREZERO_SAME || *(u32 *)field < ORDER_COUNT ||
		(ksnprintf(err, errlen, "prezero_order=linux: the background "
			   "zeroer has no model to follow; name an order"), false));
}

/* pmu=none | EVENT[,EVENT...]: lib/pmu.c's names, in the order given. */
static bool parse_pmu(const struct param *p, const char *val, size_t len,
		      void *field, char *err, size_t errlen)
{
	struct hz_config *c = (struct hz_config *)((u8 *)field -
						   offsetof(struct hz_config, npmu));
	const char *s = val, *end = val + len, *it;
	size_t il;
	u32 n = 0;

	(void)p;
	if (len == 4 && memcmp(val, "none", 4) == 0) {
		c->npmu = 0;
		return true;
	}
	while (list_next(&s, end, &it, &il)) {
		int i = pmu_event_index(it, il);

		if (i < 0) {
			char names[128];
			size_t pos = 0;

			for (u32 k = 0; k < pmu_nevents && pos < sizeof(names); k++)
				pos += ksnprintf(names + pos, sizeof(names) - pos,
						 "%s%s", k ? "," : "",
						 pmu_events[k].name);
			/* the whole list must fit CMDLINE_ERR_LEN */
			ksnprintf(err, errlen, "'%.*s' unknown (%s or none)",
				  il > 16 ? 16 : (int)il, it, names);
			return false;
		}
		for (u32 k = 0; k < n; k++)
			if (c->pmu[k] == i) {
				ksnprintf(err, errlen, "event '%s' listed twice",
					  pmu_events[i].name);
				return false;
			}
		c->pmu[n++] = (u8)i;
	}
	c->npmu = n;
	return true;
}

#define F(x) offsetof(struct hz_config, x)

const struct param hz_params[] = {
	{ "console", P_CUSTOM, F(console), NULL, 0, 0, parse_console,
	  "console=auto|ttyS0..3[,baud[n|o|e][5-8]]", NULL },
	{ "exit", P_ENUM, F(exit), exit_names, 0, 0, NULL,
	  "exit=auto|qemu|halt|reboot", NULL },
	{ "selftest", P_BOOL, F(selftest), NULL, 0, 0, NULL,
	  "selftest=on|off", NULL },
	{ "crash", P_ENUM, F(crash), crash_names, 0, 0, NULL,
	  "crash=none|pf|ud|gp|de|stack|hang|hang-irq|hold-console", NULL },
	{ "calib_ms", P_U64, F(calib_ms), NULL, 1, 1000, NULL,
	  "calib_ms=1..1000", NULL },
	{ "tsc_tolerance_ppm", P_U64, F(tsc_tolerance_ppm), NULL, 1, 1000000,
	  NULL, "tsc_tolerance_ppm=1..1000000", NULL },
	{ "deadline_s", P_U64, F(deadline_s), NULL, 0, 1000000000, NULL,
	  "deadline_s=0..1000000000 (0: none)", NULL },
	{ "tsc_skew_ns", P_U64, F(tsc_skew_ns), NULL, 0, 1000000, NULL,
	  "tsc_skew_ns=0..1000000", NULL },
	{ "ap_fail", P_U64, F(ap_fail), NULL, 1, CPUSET_MAX - 1, NULL,
	  "ap_fail=1..1023 (test-only)", NULL },
	{ "hang_cpu", P_U64, F(hang_cpu), NULL, 0, CPUSET_MAX - 1, NULL,
	  "hang_cpu=0..1023 (test-only)", NULL },
	{ "preset", P_ENUM, F(preset), preset_names, 0, 0, NULL,
	  "preset=none|seed-000|seed-001|seed-002 (docs/reproducing.md)", NULL },
	{ "bench", P_ENUM, F(bench), bench_names, 0, 0, NULL,
	  "bench=none|fault|info (kernel), bare|linux-fault|split (companion)", NULL },
	{ "folio", P_ENUM_LIST, F(folios), folio_names, 0, 0, NULL,
	  "folio=4K,2M,1G|all", NULL },
	{ "clear", P_ENUM_LIST, F(prims), prim_names, 0, 0, NULL, NULL, NULL },
	{ "order", P_ENUM_LIST, F(orders), order_choice_names, 0,
	  (1ULL << ORDER_COUNT) - 1, NULL, NULL, NULL },
	{ "size", P_SIZE, F(size), NULL, SZ_4K, 64 * 1024 * GiB, NULL,
	  "size=4K..64T", NULL },
	{ "clamp", P_BOOL, F(clamp), NULL, 0, 0, NULL, "clamp=on|off", NULL },
	{ "runs", P_U64, F(runs), NULL, 1, 1000, NULL, "runs=1..1000", NULL },
	{ "warmups", P_U64, F(warmups), NULL, 0, 100, NULL, "warmups=0..100", NULL },
	{ "chunk", P_CUSTOM, F(chunks), NULL, 0, 0, parse_chunks,
	  "chunk=SIZE[,SIZE...] (multiples of 4K)", NULL },
	{ "radius", P_U64, F(radius), NULL, 0, 262143, NULL,
	  "radius=0..262143 (pages)", NULL },
	{ "touch", P_ENUM, F(touch), touch_names, 0, 0, NULL,
	  "touch=seq|reverse|random", NULL },
	{ "offset", P_ENUM, F(offset), offset_names, 0, 0, NULL,
	  "offset=first|middle|last|random", NULL },
	{ "access", P_ENUM, F(access), access_names, 0, 0, NULL,
	  "access=none|write|read", NULL },
	{ "cache", P_ENUM, F(cache), cache_names, 0, 0, NULL,
	  "cache=cold|warm|wbinvd", cache_aliases },
	{ "pte", P_ENUM, F(pte), pte_names, 0, 0, NULL, "pte=linux|clean", NULL },
	{ "verify", P_ENUM, F(verify), verify_names, 0, 0, NULL,
	  "verify=full|sample", NULL },
	{ "samples", P_ENUM, F(samples), samples_names, 0, 0, NULL,
	  "samples=all|none", NULL },
	{ "inject", P_ENUM, F(inject), inject_names, 0, 0, NULL,
	  "inject=none|skip-line|wrong-pa|mark-zeroed|overrun", NULL },
	{ "inject_lines", P_U64, F(inject_lines), NULL, 1, INJECT_MAX_LINES,
	  NULL, "inject_lines=1..4096", NULL },
	{ "cpl", P_ENUM, F(cpl), cpl_names, 0, 0, NULL, "cpl=0|3", NULL },
	{ "seed", P_U64, F(seed), NULL, 0, ~0ULL, NULL, "seed=NUMBER", NULL },
	{ "preempt", P_ENUM_LIST, F(preempts), preempt_names, 0, 0, NULL,
	  NULL, NULL },
	{ "hz", P_U64, F(hz), NULL, 100, 1000, NULL, "hz=100|250|1000", NULL },
	{ "probe", P_ENUM, F(probe), probe_names, 0, 0, NULL,
	  "probe=none|latency", NULL },
	{ "probe_us", P_U64, F(probe_us), NULL, 10, 1000000, NULL,
	  "probe_us=10..1000000", NULL },
	{ "probe_class", P_ENUM, F(probe_class), probe_class_names, 0, 0, NULL,
	  "probe_class=normal|rt", NULL },
	{ "cpus", P_CUSTOM, F(cpus), NULL, 0, 0, parse_cpus,
	  "cpus=CPULIST (0-3,8; 0-15:2/4)|all", NULL },
	{ "scale", P_CUSTOM, F(scale), NULL, 0, 0, parse_scale,
	  "scale=N[,N...] (CPUs per step; 'all')", NULL },
	{ "numa", P_ENUM, F(numa), numa_names, 0, 0, NULL,
	  "numa=local|remote|interleave", NULL },
	{ "prezero", P_ENUM_LIST, F(prezeros), prezero_names, 0, 0, NULL,
	  "prezero=none,request,idle,dedicated,on-free|all", NULL },
	{ "prezero_n", P_CUSTOM, F(prezero_n), NULL, 0, 0, parse_prezero_n,
	  "prezero_n=N|all", NULL },
	{ "prezero_clear", P_CUSTOM, F(prezero_clear), NULL, 0, 0,
	  parse_prezero_clear, "prezero_clear=same|PRIMITIVE", NULL },
	{ "prezero_order", P_CUSTOM, F(prezero_order), NULL, 0, 0,
	  parse_prezero_order, "prezero_order=same|ORDER", NULL },
	{ "prezero_cpu", P_U64, F(prezero_cpu), NULL, 0, CPUSET_MAX - 1, NULL,
	  "prezero_cpu=0..1023", NULL },
	{ "prezero_low", P_U64, F(prezero_low), NULL, 0, 100, NULL,
	  "prezero_low=0..100 (% of the pool)", NULL },
	{ "prezero_high", P_U64, F(prezero_high), NULL, 1, 100, NULL,
	  "prezero_high=1..100 (% of the pool)", NULL },
	{ "prezero_idle_ms", P_U64, F(prezero_idle_ms), NULL, 0, 100000, NULL,
	  "prezero_idle_ms=0..100000", NULL },
	{ "prezero_pool", P_ENUM, F(prezero_pool), prezero_pool_names, 0, 0,
	  NULL, "prezero_pool=shared|apart", NULL },
	{ "pmu", P_CUSTOM, F(npmu), NULL, 0, 0, parse_pmu,
	  "pmu=none|EVENT[,EVENT...] (instructions, cycles, ...)", NULL },
	{ "cpu", P_U64, F(cpu), NULL, 0, CPU_AUTO - 1, NULL, "cpu=0..4095", NULL },
	{ "backing", P_ENUM_LIST, F(backings), backing_names, 0, 0, NULL,
	  "backing=hugetlb,thp,base|all", NULL },
};

const size_t hz_nparams = ARRAY_SIZE(hz_params);

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
	c->warmups = 1;
	c->nchunks = 1;
	c->chunks[0] = LINUX_BATCH;
	c->radius = LINUX_RADIUS;
	c->cpl = 1;			/* index of "3" in cpl_names */
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

static bool is_bench_key(const char *key)
{
	static const char *const keys[] = {
		"folio", "clear", "order", "size", "clamp", "runs", "warmups", "chunk",
		"radius", "touch", "offset", "access", "cache", "verify",
		"samples", "inject", "inject_lines", "cpl", "seed", "backing",
		"pte", "preempt", "hz", "probe", "probe_us", "probe_class", "cpus", "scale",
		"numa", "prezero", "prezero_n", "prezero_clear", "prezero_order",
		"prezero_cpu", "prezero_low", "prezero_high", "prezero_idle_ms",
		"prezero_pool", "pmu", "hang_cpu", NULL,
	};

	return choice_index(keys, key, strlen(key)) >= 0;
}

static void refuse(struct cmdline_result *res, const char *fmt, ...)
	__printf(2, 3);

static void refuse(struct cmdline_result *res, const char *fmt, ...)
{
	va_list ap;

	if (res->nerrors < CMDLINE_MAX_ERRORS) {
		va_start(ap, fmt);
		kvsnprintf(res->errors[res->nerrors], CMDLINE_ERR_LEN, fmt, ap);
		va_end(ap);
	}
	res->nerrors++;
}

static bool given(const struct cmdline_result *res, const char *key)
{
	for (size_t i = 0; i < hz_nparams; i++)
		if (strcmp(hz_params[i].key, key) == 0)
			return res->given & (1ULL << i);
	return false;
}

bool config_given(const struct cmdline_result *res, const char *key)
{
	return given(res, key);
}

bool config_check_target(const struct hz_config *c, struct cmdline_result *res,
			 bool companion)
{
	static const char *const kernel_only[] = {
		"console", "exit", "selftest", "crash", "calib_ms",
		"tsc_tolerance_ppm", "tsc_skew_ns", "ap_fail", "hang_cpu",
		"deadline_s",
		"cpl", "inject",
		"inject_lines", "pte", "clamp",
		"preempt", "hz", NULL,
	};
	static const char *const companion_only[] = { "cpu", "backing", NULL };
	const char *const *keys = companion ? kernel_only : companion_only;
	u32 before = res->nerrors;

	for (u32 i = 0; keys[i]; i++)
		if (given(res, keys[i]))
			refuse(res, "key '%s' has no meaning in %s", keys[i],
			       companion ? "the Linux companion (it is a kernel key)"
					 : "the kernel (it is for build/hugezero-linux)");
	if (companion && (c->bench == BENCH_NONE || c->bench == BENCH_FAULT ||
			  c->bench == BENCH_INFO))
		refuse(res, "bench=%s runs in the kernel; the companion runs "
		       "bench=bare, bench=linux-fault or bench=split",
		       bench_names[c->bench]);
	if (!companion && c->bench != BENCH_NONE && c->bench != BENCH_FAULT &&
	    c->bench != BENCH_INFO)
		refuse(res, "bench=%s runs in the Linux companion "
		       "(build/hugezero-linux); the kernel runs bench=fault or "
		       "bench=info", bench_names[c->bench]);
	if (!companion && c->probe != PROBE_NONE && !c->preempts)
		refuse(res, "probe=%s needs a scheduling model to run beside the "
		       "workload: add preempt=none,voluntary,full,lazy or some "
		       "of them", probe_names[c->probe]);
	if (companion && c->prezeros & ~((1ULL << PREZERO_NONE) |
					 (1ULL << PREZERO_REQUEST)))
		refuse(res, "prezero=idle, dedicated and on-free are the "
		       "kernel's; the companion runs prezero=none,request, "
		       "request through Linux's zeroable_hugepages");
	if (companion && c->prezeros && c->bench != BENCH_LINUX_FAULT)
		refuse(res, "prezero= in the companion drives Linux's "
		       "zeroable_hugepages: bench=linux-fault");
	if (companion && c->cache == CACHE_WBINVD)
		refuse(res, "cache=wbinvd needs ring 0; the companion can do "
		       "cache=cold (CLFLUSHOPT/CLFLUSH over the region)");
	return res->nerrors == before;
}

bool config_check(const struct hz_config *c, struct cmdline_result *res)
{
	u32 before = res->nerrors;

	if (c->bench == BENCH_NONE) {
		for (size_t i = 0; i < hz_nparams; i++)
			if ((res->given & (1ULL << i)) &&
			    is_bench_key(hz_params[i].key))
				refuse(res, "key '%s' is a benchmark key, but no "
				       "bench= was given (bench=fault)",
				       hz_params[i].key);
		return res->nerrors == before;
	}
	if (c->prezero_low >= c->prezero_high)
		refuse(res, "prezero_low=%llu must be below prezero_high=%llu",
		       (unsigned long long)c->prezero_low,
		       (unsigned long long)c->prezero_high);
	if (given(res, "cpu") && given(res, "cpus"))
		refuse(res, "cpu= pins one process; cpus= runs one per CPU: "
		       "give one of them");
	if (c->hz != 100 && c->hz != 250 && c->hz != 1000)
		refuse(res, "hz=%llu: the tick is 100, 250 or 1000 Hz",
		       (unsigned long long)c->hz);
	for (u32 f = 0; f < FOLIO_COUNT; f++) {
		if (!(c->folios & (1ULL << f)))
			continue;
		if (c->size < folio_bytes[f] || c->size % folio_bytes[f])
			refuse(res, "size=%lluK is not a whole number of %s "
			       "folios", (unsigned long long)(c->size >> 10),
			       folio_names[f]);
	}
	return res->nerrors == before;
}

bool config_parse_target(const char *line, struct hz_config *c,
			 struct cmdline_result *res, bool companion)
{
	const char *own = cmdline_skip_image_path(line);
	bool ok = cmdline_parse(own, hz_params, hz_nparams, c, res);
	struct cmdline_result pre;
	u32 id = c->preset;

	if (ok && id != PRESET_NONE) {
		/* The line again over the preset's keys: the line's win. */
		bool keys_ok;

		config_defaults(c);
		keys_ok = cmdline_parse(preset_keys(id, companion), hz_params,
					hz_nparams, c, &pre);
		ok = cmdline_parse(own, hz_params, hz_nparams, c, res);
		if (!keys_ok) {
			refuse(res, "preset=%s: its own keys are refused (%s): "
			       "a bug in lib/preset.c", preset_names[id],
			       pre.errors[0]);
			ok = false;
		}
	}
	return config_check(c, res) && ok;
}

bool config_parse(const char *line, struct hz_config *c,
		  struct cmdline_result *res)
{
	return config_parse_target(line, c, res, false);
}

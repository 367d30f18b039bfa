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
const char *const boost_names[] = { "firmware", "off", "on", NULL };
const char *const verify_names[] = { "full", "sample", NULL };
const char *const samples_names[] = { "all", "none", NULL };
const char *const inject_names[] = { "none", "skip-line", "wrong-pa",
				     "mark-zeroed", "overrun", NULL };
/* Numbers that must be one of these: parse_u64_choice() keeps the number. */
static const char *const cpl_choices[] = { "0", "3", NULL };
static const char *const hz_choices[] = { "100", "250", "1000", NULL };
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
/*
 * A comma list of at most @max values, each read by @one (which says
 * what is wrong with a bad one in @err), into @out; their count in *@n.
 */
static bool parse_list(const char *val, size_t len, u64 *out, u32 max, u32 *n,
		       const char *what,
		       bool (*one)(const char *it, size_t il, u64 *v),
		       const char *bad, char *err, size_t errlen)
{
	const char *s = val, *end = val + len, *it;
	size_t il;

	*n = 0;
	while (list_next(&s, end, &it, &il)) {
		if (*n == max) {
			ksnprintf(err, errlen, "more than %u %s", max, what);
			return false;
		}
		if (!one(it, il, &out[*n])) {
			ksnprintf(err, errlen, "'%.*s' is not %s", (int)il, it,
				  bad);
			return false;
		}
		(*n)++;
	}
	return true;
}

static bool one_chunk(const char *it, size_t il, u64 *v)
{
	return parse_size(it, il, v) && *v >= SZ_4K && !(*v % SZ_4K) &&
	       *v <= 64 * GiB;
}

static bool parse_chunks(const struct param *p, const char *val, size_t len,
			 void *field, char *err, size_t errlen)
{
	struct hz_config *c = (struct hz_config *)((u8 *)field -
						   offsetof(struct hz_config, chunks));

	(void)p;
	return parse_list(val, len, c->chunks, MAX_CHUNKS, &c->nchunks,
			  "chunk sizes", one_chunk, "a size that is a multiple "
			  "of 4K, from 4K to 64G", err, errlen);
}

static bool parse_cpus(const struct param *p, const char *val, size_t len,
		       void *field, char *err, size_t errlen)
{
	(void)p;
	return cpulist_parse(val, len, field, err, errlen);
}

/* scale=1,2,4,all: CPUs per step, each step a set of its own. */
static bool one_scale(const char *it, size_t il, u64 *v)
{
	if (str_eq_n(it, il, "all")) {
		*v = SCALE_ALL;
		return true;
	}
	return parse_u64(it, il, v) && *v && *v <= CPUSET_MAX;
}

static bool parse_scale(const struct param *p, const char *val, size_t len,
			void *field, char *err, size_t errlen)
{
	struct hz_config *c = (struct hz_config *)((u8 *)field -
						   offsetof(struct hz_config, scale));
	char bad[48];

	(void)p;
	ksnprintf(bad, sizeof(bad), "a number of CPUs (1..%d) or 'all'",
		  CPUSET_MAX);
	return parse_list(val, len, c->scale, MAX_SCALE, &c->nscale,
			  "scale steps", one_scale, bad, err, errlen);
}

/* msr_gp=0xc0011029,0x8b: MSR numbers, each 32 bits. */
static bool one_msr(const char *it, size_t il, u64 *v)
{
	return parse_u64(it, il, v) && *v <= 0xffffffffULL;
}

static bool parse_msr_gp(const struct param *p, const char *val, size_t len,
			 void *field, char *err, size_t errlen)
{
	struct hz_config *c = (struct hz_config *)((u8 *)field -
						   offsetof(struct hz_config, msr_gp));

	(void)p;
	return parse_list(val, len, c->msr_gp, MSR_GP_MAX, &c->nmsr_gp,
			  "MSRs", one_msr, "an MSR number (0..0xffffffff)",
			  err, errlen);
}

/* One of p->choices, all numbers: the number itself, not its index. */
static bool parse_u64_choice(const struct param *p, const char *val,
			     size_t len, void *field, char *err, size_t errlen)
{
	int i = choice_index(p->choices, val, len);
	size_t pos;

	if (i < 0) {
		pos = (size_t)ksnprintf(err, errlen, "'%.*s' is not one of ",
					(int)len, val);
		for (i = 0; p->choices[i] && pos < errlen; i++)
			pos += (size_t)ksnprintf(err + pos, errlen - pos, "%s%s",
						 i ? "|" : "", p->choices[i]);
		return false;
	}
	return parse_u64(p->choices[i], strlen(p->choices[i]), field);
}

/* runs=N|auto: a number of measured passes, or until precision= */
static bool parse_runs(const struct param *p, const char *val, size_t len,
		       void *field, char *err, size_t errlen)
{
	struct hz_config *c = (struct hz_config *)((u8 *)field -
						   offsetof(struct hz_config, runs));
	u64 v;

	(void)p;
	if (str_eq_n(val, len, "auto")) {
		c->runs_auto = true;
		return true;
	}
	if (!parse_u64(val, len, &v) || v < 1 || v > BENCH_RUNS_MAX) {
		ksnprintf(err, errlen, "'%.*s' is not a number of runs "
			  "(1..%u) or 'auto'", (int)len, val, BENCH_RUNS_MAX);
		return false;
	}
	c->runs = v;
	c->runs_auto = false;
	return true;
}

/*
 * precision=5, 5%, 2.5: a percentage of the mean with at most two
 * decimals, kept x 100 (the kernel has no floating point).
 */
static bool parse_precision(const struct param *p, const char *val,
			    size_t len, void *field, char *err, size_t errlen)
{
	u64 v = 0;
	size_t i = 0, dec = 0;
	bool dot = false, digits = false;

	(void)p;
	if (len && val[len - 1] == '%')
		len--;
	for (; i < len; i++) {
		if (val[i] == '.' && !dot) {
			dot = true;
			continue;
		}
		if (val[i] < '0' || val[i] > '9' || dec == 2 || v > 100000)
			break;
		v = v * 10 + (u64)(val[i] - '0');
		digits = true;
		dec += dot;
	}
	for (; dec < 2; dec++)
		v *= 10;
	if (i < len || !digits || v < 1 || v > 10000) {
		ksnprintf(err, errlen, "'%.*s' is not a percentage of the "
			  "mean from 0.01 to 100 (5, 5%%, 2.5)", (int)len, val);
		return false;
	}
	*(u64 *)field = v;
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
			return cmdline_given(res, i);
	return false;
}

bool config_given(const struct cmdline_result *res, const char *key)
{
	return given(res, key);
}

bool config_check_target(const struct hz_config *c, struct cmdline_result *res,
			 bool companion)
{
	enum param_scope other = companion ? PARAM_KERNEL : PARAM_COMPANION;
	u32 before = res->nerrors;

	for (size_t i = 0; i < hz_nparams; i++)
		if (hz_params[i].scope == other && cmdline_given(res, i))
			refuse(res, "key '%s' has no meaning in %s",
			       hz_params[i].key, companion ?
			       "the Linux companion (it is a kernel key)" :
			       "the kernel (it is for build/hugezero-linux)");
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

/* precision=, max_runs=, budget_s= say when runs=auto stops: alone, they
 * would be silently ignored. */
static void check_auto(const struct hz_config *c, struct cmdline_result *res)
{
	static const char *const keys[] = { "precision", "max_runs", "budget_s" };

	for (u32 i = 0; i < ARRAY_SIZE(keys); i++)
		if (!c->runs_auto && given(res, keys[i]))
			refuse(res, "%s= says when runs=auto stops; with runs=%llu "
			       "it means nothing: give runs=auto, or leave it out",
			       keys[i], (unsigned long long)c->runs);
	/* Each CPU of a group would stop at its own round while the others
	 * wait for it at the pass's barrier. */
	if (c->runs_auto && (c->nscale || cpu_set_count(&c->cpus, 2) > 1))
		refuse(res, "runs=auto runs one CPU at a time for now: with "
		       "cpus= of more than one CPU or scale=, give runs=N");
}

bool config_check(const struct hz_config *c, struct cmdline_result *res)
{
	u32 before = res->nerrors;

	if (c->bench == BENCH_NONE) {
		for (size_t i = 0; i < hz_nparams; i++)
			if (cmdline_given(res, i) && hz_params[i].bench)
				refuse(res, "key '%s' is a benchmark key, but no "
				       "bench= was given (bench=fault)",
				       hz_params[i].key);
		return res->nerrors == before;
	}
	if (c->prezero_low >= c->prezero_high)
		refuse(res, "prezero_low=%llu must be below prezero_high=%llu",
		       (unsigned long long)c->prezero_low,
		       (unsigned long long)c->prezero_high);
	check_auto(c, res);
	if (given(res, "cpu") && given(res, "cpus"))
		refuse(res, "cpu= pins one process; cpus= runs one per CPU: "
		       "give one of them");
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

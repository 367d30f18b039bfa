// SPDX-License-Identifier: GPL-2.0-only
/*
 * The values of hz_params[]'s P_CUSTOM keys: what the generic types of
 * lib/cmdline.c cannot say (a console, lists of sizes, runs=auto, ...).
 */
#include <stddef.h>
#include "lib/format.h"
#include "lib/order.h"
#include "lib/params.h"
#include "lib/params_parse.h"
#include "lib/prims.h"
#include "lib/string.h"

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

bool parse_console(const struct param *p, const char *val, size_t len,
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

bool parse_chunks(const struct param *p, const char *val, size_t len,
			 void *field, char *err, size_t errlen)
{
	struct hz_config *c = (struct hz_config *)((u8 *)field -
						   offsetof(struct hz_config, chunks));

	(void)p;
	return parse_list(val, len, c->chunks, MAX_CHUNKS, &c->nchunks,
			  "chunk sizes", one_chunk, "a size that is a multiple "
			  "of 4K, from 4K to 64G", err, errlen);
}

bool parse_cpus(const struct param *p, const char *val, size_t len,
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

bool parse_scale(const struct param *p, const char *val, size_t len,
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

bool parse_msr_gp(const struct param *p, const char *val, size_t len,
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
bool parse_u64_choice(const struct param *p, const char *val,
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
bool parse_runs(const struct param *p, const char *val, size_t len,
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
bool parse_precision(const struct param *p, const char *val,
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
bool parse_prezero_n(const struct param *p, const char *val, size_t len,
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

bool parse_prezero_clear(const struct param *p, const char *val,
				size_t len, void *field, char *err, size_t errlen)
{
	(void)p;
	return parse_same_or(prim_names, "a primitive (clear=)", val, len,
			     field, err, errlen);
}

bool parse_prezero_order(const struct param *p, const char *val,
				size_t len, void *field, char *err, size_t errlen)
{
	u32 *o = field;

	(void)p;
	if (!parse_same_or(order_choice_names, "an order (order=, not linux or "
			   "tree)", val, len, field, err, errlen))
		return false;
	if (*o == PREZERO_SAME || *o < ORDER_COUNT)
		return true;
	/* Each refused choice names itself and why. */
	if (*o == ORDER_TREE)
		ksnprintf(err, errlen, "prezero_order=tree: the background "
			  "zeroer runs hugezero's planner, not a tree's "
			  "folio_zero_user(); name an order");
	else
		ksnprintf(err, errlen, "prezero_order=linux: the background "
			  "zeroer has no model to follow; name an order");
	return false;
}

/* pmu=none | EVENT[,EVENT...]: lib/pmu.c's names, in the order given. */
bool parse_pmu(const struct param *p, const char *val, size_t len,
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

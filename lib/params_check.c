// SPDX-License-Identifier: GPL-2.0-only
/*
 * The whole line: config_parse() with preset= expanded, and the checks
 * across keys (combinations that make no sense, the other program's
 * keys) that one key's parser cannot make.
 */
#include <stdarg.h>
#include "lib/format.h"
#include "lib/params.h"
#include "lib/preset.h"
#include "lib/string.h"
#include "lib/tree.h"

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

/* The bench= kinds of @side, as a message names them: "bench=bare,
 * bench=linux-fault or bench=split". */
static void bench_kinds_of(enum param_scope side, char *buf, size_t n)
{
	size_t pos = 0;
	u32 have = 0, left = 0;

	for (u32 b = 0; b < BENCH_KIND_COUNT; b++)
		left += bench_kinds[b].side == side && b != BENCH_NONE;
	buf[0] = '\0';
	for (u32 b = 0; b < BENCH_KIND_COUNT && pos < n; b++) {
		if (bench_kinds[b].side != side || b == BENCH_NONE)
			continue;
		pos += (size_t)ksnprintf(buf + pos, n - pos, "%sbench=%s",
					 !have ? "" : have + 1 == left ? " or " : ", ",
					 bench_names[b]);
		have++;
	}
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
	if (bench_kinds[c->bench].side != (companion ? PARAM_COMPANION :
					   PARAM_KERNEL)) {
		char theirs[96];

		bench_kinds_of(companion ? PARAM_COMPANION : PARAM_KERNEL,
			       theirs, sizeof(theirs));
		refuse(res, "bench=%s runs in %s; %s runs %s",
		       bench_names[c->bench], companion ? "the kernel" :
		       "the Linux companion (build/hugezero-linux)",
		       companion ? "the companion" : "the kernel", theirs);
	}
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
	if (companion && c->bench == BENCH_LINUX_FAULT &&
	    (given(res, "rethunk") || given(res, "rethunk_count")))
		refuse(res, "rethunk= picks how hugezero's own primitives "
		       "return; bench=linux-fault clears with Linux's, which "
		       "return through whatever thunk the running kernel uses");
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
}

/* split_runs= counts the split's paired rounds: elsewhere it would be
 * ignored, and runs=auto decides its own rounds. */
static void check_split_runs(const struct hz_config *c,
			     struct cmdline_result *res)
{
	if (!given(res, "split_runs"))
		return;
	if (c->bench != BENCH_SPLIT)
		refuse(res, "split_runs= counts the rounds that pair Linux's "
		       "fault with the bare clearing in bench=split; with "
		       "bench=%s it means nothing", bench_names[c->bench]);
	else if (c->runs_auto)
		refuse(res, "split_runs= with runs=auto: runs=auto decides "
		       "every group's rounds; give runs=N, or leave "
		       "split_runs= out");
	else if (!c->interleave || given(res, "cpus") ||
		 (c->prezeros && !(c->prezeros >> PREZERO_NONE & 1)))
		refuse(res, "split_runs= counts the rounds of the group a fault "
		       "leads, which only bench=split with interleave=on, no "
		       "cpus= and prezero=none runs: here no fault leads one");
}

/* inject_cpu= says where inject= plants: alone, it would plant nothing. */
static void check_inject_cpu(const struct hz_config *c,
			     struct cmdline_result *res)
{
	if (given(res, "inject_cpu") && c->inject == INJECT_NONE)
		refuse(res, "inject_cpu= says which CPUs inject= plants on; "
		       "with inject=none it means nothing: give inject=, or "
		       "leave it out");
}

/* A list records could not keep whole: refused now, not cut later. */
static void check_cpulist(const struct hz_config *c, struct cmdline_result *res)
{
	char text[CPULIST_TEXT_MAX + 1];
	int len = cpulist_format(&c->cpus, text, sizeof(text));

	if (len > CPULIST_TEXT_MAX)
		refuse(res, "cpus= lists its CPUs in %d characters, more than "
		       "the %d records keep: give fewer CPUs, or runs of "
		       "consecutive ones (N-M)", len, CPULIST_TEXT_MAX);
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
	check_split_runs(c, res);
	check_inject_cpu(c, res);
	if (c->orders >> ORDER_TREE & 1 && !tree_zero)
		refuse(res, "order=tree runs a Linux tree's own folio_zero_user(), "
		       "and this build has none: build with make LINUX=DIR, "
		       "DIR a tree with mm/memory.c (docs/linux-tree.md)");
	if (given(res, "cpu") && given(res, "cpus"))
		refuse(res, "cpu= pins one process; cpus= runs one per CPU: "
		       "give one of them");
	check_cpulist(c, res);
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

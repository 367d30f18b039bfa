// SPDX-License-Identifier: GPL-2.0-only
/*
 * The self-test runner: prints KTAP onto the console.  The list of suites
 * is explicit, in the order the machine comes up, so a failure in an
 * early layer is reported before the layers that depend on it.
 */
#include <stdarg.h>
#include "kernel/console.h"
#include "kernel/selftest/selftest.h"
#include "lib/format.h"
#include "lib/string.h"

extern const struct tsuite suite_boot, suite_cmdline, suite_cpu,
	suite_memmap, suite_frame, suite_numa, suite_paging, suite_traps,
	suite_simd, suite_tsc, suite_timer, suite_pte, suite_fpu, suite_sched;

static const struct tsuite *const suites[] = {
	&suite_boot, &suite_cmdline, &suite_cpu, &suite_memmap, &suite_frame,
	&suite_numa, &suite_paging, &suite_traps, &suite_simd, &suite_tsc,
	&suite_timer, &suite_pte, &suite_fpu, &suite_sched,
};

static struct ktap ktap;
static struct tctx *current;
static const struct tsuite *current_suite;

static void emit(void *ctx, const char *line)
{
	(void)ctx;
	console_write(line, strlen(line));
}

bool check_at(struct tctx *t, bool cond, const char *file, int line,
	      const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	if (cond)
		return true;
	va_start(ap, fmt);
	kvsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ktap_diag(t->k, "%s: %s (%s:%d)", t->name, msg, file, line);
	t->failed++;
	return false;
}

void skip(struct tctx *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kvsnprintf(t->skip_reason, sizeof(t->skip_reason), fmt, ap);
	va_end(ap);
	t->skipped = true;
}

void note(struct tctx *t, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	kvsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ktap_diag(t->k, "%s: %s", t->name, msg);
}

static enum ktap_status run_suite(struct ktap *k, const struct tsuite *s)
{
	u32 fails = 0, skips = 0;

	current_suite = s;
	ktap_subtest_start(k, s->name, s->ncases);
	for (u32 i = 0; i < s->ncases; i++) {
		struct tctx t = { k, s->cases[i].name, 0, false, "" };
		enum ktap_status st;

		current = &t;
		s->cases[i].fn(&t);
		current = NULL;
		st = t.failed ? KTAP_FAIL : t.skipped ? KTAP_SKIP : KTAP_OK;
		fails += st == KTAP_FAIL;
		skips += st == KTAP_SKIP;
		ktap_result(k, st, t.name, t.skip_reason);
	}
	ktap_subtest_end(k, s->name, fails ? KTAP_FAIL :
			 skips == s->ncases ? KTAP_SKIP : KTAP_OK);
	current_suite = NULL;
	return fails ? KTAP_FAIL : KTAP_OK;
}

struct ktap *ktap_console_start(u32 plan)
{
	ktap_init(&ktap, emit, NULL);
	ktap_start(&ktap, plan);
	return &ktap;
}

u32 selftest_suites(void)
{
	return ARRAY_SIZE(suites);
}

void selftest_run(struct ktap *k)
{
	for (u32 i = 0; i < ARRAY_SIZE(suites); i++)
		run_suite(k, suites[i]);
}

void selftest_abort_current(void)
{
	if (!current)
		return;
	ktap_result(&ktap, KTAP_FAIL, current->name, NULL);
	ktap_diag(&ktap, "stopped inside %s.%s by an unexpected exception",
		  current_suite ? current_suite->name : "?", current->name);
	current = NULL;
}

/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_SELFTEST_H
#define KERNEL_SELFTEST_H

#include "lib/ktap.h"
#include "lib/types.h"

/*
 * Boot self-tests, in the shape of kvm-unit-tests and KUnit: suites of
 * cases, each case a function that checks things and may skip with a
 * reason.  A case passes when none of its checks failed.
 */
struct tctx {
	struct ktap *k;
	const char *name;
	u32 failed;
	bool skipped;
	char skip_reason[96];
};

struct tcase {
	const char *name;
	void (*fn)(struct tctx *t);
};

struct tsuite {
	const char *name;
	const struct tcase *cases;
	u32 ncases;
};

#define SUITE(sym, nm, ...)						\
	static const struct tcase sym##_cases[] = { __VA_ARGS__ };	\
	const struct tsuite sym = { nm, sym##_cases,			\
				    ARRAY_SIZE(sym##_cases) }

/* Record a failed check (with file:line) unless @cond holds; returns @cond. */
bool check_at(struct tctx *t, bool cond, const char *file, int line,
	      const char *fmt, ...) __printf(5, 6);
#define check(t, cond, ...) check_at(t, cond, __FILE__, __LINE__, __VA_ARGS__)
void skip(struct tctx *t, const char *fmt, ...) __printf(2, 3);
void note(struct tctx *t, const char *fmt, ...) __printf(2, 3);

/* The KTAP stream on the console; prints the header with @plan. */
struct ktap *ktap_console_start(u32 plan);
/* Number of self-test suites (top-level KTAP results they add). */
u32 selftest_suites(void);
void selftest_run(struct ktap *k);
/* Report a fatal error inside the running case (trap fatal hook). */
void selftest_abort_current(void);

#endif

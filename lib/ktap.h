/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_KTAP_H
#define LIB_KTAP_H

#include "lib/types.h"

/*
 * A KTAP version 1 writer (Documentation/dev-tools/ktap.rst): the format
 * of the Linux kernel's KUnit and kselftest, so that existing tooling
 * (kunit.py parse, CI log scrapers) and our own harness read it alike.
 * Suites are subtests, indented four spaces per level.
 */

enum ktap_status { KTAP_OK, KTAP_FAIL, KTAP_SKIP };

#define KTAP_MAX_DEPTH 4
#define KTAP_LINE 256

struct ktap {
	void (*emit)(void *ctx, const char *line);	/* gets one line + '\n' */
	void *ctx;
	u32 depth;
	u32 next[KTAP_MAX_DEPTH];	/* number of the next result per level */
	u32 pass, fail, skip;		/* leaf results only */
	char names[KTAP_MAX_DEPTH][64];	/* of the open subtests, by depth */
};

void ktap_init(struct ktap *k, void (*emit)(void *, const char *), void *ctx);
void ktap_start(struct ktap *k, u32 plan);
void ktap_subtest_start(struct ktap *k, const char *name, u32 plan);
void ktap_subtest_end(struct ktap *k, const char *name, enum ktap_status st);
void ktap_result(struct ktap *k, enum ktap_status st, const char *name,
		 const char *reason);
void ktap_diag(struct ktap *k, const char *fmt, ...) __printf(2, 3);
/* The run stops here (deadline, fatal error): every open subtest ends
 * failed, then a failed top-level result @name, so that no parser reads
 * the stream as passed. */
void ktap_abort(struct ktap *k, const char *name);

#endif

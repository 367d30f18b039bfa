/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_SERIES_H
#define LIB_SERIES_H

#include "lib/types.h"

/*
 * Is a configuration's series of passes summed up by its mean?  The two
 * flags of docs/statistics.md ("Series a mean hides"), in integers (the
 * kernel has no floating point), exactly as scripts/hzlib/series.py
 * defines them; tests/host/test_series.c holds this file to it.
 *
 *   drift    Mann–Kendall's S and p < 0.01 (two-sided): exact without
 *            ties up to SERIES_EXACT_MAX passes, else the normal
 *            approximation with the tie-corrected variance; needs
 *            SERIES_DRIFT_MIN passes.
 *   bimodal  the gap test's best separation of the sorted passes split
 *            in two, over G(n) = 3 + 36/n; needs SERIES_BIMODAL_MIN.
 *
 * A series is each measured pass's GiB/s in any fixed unit (the
 * runner's: x 10⁶), in the order the passes ran.
 */
#define SERIES_DRIFT_MIN 6
#define SERIES_BIMODAL_MIN 8
#define SERIES_EXACT_MAX 60
#define SERIES_MAX_N 1000	/* more: neither test runs (the bounds) */

struct series_check {
	bool drift_tested, bimodal_tested;
	bool drift, bimodal;
	s64 drift_s;		/* Mann–Kendall's S, where tested */
	/* the gap test's separation x 100, rounded half up, where tested;
	 * sep_inf: two groups, each without spread, apart */
	u64 sep_x100;
	bool sep_inf;
};

/* Both tests on x[0..n); @scratch holds n values (not x). */
void series_check(const u64 *x, u32 n, u64 *scratch,
		  struct series_check *c);
/* The record's `series`: "ok", "drift", "bimodal", "drift,bimodal", or
 * "untested" when neither test ran. */
const char *series_word(const struct series_check *c);

#endif

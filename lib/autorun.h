/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_AUTORUN_H
#define LIB_AUTORUN_H

#include "lib/types.h"

/*
 * runs=auto's stopping rule (docs/statistics.md, "runs=auto: the
 * contract"), in integers: the kernel has no floating point.  The host's
 * reference is scripts/hzlib/auto.py; tests/host/test_autorun.c holds
 * this one to it and to scipy.
 *
 * A series is one configuration's measured passes, each its GiB/s in any
 * fixed unit (the runner's: x 10⁶, bench_run_gibps_micro()): the rule
 * is a ratio, free of it.  After round n, stop with
 *   precision  when n >= AUTO_MIN_ROUNDS and every configuration's 95%
 *              interval of its mean is within precision= of the mean;
 *   max_runs   else when n >= max_runs;
 *   budget_s   else when one more round, as long as the mean round so
 *              far, would end after the budget.
 */
#define AUTO_MIN_ROUNDS 3
#define AUTO_MAX_N 1000	/* passes a series may hold: max_runs's most */

enum auto_stop { AUTO_GO, AUTO_PRECISION, AUTO_MAX_RUNS, AUTO_BUDGET };
extern const char *const auto_stop_names[];	/* NULL, "precision", ... */

/* t(0.975, @df) x 100000, rounded; 0 for df 0. */
u64 auto_t975_x100000(u64 df);
/*
 * The 95% interval's half-width of the mean of @x (n values), in % of the
 * mean x 100, rounded; false when it has none (n < 2 or above
 * AUTO_MAX_N, a mean of 0).
 */
bool auto_ci_pct_x100(const u64 *x, u32 n, u64 *out);
/* Whether that half-width is at most @precision_x100: exact, not rounded. */
bool auto_within(const u64 *x, u32 n, u64 precision_x100);
/*
 * After @n rounds of @elapsed ticks in all, every series within the
 * precision (@within) or not: which rule stops, or AUTO_GO.
 * @budget_ticks 0: no budget.
 */
enum auto_stop auto_decide(u32 n, bool within, u64 max_runs,
			   u64 budget_ticks, u64 elapsed);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_TIMEBASE_H
#define KERNEL_TIMEBASE_H

#include "arch/x86_64/refclock.h"
#include "lib/types.h"

#define TB_REFS 5
#define TB_RUNS 3
#define TB_RETRIES 5		/* windows measured again per run, at most */

/* One reference's verdict on the TSC frequency. */
struct tb_estimate {
	const char *name;
	bool usable;
	bool coarse;		/* CPUID 16h: whole MHz only */
	u64 ref_hz;
	u64 tsc_hz;		/* median of TB_RUNS */
	u64 runs[TB_RUNS];
	u64 bracket_ppm;	/* read uncertainty of the worst run */
	u32 retries;		/* windows discarded (a stall) and measured again */
	bool outlier;		/* disagrees with the consensus: not used */
	char why[128];
};

struct timebase {
	u64 tsc_hz;
	const char *source;	/* name of the estimate used */
	bool invariant;
	u32 nest;
	struct tb_estimate est[TB_REFS];
	u64 max_disagreement_ppm;	/* among precise estimates */
	u32 nprecise;
	u32 nconsensus;		/* precise estimates that agree; 0: none do */
	u64 consensus_ppm;	/* largest disagreement among those */
	u32 noutliers;
	char no_consensus[128];	/* why not, when nprecise >= 2 */
	u64 overhead_min, overhead_median;	/* tsc_begin/tsc_end pair */
};

extern struct timebase timebase;

/*
 * Calibrate against every reference there is, over @window_ms each; two
 * agree when within @tolerance_ppm.
 */
void timebase_init(u64 window_ms, u64 tolerance_ppm);
/*
 * From @t's estimates: agreement, outliers, and the frequency used.  Split
 * out so the self-tests can decide on estimates of their own.
 */
void timebase_decide(struct timebase *t, u64 tolerance_ppm);
u64 tsc_to_ns(u64 ticks);
/* Busy-wait @us microseconds on the calibrated TSC. */
void udelay(u64 us);

#endif

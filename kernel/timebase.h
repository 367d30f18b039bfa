/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_TIMEBASE_H
#define KERNEL_TIMEBASE_H

#include "arch/x86_64/refclock.h"
#include "lib/types.h"

#define TB_REFS 5
#define TB_RUNS 3

/* One reference's verdict on the TSC frequency. */
struct tb_estimate {
	const char *name;
	bool usable;
	bool coarse;		/* CPUID 16h: whole MHz only */
	u64 ref_hz;
	u64 tsc_hz;		/* median of TB_RUNS */
	u64 runs[TB_RUNS];
	u64 bracket_ppm;	/* read uncertainty of the worst run */
	char why[96];
};

struct timebase {
	u64 tsc_hz;
	const char *source;	/* name of the estimate used */
	bool invariant;
	u32 nest;
	struct tb_estimate est[TB_REFS];
	u64 max_disagreement_ppm;	/* among precise estimates */
	u32 nprecise;
	u64 overhead_min, overhead_median;	/* tsc_begin/tsc_end pair */
};

extern struct timebase timebase;

/* Calibrate against every reference there is, over @window_ms each. */
void timebase_init(u64 window_ms);
u64 tsc_to_ns(u64 ticks);
/* Busy-wait @us microseconds on the calibrated TSC. */
void udelay(u64 us);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_CALIB_H
#define LIB_CALIB_H

#include "lib/types.h"

/* floor(n / d); saturates at ~0 when d is 0 or the quotient overflows. */
u64 div_u128(unsigned __int128 n, u64 d);
/* a * b / d without overflow in the product; saturates at ~0 on overflow. */
u64 mul_div_u64(u64 a, u64 b, u64 d);
/* Frequency implied by @ticks of a counter over @ref_ticks of one at @ref_hz. */
u64 calib_hz(u64 ticks, u64 ref_ticks, u64 ref_hz);
/* (a - b) / b in parts per million, rounded toward zero. */
s64 ppm_diff(u64 a, u64 b);
/* Nanoseconds in @ticks of a clock at @hz. */
u64 ticks_to_ns(u64 ticks, u64 hz);

/* One reference read, with the TSC read just before and just after it. */
struct calib_read {
	u64 before, after;
	u64 ref;
};

/*
 * A calibration window as its read loop saw it.  A span runs from just
 * before one reference read to just after the next: the reference cannot
 * have run for longer than that between the two.  Spans of at most
 * @steady_limit (CALIB_STEADY_READS reads' time) are the steady part of
 * the window, the tight loop; their ratio of reference to TSC ticks stays
 * right when a stall elsewhere in the window lost a wrap of the counter.
 * Longer spans cut the steady part into runs, and the ends of each run
 * make its ratio a little less certain.
 */
struct calib_window {
	u64 mask;		/* the reference's counter width */
	u64 steady_limit;	/* TSC ticks */
	u64 first_mid, last_mid;	/* TSC at the first and last read */
	u64 before, after, ref;	/* of the last read */
	u64 ref_ticks;		/* counted over the window */
	u64 steady_tsc, steady_ref;
	u64 runs;		/* of steady spans */
	u64 edge_tsc;		/* read time of the runs' first and last reads */
	bool in_run;
	u64 longest_span;	/* TSC ticks */
};

#define CALIB_STEADY_READS 256

enum calib_fault {
	CALIB_OK,
	CALIB_GAP,		/* a gap between two reads may hide a wrap */
	CALIB_UNSTEADY,		/* too little steady reading for a ratio */
	CALIB_SLOW_READS,	/* CALIB_STEADY_READS reads may hide a wrap */
};

void calib_window_start(struct calib_window *w, u64 mask,
			const struct calib_read *first);
void calib_window_read(struct calib_window *w, const struct calib_read *r);
/* TSC ticks from the first read to the last. */
u64 calib_window_tsc(const struct calib_window *w);
/* The longest span in reference ticks at the steady ratio; ~0 if none. */
u64 calib_window_gap(const struct calib_window *w);
enum calib_fault calib_window_check(const struct calib_window *w);
/*
 * Could a gap of @ticks of the reference of @mask, measured 1/8 short at
 * worst, have been a whole wrap?  From 7/8 of the wrap on.
 */
bool calib_may_hide_wrap(u64 ticks, u64 mask);

#define CALIB_MAX_REFS 8

/* Largest disagreement in ppm (either as the base) among @hz[i], i in @set. */
u64 calib_spread_ppm(const u64 *hz, u32 n, u32 set);
/*
 * The consensus of @n <= CALIB_MAX_REFS estimates, as a set of bits: the
 * largest set of estimates that all agree within @tol_ppm, if it has two
 * members or more and is the only set of its size.  0: no consensus.
 */
u32 calib_consensus(const u64 *hz, u32 n, u64 tol_ppm);

#endif

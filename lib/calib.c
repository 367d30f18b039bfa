// SPDX-License-Identifier: GPL-2.0-only
/*
 * Integer arithmetic for clock calibration.  Products go through 128
 * bits (a 10 GHz TSC over 10 s is 1e11 ticks; times 1e6 for ppm or a
 * 1e15 Hz-scale reference overflows 64 bits).  The division is done here
 * rather than by libgcc's __udivti3, which the kernel does not link.
 *
 * A calibration window is only as good as its reads: a CPU stalled
 * between two of them (a descheduled vCPU, a long SMI) for a wrap of the
 * reference loses that wrap, and the window's TSC rate comes out whole
 * factors too high.  The window's own ratio cannot show it, being short
 * by the very wrap it lost, so gaps are measured against the ratio of the
 * window's steady reads.  Assumed: CALIB_STEADY_READS consecutive reads
 * of a reference take far less than its wrap (the PIT wraps in 55 ms; a
 * read takes microseconds).
 */
#include "lib/calib.h"

typedef unsigned __int128 u128;

/* floor(n / d) for d != 0, by shift-and-subtract; quotient must fit 64 bits. */
static u64 div128(u128 n, u64 d)
{
	u128 rem = 0;
	u64 q = 0;

	for (int i = 127; i >= 0; i--) {
		rem = (rem << 1) | ((n >> i) & 1);
		if (rem >= d) {
			rem -= d;
			if (i < 64)
				q |= 1ULL << i;
		}
	}
	return q;
}

u64 div_u128(unsigned __int128 n, u64 d)
{
	if (d == 0 || (u128)(n >> 64) >= d)
		return ~0ULL;
	return div128(n, d);
}

u64 mul_div_u64(u64 a, u64 b, u64 d)
{
	u128 p = (u128)a * b;

	if (d == 0 || (p >> 64) >= d)
		return ~0ULL;	/* division by zero or overflow: saturate */
	return div128(p, d);
}

u64 calib_hz(u64 ticks, u64 ref_ticks, u64 ref_hz)
{
	if (ref_ticks == 0)
		return 0;
	return mul_div_u64(ticks, ref_hz, ref_ticks);
}

s64 ppm_diff(u64 a, u64 b)
{
	u64 mag;

	if (b == 0)
		return 0;
	mag = mul_div_u64(a > b ? a - b : b - a, 1000000, b);
	if (mag > (u64)INT64_MAX)
		mag = (u64)INT64_MAX;
	return a >= b ? (s64)mag : -(s64)mag;
}

u64 ticks_to_ns(u64 ticks, u64 hz)
{
	if (hz == 0)
		return 0;
	return mul_div_u64(ticks, 1000000000ULL, hz);
}

void calib_window_start(struct calib_window *w, u64 mask,
			const struct calib_read *first)
{
	u64 width = first->after - first->before;

	*w = (struct calib_window){
		.mask = mask,
		.steady_limit = (width + 1) * CALIB_STEADY_READS,
		.first_mid = first->before + width / 2,
		.last_mid = first->before + width / 2,
		.before = first->before,
		.after = first->after,
		.ref = first->ref,
	};
}

void calib_window_read(struct calib_window *w, const struct calib_read *r)
{
	u64 span = r->after - w->before, ticks = (r->ref - w->ref) & w->mask;

	if (span <= w->steady_limit) {
		if (!w->in_run) {
			w->runs++;
			w->edge_tsc += w->after - w->before;
		}
		w->steady_tsc += r->before - w->before;
		w->steady_ref += ticks;
	} else if (w->in_run) {
		w->edge_tsc += w->after - w->before;
	}
	w->in_run = span <= w->steady_limit;
	w->longest_span = MAX(w->longest_span, span);
	w->ref_ticks += ticks;
	w->last_mid = r->before + (r->after - r->before) / 2;
	w->before = r->before;
	w->after = r->after;
	w->ref = r->ref;
}

u64 calib_window_tsc(const struct calib_window *w)
{
	return w->last_mid - w->first_mid;
}

static u64 at_steady_ratio(const struct calib_window *w, u64 tsc)
{
	return mul_div_u64(tsc, w->steady_ref, w->steady_tsc);
}

u64 calib_window_gap(const struct calib_window *w)
{
	return at_steady_ratio(w, w->longest_span);
}

bool calib_may_hide_wrap(u64 ticks, u64 mask)
{
	return ticks >= mask - (mask >> 3);	/* 7/8 of mask + 1, near enough */
}

/*
 * Each steady run can be a tick and its end reads' time off.  Kept under
 * 1/16 of the steady ticks and 1/16 of the steady time, that leaves the
 * steady ratio right to 1/8: a span short of 7/8 of a wrap by that ratio
 * is short of a whole wrap.
 */
static bool steady_enough(const struct calib_window *w)
{
	u64 edges = w->edge_tsc + (w->in_run ? w->after - w->before : 0);

	return w->runs && w->steady_ref / 16 >= w->runs &&
	       w->steady_tsc / 16 >= edges;
}

enum calib_fault calib_window_check(const struct calib_window *w)
{
	if (!steady_enough(w))
		return CALIB_UNSTEADY;
	if (calib_may_hide_wrap(at_steady_ratio(w, w->steady_limit), w->mask))
		return CALIB_SLOW_READS;
	if (calib_may_hide_wrap(calib_window_gap(w), w->mask))
		return CALIB_GAP;
	return CALIB_OK;
}

static u64 abs_ppm(u64 a, u64 b)
{
	s64 d = ppm_diff(a, b);

	return d < 0 ? (u64)-d : (u64)d;
}

u64 calib_spread_ppm(const u64 *hz, u32 n, u32 set)
{
	u64 worst = 0;

	for (u32 i = 0; i < n; i++)
		for (u32 j = 0; j < n; j++)
			if (i != j && (set >> i & 1) && (set >> j & 1))
				worst = MAX(worst, abs_ppm(hz[i], hz[j]));
	return worst;
}

static u32 bits_set(u32 x)
{
	u32 n = 0;

	for (; x; x &= x - 1)
		n++;
	return n;
}

u32 calib_consensus(const u64 *hz, u32 n, u64 tol_ppm)
{
	u32 best = 0, best_size = 0;
	bool tie = false;

	n = MIN(n, CALIB_MAX_REFS);
	/* At most 2^8 subsets: trying them all is the simple, exact way. */
	for (u32 set = 1; set < 1u << n; set++) {
		u32 size = bits_set(set);

		if (size < 2 || size < best_size ||
		    calib_spread_ppm(hz, n, set) > tol_ppm)
			continue;
		tie = size == best_size;
		if (!tie) {
			best = set;
			best_size = size;
		}
	}
	return tie ? 0 : best;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Integer arithmetic for clock calibration.  Products go through 128
 * bits (a 10 GHz TSC over 10 s is 1e11 ticks; times 1e6 for ppm or a
 * 1e15 Hz-scale reference overflows 64 bits).  The division is done here
 * rather than by libgcc's __udivti3, which the kernel does not link.
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

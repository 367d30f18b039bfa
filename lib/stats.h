/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_STATS_H
#define LIB_STATS_H

#include "lib/types.h"

/* Order statistics of a sample, in the sample's unit. */
struct stats {
	u64 n, min, max, median, p99, p999, mean;
	u64 stddev;
};

/* In-place heapsort: O(n log n), no allocation (the kernel has none). */
void sort_u64(u64 *v, u64 n);
/* Median of v[0..n) (sorts v); 0 for n == 0. */
u64 median_u64(u64 *v, u64 n);
/* Sorts @v, then fills @s.  Percentiles are nearest-rank. */
void stats_of(u64 *v, u64 n, struct stats *s);
/* Integer square roots, rounded down. */
u64 isqrt_u64(u64 x);
unsigned __int128 isqrt_u128(unsigned __int128 x);
/* @n / @d, rounded down, without libgcc's __udivti3; @d in 1..2¹²⁷. */
unsigned __int128 div_u128_u128(unsigned __int128 n, unsigned __int128 d);
/* Nearest-rank percentile of sorted @v, @pct in 0..100; per mille. */
u64 percentile_sorted(const u64 *v, u64 n, u32 pct);
u64 permille_sorted(const u64 *v, u64 n, u32 pm);

#endif

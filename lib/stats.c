// SPDX-License-Identifier: GPL-2.0-only
/*
 * Integer statistics for the kernel's own summaries.  The host tools
 * recompute everything from the raw samples in floating point; these
 * are the cross-check printed next to them.
 */
#include "lib/calib.h"
#include "lib/stats.h"

static void sift_down(u64 *v, u64 root, u64 n)
{
	for (;;) {
		u64 child = 2 * root + 1, t;

		if (child >= n)
			return;
		if (child + 1 < n && v[child + 1] > v[child])
			child++;
		if (v[root] >= v[child])
			return;
		t = v[root];
		v[root] = v[child];
		v[child] = t;
		root = child;
	}
}

void sort_u64(u64 *v, u64 n)
{
	if (n < 2)
		return;
	for (u64 i = n / 2; i-- > 0;)
		sift_down(v, i, n);
	for (u64 end = n - 1; end > 0; end--) {
		u64 t = v[0];

		v[0] = v[end];
		v[end] = t;
		sift_down(v, 0, end);
	}
}

/* Of an even count, the mean of the middle two (rounded down). */
static u64 median_sorted(const u64 *v, u64 n)
{
	if (n == 0)
		return 0;
	if (n & 1)
		return v[n / 2];
	return v[n / 2 - 1] + (v[n / 2] - v[n / 2 - 1]) / 2;
}

u64 median_u64(u64 *v, u64 n)
{
	sort_u64(v, n);
	return median_sorted(v, n);
}

unsigned __int128 isqrt_u128(unsigned __int128 x)
{
	unsigned __int128 r = 0, bit = (unsigned __int128)1 << 126;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

/* n / d by shift and subtract: the kernel does not link libgcc's
 * __udivti3.  d < 2¹²⁷. */
unsigned __int128 div_u128_u128(unsigned __int128 n, unsigned __int128 d)
{
	unsigned __int128 q = 0, rem = 0;

	for (int i = 127; i >= 0; i--) {
		rem = (rem << 1) | ((n >> i) & 1);
		if (rem >= d) {
			rem -= d;
			q |= (unsigned __int128)1 << i;
		}
	}
	return q;
}

u64 isqrt_u64(u64 x)
{
	return (u64)isqrt_u128(x);
}

u64 permille_sorted(const u64 *v, u64 n, u32 pm)
{
	u64 rank;

	if (n == 0)
		return 0;
	rank = (u64)pm * n / 1000 + ((u64)pm * n % 1000 != 0);	/* ceil */
	return v[rank ? rank - 1 : 0];
}

u64 percentile_sorted(const u64 *v, u64 n, u32 pct)
{
	return permille_sorted(v, n, pct * 10);
}

void stats_of(u64 *v, u64 n, struct stats *s)
{
	unsigned __int128 sum = 0, sq = 0;

	s->n = n;
	s->min = s->max = s->median = s->p99 = s->p999 = s->mean = 0;
	s->stddev = 0;
	if (n == 0)
		return;
	sort_u64(v, n);
	s->min = v[0];
	s->max = v[n - 1];
	s->median = median_sorted(v, n);
	s->p99 = percentile_sorted(v, n, 99);
	s->p999 = permille_sorted(v, n, 999);
	for (u64 i = 0; i < n; i++)
		sum += v[i];
	s->mean = div_u128(sum, n);
	for (u64 i = 0; i < n; i++) {
		u64 d = v[i] > s->mean ? v[i] - s->mean : s->mean - v[i];

		sq += (unsigned __int128)d * d;
	}
	/* Sample standard deviation (n - 1), as the host tools compute it. */
	if (n > 1)
		s->stddev = isqrt_u64(div_u128(sq, n - 1));
}

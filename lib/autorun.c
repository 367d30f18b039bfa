// SPDX-License-Identifier: GPL-2.0-only
/*
 * runs=auto's stopping rule in integer arithmetic.  With S = Σx,
 * Q = Σx², D = nQ − S² (n² times the biased variance), the half-width of
 * the mean over the mean is t·sqrt(D / (n−1)) / S, so
 *
 *	100·t·sqrt(D/(n−1))/S ≤ P   ⟺   t²·D·10⁴ ≤ P²·(n−1)·S²
 *
 * and with T = t·10⁵ and P_x100 = P·100 both sides are integers:
 *
 *	T²·D ≤ P_x100²·(n−1)·S²·100.
 *
 * Both are free of x's unit, so the values are first shifted right until
 * the largest is below 2³²: with n ≤ 1000 and P_x100 ≤ 10⁴ both sides
 * then stay below 2¹²⁸, whatever the caller's scale.
 */
#include "lib/autorun.h"
#include "lib/stats.h"

typedef unsigned __int128 u128;

const char *const auto_stop_names[] = { NULL, "precision", "max_runs",
					"budget_s" };

/* t(0.975, df) x 10⁵ for df 1..100: scipy.stats.t.ppf(0.975, df), rounded */
static const u32 t975[100] = {
	1270620, 430265, 318245, 277645, 257058, 244691, 236462, 230600,
	226216, 222814, 220099, 217881, 216037, 214479, 213145, 211991,
	210982, 210092, 209302, 208596, 207961, 207387, 206866, 206390,
	205954, 205553, 205183, 204841, 204523, 204227, 203951, 203693,
	203452, 203224, 203011, 202809, 202619, 202439, 202269, 202108,
	201954, 201808, 201669, 201537, 201410, 201290, 201174, 201063,
	200958, 200856, 200758, 200665, 200575, 200488, 200404, 200324,
	200247, 200172, 200100, 200030, 199962, 199897, 199834, 199773,
	199714, 199656, 199601, 199547, 199495, 199444, 199394, 199346,
	199300, 199254, 199210, 199167, 199125, 199085, 199045, 199006,
	198969, 198932, 198896, 198861, 198827, 198793, 198761, 198729,
	198698, 198667, 198638, 198609, 198580, 198552, 198525, 198498,
	198472, 198447, 198422, 198397,
};

/*
 * Beyond the table, the Cornish–Fisher expansion of t about the normal's
 * z = 1.959963985: t ≈ z + (z³+z)/(4df) + (5z⁵+16z³+3z)/(96df²), each
 * term x 10⁹; within 1 of scipy's x 10⁵ from df 101 on.
 */
#define CF_Z 1959963985ULL
#define CF_A 9489084921ULL
#define CF_B 270959867111ULL

u64 auto_t975_x100000(u64 df)
{
	if (!df)
		return 0;
	if (df <= 100)
		return t975[df - 1];
	return (CF_Z + CF_A / (4 * df) + CF_B / (96 * df * df) + 5000) / 10000;
}

/* Σx and D = nΣx² − (Σx)² of @x shifted below 2³²; false without an
 * interval. */
static bool sums(const u64 *x, u32 n, u128 *s, u128 *d)
{
	u128 q = 0;
	u64 max = 0;
	u32 k = 0;

	for (u32 i = 0; i < n; i++)
		max = x[i] > max ? x[i] : max;
	while (max >> k >= 1ULL << 32)
		k++;
	*s = 0;
	for (u32 i = 0; i < n; i++) {
		u64 v = x[i] >> k;

		*s += v;
		q += (u128)v * v;
	}
	if (n < 2 || n > AUTO_MAX_N || !*s)
		return false;
	*d = n * q - *s * *s;
	return true;
}

bool auto_ci_pct_x100(const u64 *x, u32 n, u64 *out)
{
	u128 s, d, t, v;

	if (!sums(x, n, &s, &d))
		return false;
	t = auto_t975_x100000(n - 1);
	/* (ci x 100)² = T²·D / (100·(n−1)·S²); twice it, floored, then
	 * halved up: rounded to the nearest */
	v = div_u128_u128(t * t * d * 4, (u128)100 * (n - 1) * s * s);
	*out = (u64)((isqrt_u128(v) + 1) / 2);
	return true;
}

bool auto_within(const u64 *x, u32 n, u64 precision_x100)
{
	u128 s, d, t;

	if (!sums(x, n, &s, &d))
		return false;
	t = auto_t975_x100000(n - 1);
	return t * t * d <= (u128)precision_x100 * precision_x100 * (n - 1) *
			    s * s * 100;
}

enum auto_stop auto_decide(u32 n, bool within, u64 max_runs,
			   u64 budget_ticks, u64 elapsed)
{
	if (n >= AUTO_MIN_ROUNDS && within)
		return AUTO_PRECISION;
	if (n >= max_runs)
		return AUTO_MAX_RUNS;
	if (budget_ticks && n && elapsed + elapsed / n > budget_ticks)
		return AUTO_BUDGET;
	return AUTO_GO;
}

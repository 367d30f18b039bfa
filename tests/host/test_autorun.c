// SPDX-License-Identifier: GPL-2.0-only
/*
 * runs=auto's rule in integers (lib/autorun.c) against the host's
 * reference: the half-widths are scripts/hzlib/interval.half_width_pct()
 * of the same series in GiB/s (scipy's t), the stops auto.decide()'s.
 */
#include "lib/autorun.h"
#include "lib/string.h"
#include "tests/host/unit.h"

/* scipy.stats.t.ppf(0.975, df) x 10⁵, rounded, at table and
 * Cornish–Fisher degrees of freedom */
TEST(autorun_t_quantile_matches_scipy)
{
	static const struct { u64 df, t; } want[] = {
		{ 1, 1270620 }, { 2, 430265 }, { 7, 236462 }, { 29, 204523 },
		{ 100, 198397 }, { 101, 198373 }, { 120, 197993 },
		{ 200, 197190 }, { 1000, 196234 }, { 100000, 195999 },
	};

	EXPECT_EQ(auto_t975_x100000(0), 0);
	for (u32 i = 0; i < ARRAY_SIZE(want); i++)
		EXPECT(auto_t975_x100000(want[i].df) == want[i].t,
		       "df %llu: %llu, scipy %llu",
		       (unsigned long long)want[i].df,
		       (unsigned long long)auto_t975_x100000(want[i].df),
		       (unsigned long long)want[i].t);
	/* t falls with df, towards z = 1.959964 */
	for (u64 df = 2; df < 2000; df++)
		EXPECT(auto_t975_x100000(df) <= auto_t975_x100000(df - 1) &&
		       auto_t975_x100000(df) >= 195996, "df %llu",
		       (unsigned long long)df);
}

static const u64 sp4[] = { 10000, 10100, 9900, 10050 };
static const u64 sp5[] = { 8150, 9980, 7000, 12000, 9000 };
static const u64 sp3[] = { 20000, 20010, 19990 };
static const u64 alt8[] = { 5000, 15000, 5000, 15000, 5000, 15000, 5000, 15000 };

/* interval.half_width_pct() x 100, rounded: 1.35707, 25.55974, 0.12421,
 * 44.68720, 0.01773 */
TEST(autorun_half_width_matches_the_host)
{
	static const u64 base[] = { 1000, 1001, 999, 1000, 1002, 998, 1000,
				    1001, 999, 1000 };
	u64 s150[150], v = 0;

	for (u32 i = 0; i < 150; i++)
		s150[i] = base[i % 10];
	EXPECT(auto_ci_pct_x100(sp4, 4, &v) && v == 136, "%llu",
	       (unsigned long long)v);
	EXPECT(auto_ci_pct_x100(sp5, 5, &v) && v == 2556, "%llu",
	       (unsigned long long)v);
	EXPECT(auto_ci_pct_x100(sp3, 3, &v) && v == 12, "%llu",
	       (unsigned long long)v);
	EXPECT(auto_ci_pct_x100(alt8, 8, &v) && v == 4469, "%llu",
	       (unsigned long long)v);
	EXPECT(auto_ci_pct_x100(s150, 150, &v) && v == 2, "%llu",
	       (unsigned long long)v);
	/* none with one pass or a mean of 0 */
	EXPECT(!auto_ci_pct_x100(sp4, 1, &v));
	EXPECT(!auto_ci_pct_x100((const u64[]){ 0, 0, 0 }, 3, &v));
	EXPECT(!auto_within((const u64[]){ 0, 0, 0 }, 3, 500));
}

/* within is exact, not the rounded figure: 1.35707% is within 1.36%,
 * not 1.35% */
TEST(autorun_within_is_exact)
{
	EXPECT(auto_within(sp4, 4, 136));
	EXPECT(!auto_within(sp4, 4, 135));
	EXPECT(auto_within(sp3, 3, 13));
	EXPECT(!auto_within(sp3, 3, 12));
	EXPECT(auto_within(alt8, 8, 4469));
	EXPECT(!auto_within(alt8, 8, 4468));
	/* no spread: within anything */
	EXPECT(auto_within((const u64[]){ 7, 7 }, 2, 1));
}

/* as auto.decide(): a constant series stops on precision at 3 rounds,
 * never fewer; a noisy one at max_runs; the budget when one more mean
 * round would end past it */
TEST(autorun_decide_as_the_host)
{
	static const u64 flat[] = { 10000, 10000, 10000 };
	u32 n;

	for (n = 1; n <= 8; n++)
		if (auto_decide(n, auto_within(flat, MIN(n, 3u), 500), 8, 0,
				0) != AUTO_GO)
			break;
	EXPECT_EQ(n, 3);
	EXPECT_EQ(auto_decide(3, true, 8, 0, 0), AUTO_PRECISION);
	for (n = 1; n <= 8; n++)
		if (auto_decide(n, auto_within(alt8, n, 500), 8, 0, 0) != AUTO_GO)
			break;
	EXPECT_EQ(n, 8);
	EXPECT_EQ(auto_decide(8, auto_within(alt8, 8, 500), 8, 0, 0),
		  AUTO_MAX_RUNS);
	/* two rounds of 2.0 s in a 3 s budget: a third ends at 3.0 s, in
	 * time; of 2.1 s, at 3.15 s: stop */
	EXPECT_EQ(auto_decide(2, false, 8, 3000, 2000), AUTO_GO);
	EXPECT_EQ(auto_decide(2, false, 8, 3000, 2100), AUTO_BUDGET);
	/* precision first, then max_runs, then the budget */
	EXPECT_EQ(auto_decide(8, true, 8, 1, 1000), AUTO_PRECISION);
	EXPECT_EQ(auto_decide(8, false, 8, 1, 1000), AUTO_MAX_RUNS);
	EXPECT_STR(auto_stop_names[AUTO_BUDGET], "budget_s");
}

/* the rule is a ratio: the same series in any unit, up to 2⁶⁴, gives the
 * same half-width and the same verdict (values are shifted below 2³²) */
TEST(autorun_free_of_the_unit)
{
	u64 big[4], v = 0;

	for (u32 k = 0; k <= 40; k += 10) {
		for (u32 i = 0; i < 4; i++)
			big[i] = sp4[i] << k;
		EXPECT(auto_ci_pct_x100(big, 4, &v) && v == 136, "<< %u: %llu",
		       k, (unsigned long long)v);
		EXPECT(auto_within(big, 4, 136) && !auto_within(big, 4, 135),
		       "<< %u", k);
	}
	/* the largest values: no overflow, 0.80717% as the host has it */
	for (u32 i = 0; i < 4; i++)
		big[i] = ~0ULL - (u64)i * (1ULL << 56);
	EXPECT(auto_ci_pct_x100(big, 4, &v) && v == 81, "%llu",
	       (unsigned long long)v);
}

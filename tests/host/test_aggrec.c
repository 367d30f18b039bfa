// SPDX-License-Identifier: GPL-2.0-only
/* Host tests of the group records: agg per pass, agg_summary per group. */
#include <stdlib.h>
#include "lib/aggrec.h"
#include "lib/string.h"
#include "tests/host/unit.h"

static char line[RECORD_MAX + 8];

static void sink(void *ctx, const char *l)
{
	(void)ctx;
	strlcpy(line, l, sizeof(line));
}

static bool has(const char *field)
{
	return strstr(line, field) != NULL;
}

/* 1 GiB each in 2 s of a 1 kHz clock: 1 GiB/s together. */
static const struct agg_cpu two[] = {
	{ 0, true, 0, 1500, 5, 1, 1ULL << 30, 0, 0 },
	{ 1, true, 10, 2000, 7, 2, 1ULL << 30, 0, 0 },
};

TEST(agg_pass_sums_and_extremes)
{
	static struct agg_group g;
	/* No offsets (the companion's): the skew as read, alone. */
	struct agg_pass p = { 2, "measure", true, NULL, two, 2, false };
	struct rec_writer w;

	rec_writer_init(&w, sink, NULL);
	agg_group_init(&g, 3, "0-1", 2, AGG_US, 1000);
	agg_rec_pass(&w, &g, &p);
	EXPECT(strncmp(line, "@hz1 1 agg group=3 run=2 pass=measure cpus=0-1 "
		       "ncpus=2 bytes=2147483648 start_skew_ticks=10 "
		       "wall_ticks=2000 stime_us=12 utime_us=3 slowest_cpu=1 "
		       "slowest_ticks=1990 fastest_cpu=0 fastest_ticks=1500 #",
		       152) == 0, "got %s", line);
	EXPECT_EQ(g.nruns, 1);
	EXPECT_EQ(g.gibps_milli[0], 1000);
	EXPECT_EQ(g.stime_ns[0], 12000);
	p.measured = false;
	agg_rec_pass(&w, &g, &p);
	EXPECT_EQ(g.nruns, 1);		/* a warm-up is not kept */
	agg_rec_summary(&w, &g, "ok", NULL);
	EXPECT(has(" agg_summary group=3 status=ok runs=1 cpus=0-1 ncpus=2 "
		   "gibps_milli_mean=1000 gibps_stddev_pct_x100=0 "
		   "stime_ns_mean=12000 stime_stddev_pct_x100=0 "
		   "utime_ns_mean=3000 "), "got %s", line);
}

TEST(agg_refuses_what_it_cannot_time)
{
	static struct agg_group g;
	struct agg_cpu late[2] = { two[0], two[1] };
	struct agg_pass p = { 0, "measure", true, NULL, late, 2, true };
	struct rec_writer w;

	late[1].finished = false;
	rec_writer_init(&w, sink, NULL);
	agg_group_init(&g, 1, "0-1", 2, AGG_TICKS, 1000);
	agg_rec_pass(&w, &g, &p);
	EXPECT(has(" refused=\"cpu 1 did not finish the pass\" stime_ticks=12 "),
	       "got %s", line);
	EXPECT(!has("wall_ticks") && !has("start_skew_"), "got %s", line);
	agg_rec_summary(&w, &g, "ok", NULL);
	EXPECT(has(" status=refused reason=\"cpu 1 did not finish the pass\" "),
	       "got %s", line);
	/* 12 ticks of 1 kHz */
	EXPECT(!has("gibps") && has(" stime_ns_mean=12000000 "), "got %s", line);
	/* A failed configuration stays failed, with its own reason. */
	agg_rec_summary(&w, &g, "fail", "cpu 0: mmap failed");
	EXPECT(has(" status=fail reason=\"cpu 0: mmap failed\" "), "got %s", line);
	p.refused = "TSC not synchronized";
	late[1].finished = true;
	agg_rec_pass(&w, &g, &p);
	EXPECT(has(" refused=\"TSC not synchronized\" "), "got %s", line);
}

/*
 * CPU 1's TSC runs 40 ahead of CPU 0's (+- 10), CPU 2's 20 behind (+-
 * 25): read, the starts are 30 apart; in CPU 0's time they are 990
 * (CPU 1), 1000 and 1025 (CPU 2), 35 apart, to +- 25 + 10.
 */
static struct agg_cpu three[] = {
	{ 0, true, 1000, 3000, 1, 0, 4096, 0, 0 },
	{ 1, true, 1030, 3000, 1, 0, 4096, 40, 10 },
	{ 2, true, 1005, 3000, 1, 0, 4096, -20, 25 },
};

static const struct {
	u32 first, n;
	const char *want;
} skews[] = {
	{ 0, 3, " start_skew_ticks=30 start_skew_corr_ticks=35 "
		"start_skew_err_ticks=35 wall_ticks=2000 " },
	/* Two APs: both errors count. */
	{ 1, 2, " start_skew_ticks=25 start_skew_corr_ticks=35 "
		"start_skew_err_ticks=35 " },
	/* CPU 0's own is 0: the offsets are against it. */
	{ 0, 2, " start_skew_ticks=30 start_skew_corr_ticks=10 "
		"start_skew_err_ticks=10 " },
	/* One CPU: no skew, and none to doubt. */
	{ 2, 1, " start_skew_ticks=0 start_skew_corr_ticks=0 "
		"start_skew_err_ticks=0 " },
};

TEST(agg_start_skew_in_cpu0_time)
{
	static struct agg_group g;
	struct agg_pass p = { 0, "measure", false, NULL, three, 3, true };
	struct rec_writer w;

	rec_writer_init(&w, sink, NULL);
	agg_group_init(&g, 1, "0-2", 3, AGG_TICKS, 1000);
	for (u32 i = 0; i < ARRAY_SIZE(skews); i++) {
		p.cpu = &three[skews[i].first];
		p.n = skews[i].n;
		agg_rec_pass(&w, &g, &p);
		EXPECT(has(skews[i].want), "case %u: got %s", i, line);
	}
	/* Starts on either side of the TSC wrapping: 1 apart still. */
	three[0].start = ~0ULL - 5;
	three[1].start = 3;
	three[1].offset = 10;
	three[0].end = three[1].end = ~0ULL;
	p.cpu = three;
	p.n = 2;
	agg_rec_pass(&w, &g, &p);
	EXPECT(has(" start_skew_corr_ticks=1 "), "got %s", line);
	EXPECT_EQ(_Alignof(struct agg_cpu), 64);
}

// SPDX-License-Identifier: GPL-2.0-only
/* Host tests of lib/stats.c and the record writer. */
#include <stdlib.h>
#include "lib/benchrec.h"
#include "lib/benchrun.h"
#include "lib/format.h"
#include "lib/outcome.h"
#include "lib/params.h"
#include "lib/params_parse.h"
#include "lib/record.h"
#include "lib/stats.h"
#include "lib/string.h"
#include "tests/host/unit.h"

TEST(stats_sort_and_order_statistics)
{
	u64 v[1000];
	struct stats s;

	srand(7);
	for (int i = 0; i < 1000; i++)
		v[i] = (u64)(rand() % 100000);
	sort_u64(v, 1000);
	for (int i = 1; i < 1000; i++)
		EXPECT(v[i - 1] <= v[i], "unsorted at %d", i);
	for (int i = 0; i < 100; i++)
		v[i] = (u64)(i + 1);		/* 1..100 */
	stats_of(v, 100, &s);
	EXPECT_EQ(s.min, 1);
	EXPECT_EQ(s.max, 100);
	EXPECT_EQ(s.median, 50);		/* (50 + 51) / 2, rounded down */
	EXPECT_EQ(s.p99, 99);
	EXPECT_EQ(s.mean, 50);
	EXPECT_EQ(s.stddev, 29);		/* sqrt(841.67) */
	v[0] = 7;
	stats_of(v, 1, &s);
	EXPECT(s.median == 7 && s.p99 == 7 && s.stddev == 0);
	stats_of(v, 0, &s);
	EXPECT_EQ(s.n, 0);
}

TEST(stats_median)
{
	u64 v[] = { 5, 1, 4, 2, 3 }, w[] = { 10, 2, 8, 4 };
	u64 big[] = { ~0ULL, ~0ULL - 2 };

	EXPECT_EQ(median_u64(v, 5), 3);
	EXPECT(v[0] == 1 && v[4] == 5, "sorted in place");
	EXPECT_EQ(median_u64(w, 4), 6);
	EXPECT_EQ(median_u64(w, 0), 0);
	EXPECT_EQ(median_u64(big, 2), ~0ULL - 1);	/* no overflow */
}

TEST(stats_isqrt_and_big_values)
{
	u64 v[3] = { ~0ULL, ~0ULL - 2, ~0ULL - 4 };
	struct stats s;

	EXPECT_EQ(isqrt_u64(0), 0);
	EXPECT_EQ(isqrt_u64(15), 3);
	EXPECT_EQ(isqrt_u64(16), 4);
	EXPECT_EQ(isqrt_u64(~0ULL), 4294967295ULL);
	stats_of(v, 3, &s);
	EXPECT_EQ(s.mean, ~0ULL - 2);
	EXPECT_EQ(s.stddev, 2);
}

static char last[RECORD_MAX + 8];

static void sink(void *ctx, const char *line)
{
	(void)ctx;
	strlcpy(last, line, sizeof(last));
}

TEST(record_format_and_crc)
{
	struct rec_writer w;
	struct rec r;
	char expect[256];

	EXPECT_EQ(crc32_ieee("123456789", 9), 0xcbf43926);	/* the check value */
	rec_writer_init(&w, sink, NULL);
	rec_begin(&w, &r, "machine");
	rec_str(&r, "brand", "AMD EPYC \"9654\"");
	rec_u64(&r, "n", 42);
	rec_hex(&r, "ucode", 0xa101148);
	rec_str(&r, "empty", "");
	rec_end(&w, &r);
	strlcpy(expect, "@hz1 1 machine brand=\"AMD EPYC \\\"9654\\\"\" n=42 "
		"ucode=0xa101148 empty=\"\" #", sizeof(expect));
	EXPECT(strncmp(last, expect, strlen(expect)) == 0, "got %s", last);
	EXPECT_EQ(strlen(last), strlen(expect) + 9);
	EXPECT_EQ(strtoul(last + strlen(expect), NULL, 16),
		  crc32_ieee(last, strlen(expect) - 1));	/* up to the '#' */
	rec_begin(&w, &r, "end");
	rec_end(&w, &r);
	EXPECT(strncmp(last, "@hz1 2 end #", 12) == 0);
}

TEST(record_overflow_is_marked)
{
	struct rec_writer w;
	struct rec r;

	rec_writer_init(&w, sink, NULL);
	rec_begin(&w, &r, "samples");
	while (rec_room(&r) > 0)
		rec_raw(&r, "1234567,");
	rec_raw(&r, "x");
	rec_end(&w, &r);
	EXPECT(strstr(last, " truncated=1 #") != NULL);
	EXPECT(strlen(last) < RECORD_MAX);
	EXPECT(last[strlen(last) - 1] == '\n');
}

/* The console taken over by another CPU: this writer's lock refuses. */
static bool refusing, unlocked;

static bool refuse_lock(void *ctx)
{
	(void)ctx;
	return !refusing;
}

static void note_unlock(void *ctx)
{
	(void)ctx;
	unlocked = true;
}

TEST(record_refused_by_lock_takes_no_number)
{
	struct rec_writer w;
	struct rec r;

	rec_writer_init(&w, sink, NULL);
	w.lock = refuse_lock;
	w.unlock = note_unlock;
	rec_begin(&w, &r, "boot");
	EXPECT_EQ(rec_end(&w, &r), 1);
	refusing = true;
	unlocked = false;
	last[0] = '\0';
	rec_begin(&w, &r, "run");
	EXPECT_EQ(rec_end(&w, &r), 0);		/* dropped, unnumbered */
	EXPECT(!last[0], "emitted %s", last);
	EXPECT(!unlocked, "unlock without a lock");
	EXPECT(!rec_restamp(&w, "@hz1 9 run a=1 #00000000\n"));
	refusing = false;
	rec_begin(&w, &r, "end");
	EXPECT_EQ(rec_end(&w, &r), 2);		/* no gap for the dropped */
	EXPECT(strncmp(last, "@hz1 2 end #", 12) == 0, "got %s", last);
}

static struct rec_writer *restamp_to;

static void forward(void *ctx, const char *line)
{
	(void)ctx;
	EXPECT(rec_restamp(restamp_to, line), "%s", line);
}

TEST(record_restamp_renumbers)
{
	struct rec_writer child, parent;
	struct rec r;
	char bad[64];

	rec_writer_init(&parent, sink, NULL);
	parent.seq = 99999;		/* more digits than the child's */
	restamp_to = &parent;
	rec_writer_init(&child, forward, NULL);
	rec_begin(&child, &r, "run");
	rec_str(&r, "note", "a # b");
	rec_end(&child, &r);
	EXPECT(strncmp(last, "@hz1 100000 run note=\"a # b\" #", 30) == 0,
	       "got %s", last);
	EXPECT_EQ(strtoul(last + 30, NULL, 16), crc32_ieee(last, 29));
	EXPECT_EQ(parent.seq, 100000);
	/* A changed byte or a line that is no record is not forwarded. */
	strlcpy(bad, last, sizeof(bad));
	bad[10] = 'X';
	EXPECT(!rec_restamp(&parent, bad));
	EXPECT(!rec_restamp(&parent, "@hz1 x #00000000\n"));
	EXPECT(!rec_restamp(&parent, "hello\n"));
	EXPECT_EQ(parent.seq, 100000);
}

/* A run with an SMI in it, or off the others' effective frequency, is
 * named in the summary: never averaged in silently. */
TEST(summary_flags_smi_and_frequency)
{
	static struct bench_outcome o;
	struct hz_config c;
	struct bench_desc d;
	struct rec_writer w;
	u64 f[3] = { 1000, 1000, 1000 };

	config_defaults(&c);
	memset(&d, 0, sizeof(d));
	memset(&o, 0, sizeof(o));
	d.c = &c;
	d.size = 3000;
	rec_writer_init(&w, sink, NULL);
	o.nruns = 3;
	o.has_freq = o.has_smi = true;
	for (u32 i = 0; i < 3; i++) {
		o.fault_total[i] = o.clear_total[i] = f[i];
		o.eff_khz[i] = 2000000;
	}
	o.eff_khz[2] = 2100000;		/* 3.4% off the median, 2030000 */
	o.eff_khz[1] = 2030000;		/* run 0: 1.5% off, within 2% */
	o.smis[0] = 1;
	bench_rec_summary(&w, &d, &o, "ok", NULL, 1000000);
	EXPECT(strstr(last, "flagged=\"run 0: 1 SMI; run 2: 2100000 kHz, 3.4% "
		      "off the median\"") != NULL, "%s", last);
	o.smis[0] = 0;
	o.eff_khz[2] = 2000000;
	bench_rec_summary(&w, &d, &o, "ok", NULL, 1000000);
	EXPECT(!strstr(last, "flagged"), "%s", last);
}

static char lines[4][RECORD_MAX + 8];
static u32 nlines;

static void keep(void *ctx, const char *line)
{
	(void)ctx;
	if (nlines < 4)
		strlcpy(lines[nlines], line, sizeof(lines[0]));
	nlines++;
}

/* clamp=off: a configuration that cannot have its size fails without
 * running (no pass, no op called), its config record saying why; a
 * clamped one's record says so under clamped=. */
TEST(config_fails_without_running)
{
	static struct bench_outcome o;
	struct hz_config c;
	struct bench_desc d;
	struct rec_writer w;
	struct bench_job j;

	config_defaults(&c);
	memset(&d, 0, sizeof(d));
	memset(&j, 0, sizeof(j));
	d.c = &c;
	d.name[0] = 'x';
	d.bench = d.folio = d.clear = d.order = "x";
	d.size = 22 * MiB;
	d.clamped = "the most that fit in free memory";
	rec_writer_init(&w, keep, NULL);
	j.w = &w;
	j.d = &d;
	j.o = &o;
	j.tsc_hz = 1000000;
	j.fail = "size=64M of 2M folios: 11 of 32 fit (clamp=off)";
	nlines = 0;
	EXPECT(!bench_run_config(&j, NULL));
	EXPECT_EQ(nlines, 2);
	EXPECT(strstr(lines[0], "clamped=\"the most that fit in free memory\"")
	       != NULL, "%s", lines[0]);
	EXPECT(strstr(lines[1], "status=fail") != NULL, "%s", lines[1]);
	EXPECT(strstr(lines[1], "11 of 32 fit (clamp=off)") != NULL, "%s",
	       lines[1]);
	EXPECT_EQ(o.failures, 1);
	/* Unclamped: no such field. */
	d.clamped = NULL;
	nlines = 0;
	EXPECT(!bench_run_config(&j, "a reason"));
	EXPECT(!strstr(lines[0], "clamped"), "%s", lines[0]);
	EXPECT(strstr(lines[1], "status=skip") != NULL, "%s", lines[1]);
}

/*
 * A fault served by a folio zeroed in advance (clear 0) holds one timer
 * pair, the others two: each is netted by its own, as the host tools do
 * (scripts/hzlib/results.py sample_timers()).
 */
TEST(prezeroed_faults_net_one_pair)
{
	static struct bench_outcome o;
	u64 fault[4] = { 1100, 150, 1300, 130 };	/* 2nd, 4th pre-zeroed */
	u64 clear[4] = { 800, 0, 900, 0 };
	u64 scratch[4];
	struct bench_pass p;

	memset(&o, 0, sizeof(o));
	memset(&p, 0, sizeof(p));
	o.net_of = 30;
	o.fault_net_of = 70;
	p.faults = 4;
	p.fault = fault;
	p.clear = clear;
	p.prezeroed = 2;
	bench_keep_run(&o, &p, scratch);
	/* 1030 + 120 + 1230 + 100; clears 770 + 0 + 870 + 0 */
	EXPECT_EQ(o.fault_total[0], 2480);
	EXPECT_EQ(o.clear_total[0], 1640);
	/* nets 100, 120, 1030, 1230: (120 + 1030) / 2 */
	EXPECT_EQ(o.fault_med[0], 575);
	/* overheads 260, 120, 360, 100 */
	EXPECT_EQ(o.over_med[0], 190);
	/* The caller's samples stay raw. */
	EXPECT_EQ(fault[1], 150);
	/* Without pre-zeroing every fault is net of both pairs. */
	p.prezeroed = 0;
	clear[1] = clear[3] = 50;
	bench_keep_run(&o, &p, scratch);
	EXPECT_EQ(o.fault_total[1], 2680 - 4 * 70);
}

/* fits_llc counts every region on the LLC: 4 regions of 10M against a
 * 32M L3 are 40M, under 4 x 32M; 16 of them are not. */
TEST(fits_llc_counts_every_region_on_the_llc)
{
	struct hz_config c;
	struct bench_desc d;
	struct rec_writer w;

	config_defaults(&c);
	memset(&d, 0, sizeof(d));
	d.c = &c;
	d.bench = d.folio = d.clear = d.order = "x";
	d.size = 10 * MiB;
	d.llc = 32 * MiB;
	rec_writer_init(&w, sink, NULL);
	bench_rec_config(&w, &d);
	EXPECT(strstr(last, " fits_llc=1 ") && !strstr(last, "llc_regions"),
	       "%s", last);
	d.llc_regions = 4;
	bench_rec_config(&w, &d);
	EXPECT(strstr(last, " fits_llc=1 llc_regions=4 "), "%s", last);
	d.llc_regions = 16;
	bench_rec_config(&w, &d);
	EXPECT(strstr(last, " fits_llc=0 llc_regions=16 "), "%s", last);
	d.llc = 0;		/* unknown: never said to fit */
	bench_rec_config(&w, &d);
	EXPECT(strstr(last, " fits_llc=0 "), "%s", last);
}

/* runs=auto's precision in the config record as the line takes it, and
 * as --help shows the key (one function, precision_format). */
TEST(config_record_writes_precision_as_given)
{
	static const struct { u64 x100; const char *text; } cases[] = {
		{ 500, "5" }, { 250, "2.5" }, { 1, "0.01" }, { 10, "0.1" },
		{ 123, "1.23" }, { 10000, "100" },
	};
	struct hz_config c;
	struct bench_desc d;
	struct rec_writer w;
	char want[32], shown[32];

	config_defaults(&c);
	c.runs_auto = true;
	memset(&d, 0, sizeof(d));
	d.c = &c;
	d.bench = d.folio = d.clear = d.order = "x";
	rec_writer_init(&w, sink, NULL);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		c.precision_x100 = cases[i].x100;
		bench_rec_config(&w, &d);
		ksnprintf(want, sizeof(want), " runs=auto precision=%s ",
			  cases[i].text);
		EXPECT(strstr(last, want), "%s", last);
		show_precision(NULL, &c.precision_x100, shown, sizeof(shown));
		EXPECT_STR(shown, cases[i].text);
	}
}

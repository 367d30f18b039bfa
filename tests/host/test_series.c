// SPDX-License-Identifier: GPL-2.0-only
/*
 * The series flags in integers (lib/series.c) against the host's
 * reference, scripts/hzlib/series.py: tests/host/series_ref.py prints
 * ~1900 series (steady, drifting, bimodal, tied, constant, 1 to 1000
 * passes, and each n's critical |S| and one step below it) with what
 * series.py says of each; every one must read the same here: the word,
 * S and the separation x 100.  Run from the tree's top (make test-host,
 * tests/run.py), with /usr/bin/python3.
 */
#include <stdlib.h>
#include "lib/outcome.h"
#include "lib/params.h"
#include "lib/record.h"
#include "lib/series.h"
#include "tests/host/unit.h"

#define REF "/usr/bin/python3 tests/host/series_ref.py"

struct ref_counts {
	u32 lines, diff, exact_edge, drift, bimodal, inf, untested;
};

static void field(char *buf, size_t n, const struct series_check *c,
		  int which)
{
	if (which == 0)
		snprintf(buf, n, "%s", series_word(c));
	else if (which == 1 && !c->drift_tested)
		snprintf(buf, n, "-");
	else if (which == 1)
		snprintf(buf, n, "%lld", (long long)c->drift_s);
	else if (!c->bimodal_tested)
		snprintf(buf, n, "-");
	else if (c->sep_inf)
		snprintf(buf, n, "inf");
	else
		snprintf(buf, n, "%llu", (unsigned long long)c->sep_x100);
}

/* One reference line: its series, checked here, against its verdict. */
static bool one_line(char *line, struct ref_counts *k)
{
	static u64 x[SERIES_MAX_N], scratch[SERIES_MAX_N];
	char *p = line, *end, *want[3], got[3][32];
	struct series_check c;
	u32 n = (u32)strtoul(p, &end, 10);

	if (end == p || n > SERIES_MAX_N)
		return false;
	for (u32 i = 0; i < n; i++) {
		p = end;
		x[i] = strtoull(p, &end, 10);
		if (end == p)
			return false;
	}
	p = strchr(end, ':');
	if (!p)
		return false;
	want[0] = strtok(p + 1, " \n");
	want[1] = strtok(NULL, " \n");
	want[2] = strtok(NULL, " \n");
	if (!want[2])
		return false;
	series_check(x, n, scratch, &c);
	for (int i = 0; i < 3; i++)
		field(got[i], sizeof(got[i]), &c, i);
	k->lines++;
	k->drift += c.drift;
	k->bimodal += c.bimodal;
	k->inf += c.sep_inf;
	k->untested += !c.drift_tested;
	if (strcmp(got[0], want[0]) || strcmp(got[1], want[1]) ||
	    strcmp(got[2], want[2])) {
		if (k->diff++ < 5)
			EXPECT(0, "n=%u: here %s S=%s sep=%s, series.py %s S=%s "
			       "sep=%s", n, got[0], got[1], got[2], want[0],
			       want[1], want[2]);
	}
	return true;
}

TEST(series_matches_series_py)
{
	struct ref_counts k = { 0 };
	u32 promised = 0;
	size_t cap = 0;
	char *line = NULL;
	FILE *f = popen(REF, "r");

	EXPECT(f, "cannot run %s", REF);
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		if (line[0] == '.') {
			promised = (u32)strtoul(line + 1, NULL, 10);
			continue;
		}
		EXPECT(one_line(line, &k), "unreadable: %.60s", line);
	}
	free(line);
	EXPECT(pclose(f) == 0, "%s failed (run from the tree's top)", REF);
	EXPECT(promised && k.lines == promised, "read %u of %u series",
	       k.lines, promised);
	EXPECT(k.diff == 0, "%u of %u series differ", k.diff, k.lines);
	/* the reference reached every branch */
	EXPECT(k.drift > 100 && k.bimodal > 100 && k.inf >= 2 &&
	       k.untested > 50, "drift %u bimodal %u inf %u untested %u",
	       k.drift, k.bimodal, k.inf, k.untested);
}

/* The critical |S| by hand: n = 6 needs a perfect order (S = ±15,
 * p = 2/720); 14 of 15 (p = 0.0167) is not enough.  With ties, the
 * normal approximation. */
TEST(series_drift_by_hand)
{
	u64 up[6] = { 1, 2, 3, 4, 5, 6 }, one_off[6] = { 2, 1, 3, 4, 5, 6 };
	u64 down[6] = { 6, 5, 4, 3, 2, 1 }, tied[8] = { 1, 2, 2, 3, 4, 5, 6, 7 };
	u64 s[8];
	struct series_check c;

	series_check(up, 6, s, &c);
	EXPECT(c.drift_tested && c.drift && c.drift_s == 15 && !c.bimodal_tested);
	EXPECT_STR(series_word(&c), "drift");
	series_check(down, 6, s, &c);
	EXPECT(c.drift && c.drift_s == -15);
	series_check(one_off, 6, s, &c);
	EXPECT(!c.drift && c.drift_s == 13);
	EXPECT_STR(series_word(&c), "ok");
	/* S = 27, V = 8·7·21 − 2·1·9 = 1158: z = 26/√64.33 = 3.24 */
	series_check(tied, 8, s, &c);
	EXPECT(c.drift && c.drift_s == 27, "S %lld", (long long)c.drift_s);
	series_check(up, 5, s, &c);
	EXPECT(!c.drift_tested && !c.bimodal_tested);
	EXPECT_STR(series_word(&c), "untested");
	series_check(up, 0, s, &c);
	EXPECT_STR(series_word(&c), "untested");
}

/* The gap test by hand: 4 at 10 and 4 at 20, each group ±1: means 10
 * apart, pooled sd √(8/6), sep = 8.66 > G(8) = 7.5 */
TEST(series_gap_by_hand)
{
	u64 x[8] = { 9, 21, 11, 19, 9, 21, 11, 19 }, s[8];
	u64 flat[8] = { 7, 7, 7, 7, 7, 7, 7, 7 };
	struct series_check c;

	series_check(x, 8, s, &c);
	EXPECT(c.bimodal_tested && c.bimodal && !c.sep_inf &&
	       c.sep_x100 == 866, "%llu", (unsigned long long)c.sep_x100);
	EXPECT(!c.drift);
	EXPECT_STR(series_word(&c), "bimodal");
	series_check(flat, 8, s, &c);
	EXPECT(!c.bimodal && !c.drift && c.sep_x100 == 0 && c.drift_s == 0);
	EXPECT_STR(series_word(&c), "ok");
	EXPECT(x[0] == 9 && x[7] == 19, "the series is not sorted");
}

/* Free of the unit and of an offset: shifted up to 2⁶⁴ (the gap test
 * takes the passes less the least, below 2³²), the same verdicts, and
 * no overflow at the largest values and 1000 passes. */
TEST(series_free_of_the_unit)
{
	static u64 x[SERIES_MAX_N], y[SERIES_MAX_N], s[SERIES_MAX_N];
	struct series_check a, b;

	srand(24);
	for (u32 i = 0; i < SERIES_MAX_N; i++)
		x[i] = 1000000 + (u64)(rand() % 4000) + (i % 2) * 9000 + i;
	series_check(x, SERIES_MAX_N, s, &a);
	EXPECT(a.drift && a.bimodal, "%s", series_word(&a));
	for (u32 k = 0; k <= 40; k += 8) {
		for (u32 i = 0; i < SERIES_MAX_N; i++)
			y[i] = (x[i] << k) + (~0ULL >> 24);
		series_check(y, SERIES_MAX_N, s, &b);
		EXPECT(b.drift_s == a.drift_s && b.sep_x100 == a.sep_x100 &&
		       b.bimodal == a.bimodal, "<< %u: %llu, %llu", k,
		       (unsigned long long)b.sep_x100,
		       (unsigned long long)a.sep_x100);
	}
	for (u32 i = 0; i < SERIES_MAX_N; i++)
		y[i] = i % 2 ? ~0ULL - ((u64)i << 40) : (u64)i << 40;
	series_check(y, SERIES_MAX_N, s, &b);
	EXPECT(b.bimodal && !b.sep_inf && !b.drift, "%s",
	       series_word(&b));
	series_check(y, SERIES_MAX_N + 1, s, &b);
	EXPECT_STR(series_word(&b), "untested");
}

static char summary[RECORD_MAX + 8];

static void sink(void *ctx, const char *line)
{
	(void)ctx;
	strlcpy(summary, line, sizeof(summary));
}

/* The summary says series= whenever measured passes ran, drift_s from 6
 * of them, bimodal_sep_x100 from 8; nothing without passes (skip). */
TEST(series_in_the_summary)
{
	static struct bench_outcome o;
	static const u64 x[9] = { 9, 21, 11, 19, 9, 21, 11, 19, 15 };
	struct hz_config c;
	struct bench_desc d;
	struct rec_writer w;

	config_defaults(&c);
	memset(&d, 0, sizeof(d));
	memset(&o, 0, sizeof(o));
	d.c = &c;
	d.size = 3000;
	rec_writer_init(&w, sink, NULL);
	bench_rec_summary(&w, &d, &o, "skip", "no", 1000000);
	EXPECT(!strstr(summary, "series"), "%s", summary);
	for (u32 i = 0; i < 9; i++) {
		o.clear_total[i] = 1000;
		o.gibps[i] = x[i];
	}
	o.nruns = 5;
	bench_rec_summary(&w, &d, &o, "ok", NULL, 1000000);
	EXPECT(strstr(summary, " series=untested ") &&
	       !strstr(summary, "drift_s") && !strstr(summary, "bimodal_sep"),
	       "%s", summary);
	o.nruns = 6;
	bench_rec_summary(&w, &d, &o, "ok", NULL, 1000000);
	EXPECT(strstr(summary, " series=ok drift_s=3 ") &&
	       !strstr(summary, "bimodal_sep"), "%s", summary);
	o.nruns = 8;
	bench_rec_summary(&w, &d, &o, "ok", NULL, 1000000);
	EXPECT(strstr(summary, " series=bimodal drift_s=4 bimodal_sep_x100=866 "),
	       "%s", summary);
	/* two groups without spread: unbounded */
	for (u32 i = 0; i < 8; i++)
		o.gibps[i] = i % 2 ? 20 : 10;
	bench_rec_summary(&w, &d, &o, "ok", NULL, 1000000);
	EXPECT(strstr(summary, " series=bimodal drift_s=4 bimodal_sep_x100=inf "),
	       "%s", summary);
}

// SPDX-License-Identifier: GPL-2.0-only
/* Self-tests: the TSC as a timebase. */
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/tsc.h"
#include "kernel/main.h"
#include "kernel/selftest/selftest.h"
#include "kernel/timebase.h"
#include "lib/calib.h"
#include "lib/string.h"

static void monotonic(struct tctx *t)
{
	u64 prev = tsc_begin(), backwards = 0;

	for (u32 i = 0; i < 100000; i++) {
		u64 now = tsc_begin();

		backwards += now < prev;
		prev = now;
	}
	check(t, backwards == 0, "TSC went backwards %llu times in 100000 "
	      "reads", (unsigned long long)backwards);
}

static void invariant(struct tctx *t)
{
	if (!cpu_info.has_invariant_tsc) {
		skip(t, "CPU does not report an invariant TSC "
		     "(CPUID 80000007h:EDX[8] clear)");
		return;
	}
	check(t, timebase.invariant, "invariant TSC not recorded");
}

static void calibrated(struct tctx *t)
{
	check(t, timebase.tsc_hz >= 100000000ULL &&
	      timebase.tsc_hz <= 10000000000ULL, "TSC at %llu Hz is not "
	      "plausible", (unsigned long long)timebase.tsc_hz);
	check(t, timebase.source[0] && timebase.source[0] != 'n',
	      "no reference clock usable");
}

/*
 * Outliers are reported and left out; with two references that disagree
 * neither can be, and the case fails.  One reference has nothing to agree
 * with.
 */
static void references_agree(struct tctx *t)
{
	const struct timebase *tb = &timebase;

	if (tb->nprecise < 2) {
		skip(t, "%u precise reference%s: nothing to compare",
		     tb->nprecise, tb->nprecise == 1 ? "" : "s");
		return;
	}
	for (u32 i = 0; i < tb->nest; i++)
		if (tb->est[i].outlier)
			note(t, "%s is an outlier: %+lld ppm vs %s, beyond the "
			     "%llu ppm the other %u agree within; not used",
			     tb->est[i].name,
			     (long long)ppm_diff(tb->est[i].tsc_hz, tb->tsc_hz),
			     tb->source,
			     (unsigned long long)config.tsc_tolerance_ppm,
			     tb->nconsensus);
	check(t, tb->nconsensus >= 2, "%s", tb->no_consensus);
}

/*
 * A window that lost a wrap of its reference would be whole factors off
 * its siblings; stalls that hide nothing cost only the read bracket.  So
 * every kept run must be within tolerance of its reference's median.
 */
static void runs_agree(struct tctx *t)
{
	u32 checked = 0;

	for (u32 i = 0; i < timebase.nest; i++) {
		const struct tb_estimate *e = &timebase.est[i];

		if (!e->usable || !e->runs[0])
			continue;
		checked++;
		for (u32 r = 0; r < TB_RUNS; r++) {
			s64 d = ppm_diff(e->runs[r], e->tsc_hz);

			check(t, d >= -(s64)config.tsc_tolerance_ppm &&
			      d <= (s64)config.tsc_tolerance_ppm,
			      "%s run %u: %llu Hz, %+lld ppm from its median",
			      e->name, r + 1, (unsigned long long)e->runs[r],
			      (long long)d);
		}
		if (e->retries)
			note(t, "%s: %u window%s measured again after a stall",
			     e->name, e->retries, e->retries == 1 ? "" : "s");
	}
	if (!checked)
		skip(t, "no reference was measured over windows");
}

/* Estimates as a lost PIT wrap left them once, then only two of them. */
static void decide(struct timebase *tb, u32 n)
{
	static const char *const names[] = { "hpet", "pmtimer", "pit" };
	static const u64 hz[] = { 2596144074, 2596137616, 5220000000 };

	memset(tb, 0, sizeof(*tb));
	for (u32 i = 0; i < n; i++) {
		tb->est[i].name = names[n == 2 ? i + 1 : i];
		tb->est[i].tsc_hz = hz[n == 2 ? i + 1 : i];
		tb->est[i].usable = true;
	}
	tb->nest = n;
	timebase_decide(tb, 2000);
}

static void outlier_rule(struct tctx *t)
{
	static struct timebase tb;

	decide(&tb, 3);
	check(t, tb.est[2].outlier && !tb.est[0].outlier &&
	      !tb.est[1].outlier, "5.22 GHz beside two at 2.596 GHz is not "
	      "the only outlier");
	check(t, tb.nconsensus == 2 && tb.tsc_hz == 2596144074,
	      "consensus of %u, %llu Hz from %s", tb.nconsensus,
	      (unsigned long long)tb.tsc_hz, tb.source);
	decide(&tb, 2);
	check(t, !tb.nconsensus && !tb.est[0].outlier && !tb.est[1].outlier,
	      "of two that disagree, one was called the outlier");
	check(t, tb.no_consensus[0], "no reason given for no consensus");
}

static void read_overhead(struct tctx *t)
{
	check(t, timebase.overhead_min > 0 && timebase.overhead_median < 100000,
	      "tsc_begin..tsc_end overhead min %llu median %llu ticks",
	      (unsigned long long)timebase.overhead_min,
	      (unsigned long long)timebase.overhead_median);
}

SUITE(suite_tsc, "tsc",
	{ "monotonic", monotonic },
	{ "invariant", invariant },
	{ "calibrated", calibrated },
	{ "references_agree", references_agree },
	{ "runs_agree", runs_agree },
	{ "outlier_rule", outlier_rule },
	{ "read_overhead", read_overhead },
);

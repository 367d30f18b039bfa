// SPDX-License-Identifier: GPL-2.0-only
/* Self-tests: the TSC as a timebase. */
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/tsc.h"
#include "kernel/main.h"
#include "kernel/selftest/selftest.h"
#include "kernel/timebase.h"

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

static void references_agree(struct tctx *t)
{
	check(t, timebase.nprecise >= 2, "only %u independent references",
	      timebase.nprecise);
	check(t, timebase.max_disagreement_ppm <= config.tsc_tolerance_ppm,
	      "references disagree by %llu ppm (tolerance %llu)",
	      (unsigned long long)timebase.max_disagreement_ppm,
	      (unsigned long long)config.tsc_tolerance_ppm);
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
	{ "read_overhead", read_overhead },
);

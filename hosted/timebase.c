// SPDX-License-Identifier: GPL-2.0-only
/*
 * The TSC under Linux: calibrated against CLOCK_MONOTONIC_RAW (the
 * kernel's own clock source, unslewed), three windows of 100 ms, median.
 */

#include <stdio.h>
#include <time.h>
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/tsc.h"
#include "hosted/companion.h"
#include "lib/calib.h"
#include "lib/stats.h"

bool tsc_has_rdtscp;
u64 tsc_hz;
u64 tsc_overhead;

static u64 now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return (u64)t.tv_sec * 1000000000ULL + (u64)t.tv_nsec;
}

static u64 window(void)
{
	u64 n0 = now_ns(), t0 = rdtsc(), n1, t1;
	struct timespec d = { 0, 100000000 };

	nanosleep(&d, NULL);
	n1 = now_ns();
	t1 = rdtsc();
	return calib_hz(t1 - t0, n1 - n0, 1000000000ULL);
}

void timebase_calibrate(void)
{
	u64 v[3], lo, hi, d[1024];
	char refs[64];
	struct timebase_id tb;

	tsc_has_rdtscp = cpu_info.has_rdtscp;
	for (int i = 0; i < 3; i++)
		v[i] = window();
	tsc_hz = median_u64(v, 3);
	lo = v[0];
	hi = v[2];
	for (u32 i = 0; i < 1024; i++) {
		u64 a = tsc_begin(), b = tsc_end();

		d[i] = b - a;
	}
	snprintf(refs, sizeof(refs), "clock_monotonic_raw:%llu",
		 (unsigned long long)tsc_hz);
	tb = (struct timebase_id){
		tsc_hz, "clock_monotonic_raw", refs, cpu_info.has_invariant_tsc,
		(u64)(ppm_diff(hi, lo) < 0 ? -ppm_diff(hi, lo) : ppm_diff(hi, lo)),
		0, median_u64(d, 1024), NULL, NULL, 0,
	};
	tb.overhead_min = d[0];
	tsc_overhead = tb.overhead_median;
	bench_rec_timebase(&records, &tb);
}

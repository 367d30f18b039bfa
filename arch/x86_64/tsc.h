/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_TSC_H
#define ARCH_TSC_H

#include "lib/types.h"

/*
 * Serialized TSC reads for timing a region (Intel's "How to Benchmark
 * Code Execution Times" pattern): LFENCE before RDTSC keeps earlier
 * instructions from drifting past the start read, LFENCE after keeps
 * later ones from starting before it.  At the end, MFENCE first: RDTSCP
 * waits for earlier instructions and loads but not for stores to become
 * globally visible, so without it the tail of a clear (its store buffer,
 * and the non-temporal stores an SFENCE only orders) would land in
 * whatever is timed next -- the fault overhead.  The SDM's recipe (RDTSC
 * and RDTSCP in vol. 2B): "MFENCE ... immediately before RDTSCP", and
 * "MFENCE followed by LFENCE immediately before RDTSC".  LFENCE is
 * dispatch-serializing on Intel and on AMD since Zen (Linux sets the MSR
 * that makes it so on older AMD).  arch/x86_64/workload.asm reads the
 * TSC with the same instructions, so the empty pair measured at boot is
 * the overhead of every timed region.
 */
static inline u64 tsc_begin(void)
{
	u32 lo, hi;

	__asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) : : "memory");
	return ((u64)hi << 32) | lo;
}

/* Set at boot from CPUID; qemu64 and some old CPUs lack RDTSCP. */
extern bool tsc_has_rdtscp;

static inline u64 tsc_end(void)
{
	u32 lo, hi;

	if (__builtin_expect(tsc_has_rdtscp, 1))
		__asm__ volatile("mfence; rdtscp; lfence"
				 : "=a"(lo), "=d"(hi) : : "rcx", "memory");
	else
		__asm__ volatile("mfence; lfence; rdtsc; lfence"
				 : "=a"(lo), "=d"(hi) : : "memory");
	return ((u64)hi << 32) | lo;
}

/* Plain read, for calibration brackets and coarse waits. */
static inline u64 rdtsc(void)
{
	u32 lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

/*
 * Integer work, no memory traffic, until the TSC reaches @end: a busy
 * core for APERF/MPERF to measure (the boost checks, kernel/boost.c and
 * hosted/boost_effect.c).
 */
static inline void tsc_busy_until(u64 end)
{
	u64 x = 1;

	while (rdtsc() < end)
		for (u32 i = 0; i < 256; i++) {
			x = x * 3 + 1;
			__asm__ volatile("" : "+r"(x));
		}
}

#endif

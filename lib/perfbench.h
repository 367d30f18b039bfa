/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_PERFBENCH_H
#define LIB_PERFBENCH_H

#include "lib/record.h"
#include "lib/types.h"

/*
 * The figure `perf bench mem mmap -f demand` prints, kept beside the
 * companion's own (docs/companion.md).  perf (tools/perf/bench/
 * mem-functions.c, do_mmap_thread() and __bench_mem_function()) times
 * each loop's mmap() and touch loop with gettimeofday(), munmap() outside
 * the timer, adds the loops' times, counts every loop (the first too)
 * and prints size * loops over that sum in 2^30 bytes a second
 * ("GB/sec").  Here a loop is one pass of the configuration, timed on the
 * wall clock in nanoseconds.
 */
struct perfbench {
	u32 loops;
	u64 bytes, ns;			/* summed over every loop */
	u64 first_bytes, first_ns;	/* the first loop alone */
};

/*
 * Whether @backing (the companion's hugetlb, thp, base; NULL in the
 * kernel) is memory perf bench mem mmap maps: hugetlb only, its -p 2MB
 * or 1GB (do_mmap(): MAP_HUGETLB); its 4KB mapping is neither madvised
 * nor hugetlb, so not the companion's thp or base.  Elsewhere the figure
 * is absent, never 0.
 */
bool perfbench_backing(const char *backing);
/* One loop of @bytes that took @ns of wall time. */
void perfbench_add(struct perfbench *pb, u64 bytes, u64 ns);
/* 2^30 B/s x 1000 of @bytes in @ns nanoseconds, rounded down; 0 for no time. */
u64 perfbench_gibps_milli(u64 bytes, u64 ns);
/* perfbench_gibps_milli, perfbench_loops, perfbench_first_gibps_milli
 * into a summary record; nothing without a loop. */
void perfbench_rec(struct rec *r, const struct perfbench *pb);

#endif

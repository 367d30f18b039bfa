// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf bench mem mmap's arithmetic, on the companion's passes: every
 * loop's bytes over the sum of every loop's wall time.  Unlike the
 * companion's own figure (lib/outcome.c: the mean of per-run GB/s over the
 * faults' TSC windows, warm-ups left out), the first loop is in it, and a
 * slow loop weighs by its time, not as one run among n.
 */
#include "lib/calib.h"
#include "lib/perfbench.h"
#include "lib/string.h"

#define NSEC_PER_SEC 1000000000ULL

bool perfbench_backing(const char *backing)
{
	return backing && !strcmp(backing, "hugetlb");
}

void perfbench_add(struct perfbench *pb, u64 bytes, u64 ns)
{
	if (!pb->loops) {
		pb->first_bytes = bytes;
		pb->first_ns = ns;
	}
	pb->loops++;
	pb->bytes += bytes;
	pb->ns += ns;
}

u64 perfbench_gibps_milli(u64 bytes, u64 ns)
{
	return ns ? mul_div_u64(bytes * 1000, NSEC_PER_SEC, ns) >> 30 : 0;
}

void perfbench_rec(struct rec *r, const struct perfbench *pb)
{
	if (!pb->loops)
		return;
	rec_u64(r, "perfbench_gibps_milli",
		perfbench_gibps_milli(pb->bytes, pb->ns));
	rec_u64(r, "perfbench_loops", pb->loops);
	rec_u64(r, "perfbench_first_gibps_milli",
		perfbench_gibps_milli(pb->first_bytes, pb->first_ns));
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sizes of one CPU's bench=fault state and of the room a group keeps
 * free beside its pools (lib/benchsize.h).
 */
#include "lib/benchsize.h"
#include "lib/params.h"

u32 bench_faults_cap(const struct bench_size_in *in)
{
	u64 ncpus = in->ncpus ? in->ncpus : 1, cap = 0;

	for (u32 f = 0; f < FOLIO_COUNT; f++) {
		u64 b = folio_bytes[f], n;

		if (!(in->folios >> f & 1))
			continue;
		n = MIN(in->size / b, (u64)in->max_faults);
		n = MIN(n, in->region_max / b);
		/* The share: what the pools could give each CPU at most. */
		n = MIN(n, in->free_bytes / ncpus / b);
		cap = MAX(cap, n);
	}
	return (u32)MAX(cap, 1ULL);
}

u64 bench_array_bytes(u64 n, u64 elem)
{
	/* n * elem wraps only past 2^64 bytes: none of ours come near. */
	return MAX(ALIGN_UP(n * elem, (u64)SZ_4K), (u64)SZ_4K);
}

u64 bench_slack(u64 base, u64 per_cpu, u32 ncpus)
{
	if (per_cpu && ncpus > (~0ULL - base) / per_cpu)
		return ~0ULL;
	return base + per_cpu * ncpus;
}

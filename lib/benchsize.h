/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_BENCHSIZE_H
#define LIB_BENCHSIZE_H

#include "lib/types.h"

/*
 * How much one CPU's bench=fault state holds, sized by the configuration
 * and the memory there is rather than by the largest run anyone could
 * ask for: Linux sizes each CPU's per-CPU unit by what is used
 * (mm/percpu.c, pcpu_embed_first_chunk(): static + reserved + dynamic
 * size, no more), so 384 CPUs cost 384 times what one needs.
 */
struct bench_size_in {
	u64 folios;		/* bitmask of enum folio_size (folio=) */
	u64 size;		/* size=: bytes of region per configuration */
	u64 free_bytes;		/* free memory now */
	u32 ncpus;		/* the CPUs sharing it (0 counts as 1) */
	u32 max_faults;		/* the most one run records */
	u64 region_max;		/* the most one region maps */
};

/*
 * The most folios one run on one CPU can have, over every folio size of
 * @in->folios: size= of them, no more than one run records or one region
 * maps, and no more than the CPU's share of free memory holds (pools
 * never get more: they are made after, from what is left).  At least 1.
 */
u32 bench_faults_cap(const struct bench_size_in *in);

/* Whole 4K pages for @n entries of @elem bytes; one page at least. */
u64 bench_array_bytes(u64 n, u64 elem);

/*
 * The room a group leaves free beside its pools for what its CPUs
 * allocate while they run: @base for the group, @per_cpu for each of
 * @ncpus.  Saturates rather than wraps.
 */
u64 bench_slack(u64 base, u64 per_cpu, u32 ncpus);

#endif

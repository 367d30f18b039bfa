// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/benchsize.c: a CPU's state sized by size=, the most one run
 * records or one region maps, and its share of free memory, at 1 to
 * 1024 CPUs; array pages; the group's slack, saturating.
 */
#include "lib/benchsize.h"
#include "lib/params.h"
#include "tests/host/unit.h"

#define MAXF (2u * 1024 * 1024 / 8)	/* kernel/bench/workload.h's */
#define REGION (1ULL << 40)

static u32 cap(u64 folios, u64 size, u64 free, u32 ncpus)
{
	struct bench_size_in in = { folios, size, free, ncpus, MAXF, REGION };

	return bench_faults_cap(&in);
}

TEST(benchsize_by_size)
{
	/* The 288-CPU boot of issue 32: one 2M folio each, whatever the
	 * memory. */
	EXPECT_EQ(cap(1u << FOLIO_2M, SZ_2M, 2 * GiB, 288), 1);
	EXPECT_EQ(cap(1u << FOLIO_2M, 8 * MiB, 64 * GiB, 1), 4);
	/* The largest over the folio sizes asked: 4K's count. */
	EXPECT_EQ(cap(1u << FOLIO_4K | 1u << FOLIO_2M, 8 * MiB, 64 * GiB, 4),
		  2048);
	/* The most one run records. */
	EXPECT_EQ(cap(1u << FOLIO_4K, 64 * GiB, 1ULL << 50, 1), MAXF);
}

TEST(benchsize_by_share_of_free_memory)
{
	/* size=1G of 4K folios on 384 CPUs with 2 GiB free: 1365 each. */
	EXPECT_EQ(cap(1u << FOLIO_4K, GiB, 2 * GiB, 384), 1365);
	/* 1024 CPUs with 64 MiB free: 16 each. */
	EXPECT_EQ(cap(1u << FOLIO_4K, GiB, 64 * MiB, 1024), 16);
	/* No share at all still gives a page of arrays: pools say why. */
	EXPECT_EQ(cap(1u << FOLIO_1G, 4 * GiB, 2 * GiB, 288), 1);
	EXPECT_EQ(cap(1u << FOLIO_2M, SZ_2M, 0, 1), 1);
	/* 0 CPUs counts as 1, not a division by zero. */
	EXPECT_EQ(cap(1u << FOLIO_2M, 16 * MiB, 8 * MiB, 0), 4);
}

TEST(benchsize_by_region)
{
	/* 1G folios: 1 TiB of region maps 1024 of them. */
	EXPECT_EQ(cap(1u << FOLIO_1G, 4096 * GiB, 1ULL << 60, 1), 1024);
	/* No folio size asked: still one. */
	EXPECT_EQ(cap(0, GiB, GiB, 1), 1);
}

TEST(benchsize_array_pages)
{
	EXPECT_EQ(bench_array_bytes(0, 8), SZ_4K);
	EXPECT_EQ(bench_array_bytes(1, 8), SZ_4K);
	EXPECT_EQ(bench_array_bytes(512, 8), SZ_4K);
	EXPECT_EQ(bench_array_bytes(513, 8), 2 * SZ_4K);
	EXPECT_EQ(bench_array_bytes(MAXF, 8), SZ_2M);
	EXPECT_EQ(bench_array_bytes(1365, 24), 8 * SZ_4K);
}

TEST(benchsize_slack)
{
	EXPECT_EQ(bench_slack(MiB, 0, 384), MiB);
	EXPECT_EQ(bench_slack(MiB, 24 * KiB, 384), MiB + 384 * 24 * KiB);
	EXPECT_EQ(bench_slack(MiB, 24 * KiB, 0), MiB);
	EXPECT_EQ(bench_slack(~0ULL - 1, 2, 1), ~0ULL);
	EXPECT_EQ(bench_slack(1, 1ULL << 62, 8), ~0ULL);
}

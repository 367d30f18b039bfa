// SPDX-License-Identifier: GPL-2.0-only
/* Host tests of lib/llc.c (fits_llc itself: test_stats_record.c). */
#include "lib/llc.h"
#include "tests/host/unit.h"

TEST(llc_count_order_as_linux)
{
	EXPECT_EQ(llc_count_order(0), 0);
	EXPECT_EQ(llc_count_order(1), 0);
	EXPECT_EQ(llc_count_order(2), 1);
	EXPECT_EQ(llc_count_order(12), 4);	/* 12 threads: IDs in 16s */
	EXPECT_EQ(llc_count_order(16), 4);
	EXPECT_EQ(llc_count_order(4096), 12);
}

/*
 * A Zen 4 CCX: 8 cores, 2 threads each, 16 sharing one L3 (APIC IDs
 * 0-15, 16-31, ...).  A group of CPUs across three CCXs: each counts the
 * members on its own.
 */
TEST(llc_sharers_by_apic_id)
{
	static const u32 ids[] = { 0, 1, 2, 3, 16, 17, 40 };

	EXPECT_EQ(llc_sharers(ids, 7, 0, 16), 4);
	EXPECT_EQ(llc_sharers(ids, 7, 17, 16), 2);
	EXPECT_EQ(llc_sharers(ids, 7, 40, 16), 1);
	/* One cache for 64 (an Icelake-SP socket's L3 shared by all its
	 * threads): every member. */
	EXPECT_EQ(llc_sharers(ids, 7, 40, 64), 7);
	/* Not per thread pair: 12 sharing still means APIC IDs in 16s. */
	EXPECT_EQ(llc_sharers(ids, 7, 3, 12), 4);
	/* The CPU does not say: all of them, never fewer. */
	EXPECT_EQ(llc_sharers(ids, 7, 17, 0), 7);
	/* Itself though not listed (a group without it): counted once. */
	EXPECT_EQ(llc_sharers(ids + 4, 3, 5, 16), 1);
	EXPECT_EQ(llc_sharers(NULL, 0, 5, 0), 1);
}

// SPDX-License-Identifier: GPL-2.0-only
/* Host tests of the KTAP writer and the calibration arithmetic. */
#include "lib/calib.h"
#include "lib/ktap.h"
#include "lib/string.h"
#include "tests/host/unit.h"

static char out[4096];

static void sink(void *ctx, const char *line)
{
	(void)ctx;
	strncat(out, line, sizeof(out) - strlen(out) - 1);
}

TEST(ktap_nested_output)
{
	struct ktap k;

	out[0] = '\0';
	ktap_init(&k, sink, NULL);
	ktap_start(&k, 2);
	ktap_subtest_start(&k, "mem", 3);
	ktap_result(&k, KTAP_OK, "a", NULL);
	ktap_result(&k, KTAP_FAIL, "b#c", NULL);
	ktap_diag(&k, "value %d\nsecond", 7);
	ktap_result(&k, KTAP_SKIP, "d", "no 1G pages");
	ktap_subtest_end(&k, "mem", KTAP_FAIL);
	ktap_subtest_start(&k, "empty", 0);
	ktap_subtest_end(&k, "empty", KTAP_SKIP);
	EXPECT_STR(out,
		   "KTAP version 1\n1..2\n"
		   "    KTAP version 1\n    # Subtest: mem\n    1..3\n"
		   "    ok 1 a\n    not ok 2 b_c\n    # value 7 second\n"
		   "    ok 3 d # SKIP no 1G pages\n"
		   "not ok 1 mem\n"
		   "    KTAP version 1\n    # Subtest: empty\n    1..0\n"
		   "ok 2 empty # SKIP all cases skipped\n");
	EXPECT_EQ(k.pass, 1);
	EXPECT_EQ(k.fail, 1);
	EXPECT_EQ(k.skip, 1);
}

TEST(ktap_abort_closes_every_level_failed)
{
	struct ktap k;

	out[0] = '\0';
	ktap_init(&k, sink, NULL);
	ktap_start(&k, 2);
	ktap_result(&k, KTAP_OK, "selftests", NULL);
	ktap_subtest_start(&k, "fault", 4);
	ktap_subtest_start(&k, "2M.erms", 1);
	ktap_abort(&k, "deadline");
	EXPECT_STR(out,
		   "KTAP version 1\n1..2\nok 1 selftests\n"
		   "    KTAP version 1\n    # Subtest: fault\n    1..4\n"
		   "        KTAP version 1\n        # Subtest: 2M.erms\n        1..1\n"
		   "        # aborted: deadline\n"
		   "    not ok 1 2M.erms\n"
		   "    # aborted: deadline\n"
		   "not ok 2 fault\n"
		   "not ok 3 deadline\n");
	EXPECT_EQ(k.fail, 1);
	EXPECT_EQ(k.depth, 0);
}

TEST(calib_arithmetic)
{
	/* 1e11 TSC ticks over 1e9 HPET ticks of a 100 MHz HPET: 10 GHz. */
	EXPECT_EQ(calib_hz(100000000000ULL, 1000000000ULL, 100000000ULL),
		  10000000000ULL);
	EXPECT_EQ(calib_hz(2596120436ULL / 20, 3579545 / 20, 3579545),
		  2596124046ULL);	/* floor(129806021 * 3579545 / 178977) */
	EXPECT_EQ(calib_hz(1, 0, 1), 0);
	EXPECT_EQ(mul_div_u64(~0ULL, ~0ULL, ~0ULL), ~0ULL);
	EXPECT_EQ(mul_div_u64(~0ULL, 2, 1), ~0ULL);	/* saturates */
	EXPECT_EQ(mul_div_u64(7, 3, 0), ~0ULL);
	EXPECT_EQ(ppm_diff(1000001, 1000000), 1);
	EXPECT_EQ(ppm_diff(999000, 1000000), -1000);
	EXPECT_EQ(ppm_diff(5, 0), 0);
	EXPECT_EQ(ticks_to_ns(3000000000ULL, 3000000000ULL), 1000000000ULL);
	EXPECT_EQ(ticks_to_ns(5, 0), 0);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The watchdog's rule (lib/watchdog.c) with a fake clock: bring-up and
 * TSC sync end after WD_STALL_S without progress, with or without a
 * deadline; progress restarts the bound; the run is bounded by the
 * deadline alone; and the two records it writes.
 */
#include "lib/string.h"
#include "lib/watchdog.h"
#include "tests/host/unit.h"

#define HZ 1000ull

TEST(watchdog_stall_bounds_bringup)
{
	struct wd_state s;

	wd_init(&s, HZ, 100);
	wd_enter(&s, WD_BRINGUP, 100);
	EXPECT_EQ(wd_check(&s, 100 + WD_STALL_S * HZ), WD_FINE);
	EXPECT_EQ(wd_check(&s, 101 + WD_STALL_S * HZ), WD_STALLED);
	wd_touch(&s, 3, 5000);		/* progress: cpu 3 started */
	EXPECT_EQ(wd_check(&s, 101 + WD_STALL_S * HZ), WD_FINE);
	EXPECT_EQ(s.waiting_on, 3);
	EXPECT_EQ(wd_check(&s, 5001 + WD_STALL_S * HZ), WD_STALLED);
	wd_enter(&s, WD_TSC_SYNC, 20000);
	EXPECT_EQ(s.waiting_on, ~0u);
	EXPECT_EQ(wd_check(&s, 20001 + WD_STALL_S * HZ), WD_STALLED);
	/* A clock read before the last touch is no stall. */
	EXPECT_EQ(wd_check(&s, 10), WD_FINE);
}

TEST(watchdog_run_bounded_by_deadline_only)
{
	struct wd_state s;

	wd_init(&s, HZ, 0);
	wd_enter(&s, WD_RUN, 0);
	EXPECT_EQ(wd_check(&s, 1000 * WD_STALL_S * HZ), WD_FINE);	/* deadline_s=0 */
	s.deadline = 5000;
	EXPECT_EQ(wd_check(&s, 5000), WD_FINE);
	EXPECT_EQ(wd_check(&s, 5001), WD_PAST_DEADLINE);
	/* The deadline does not end bring-up: its own bound does. */
	wd_enter(&s, WD_BRINGUP, 6000);
	EXPECT_EQ(wd_check(&s, 6001), WD_FINE);
}

static char out[1024];

static void emit(void *ctx, const char *line)
{
	(void)ctx;
	strlcpy(out + strlen(out), line, sizeof(out) - strlen(out));
}

TEST(watchdog_records)
{
	struct rec_writer w;
	struct wd_source src = { .name = "hpet", .pin = 23, .period_us = 1000000 };

	strlcpy(src.why, "HPET comparator 0 on GSI 23", sizeof(src.why));
	rec_writer_init(&w, emit, NULL);
	out[0] = '\0';
	wd_rec_source(&w, &src);
	EXPECT(strstr(out, "watchdog source=hpet") != NULL);
	EXPECT(strstr(out, "gsi=23 period_us=1000000 stall_s=10") != NULL);
	out[0] = '\0';
	wd_rec_hang(&w, "tsc-sync", "watchdog", 1, "", "hung");
	EXPECT(strstr(out, "hang phase=tsc-sync by=watchdog cpu=1 unstopped=none") != NULL);
	out[0] = '\0';
	wd_rec_hang(&w, "run", "deadline", ~0u, "2-3", "late");
	EXPECT(strstr(out, "cpu=") == NULL);
	EXPECT(strstr(out, "unstopped=2-3") != NULL);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The watchdog's rule (lib/watchdog.c) with a fake clock: bring-up and
 * TSC sync end after their stall bound without progress, with or without a
 * deadline; progress restarts the bound; the run is bounded by the
 * deadline alone; a source is heard by five NMIs, never one, and an
 * HPET seen armed; and the two records it writes.
 */
#include "lib/string.h"
#include "lib/watchdog.h"
#include "tests/host/unit.h"

#define HZ 1000ull
#define STALL_S 10u

TEST(watchdog_stall_follows_the_answer_bound)
{
	EXPECT_EQ(wd_stall_s(8000), 10);	/* SMP_ANSWER_MS: the real bound */
	EXPECT_EQ(wd_stall_s(2000), 4);
	EXPECT_EQ(wd_stall_s(1001), 4);		/* rounded up: never below it */
	EXPECT_EQ(wd_stall_s(100), 3);
}

TEST(watchdog_stall_bounds_bringup)
{
	struct wd_state s;

	wd_init(&s, HZ, 100, STALL_S);
	wd_enter(&s, WD_BRINGUP, 100);
	EXPECT_EQ(wd_check(&s, 100 + STALL_S * HZ), WD_FINE);
	EXPECT_EQ(wd_check(&s, 101 + STALL_S * HZ), WD_STALLED);
	wd_touch(&s, 3, 5000);		/* progress: cpu 3 started */
	EXPECT_EQ(wd_check(&s, 101 + STALL_S * HZ), WD_FINE);
	EXPECT_EQ(s.waiting_on, 3);
	EXPECT_EQ(wd_check(&s, 5001 + STALL_S * HZ), WD_STALLED);
	wd_enter(&s, WD_TSC_SYNC, 20000);
	EXPECT_EQ(s.waiting_on, ~0u);
	EXPECT_EQ(wd_check(&s, 20001 + STALL_S * HZ), WD_STALLED);
	/* A clock read before the last touch is no stall. */
	EXPECT_EQ(wd_check(&s, 10), WD_FINE);
}

TEST(watchdog_run_bounded_by_deadline_only)
{
	struct wd_state s;

	wd_init(&s, HZ, 0, STALL_S);
	wd_enter(&s, WD_RUN, 0);
	EXPECT_EQ(wd_check(&s, 1000 * STALL_S * HZ), WD_FINE);	/* deadline_s=0 */
	s.deadline = 5000;
	EXPECT_EQ(wd_check(&s, 5000), WD_FINE);
	EXPECT_EQ(wd_check(&s, 5001), WD_PAST_DEADLINE);
	/* The deadline does not end bring-up: its own bound does. */
	wd_enter(&s, WD_BRINGUP, 6000);
	EXPECT_EQ(wd_check(&s, 6001), WD_FINE);
}

/* One stray NMI (from anywhere: the HPET's and the PIT's NMIs are not
 * told apart) is no source heard: WD_HEAR_TICKS are.  The clock in
 * milliseconds (HZ ticks a second), the listening from 100. */
TEST(watchdog_one_stray_nmi_is_not_heard)
{
	const u64 t0 = 100, fast = t0 + WD_HEAR_MS, slow = t0 + WD_HEAR_SLOW_MS;

	EXPECT_EQ(wd_hear(0, t0, t0, HZ), WD_HEARING);
	EXPECT_EQ(wd_hear(1, t0 + 1, t0, HZ), WD_HEARING);
	/* None in the first window: deaf at once. */
	EXPECT_EQ(wd_hear(0, fast, t0, HZ), WD_DEAF);
	/* One, or four: listened to for longer, and never heard. */
	EXPECT_EQ(wd_hear(1, fast, t0, HZ), WD_HEARING);
	EXPECT_EQ(wd_hear(1, slow - 1, t0, HZ), WD_HEARING);
	EXPECT_EQ(wd_hear(1, slow, t0, HZ), WD_DEAF);
	EXPECT_EQ(wd_hear(WD_HEAR_TICKS - 1, slow, t0, HZ), WD_DEAF);
	EXPECT_EQ(wd_hear(1, 1000 * HZ, t0, HZ), WD_DEAF);
	/* Heard as soon as they came, no window waited out. */
	EXPECT_EQ(wd_hear(WD_HEAR_TICKS, t0 + 5, t0, HZ), WD_HEARD);
	EXPECT_EQ(wd_hear(WD_HEAR_TICKS, slow - 1, t0, HZ), WD_HEARD);
	/* A clock read before the start is no time passed. */
	EXPECT_EQ(wd_hear(1, 0, t0, HZ), WD_HEARING);
	EXPECT(WD_HEAR_TICKS > 1 && WD_HEAR_TICKS < WD_HEAR_MS);
}

/* The comparator within one period ahead of the counter, across the
 * 32-bit wrap; behind it, on it or further is not armed. */
TEST(watchdog_hpet_armed)
{
	const u32 period = 100000000;	/* 1 s at QEMU's 100 MHz */

	EXPECT(wd_hpet_armed(1000 + period, 1000, period));
	EXPECT(wd_hpet_armed(1000 + period, 1005, period));
	EXPECT(wd_hpet_armed(0xffffff00u + period, 0xffffff00u, period));
	EXPECT(wd_hpet_armed(10, 0xfffffff0u, period));
	EXPECT(!wd_hpet_armed(1000, 1000, period));
	EXPECT(!wd_hpet_armed(999, 1000, period));		/* behind */
	EXPECT(!wd_hpet_armed(1001 + period, 1000, period));
	EXPECT(!wd_hpet_armed(0xfffffff0u, 10, period));	/* behind, wrapped */
	EXPECT(!wd_hpet_armed(period, 0, 0));			/* no period */
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
	struct wd_source src = { .name = "hpet", .pin = 23, .period_us = 1000000,
				 .stall_s = 10 };

	strlcpy(src.why, "HPET comparator 0 on GSI 23", sizeof(src.why));
	rec_writer_init(&w, emit, NULL);
	out[0] = '\0';
	wd_rec_source(&w, &src);
	EXPECT(strstr(out, "watchdog source=hpet") != NULL);
	EXPECT(strstr(out, "gsi=23 period_us=1000000 stall_s=10") != NULL);
	out[0] = '\0';
	wd_rec_hang(&w, "tsc-sync", "watchdog", 1, NULL, "", "hung");
	EXPECT(strstr(out, "hang phase=tsc-sync by=watchdog cpu=1 unstopped=none") != NULL);
	out[0] = '\0';
	wd_rec_hang(&w, "run", "deadline", ~0u, NULL, "2-3", "late");
	EXPECT(strstr(out, "cpu=") == NULL);
	EXPECT(strstr(out, "busy=") == NULL);
	EXPECT(strstr(out, "unstopped=2-3") != NULL);
}

/* The CPUs still in a pass: a cpulist and their count, none said so. */
TEST(watchdog_hang_busy)
{
	struct rec_writer w;
	struct cpu_set s;

	memset(&s, 0, sizeof(s));
	rec_writer_init(&w, emit, NULL);
	out[0] = '\0';
	wd_rec_hang(&w, "run", "watchdog", 0, &s, "", "hung");
	EXPECT(strstr(out, "cpu=0 busy=none nbusy=0 unstopped=none") != NULL);
	for (u32 c = 0; c < 4; c++)
		cpu_set_add(&s, c);
	cpu_set_add(&s, 9);
	out[0] = '\0';
	wd_rec_hang(&w, "run", "watchdog", 0, &s, "", "hung");
	EXPECT(strstr(out, "busy=0-3,9 nbusy=5 ") != NULL);
}

/* At 384 CPUs, every other one busy: the list is cut after a whole
 * entry that fits a record's cpulist, the count says how many in all. */
TEST(watchdog_hang_busy_long)
{
	struct rec_writer w;
	struct cpu_set s, got;
	const char *b, *e;
	char err[64];
	u32 n;

	memset(&s, 0, sizeof(s));
	for (u32 c = 0; c < 384; c += 2)
		cpu_set_add(&s, c);
	rec_writer_init(&w, emit, NULL);
	out[0] = '\0';
	wd_rec_hang(&w, "run", "watchdog", 0, &s, "", "hung");
	b = strstr(out, "busy=");
	e = strstr(out, " nbusy=192 ");
	EXPECT(b && e);
	if (!b || !e)
		return;
	b += strlen("busy=");
	EXPECT(e - b <= CPULIST_TEXT_MAX);
	/* Whole entries only: the first n even CPUs, no piece of one (a
	 * cut "12" of "128" would repeat a CPU, an odd one would show). */
	EXPECT(cpulist_parse(b, (size_t)(e - b), &got, err, sizeof(err)));
	n = cpu_set_count(&got, CPUSET_MAX);
	EXPECT(n > 20 && n < 192);
	for (const char *c = b; c < e; c++)
		n -= *c == ',';
	EXPECT(n == 1);
	n = cpu_set_count(&got, CPUSET_MAX);
	for (u32 k = 0; k < n; k++)
		EXPECT(cpu_set_has(&got, 2 * k));
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host tests of the calibration window checks and the consensus of
 * references, on synthetic read loops: a TSC at 2.596 GHz, a reference
 * read every microsecond, and stalls where the loop stops reading while
 * both clocks run on (a descheduled vCPU, an SMI).
 */
#include "lib/calib.h"
#include "tests/host/unit.h"

#define TSC_HZ 2596000000ULL
#define PIT_HZ 1193182ULL
#define PIT_MASK 0xffffULL

struct sim {
	u64 mask, ref_hz;
	u64 read_ns;		/* how long one read takes */
	u64 stall_at_ns, stall_ns;
	u32 stalls;		/* how many; one after another */
	u64 stall_every_ns;	/* from the end of one to the next */
	bool stall_in_read;	/* between a read's TSC brackets */
	u64 window_ms;
};

static u64 tsc_at(u64 ns)
{
	return ns * (TSC_HZ / 1000000) / 1000;
}

/* A read starting at @ns, stalled for @stall_ns inside its brackets. */
static struct calib_read read_at(const struct sim *s, u64 ns, u64 stall_ns)
{
	u64 at = ns + stall_ns + s->read_ns / 2;
	struct calib_read r = {
		.before = tsc_at(ns),
		.ref = at * s->ref_hz / 1000000000ULL & s->mask,
		.after = tsc_at(ns + stall_ns + s->read_ns),
	};

	return r;
}

/* The kernel's window loop, on simulated clocks. */
static enum calib_fault run(const struct sim *s, struct calib_window *w,
			    u64 *hz)
{
	u64 ns = 0, next_stall = s->stall_at_ns, target;
	struct calib_read r = read_at(s, ns, 0);
	u32 stalls = s->stalls;

	target = s->ref_hz * (s->window_ms ? s->window_ms : 50) / 1000;
	calib_window_start(w, s->mask, &r);
	do {
		u64 stall_ns = 0;

		ns += s->read_ns + 700;	/* the loop's own work */
		if (stalls && ns >= next_stall) {
			stall_ns = s->stall_ns;
			next_stall = ns + stall_ns + s->stall_every_ns;
			stalls--;
		}
		r = read_at(s, s->stall_in_read ? ns : ns + stall_ns,
			    s->stall_in_read ? stall_ns : 0);
		ns += stall_ns;
		calib_window_read(w, &r);
	} while (w->ref_ticks < target);
	r = read_at(s, ns + s->read_ns + 700, 0);	/* the closing read */
	calib_window_read(w, &r);
	*hz = calib_hz(calib_window_tsc(w), w->ref_ticks, s->ref_hz);
	return calib_window_check(w);
}

static bool near_tsc_hz(u64 hz)
{
	s64 d = ppm_diff(hz, TSC_HZ);

	return d > -50 && d < 50;
}

/* Over half a wrap by the window's own ratio, as a lost wrap leaves it. */
static bool window_ratio_sees_gap(const struct calib_window *w)
{
	u64 gap = mul_div_u64(w->longest_span, w->ref_ticks,
			      calib_window_tsc(w));

	return gap > (w->mask >> 1) + 1;
}

/* A read loop with one stall of @stall_ns, @at_ns into the window. */
static struct sim one_stall(u64 mask, u64 ref_hz, u64 at_ns, u64 stall_ns)
{
	struct sim s = { .mask = mask, .ref_hz = ref_hz, .read_ns = 300,
			 .stall_at_ns = at_ns, .stall_ns = stall_ns,
			 .stalls = 1 };

	return s;
}

/* Kept, or discarded for @fault, and either way counted right. */
static void expect_right(const struct sim *s, enum calib_fault fault)
{
	struct calib_window w;
	u64 hz;

	EXPECT_EQ(run(s, &w, &hz), fault);
	EXPECT(near_tsc_hz(hz), "%llu Hz after a %llu ns stall",
	       (unsigned long long)hz, (unsigned long long)s->stall_ns);
}

TEST(calib_window_steady_pit)
{
	struct sim s = one_stall(PIT_MASK, PIT_HZ, 0, 0);
	struct calib_window w;
	u64 hz;

	s.stalls = 0;
	expect_right(&s, CALIB_OK);
	run(&s, &w, &hz);
	EXPECT(w.steady_ref == w.ref_ticks, "every span steady");
}

/*
 * The failure seen under load: a stall just over the PIT's 55 ms wrap
 * doubles the TSC rate.  The window's own ratio is short by the wrap it
 * lost, so even the gap it sees stays under half a wrap: only the steady
 * reads' ratio shows it whole.
 */
TEST(calib_window_pit_lost_wrap)
{
	struct sim s = one_stall(PIT_MASK, PIT_HZ, 10000000, 56000000);
	struct calib_window w;
	u64 hz;

	EXPECT_EQ(run(&s, &w, &hz), CALIB_GAP);
	EXPECT(hz > TSC_HZ * 19 / 10, "%llu Hz: the wrap was lost",
	       (unsigned long long)hz);
	EXPECT(!window_ratio_sees_gap(&w));
	EXPECT(calib_window_gap(&w) > PIT_MASK, "gap %llu ticks",
	       (unsigned long long)calib_window_gap(&w));
	/* Three of them, 8 ms apart. */
	s.stalls = 3;
	s.stall_ns = 60000000;
	s.stall_every_ns = 8000000;
	EXPECT_EQ(run(&s, &w, &hz), CALIB_GAP);
	EXPECT(!window_ratio_sees_gap(&w));
}

/* Stopped between a read's TSC brackets: that read's time is unknown. */
TEST(calib_window_stall_inside_a_read)
{
	struct sim s = one_stall(PIT_MASK, PIT_HZ, 10000000, 300000000);
	struct calib_window w;
	u64 hz;

	s.stall_in_read = true;
	s.window_ms = 200;
	EXPECT_EQ(run(&s, &w, &hz), CALIB_GAP);
	s.mask = ~0ULL;
	s.ref_hz = 100000000;
	expect_right(&s, CALIB_OK);
}

/* A stall that cannot hide a wrap costs nothing; one near it is refused. */
TEST(calib_window_pit_shorter_stalls)
{
	struct sim s = one_stall(PIT_MASK, PIT_HZ, 10000000, 30000000);

	expect_right(&s, CALIB_OK);	/* a scheduler's slice */
	s.stall_ns = 46000000;
	expect_right(&s, CALIB_OK);
	s.stall_ns = 49000000;		/* within 1/8 of the 54.9 ms wrap */
	expect_right(&s, CALIB_GAP);
}

/* Over 50 ms the PM timer counts 179k of its 16.7M: no window ratio helps. */
TEST(calib_window_pmtimer_lost_wrap)
{
	struct sim s = one_stall(0xffffff, 3579545, 20000000, 4700000000ULL);
	struct calib_window w;
	u64 hz;

	EXPECT_EQ(run(&s, &w, &hz), CALIB_GAP);
	EXPECT(hz > TSC_HZ * 50, "%llu Hz", (unsigned long long)hz);
	EXPECT(!window_ratio_sees_gap(&w));
}

/* The window mostly a stall, but no wrap to lose. */
TEST(calib_window_hpet_64bit)
{
	struct sim s = one_stall(~0ULL, 100000000, 10000000, 5000000000ULL);

	expect_right(&s, CALIB_OK);
}

TEST(calib_window_unsteady_and_slow)
{
	struct sim s = { .mask = 0xffffffff, .ref_hz = 100000000,
			 .read_ns = 300, .stall_ns = 2000000, .stalls = ~0u };
	struct calib_window w;
	u64 hz;

	/* A stall after every read: no steady part to take a ratio from. */
	EXPECT_EQ(run(&s, &w, &hz), CALIB_UNSTEADY);
	EXPECT(w.runs <= 1, "%llu runs", (unsigned long long)w.runs);
	/* After every tenth read: runs too short to carry one. */
	s = (struct sim){ .mask = PIT_MASK, .ref_hz = PIT_HZ, .read_ns = 300,
			  .stall_ns = 300000, .stalls = ~0u,
			  .stall_every_ns = 9000 };
	EXPECT_EQ(run(&s, &w, &hz), CALIB_UNSTEADY);
	EXPECT(w.runs > 100, "%llu runs", (unsigned long long)w.runs);
	/* 256 reads of 200 us would hide a whole wrap of the PIT. */
	s = (struct sim){ .mask = PIT_MASK, .ref_hz = PIT_HZ,
			  .read_ns = 200000 };
	EXPECT_EQ(run(&s, &w, &hz), CALIB_SLOW_READS);
}

TEST(calib_wrap_threshold)
{
	EXPECT(!calib_may_hide_wrap(57343, PIT_MASK));
	EXPECT(calib_may_hide_wrap(57344, PIT_MASK));
	EXPECT(!calib_may_hide_wrap(1ULL << 63, ~0ULL));
	EXPECT(calib_may_hide_wrap(~0ULL, ~0ULL));
}

TEST(calib_consensus_and_outliers)
{
	u64 three[] = { 2596144074, 2596137616, 5220000000 };
	u64 chain[] = { 2596000000, 2600000000, 2604000000 };
	u64 four[] = { 2596000000, 2596001000, 2700000000, 2700001000 };
	u64 odd_one[] = { 2596000000, 2596001000, 2596002000, 2000000000 };

	EXPECT_EQ(calib_consensus(three, 3, 2000), 0x3);
	EXPECT_EQ(calib_consensus(three, 2, 2000), 0x3);
	EXPECT_EQ(calib_consensus(three + 1, 2, 2000), 0);	/* two apart */
	EXPECT_EQ(calib_consensus(three, 1, 2000), 0);	/* nothing to compare */
	EXPECT_EQ(calib_consensus(three, 0, 2000), 0);
	/* Each within 1541 ppm of its neighbour, 3081 apart: a tie. */
	EXPECT_EQ(calib_consensus(chain, 3, 2000), 0);
	EXPECT_EQ(calib_consensus(chain, 3, 4000), 0x7);
	EXPECT_EQ(calib_consensus(four, 4, 2000), 0);	/* two against two */
	EXPECT_EQ(calib_consensus(odd_one, 4, 2000), 0x7);
	EXPECT_EQ(calib_spread_ppm(three, 3, 0x3), 2);
	EXPECT_EQ(calib_spread_ppm(three, 3, 0x1), 0);
	EXPECT_EQ(calib_spread_ppm(three, 3, 0x7), 1010679);	/* 5.22 GHz vs 2596137616 */
}

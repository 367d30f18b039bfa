// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/barrier.c on one thread: the layout, the last arrival's release,
 * naming the late member, the deadline path and an abort.  Many threads
 * at once are the model's (tests/host/barrier/, under ThreadSanitizer).
 */
#include "lib/barrier.h"
#include "tests/host/unit.h"

struct fake {
	u64 clock;		/* advanced by each relax */
	bool abort;
	u32 overdue, late;
	u64 at;			/* the clock when overdue() was called */
};

static void relax(void *ctx)
{
	((struct fake *)ctx)->clock++;
}

static u64 now(void *ctx)
{
	return ((struct fake *)ctx)->clock;
}

static bool aborted(void *ctx)
{
	return ((struct fake *)ctx)->abort;
}

/* Ends the wait as the kernel's deadline would: by aborting it. */
static void overdue(void *ctx, u32 late)
{
	struct fake *f = ctx;

	f->overdue++;
	f->late = late;
	f->at = f->clock;
	f->abort = true;
}

static const struct barrier_ops ops = { relax, now, aborted, overdue, NULL };

static struct barrier bar;
static struct barrier_slot slot[8];
static const u32 ids[3] = { 5, 2, 7 };

TEST(barrier_layout)
{
	EXPECT_EQ((uintptr_t)&bar.gen - (uintptr_t)&bar.count, 64);
	EXPECT_EQ((uintptr_t)&bar.n - (uintptr_t)&bar.count, 128);
	EXPECT_EQ((uintptr_t)&bar % 64, 0);
}

TEST(barrier_one_member_passes)
{
	struct fake f = { 0 };

	barrier_init(&bar, 1, NULL, NULL);
	EXPECT(barrier_wait(&bar, 0, ~0ull, &ops, &f));
	EXPECT(barrier_wait(&bar, 0, ~0ull, &ops, &f));
	EXPECT_EQ(bar.gen, 2);
	EXPECT_EQ(bar.count, 0);
	EXPECT_EQ(f.clock, 0);		/* the last arrival never spins */
}

TEST(barrier_names_the_late)
{
	barrier_init(&bar, 3, slot, ids);
	EXPECT_EQ(barrier_late(&bar, 0), 5);
	slot[5].gen = 1;
	EXPECT_EQ(barrier_late(&bar, 0), 2);
	slot[2].gen = 1;
	slot[7].gen = 1;
	EXPECT_EQ(barrier_late(&bar, 0), ~0u);
	barrier_init(&bar, 3, NULL, NULL);
	EXPECT_EQ(barrier_late(&bar, 0), ~0u);
}

/* Member 5 alone of three: past the deadline it names 2, not itself. */
TEST(barrier_deadline_names)
{
	struct fake f = { 0 };

	barrier_init(&bar, 3, slot, ids);
	EXPECT(!barrier_wait(&bar, 5, 1000, &ops, &f));
	EXPECT_EQ(f.overdue, 1);
	EXPECT_EQ(f.late, 2);
	EXPECT_EQ(f.at, 1024);	/* the first look at the clock past it */
	EXPECT_EQ(f.clock, 1024 + 64);	/* and the abort, 64 rounds on */
	EXPECT_EQ(slot[5].gen, 1);
}

TEST(barrier_abort_leaves)
{
	struct fake f = { .abort = true };

	barrier_init(&bar, 2, slot, ids);
	EXPECT(!barrier_wait(&bar, 5, ~0ull, &ops, &f));
	EXPECT_EQ(f.overdue, 0);
	EXPECT_EQ(f.clock, 64);		/* looked at every 64 rounds */
}

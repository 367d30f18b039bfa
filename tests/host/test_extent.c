// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host tests of the frame allocator's logic, including a randomized run
 * against a byte-per-page model that checks the invariants after every
 * operation.
 */
#include <stdlib.h>
#include "lib/extent.h"
#include "lib/string.h"
#include "tests/host/unit.h"

static struct extent buf[64];

static bool invariant(const struct extent_set *s)
{
	u64 sum = 0;

	for (u32 i = 0; i < s->n; i++) {
		if (s->e[i].start >= s->e[i].end)
			return false;
		if (i && s->e[i - 1].end >= s->e[i].start)
			return false;
		sum += s->e[i].end - s->e[i].start;
	}
	return sum == s->free_bytes;
}

TEST(extent_add_merges)
{
	struct extent_set s;

	extent_init(&s, buf, 64);
	EXPECT_EQ(extent_add(&s, 0x1000, 0x2000), EXTENT_OK);
	EXPECT_EQ(extent_add(&s, 0x3000, 0x4000), EXTENT_OK);
	EXPECT_EQ(s.n, 2);
	EXPECT_EQ(extent_add(&s, 0x2000, 0x3000), EXTENT_OK);
	EXPECT_EQ(s.n, 1);
	EXPECT_EQ(s.e[0].start, 0x1000);
	EXPECT_EQ(s.e[0].end, 0x4000);
	EXPECT_EQ(extent_add(&s, 0x1800, 0x2800), EXTENT_EOVERLAP);
	EXPECT_EQ(extent_add(&s, 0x0, 0x1001), EXTENT_EOVERLAP);
	EXPECT_EQ(extent_add(&s, 0x5000, 0x5000), EXTENT_EINVAL);
	EXPECT(invariant(&s));
}

TEST(extent_remove_splits)
{
	struct extent_set s;

	extent_init(&s, buf, 64);
	extent_add(&s, 0, 0x10000);
	EXPECT_EQ(extent_remove(&s, 0x4000, 0x5000), EXTENT_OK);
	EXPECT_EQ(s.n, 2);
	EXPECT_EQ(s.free_bytes, 0xf000);
	EXPECT_EQ(extent_remove(&s, 0x3000, 0x6000), EXTENT_OK);
	EXPECT_EQ(s.free_bytes, 0xd000);
	/* Removing what is not free changes nothing. */
	EXPECT_EQ(extent_remove(&s, 0x20000, 0x30000), EXTENT_OK);
	EXPECT_EQ(s.free_bytes, 0xd000);
	EXPECT_EQ(extent_remove(&s, 0, 0x10000), EXTENT_OK);
	EXPECT_EQ(s.n, 0);
	EXPECT(invariant(&s));
}

TEST(extent_alloc_natural_alignment)
{
	struct extent_set s;
	u64 a;

	extent_init(&s, buf, 64);
	extent_add(&s, 0x1000, 0x100000000ULL);		/* 4 KiB .. 4 GiB */
	a = extent_alloc(&s, 1ULL << 30, 1ULL << 30, ~0ULL);
	EXPECT_EQ(a & ((1ULL << 30) - 1), 0);
	EXPECT(a >= 0x1000);
	a = extent_alloc(&s, 2ULL << 20, 2ULL << 20, ~0ULL);
	EXPECT_EQ(a & ((2ULL << 20) - 1), 0);
	EXPECT_EQ(extent_alloc(&s, 3000, 4096, ~0ULL) & 0xfff, 0);
	EXPECT_EQ(extent_alloc(&s, 4096, 3, ~0ULL), EXTENT_NONE);
	EXPECT_EQ(extent_alloc(&s, 0, 4096, ~0ULL), EXTENT_NONE);
	EXPECT(invariant(&s));
}

TEST(extent_best_fit_keeps_big_blocks)
{
	struct extent_set s;

	extent_init(&s, buf, 64);
	extent_add(&s, 0x100000, 0x110000);		/* 64 KiB leftover */
	extent_add(&s, 1ULL << 30, 2ULL << 30);		/* one whole 1 GiB */
	EXPECT(extent_alloc(&s, 4096, 4096, ~0ULL) < 0x110000);
	EXPECT_EQ(extent_count_blocks(&s, 1ULL << 30), 1);
}

TEST(extent_limit)
{
	struct extent_set s;

	extent_init(&s, buf, 64);
	extent_add(&s, 5ULL << 30, 6ULL << 30);
	extent_add(&s, 0x100000, 0x102000);
	EXPECT_EQ(extent_alloc(&s, 4096, 4096, 4ULL << 30), 0x100000);
	EXPECT_EQ(extent_alloc(&s, 4096, 4096, 4ULL << 30), 0x101000);
	EXPECT_EQ(extent_alloc(&s, 4096, 4096, 4ULL << 30), EXTENT_NONE);
	EXPECT(extent_alloc(&s, 4096, 4096, ~0ULL) >= 5ULL << 30);
}

/* One node's memory: [lo, hi) cuts through free extents. */
TEST(extent_alloc_range_stays_inside)
{
	struct extent_set s;
	u64 a;

	extent_init(&s, buf, 64);
	extent_add(&s, 0x100000, 0x600000);		/* 1 MiB .. 6 MiB */
	extent_add(&s, 0x800000, 0xa00000);		/* 8 MiB .. 10 MiB */
	/* The node's range starts mid-extent: the 2M block at 4 MiB. */
	a = extent_alloc_range(&s, SZ_2M, SZ_2M, 0x300000, 0x800000);
	EXPECT_EQ(a, 0x400000);
	/* [2M, 4M) is free but starts below lo: not handed out. */
	EXPECT_EQ(extent_alloc_range(&s, SZ_2M, SZ_2M, 0x300000, 0x800000),
		  EXTENT_NONE);
	EXPECT_EQ(extent_count_blocks_range(&s, SZ_2M, 0x300000, 0x800000), 0);
	EXPECT_EQ(extent_count_blocks_range(&s, SZ_4K, 0x300000, 0x800000),
		  0x100000 / SZ_4K);
	/* A hole in the range: only the extent above it is used. */
	EXPECT_EQ(extent_count_blocks_range(&s, SZ_2M, 0x600000, ~0ULL), 1);
	EXPECT_EQ(extent_alloc_range(&s, SZ_2M, SZ_2M, 0x600000, ~0ULL),
		  0x800000);
	/* Empty and inverted ranges. */
	EXPECT_EQ(extent_alloc_range(&s, SZ_4K, SZ_4K, 0x200000, 0x200000),
		  EXTENT_NONE);
	EXPECT_EQ(extent_alloc_range(&s, SZ_4K, SZ_4K, 0x300000, 0x200000),
		  EXTENT_NONE);
	/* The whole address space is extent_alloc's answer. */
	EXPECT_EQ(extent_count_blocks_range(&s, SZ_4K, 0, ~0ULL),
		  extent_count_blocks(&s, SZ_4K));
	a = extent_alloc_range(&s, SZ_4K, SZ_4K, 0x3ff000, 0x401000);
	EXPECT_EQ(a, 0x3ff000);
	EXPECT(invariant(&s));
}

TEST(extent_full_table)
{
	struct extent small[2];
	struct extent_set s;

	extent_init(&s, small, 2);
	EXPECT_EQ(extent_add(&s, 0x0000, 0x1000), EXTENT_OK);
	EXPECT_EQ(extent_add(&s, 0x4000, 0x9000), EXTENT_OK);
	EXPECT_EQ(extent_add(&s, 0x20000, 0x21000), EXTENT_ENOSPC);
	/* A split would need a third slot: refused, nothing changed. */
	EXPECT_EQ(extent_remove(&s, 0x5000, 0x6000), EXTENT_ENOSPC);
	EXPECT_EQ(s.free_bytes, 0x6000);
	/* An aligned block is still found where no split is needed. */
	EXPECT_EQ(extent_alloc(&s, 0x1000, 0x1000, ~0ULL), 0x0000);
	EXPECT(invariant(&s));
}

TEST(extent_exhaust_and_refill)
{
	static struct extent big[600];
	struct extent_set s;
	u64 got[600], n = 0, a;

	/* Freeing every other page first needs one extent per page. */
	extent_init(&s, big, 600);
	extent_add(&s, 0x3000, 0x200000);
	while ((a = extent_alloc(&s, 4096, 4096, ~0ULL)) != EXTENT_NONE && n < 600)
		got[n++] = a;
	EXPECT_EQ(n, (0x200000 - 0x3000) / 4096);
	EXPECT_EQ(s.free_bytes, 0);
	for (u64 i = 0; i < n; i += 2)
		EXPECT_EQ(extent_add(&s, got[i], got[i] + 4096), EXTENT_OK);
	for (u64 i = 1; i < n; i += 2)
		EXPECT_EQ(extent_add(&s, got[i], got[i] + 4096), EXTENT_OK);
	EXPECT_EQ(s.n, 1);
	EXPECT_EQ(s.free_bytes, 0x200000 - 0x3000);
}

#define PAGES 2048

/* Random alloc/free against a model where each 4K page is free or not. */
TEST(extent_randomized_model)
{
	static struct extent big[1024];
	static u8 model[PAGES];
	static u64 held[PAGES][2];
	struct extent_set s;
	u32 nheld = 0;

	srand(12345);
	extent_init(&s, big, 1024);
	memset(model, 0, sizeof(model));
	for (u32 p = 0; p < PAGES; p++) {
		if (rand() % 7 == 0)
			continue;
		model[p] = 1;
		extent_add(&s, (u64)p * 4096, (u64)p * 4096 + 4096);
	}
	for (int op = 0; op < 20000; op++) {
		if (nheld && (rand() % 2 || nheld == PAGES)) {
			u32 i = (u32)rand() % nheld;

			EXPECT_EQ(extent_add(&s, held[i][0], held[i][0] + held[i][1]),
				  EXTENT_OK);
			for (u64 p = held[i][0] / 4096; p < (held[i][0] + held[i][1]) / 4096; p++)
				model[p] = 1;
			held[i][0] = held[nheld - 1][0];
			held[i][1] = held[nheld - 1][1];
			nheld--;
		} else {
			u64 size = 4096ULL << (rand() % 4), a;

			a = extent_alloc(&s, size, size, ~0ULL);
			if (a == EXTENT_NONE)
				continue;
			EXPECT_EQ(a % size, 0);
			for (u64 p = a / 4096; p < (a + size) / 4096; p++) {
				EXPECT(model[p] == 1, "page %llu handed out twice",
				       (unsigned long long)p);
				model[p] = 0;
			}
			held[nheld][0] = a;
			held[nheld][1] = size;
			nheld++;
		}
		if (op % 500 == 0) {
			u64 free_pages = 0;

			for (u32 p = 0; p < PAGES; p++)
				free_pages += model[p];
			EXPECT(invariant(&s), "invariant broken at op %d", op);
			EXPECT_EQ(s.free_bytes, free_pages * 4096);
		}
	}
}

/* A run: as many aligned blocks as fit in one extent, pads beside them. */
TEST(extent_run_takes_one_range)
{
	struct extent_set s;
	struct extent_run r;

	extent_init(&s, buf, 64);
	extent_add(&s, 0x1000, 0x9000);			/* 32 KiB */
	extent_add(&s, 0x100000, 0x900000);		/* 8 MiB */
	/* 4 pages fit the small extent with a page on each side: best fit. */
	EXPECT(extent_find_run(&s, SZ_4K, 4, SZ_4K, 0, ~0ULL, &r));
	EXPECT_EQ(r.pa, 0x2000);
	EXPECT_EQ(r.n, 4);
	EXPECT_EQ(extent_take_run(&s, &r, SZ_4K, SZ_4K), EXTENT_OK);
	EXPECT(!extent_overlaps_free(&s, 0x1000, 0x7000));
	EXPECT(extent_is_free(&s, 0x7000, 0x9000));
	/* 2M blocks with pads: 1 MiB .. 9 MiB holds 3 (2M..8M), the pad
	 * before at 2M - 4K and after at 8M. */
	EXPECT(extent_find_run(&s, SZ_2M, 8, SZ_4K, 0, ~0ULL, &r));
	EXPECT_EQ(r.pa, 0x200000);
	EXPECT_EQ(r.n, 3);
	/* Without pads it is the same three: 8M .. 9M is no whole block. */
	EXPECT(extent_find_run(&s, SZ_2M, 8, 0, 0, ~0ULL, &r));
	EXPECT_EQ(r.n, 3);
	/* A run of fewer than fit lies flush with the extent's end when its
	 * start would split it anyway. */
	extent_init(&s, buf, 64);
	extent_add(&s, 0x101000, 0x800000);
	EXPECT(extent_find_run(&s, SZ_2M, 1, 0, 0, ~0ULL, &r));
	EXPECT_EQ(r.pa, 0x600000);
	EXPECT_EQ(extent_take_run(&s, &r, SZ_2M, 0), EXTENT_OK);
	EXPECT_EQ(s.n, 1);
	/* Inside [lo, hi) only; nothing fits: false. */
	EXPECT(!extent_find_run(&s, SZ_2M, 1, 0, 0x300000, 0x500000, &r));
	EXPECT(!extent_find_run(&s, SZ_1G, 1, 0, 0, ~0ULL, &r));
	EXPECT(invariant(&s));
}

/* Runs of several pools, one after another, then given back in any
 * order: the set is exactly what it was (it is canonical). */
TEST(extent_runs_restore_exactly)
{
	static struct extent big[64], before[64];
	struct extent_run r[8];
	struct extent_set s;
	u32 nb;

	extent_init(&s, big, 64);
	extent_add(&s, 0x3000, 0x100000);
	extent_add(&s, 0x200000, 0x10000000);
	extent_add(&s, 0x10400000, 0x20000000);
	nb = s.n;
	memcpy(before, big, sizeof(before));
	for (u32 i = 0; i < 8; i++) {
		EXPECT(extent_find_run(&s, SZ_2M, 40, SZ_4K, 0, ~0ULL, &r[i]));
		EXPECT_EQ(extent_take_run(&s, &r[i], SZ_2M, SZ_4K), EXTENT_OK);
		/* No two runs share a pad or touch: each has its own guards. */
		for (u32 j = 0; j < i; j++)
			EXPECT(r[i].pa + r[i].n * SZ_2M + SZ_4K <= r[j].pa - SZ_4K ||
			       r[j].pa + r[j].n * SZ_2M + SZ_4K <= r[i].pa - SZ_4K);
	}
	EXPECT(s.n <= nb + 8);
	for (u32 i = 0; i < 8; i++) {
		u32 k = (i * 5) % 8;

		EXPECT_EQ(extent_add(&s, r[k].pa - SZ_4K,
				     r[k].pa + r[k].n * SZ_2M + SZ_4K), EXTENT_OK);
	}
	EXPECT_EQ(s.n, nb);
	EXPECT(!memcmp(big, before, nb * sizeof(big[0])));
	EXPECT(invariant(&s));
}

TEST(extent_run_better_orders)
{
	struct extent_run all_small = { 0, 8, 100 }, all_big = { 0, 8, 200 };
	struct extent_run most = { 0, 7, 50 }, fewer = { 0, 3, 10 };

	EXPECT(extent_run_better(&all_small, &all_big, 8));
	EXPECT(extent_run_better(&all_big, &most, 8));
	EXPECT(extent_run_better(&most, &fewer, 8));
	EXPECT(!extent_run_better(&fewer, &most, 8));
}

/* A fake physical memory for the table's own array. */
#define ARENA (64 * SZ_4K)
static u8 arena[ARENA] __attribute__((aligned(4096)));
#define ARENA_PA 0x40000000ULL

static void *arena_virt(u64 pa)
{
	return arena + (pa - ARENA_PA);
}

/* Islands past any fixed capacity: the table grows into free memory and
 * gives its old array back; every operation finds a slot. */
TEST(extent_keep_room_grows)
{
	static struct extent first[8];
	struct extent_set s;
	u64 base = 0x100000000ULL, total;
	u32 grows = 0, cap = 8;

	extent_init(&s, first, 8);
	EXPECT_EQ(extent_add(&s, ARENA_PA, ARENA_PA + ARENA), EXTENT_OK);
	EXPECT_EQ(extent_add(&s, base, base + 4096 * SZ_4K), EXTENT_OK);
	total = s.free_bytes;
	/* Every other page taken: 2048 islands, far past 8 slots. */
	for (u64 p = 1; p < 4096; p += 2) {
		EXPECT_EQ(extent_remove(&s, base + p * SZ_4K,
					base + (p + 1) * SZ_4K), EXTENT_OK);
		EXPECT_EQ(extent_keep_room(&s, 4, ARENA_PA + ARENA, arena_virt),
			  EXTENT_OK);
		EXPECT(s.cap - s.n >= 4);
		grows += s.cap != cap;
		cap = s.cap;
	}
	/* 8 -> 256 -> 512 -> ... -> 4096 slots: the array doubles. */
	EXPECT_EQ(s.cap, 4096);
	EXPECT_EQ(grows, 5);
	/* The array lies in the arena, taken from the set; old ones back. */
	EXPECT(s.buf_pa >= ARENA_PA && s.buf_pa + s.buf_bytes <= ARENA_PA + ARENA);
	EXPECT(!extent_overlaps_free(&s, s.buf_pa, s.buf_pa + s.buf_bytes));
	EXPECT_EQ(s.free_bytes, total - 2048 * SZ_4K - s.buf_bytes);
	EXPECT(invariant(&s));
	for (u64 p = 1; p < 4096; p += 2)
		EXPECT_EQ(extent_add(&s, base + p * SZ_4K, base + (p + 1) * SZ_4K),
			  EXTENT_OK);
	EXPECT_EQ(s.free_bytes, total - s.buf_bytes);
	EXPECT(invariant(&s));
}

TEST(extent_keep_room_without_memory)
{
	struct extent small[4];
	struct extent_set s;

	extent_init(&s, small, 4);
	extent_add(&s, 0x1000, 0x2000);
	extent_add(&s, 0x4000, 0x5000);
	/* 2 free slots, 3 wanted; the one free page ends above @limit. */
	EXPECT_EQ(extent_keep_room(&s, 3, 0x1000, arena_virt), EXTENT_ENOSPC);
	EXPECT_EQ(s.cap, 4);
	EXPECT_EQ(s.free_bytes, 0x2000);
	EXPECT_STR(extent_strerror(EXTENT_ENOSPC),
		   "the allocator's extent table is full");
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The benchmark's shared arithmetic: the matrix walk, the touch plan, the
 * verifier's coverage and the planted dirty lines.
 */
#include <stdlib.h>
#include "lib/matrix.h"
#include "lib/order.h"
#include "lib/prims.h"
#include "lib/string.h"
#include "lib/touch.h"
#include "lib/verify.h"
#include "tests/host/unit.h"

static struct hz_config cfg(const char *line)
{
	struct hz_config c;
	struct cmdline_result r;

	config_defaults(&c);
	memset(&r, 0, sizeof(r));
	EXPECT(config_parse(line, &c, &r), "%s", r.errors[0]);
	return c;
}

/* The odometer visits exactly the nested loops' points, in their order. */
TEST(matrix_walks_the_nested_loops)
{
	struct hz_config c = cfg("bench=fault clear=rep,erms,avx2 order=all "
				 "chunk=2M,32M");
	struct matrix_iter it = { { { 0 } }, false };
	u32 n = 0;

	for (u32 p = 0; p < PRIM_COUNT; p++)
		for (u32 o = 0; o < ORDER_COUNT; o++)
			for (u32 ch = 0; ch < (order_uses_chunk(o) ? c.nchunks : 1); ch++) {
				if (!(c.prims >> p & 1))
					continue;
				EXPECT(matrix_next(&c, &it), "ended early at %u", n);
				EXPECT(it.at.v[AXIS_PRIM] == p && it.at.v[AXIS_ORDER] == o &&
				       it.at.v[AXIS_CHUNK] == ch, "point %u", n);
				n++;
			}
	EXPECT(!matrix_next(&c, &it));
	EXPECT_EQ(n, 3 * 7);
	EXPECT_EQ(matrix_count(&c), 21);
	c.folios = 7;
	EXPECT_EQ(matrix_count(&c), 63);
}

TEST(matrix_names_and_chunks)
{
	struct hz_config c = cfg("bench=fault clear=erms order=neighbourhood-last");
	struct matrix_iter it = { { { 0 } }, false };
	char name[64];

	EXPECT(matrix_next(&c, &it));
	matrix_name(&c, FOLIO_2M, &it.at, "bare.", name, sizeof(name));
	EXPECT(strcmp(name, "bare.2M.erms.neighbourhood-last.32M") == 0, "%s", name);
	EXPECT_EQ(matrix_chunk(&c, &it.at), 32 << 20);
	EXPECT(!matrix_next(&c, &it));
}

TEST(touch_plan_is_a_seeded_permutation)
{
	struct hz_config c = cfg("bench=fault touch=random offset=random seed=7");
	u64 a[64], b[64], seen = 0;

	touch_plan(&c, 64, SZ_2M, 1ULL << 40, a);
	touch_plan(&c, 64, SZ_2M, 1ULL << 40, b);
	for (u32 k = 0; k < 64; k++) {
		u64 folio = (a[k] - (1ULL << 40)) / SZ_2M;

		EXPECT(a[k] == b[k], "touch %u differs between two plans", k);
		EXPECT(folio < 64 && (a[k] & (SZ_4K - 1)) == 0);
		seen |= 1ULL << folio;
	}
	EXPECT(seen == ~0ULL, "not a permutation: %#llx", (unsigned long long)seen);
}


static u64 scan(const void *p, u64 bytes)
{
	const u8 *q = p;

	for (u64 i = 0; i < bytes; i += 8)
		if (*(const u64 *)(q + i))
			return i;
	return ~0ULL;
}

/* Plant lines, count them back: full finds all, sample exactly the ones
 * verify_covers() says it reads. */
TEST(verify_counts_planted_lines)
{
	u64 bytes = SZ_2M, first;
	u8 *f = aligned_alloc(4096, 4 * bytes);
	static struct dirty_line l[INJECT_MAX_LINES];
	u32 n = inject_plan(3, 4, bytes, l, 1024), covered = 0;
	u64 full = 0, sampled = 0;

	memset(f, 0, 4 * bytes);
	EXPECT_EQ(n, 1024);
	for (u32 i = 0; i < n; i++) {
		EXPECT(l[i].fault < 4);
		EXPECT(i == 0 || l[i - 1].fault < l[i].fault ||
		       (l[i - 1].fault == l[i].fault && l[i - 1].line < l[i].line),
		       "not sorted and distinct at %u", i);
		f[l[i].fault * bytes + (u64)l[i].line * LINE + 8] = 1;
		covered += verify_covers(VERIFY_SAMPLE, bytes, (u64)l[i].line * LINE);
	}
	for (u32 k = 0; k < 4; k++) {
		full += verify_count_dirty(VERIFY_FULL, f + k * bytes, bytes, scan,
					   &first);
		sampled += verify_count_dirty(VERIFY_SAMPLE, f + k * bytes, bytes,
					      scan, &first);
	}
	EXPECT_EQ(full, n);
	EXPECT_EQ(sampled, covered);
	EXPECT(covered > 0 && covered < n, "covered %u of %u", covered, n);
	/* The folio's first and last lines are always read. */
	EXPECT(verify_covers(VERIFY_SAMPLE, bytes, 0));
	EXPECT(verify_covers(VERIFY_SAMPLE, bytes, bytes - 8));
	free(f);
}

TEST(inject_plan_caps_at_the_lines_there_are)
{
	static struct dirty_line l[INJECT_MAX_LINES];

	EXPECT_EQ(inject_plan(1, 1, SZ_4K, l, 100), 64);
	for (u32 i = 0; i < 64; i++)
		EXPECT_EQ(l[i].line, i);
}

/* order=linux is merged 7.0's choice for the point's model. */
TEST(order_linux_resolves_by_model)
{
	struct hz_config c = cfg("bench=fault clear=erms order=linux "
				 "preempt=none,voluntary,full,lazy radius=9");
	struct matrix_iter it = { { { 0 } }, false };
	static const u64 want[] = { 32 << 20, 32 << 20, SZ_2M, SZ_2M };
	struct zero_plan pl;
	char name[64];
	u32 n = 0;

	while (matrix_next(&c, &it)) {
		EXPECT(n < 4);
		EXPECT_EQ(it.at.v[AXIS_PREEMPT], n + 1);
		matrix_resolve(&c, &it.at, SZ_2M, &pl);
		EXPECT_EQ(pl.order, ORDER_NEIGHBOURHOOD);
		EXPECT_EQ(pl.radius, 2);
		EXPECT_EQ(pl.chunk, want[n] / SZ_4K);
		EXPECT_EQ(zero_plan_chunk_bytes(&pl), want[n]);
		/* x86 7.0 offers full and lazy only (7dadeaa6e851). */
		EXPECT_EQ(matrix_linux_offered(&it.at), n >= 2);
		n++;
	}
	EXPECT_EQ(n, 4);
	matrix_name(&c, FOLIO_1G, &it.at, "", name, sizeof(name));
	EXPECT(strcmp(name, "lazy.1G.erms.linux") == 0, "%s", name);
	/* No model: as the x86 7.0 it stands for, whole ranges; names as
	 * before. */
	c = cfg("bench=fault clear=erms order=linux,neighbourhood-last radius=9");
	it.started = false;
	EXPECT(matrix_next(&c, &it));
	matrix_resolve(&c, &it.at, SZ_1G, &pl);
	EXPECT_EQ(pl.radius, 9);
	EXPECT(matrix_next(&c, &it));
	matrix_resolve(&c, &it.at, SZ_1G, &pl);
	EXPECT(pl.chunk == SZ_1G / SZ_4K && pl.radius == 2);
	EXPECT(matrix_linux_offered(&it.at));
	matrix_name(&c, FOLIO_1G, &it.at, "", name, sizeof(name));
	EXPECT(strcmp(name, "1G.erms.linux") == 0, "%s", name);
	EXPECT(!matrix_next(&c, &it));
	/* order=tree is told what order=linux took, for every model and
	 * with none given: one rule (lib/preempt.h). */
	for (u32 m = PREEMPT_MODEL_OFF; m < PREEMPT_MODEL_COUNT; m++) {
		struct zero_plan tp;

		it.at.v[AXIS_PREEMPT] = m;
		it.at.v[AXIS_ORDER] = ORDER_LINUX;
		matrix_resolve(&c, &it.at, SZ_1G, &pl);
		it.at.v[AXIS_ORDER] = ORDER_TREE;
		matrix_resolve(&c, &it.at, SZ_1G, &tp);
		EXPECT(tp.preemptible == pl.preemptible, "model %u", m);
		EXPECT(tp.preemptible == (pl.chunk == SZ_1G / SZ_4K),
		       "model %u", m);
		EXPECT(tp.preemptible == (m == PREEMPT_MODEL_OFF ||
					  m == PREEMPT_MODEL_FULL ||
					  m == PREEMPT_MODEL_LAZY), "model %u", m);
	}
	/* order=all stays the five planner orders. */
	c = cfg("bench=fault order=all");
	EXPECT_EQ(c.orders, (1u << ORDER_COUNT) - 1);
}

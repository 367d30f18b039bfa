// SPDX-License-Identifier: GPL-2.0-only
#include "lib/stats.h"
#include "lib/string.h"
#include "lib/touch.h"
#include "lib/verify.h"

u64 sample_line(u64 page)
{
	/* Spread over the page, a different line in each of 64 pages. */
	return (page * 37 % (SZ_4K / LINE)) * LINE;
}

bool verify_covers(u32 verify, u64 bytes, u64 off)
{
	u64 line = off & ~(u64)(LINE - 1);

	if (verify == VERIFY_FULL)
		return true;
	return line == 0 || line == bytes - LINE ||
	       line % SZ_4K == sample_line(line / SZ_4K);
}

static bool line_dirty(const u8 *p, u64 off, scan_fn nonzero)
{
	return nonzero(p + off, LINE) != ~0ULL;
}

static u64 count_sampled(const u8 *p, u64 bytes, scan_fn nonzero, u64 *first)
{
	u64 n = 0;

	for (u64 pg = 0; pg < bytes; pg += SZ_4K) {
		u64 s = pg + sample_line(pg / SZ_4K);

		/* Each line once: the folio's ends may be sampled lines too. */
		if (pg == 0 && s != 0 && line_dirty(p, 0, nonzero)) {
			*first = 0;
			n++;
		}
		if (line_dirty(p, s, nonzero)) {
			*first = MIN(*first, s);
			n++;
		}
		if (pg + SZ_4K == bytes && s != bytes - LINE &&
		    line_dirty(p, bytes - LINE, nonzero)) {
			*first = MIN(*first, bytes - LINE);
			n++;
		}
	}
	return n;
}

u64 verify_count_dirty(u32 verify, const u8 *p, u64 bytes, scan_fn nonzero,
		       u64 *first)
{
	u64 n = 0, off = 0, hit;

	*first = ~0ULL;
	if (verify == VERIFY_SAMPLE)
		return count_sampled(p, bytes, nonzero, first);
	/* Full: scan, and on each hit count its line and go on after it. */
	while (off < bytes && (hit = nonzero(p + off, bytes - off)) != ~0ULL) {
		u64 line = (off + hit) & ~(u64)(LINE - 1);

		*first = MIN(*first, line);
		n++;
		off = line + LINE;
	}
	return n;
}

static int cmp_line(const struct dirty_line *a, const struct dirty_line *b)
{
	if (a->fault != b->fault)
		return a->fault < b->fault ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

/* Into the sorted array, refusing duplicates (they would sit next to it). */
static void insert(struct dirty_line *v, u32 *n, struct dirty_line x)
{
	u32 i = *n;

	while (i > 0 && cmp_line(&v[i - 1], &x) > 0)
		i--;
	if (i > 0 && cmp_line(&v[i - 1], &x) == 0)
		return;
	memmove(&v[i + 1], &v[i], (size_t)(*n - i) * sizeof(*v));
	v[i] = x;
	(*n)++;
}

u32 inject_plan(u64 seed, u32 nfaults, u64 bytes, struct dirty_line *out,
		u32 n)
{
	u64 lines = bytes / LINE, rng = seed ^ 0x5eed5eedULL, total;
	u32 got = 0;

	total = (u64)nfaults * lines;
	if (n > total)
		n = (u32)total;
	while (got < n) {
		struct dirty_line x = {
			(u32)(bench_random(&rng) % nfaults),
			(u32)(bench_random(&rng) % lines),
		};

		insert(out, &got, x);
	}
	return got;
}

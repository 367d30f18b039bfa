// SPDX-License-Identifier: GPL-2.0-only
/*
 * Free-extent set.  Invariant: e[0..n) sorted by start, e[i].end <
 * e[i+1].start (disjoint and never touching), every extent non-empty,
 * free_bytes the sum of their lengths.
 */
#include "lib/extent.h"
#include "lib/string.h"

void extent_init(struct extent_set *s, struct extent *buf, u32 cap)
{
	s->e = buf;
	s->n = 0;
	s->cap = cap;
	s->free_bytes = 0;
}

/* First index whose extent ends after @addr. */
static u32 first_ending_after(const struct extent_set *s, u64 addr)
{
	u32 lo = 0, hi = s->n;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (s->e[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void insert_at(struct extent_set *s, u32 i, u64 start, u64 end)
{
	memmove(&s->e[i + 1], &s->e[i], (s->n - i) * sizeof(s->e[0]));
	s->e[i].start = start;
	s->e[i].end = end;
	s->n++;
}

static void delete_at(struct extent_set *s, u32 i)
{
	memmove(&s->e[i], &s->e[i + 1], (s->n - i - 1) * sizeof(s->e[0]));
	s->n--;
}

int extent_add(struct extent_set *s, u64 start, u64 end)
{
	u32 i;
	bool left, right;

	if (start >= end)
		return EXTENT_EINVAL;
	i = first_ending_after(s, start);
	if (i < s->n && s->e[i].start < end)
		return EXTENT_EOVERLAP;
	left = i > 0 && s->e[i - 1].end == start;
	right = i < s->n && s->e[i].start == end;
	if (left && right) {
		s->e[i - 1].end = s->e[i].end;
		delete_at(s, i);
	} else if (left) {
		s->e[i - 1].end = end;
	} else if (right) {
		s->e[i].start = start;
	} else {
		if (s->n == s->cap)
			return EXTENT_ENOSPC;
		insert_at(s, i, start, end);
	}
	s->free_bytes += end - start;
	return EXTENT_OK;
}

int extent_remove(struct extent_set *s, u64 start, u64 end)
{
	u32 i;

	if (start >= end)
		return EXTENT_EINVAL;
	i = first_ending_after(s, start);
	/* A split needs one more slot: check before changing anything. */
	if (i < s->n && s->e[i].start < start && s->e[i].end > end &&
	    s->n == s->cap)
		return EXTENT_ENOSPC;
	while (i < s->n && s->e[i].start < end) {
		struct extent *x = &s->e[i];
		u64 lo = MAX(x->start, start), hi = MIN(x->end, end);

		s->free_bytes -= hi - lo;
		if (lo == x->start && hi == x->end) {
			delete_at(s, i);
			continue;
		}
		if (lo == x->start) {
			x->start = hi;
		} else if (hi == x->end) {
			x->end = lo;
		} else {
			u64 old_end = x->end;

			x->end = lo;
			insert_at(s, i + 1, hi, old_end);
		}
		i++;
	}
	return EXTENT_OK;
}

/*
 * Where to put a block in the part of extent @x within [lo, hi),
 * preferring a spot that does not split the extent.
 */
static u64 place(const struct extent *x, u64 size, u64 align, u64 lo, u64 hi,
		 bool *split)
{
	u64 base = MAX(x->start, lo), end = MIN(x->end, hi);
	u64 first = ALIGN_UP(base, align), last;

	*split = false;
	if (first < base || first + size < first || first + size > end)
		return EXTENT_NONE;
	if (first == x->start || first + size == x->end)
		return first;
	last = ALIGN_DOWN(end - size, align);
	if (last + size == x->end)
		return last;
	*split = true;
	return first;
}

u64 extent_alloc_range(struct extent_set *s, u64 size, u64 align, u64 lo,
		       u64 hi)
{
	u64 best = EXTENT_NONE, best_len = ~0ULL;

	if (size == 0 || align == 0 || (align & (align - 1)))
		return EXTENT_NONE;
	for (u32 i = first_ending_after(s, lo); i < s->n && s->e[i].start < hi;
	     i++) {
		u64 len = s->e[i].end - s->e[i].start, at;
		bool split;

		if (len >= best_len)
			continue;
		at = place(&s->e[i], size, align, lo, hi, &split);
		if (at == EXTENT_NONE)
			continue;
		/* With the array full, only a placement without a split works. */
		if (split && s->n == s->cap)
			continue;
		best = at;
		best_len = len;
	}
	if (best != EXTENT_NONE && extent_remove(s, best, best + size) != EXTENT_OK)
		return EXTENT_NONE;
	return best;
}

u64 extent_alloc(struct extent_set *s, u64 size, u64 align, u64 limit)
{
	return extent_alloc_range(s, size, align, 0, limit);
}

bool extent_is_free(const struct extent_set *s, u64 start, u64 end)
{
	u32 i = first_ending_after(s, start);

	return i < s->n && s->e[i].start <= start && s->e[i].end >= end;
}

bool extent_overlaps_free(const struct extent_set *s, u64 start, u64 end)
{
	u32 i = first_ending_after(s, start);

	return i < s->n && s->e[i].start < end;
}

u64 extent_count_blocks_range(const struct extent_set *s, u64 size, u64 lo,
			     u64 hi)
{
	u64 count = 0;

	for (u32 i = first_ending_after(s, lo); i < s->n && s->e[i].start < hi;
	     i++) {
		u64 first = ALIGN_UP(MAX(s->e[i].start, lo), size);
		u64 last = ALIGN_DOWN(MIN(s->e[i].end, hi), size);

		if (last > first)
			count += (last - first) / size;
	}
	return count;
}

u64 extent_count_blocks(const struct extent_set *s, u64 size)
{
	return extent_count_blocks_range(s, size, 0, ~0ULL);
}

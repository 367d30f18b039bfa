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
	s->buf_pa = s->buf_bytes = EXTENT_NONE;
}

const char *extent_strerror(int err)
{
	switch (err) {
	case EXTENT_OK:
		return "no error";
	case EXTENT_EOVERLAP:
		return "already free (a double free)";
	case EXTENT_ENOSPC:
		return "the allocator's extent table is full";
	case EXTENT_EINVAL:
		return "an empty, inverted or misaligned range";
	}
	return "an unknown error";
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

/*
 * The run extent @x can hold: its blocks from the first aligned one after
 * the pad, at most @max; at the extent's end instead when that splits
 * nothing (as place() does for one block).
 */
static bool run_in(const struct extent *x, u64 size, u64 max, u64 pad, u64 lo,
		   u64 hi, struct extent_run *r)
{
	u64 base, end, first, last, n;

	if (x->end - x->start < 2 * pad + size)
		return false;
	base = MAX(x->start + pad, lo);
	end = MIN(x->end - pad, hi);
	first = ALIGN_UP(base, size);
	if (first < base || first >= end || end - first < size)
		return false;
	n = (end - first) / size;
	if (n > max) {
		n = max;
		last = ALIGN_DOWN(end - n * size, size);
		if (first - pad != x->start && last + n * size + pad == x->end)
			first = last;
	}
	r->pa = first;
	r->n = n;
	r->room = x->end - x->start;
	return true;
}

bool extent_run_better(const struct extent_run *a, const struct extent_run *b,
		       u64 max)
{
	bool a_all = a->n >= max, b_all = b->n >= max;

	if (a_all != b_all)
		return a_all;
	if (a_all || a->n == b->n)
		return a->room < b->room;
	return a->n > b->n;
}

bool extent_find_run(const struct extent_set *s, u64 size, u64 max, u64 pad,
		     u64 lo, u64 hi, struct extent_run *r)
{
	struct extent_run c;
	bool found = false;

	if (!max || size == 0 || (size & (size - 1)))
		return false;
	for (u32 i = first_ending_after(s, lo); i < s->n && s->e[i].start < hi;
	     i++)
		if (run_in(&s->e[i], size, max, pad, lo, hi, &c) &&
		    (!found || extent_run_better(&c, r, max))) {
			*r = c;
			found = true;
		}
	return found;
}

int extent_take_run(struct extent_set *s, const struct extent_run *r,
		    u64 size, u64 pad)
{
	u64 start = r->pa - pad, end = r->pa + r->n * size + pad;

	if (!r->n || !extent_is_free(s, start, end))
		return EXTENT_EINVAL;
	return extent_remove(s, start, end);
}

int extent_keep_room(struct extent_set *s, u32 headroom, u64 limit,
		     void *(*to_virt)(u64 pa))
{
	u64 old_pa = s->buf_pa, old_bytes = s->buf_bytes, bytes, pa;
	struct extent *e;

	if (s->cap - s->n >= headroom)
		return EXTENT_OK;
	bytes = ALIGN_UP((u64)MAX(s->cap * 2, headroom * 2) * sizeof(*e),
			 (u64)4096);
	pa = extent_alloc(s, bytes, 4096, limit);
	if (pa == EXTENT_NONE)
		return EXTENT_ENOSPC;
	e = to_virt(pa);
	memcpy(e, s->e, s->n * sizeof(*e));
	s->e = e;
	s->cap = (u32)MIN(bytes / sizeof(*e), (u64)~0u);
	s->buf_pa = pa;
	s->buf_bytes = bytes;
	/* Into the new array, which has room for it. */
	if (old_pa != EXTENT_NONE)
		return extent_add(s, old_pa, old_pa + old_bytes);
	return EXTENT_OK;
}

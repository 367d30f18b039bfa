// SPDX-License-Identifier: GPL-2.0-only
/*
 * The transliterations.  cond_resched(), might_sleep() and the clear
 * calls of mm/memory.c become trace events; everything else (kmap,
 * addresses) is left out, since it moves no resched point and no page.
 */
#include <stdlib.h>
#include "tests/host/linux_ref.h"
#include "tests/host/unit.h"

static void emit(struct trace *t, long start, long npages)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 1024;
		t->ev = realloc(t->ev, t->cap * sizeof(*t->ev));
		if (!t->ev)
			abort();
	}
	t->ev[t->n++] = (struct ev){ start, npages };
}

void trace_clear(struct trace *t, long start, long npages)
{
	emit(t, start, npages);
}

void trace_resched(struct trace *t)
{
	emit(t, EV_RESCHED, 0);
}

void trace_might_sleep(struct trace *t)
{
	emit(t, EV_MIGHT_SLEEP, 0);
}

size_t trace_reschedules(const struct trace *t)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n; i++)
		n += t->ev[i].start == EV_RESCHED;
	return n;
}

void trace_free(struct trace *t)
{
	free(t->ev);
	*t = (struct trace){ 0 };
}

/* Linux before 7.0: cond_resched() before every 4K page. */
void ref_process_huge_page(struct trace *t, long nr, long n)
{
	long i, base, l;

	trace_might_sleep(t);
	if (2 * n <= nr) {
		/* fault in the first half: the end of the folio first */
		base = 0;
		l = n;
		for (i = nr - 1; i >= 2 * n; i--) {
			trace_resched(t);
			trace_clear(t, i, 1);
		}
	} else {
		/* fault in the second half: the start of the folio first */
		base = nr - 2 * (nr - n);
		l = nr - n;
		for (i = 0; i < base; i++) {
			trace_resched(t);
			trace_clear(t, i, 1);
		}
	}
	/* left, right, left, right ... towards the faulting page */
	for (i = 0; i < l; i++) {
		long left = base + i, right = base + 2 * l - 1 - i;

		trace_resched(t);
		trace_clear(t, left, 1);
		trace_resched(t);
		trace_clear(t, right, 1);
	}
}

void ref_clear_gigantic_page(struct trace *t, long nr)
{
	trace_might_sleep(t);
	for (long i = 0; i < nr; i++) {
		trace_resched(t);
		trace_clear(t, i, 1);
	}
}

void ref_folio_zero_user_pre70(struct trace *t, long nr, long fault)
{
	if (nr > ORDER_MAX_HUGE_PAGES)	/* MAX_ORDER_NR_PAGES */
		ref_clear_gigantic_page(t, nr);
	else
		ref_process_huge_page(t, nr, fault);
}

/* Linux 7.0: cond_resched() first in the loop, so before every unit. */
void ref_clear_contig_highpages(struct trace *t, long page, long nr_pages,
				const struct ref_model *m)
{
	long unit = m->preemptible ? nr_pages : m->batch;
	long i, count;

	trace_might_sleep(t);
	for (i = 0; i < nr_pages; i += count) {
		trace_resched(t);
		count = MIN(unit, nr_pages - i);
		trace_clear(t, page + i, count);
	}
}

/* Inclusive bounds, as the kernel's struct range. */
struct ref_range {
	long start, end;
};

static long clamp_l(long v, long lo, long hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* Linux 7.0, FOLIO_ZERO_LOCALITY_RADIUS = @radius. */
void ref_folio_zero_user(struct trace *t, long nr, long fault, long radius,
			 const struct ref_model *m)
{
	const struct ref_range pg = { 0, nr - 1 };
	struct ref_range r[3];

	/* the faulting page and its neighbours, cleared last */
	r[2] = (struct ref_range){ clamp_l(fault - radius, pg.start, pg.end),
				   clamp_l(fault + radius, pg.start, pg.end) };
	/* left of them, then right of them; either may be empty */
	r[1] = (struct ref_range){ pg.start, r[2].start - 1 };
	r[0] = (struct ref_range){ r[2].end + 1, pg.end };
	for (int i = 0; i < 3; i++) {
		long nr_pages = r[i].end - r[i].start + 1;

		if (nr_pages > 0)
			ref_clear_contig_highpages(t, r[i].start, nr_pages, m);
	}
}

void ref_order(struct trace *t, enum clear_order o, u32 nr, u32 fault,
	       u32 chunk, u32 radius)
{
	const struct ref_model coop = { false, chunk };

	switch (o) {
	case ORDER_CONVERGING:
		ref_folio_zero_user_pre70(t, nr, fault);
		break;
	case ORDER_DISCONTIGUOUS:
		ref_clear_gigantic_page(t, nr);
		break;
	case ORDER_CONTIGUOUS:
		trace_clear(t, 0, nr);
		break;
	case ORDER_BATCHED:
		ref_clear_contig_highpages(t, 0, nr, &coop);
		break;
	case ORDER_NEIGHBOURHOOD:
		ref_folio_zero_user(t, nr, fault, radius, &coop);
		break;
	case ORDER_COUNT:
		break;
	}
}

void ref_each_case(void (*check)(enum clear_order o, u32 nr, u32 chunk,
				 u32 radius))
{
	static const u32 nrs[] = { 512, 262144 };
	/* 8192 is 32M, PROCESS_PAGES_NON_PREEMPT_BATCH with clear_pages() */
	static const u32 chunks[] = { 1, 3, 512, 2048, 8192, 1000000 };
	static const u32 radii[] = { 0, 1, 2, 16, 600 };

	/* 4M, the largest for process_huge_page(); 8M, clear_gigantic_page() */
	check(ORDER_CONVERGING, 1024, 1, 0);
	check(ORDER_CONVERGING, 2048, 1, 0);
	for (u32 n = 0; n < ARRAY_SIZE(nrs); n++) {
		check(ORDER_CONVERGING, nrs[n], 1, 0);
		check(ORDER_DISCONTIGUOUS, nrs[n], 1, 0);
		check(ORDER_CONTIGUOUS, nrs[n], 1, 0);
		for (u32 c = 0; c < ARRAY_SIZE(chunks); c++)
			check(ORDER_BATCHED, nrs[n], chunks[c], 0);
		for (u32 r = 0; r < ARRAY_SIZE(radii); r++)
			for (u32 c = 2; c < ARRAY_SIZE(chunks); c++)
				check(ORDER_NEIGHBOURHOOD, nrs[n], chunks[c],
				      radii[r]);
	}
	for (int o = 0; o < ORDER_COUNT; o++)
		check((enum clear_order)o, 1, 1, 2);
}

u32 ref_faults(u32 nr, u32 *f, u32 max)
{
	long cand[] = { 0, (long)nr - 1, nr / 2, (long)nr / 2 - 1, 1, 2, 3,
			(long)nr - 2, (long)nr - 3, (long)nr - 4, 100 };
	u32 n = 0;

	for (u32 i = 0; i < ARRAY_SIZE(cand) && n < max; i++) {
		bool dup = false;

		if (cand[i] < 0 || cand[i] >= (long)nr)
			continue;
		for (u32 j = 0; j < n; j++)
			dup |= f[j] == (u32)cand[i];
		if (!dup)
			f[n++] = (u32)cand[i];
	}
	return n;
}

static const char *ev_str(const struct trace *t, size_t i, char *buf,
			  size_t len)
{
	if (i >= t->n)
		return "(end)";
	if (t->ev[i].start == EV_RESCHED)
		return "cond_resched";
	if (t->ev[i].start == EV_MIGHT_SLEEP)
		return "might_sleep";
	snprintf(buf, len, "clear %ld+%ld", t->ev[i].start, t->ev[i].npages);
	return buf;
}

void expect_same_trace(const char *what, u32 nr, u32 fault,
		       const struct trace *got, const struct trace *want)
{
	char a[48], b[48];
	size_t i;

	for (i = 0; i < got->n && i < want->n; i++)
		if (got->ev[i].start != want->ev[i].start ||
		    got->ev[i].npages != want->ev[i].npages)
			break;
	EXPECT(i == got->n && i == want->n, "%s nr=%u fault=%u: event %zu is "
	       "%s, Linux has %s (%zu and %zu events)", what, nr, fault, i,
	       ev_str(got, i, a, sizeof(a)), ev_str(want, i, b, sizeof(b)),
	       got->n, want->n);
}

void expect_covers_once(const char *what, u32 nr, const struct trace *t)
{
	u64 *seen = calloc((nr + 63) / 64, sizeof(u64));	/* bit a page */
	u64 pages = 0;
	bool ok = true;

	for (size_t i = 0; i < t->n && ok; i++) {
		const struct ev *e = &t->ev[i];

		if (e->start == EV_RESCHED || e->start == EV_MIGHT_SLEEP)
			continue;
		ok = e->npages > 0 && e->start >= 0 &&
		     e->start + e->npages <= nr;
		for (long p = e->start; ok && p < e->start + e->npages; p++) {
			ok = !(seen[p / 64] & (1ULL << (p % 64)));
			seen[p / 64] |= 1ULL << (p % 64);
		}
		EXPECT(ok, "%s: clear %ld+%ld outside the folio or twice",
		       what, e->start, e->npages);
		pages += e->npages;
	}
	if (ok)
		EXPECT_EQ(pages, nr);
	free(seen);
}

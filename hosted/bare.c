// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench=bare: the clearing alone.  Every primitive x order over memory
 * that is already faulted in and backed by huge pages (hugetlb where the
 * host has a free pool, transparent huge pages otherwise), one folio-sized
 * unit at a time, each timed with the TSC.  The same planner and
 * primitives as the kernel's fault path; no fault, no mapping.
 */

#include <stdio.h>
#include <string.h>
#include "arch/x86_64/clear.h"
#include "arch/x86_64/memops.h"
#include "arch/x86_64/tsc.h"
#include "hosted/companion.h"
#include "lib/order.h"

#define PATTERN 0xa5a5a5a5a5a5a5a5ULL

static u64 resched_points;

/* Linux's cond_resched(): a counted call, as in the kernel build. */
void cond_resched(void);
void cond_resched(void)
{
	resched_points++;
}

struct bare_cfg {
	struct bench_desc d;
	enum prim_id prim;
	enum clear_order order;
	u64 bytes;
	u32 count;
};

static void one_pass(struct bare_cfg *b, struct region *r, struct samples *s,
		     struct bench_outcome *o, u32 run, const char *pass)
{
	const struct hz_config *c = b->d.c;
	u32 nr = (u32)(b->bytes / SZ_4K), before = o->failures;
	u32 chunk = b->d.chunk ? (u32)(b->d.chunk / SZ_4K) : 1;
	u64 rng = c->seed, rp = resched_points;
	struct bench_pass p;

	memset(r->base, 0xa5, r->bytes);	/* untimed: zeroing must show */
	if (c->cache == CACHE_CLFLUSH)
		clflush_range(r->base, r->bytes);
	touch_permutation(c, b->count, s->scratch, &rng);
	for (u32 k = 0; k < b->count; k++) {
		u8 *f = r->base + s->scratch[k] * b->bytes;
		struct order_iter it;
		struct clear_range cr;
		u64 t0, t1;

		s->page[k] = touch_page(c, b->bytes, &rng);
		order_begin(&it, b->order, nr, (u32)s->page[k], chunk,
			    (u32)c->radius);
		t0 = tsc_begin();
		while (order_next(&it, &cr)) {
			if (cr.resched)
				cond_resched();
			prim_fns[b->prim](f + (u64)cr.start * SZ_4K,
					   (u64)cr.npages * SZ_4K);
		}
		t1 = tsc_end();
		s->clear[k] = t1 - t0;
		s->access[k] = timed_access(f, b->bytes, c->access);
	}
	if (c->access != ACCESS_WRITE)
		for (u32 k = 0; k < b->count; k++) {
			u64 off = find_not_qword(r->base + k * b->bytes, 0, b->bytes);

			if (off != ~0ULL)
				bench_fail(o, "%s: folio %u not zero at offset %#llx",
					   b->d.name, k, (unsigned long long)off);
		}
	p = (struct bench_pass){ run, pass, c->access, b->count,
				 (resched_points - rp), NULL, s->clear, s->access,
				 c->access == ACCESS_WRITE ? "n/a" :
				 o->failures > before ? "fail" : "ok" };
	bench_rec_run(&records, &b->d, &p);
	if (strcmp(pass, "measure") != 0)
		return;
	if (c->samples == SAMPLES_ALL) {
		bench_rec_samples(&records, b->d.id, run, "clear", s->clear, b->count);
		if (c->access != ACCESS_NONE)
			bench_rec_samples(&records, b->d.id, run, "access",
					  s->access, b->count);
		if (c->offset == OFFSET_RANDOM)
			bench_rec_samples(&records, b->d.id, run, "page", s->page,
					  b->count);
	}
	bench_keep_run(o, &p, s->scratch);
}

static u32 run_cfg(struct bare_cfg *b, struct region *r, struct samples *s)
{
	static struct bench_outcome o;
	const struct hz_config *c = b->d.c;
	char why[160];
	u32 run = 0;

	memset(&o, 0, sizeof(o));
	bench_rec_config(&records, &b->d);
	if (!prim_supported(b->prim, why, sizeof(why))) {
		bench_rec_summary(&records, &b->d, &o, "skip", why, tsc_hz);
		fprintf(stderr, "skip %s: %s\n", b->d.name, why);
		return 0;
	}
	for (u64 i = 0; i < c->warmups; i++)
		one_pass(b, r, s, &o, run++, "warmup");
	for (u64 i = 0; i < c->runs; i++)
		one_pass(b, r, s, &o, run++, "measure");
	bench_rec_summary(&records, &b->d, &o, o.failures ? "fail" : "ok",
			  o.failures ? o.first : NULL, tsc_hz);
	fprintf(stderr, "%s %s\n", o.failures ? "FAIL" : "ok  ", b->d.name);
	return o.failures ? 1 : 0;
}

/* Memory for bare clearing: hugetlb if the pool holds it, else THP. */
static bool bare_region(struct region *r, u64 bytes, char *why, size_t n)
{
	char w2[160];

	if (host_free_hugetlb_2m() * SZ_2M >= bytes &&
	    region_map(r, bytes, BACKING_HUGETLB, SZ_2M, w2, sizeof(w2)))
		goto touch;
	if (!region_map(r, bytes, BACKING_THP, SZ_2M, why, n) &&
	    !region_map(r, bytes, BACKING_BASE, SZ_4K, why, n))
		return false;
touch:
	/* Fault everything in now: bare means no faults while timed. */
	for (u64 i = 0; i < bytes; i += SZ_4K)
		((volatile u8 *)r->base)[i] = 1;
	return true;
}

u32 run_bare(const struct hz_config *c, u32 *id)
{
	u32 failed = 0;
	char why[200];

	for (u32 f = 0; f < FOLIO_COUNT; f++) {
		struct matrix_iter it = { 0, 0, 0 };
		struct bare_cfg b;
		struct region r;
		struct samples s;
		u32 prim, order;

		if (!(c->folios >> f & 1))
			continue;
		memset(&b, 0, sizeof(b));
		b.bytes = folio_bytes[f];
		b.count = (u32)MIN(c->size / b.bytes, (u64)(1u << 20));
		b.d.c = c;
		b.d.bench = "bare";
		b.d.folio = folio_names[f];
		b.d.size = (u64)b.count * b.bytes;
		b.d.folios = b.count;
		if (!bare_region(&r, b.d.size, why, sizeof(why)) ||
		    !samples_alloc(&s, b.count)) {
			fprintf(stderr, "hugezero-linux: bare %s: %s\n",
				folio_names[f], why);
			failed++;
			continue;
		}
		b.d.backing = r.backing;
		if (strcmp(r.backing, "hugetlb") != 0 && region_huge_pct(&r) < 90)
			fprintf(stderr, "hugezero-linux: bare %s: only %u%% of the "
				"region is in huge pages (%s backing)\n",
				folio_names[f], region_huge_pct(&r), r.backing);
		while (bench_matrix_next(c, f, "bare.", &it, &b.d, id, &prim,
					 &order)) {
			b.prim = prim;
			b.order = order;
			failed += run_cfg(&b, &r, &s);
		}
		samples_free(&s);
		region_unmap(&r);
	}
	return failed;
}

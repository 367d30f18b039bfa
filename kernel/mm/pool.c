// SPDX-License-Identifier: GPL-2.0-only
/*
 * Folio pool.  Its folios lie in a few runs, each taken and given back
 * in one operation of the frame allocator.  Guard frames: 4K and 2M runs
 * are taken with one 4K frame more on each side (one operation still);
 * 1G runs without (that frame would cost the neighbouring 1G block),
 * their neighbours claimed once every pool has its runs, where free.
 * The benchmark fills the guards with its pattern and checks them after
 * every run, so a clear that runs past its folio shows.
 */
#include "arch/x86_64/tsc.h"
#include "kernel/mm/memory.h"
#include "kernel/mm/pool.h"
#include "kernel/smp/smp.h"
#include "kernel/watch.h"

/* A fault waits for the zeroer's folio: it is timed, so look often. */
#define TAKE_BACKOFF_MAX 64

static u64 pad_of(u64 bytes)
{
	return bytes < SZ_1G ? SZ_4K : 0;
}

static void pool_init(struct pool *p, struct folio *slots, u64 bytes, u32 cpu)
{
	p->bytes = bytes;
	p->n = 0;
	p->f = slots;
	p->cpu = cpu;
	p->nruns = p->nguards = 0;
	p->lock = (struct spinlock)SPINLOCK_INIT;
	p->busy = 0;
	pool_wait_reset(p);
	p->zeroed = p->unzeroed = (struct folio_list){ 0, 0, 0 };
}

static void add_guard(struct pool *p, u64 pa, u32 folio, bool after,
		      bool claimed)
{
	if (p->nguards < POOL_GUARDS)
		p->guard[p->nguards++] = (struct pool_guard){ pa, folio, after,
							      claimed };
}

/*
 * @need more folios from @node as runs, the k-th in slot @slot + k *
 * @stride; false when not all fit.  What was taken stays in @p's runs
 * either way, for pool_destroy().
 */
static bool take_runs(struct pool *p, u32 node, u32 need, u32 slot,
		      u32 stride)
{
	u64 pad = pad_of(p->bytes), bytes = p->bytes;

	while (need) {
		u64 got, pa;

		if (p->nruns == POOL_RUNS)
			return false;
		pa = frame_alloc_run(bytes, need, pad, node, &got);
		if (pa == FRAME_NONE)
			return false;
		p->run[p->nruns++] = (struct pool_run){ pa - pad,
							pa + got * bytes + pad,
							slot, stride };
		if (pad) {
			add_guard(p, pa - pad, slot, false, false);
			add_guard(p, pa + got * bytes,
				  slot + (u32)(got - 1) * stride, true, false);
		}
		for (u64 k = 0; k < got; k++, slot += stride)
			p->f[slot] = (struct folio){ pa + k * bytes,
						     FOLIO_UNZEROED, 0, 0 };
		p->n += (u32)got;
		need -= (u32)got;
	}
	return true;
}

u32 pool_create(struct pool *p, struct folio *slots, u64 bytes, u32 n)
{
	pool_init(p, slots, bytes, 0);
	take_runs(p, FRAME_ANY_NODE, MIN(n, (u32)POOL_MAX), 0, 1);
	pool_reset(p);
	return p->n;
}

/* Exactly @n folios; numa=interleave: folio i from nodes[i % nnodes],
 * each node's as runs of their own. */
static bool pool_fill(const struct pool_req *r, u64 bytes, u32 n)
{
	struct pool *p = r->p;
	u32 ways = MAX(r->nnodes, 1u);

	pool_init(p, r->slots, bytes, r->cpu);
	for (u32 j = 0; j < ways && j < n; j++)
		if (!take_runs(p, r->nnodes ? r->nodes[j] : FRAME_ANY_NODE,
			       (n - j + ways - 1) / ways, j, ways))
			return false;
	pool_reset(p);
	return true;
}

/*
 * The page tables a region of @n folios of @bytes needs at most: at each
 * level above its leaves up to the PDPT, one per span it covers and one
 * more where it straddles a boundary.
 */
static u64 tables_for(u64 bytes, u32 n)
{
	u64 len = (u64)n * bytes, t = 0;

	for (u64 span = bytes * 512; span <= 512 * SZ_1G; span *= 512)
		t += len / span + 2;
	return t * SZ_4K;
}

static void destroy_all(const struct pool_req *r, u32 nreq)
{
	for (u32 i = 0; i < nreq; i++)
		pool_destroy(r[i].p);
}

/* Whether every pool gets @n folios with room left; if not, nothing
 * is kept. */
static bool fits(const struct pool_req *r, u32 nreq, u64 bytes, u32 n,
		 u64 slack)
{
	bool ok = true;

	for (u32 i = 0; i < nreq && ok; i++)
		ok = pool_fill(&r[i], bytes, n);
	if (ok && frame_free_bytes() >= slack + nreq * tables_for(bytes, n))
		return true;
	destroy_all(r, nreq);
	return false;
}

/* 1G runs: their neighbours, now that no pool needs them. */
static void claim_guards(struct pool *p)
{
	if (pad_of(p->bytes))
		return;
	for (u32 i = 0; i < p->nruns; i++) {
		const struct pool_run *run = &p->run[i];
		u32 n = (u32)((run->end - run->start) / p->bytes);
		u32 last = run->first + (n - 1) * run->stride;

		if (run->start >= SZ_4K && frame_claim(run->start - SZ_4K, SZ_4K))
			add_guard(p, run->start - SZ_4K, run->first, false, true);
		if (frame_claim(run->end, SZ_4K))
			add_guard(p, run->end, last, true, true);
	}
}

u32 pools_create(const struct pool_req *r, u32 nreq, u64 bytes, u32 want,
		 u64 slack)
{
	u32 lo = 0, hi;

	want = MIN(want, (u32)POOL_MAX);
	hi = want;
	for (u32 i = 0; i < nreq; i++)
		pool_init(r[i].p, r[i].slots, bytes, r[i].cpu);
	if (!want)
		return 0;
	/* The largest count that fits: trials given back leave the frame
	 * allocator exactly as it was (its extent set is canonical). */
	if (!fits(r, nreq, bytes, want, slack)) {
		while (hi - lo > 1) {
			u32 mid = lo + (hi - lo) / 2;

			if (fits(r, nreq, bytes, mid, slack)) {
				destroy_all(r, nreq);
				lo = mid;
			} else {
				hi = mid;
			}
		}
		if (!lo || !fits(r, nreq, bytes, lo, slack))
			return 0;
		want = lo;
	}
	for (u32 i = 0; i < nreq; i++)
		claim_guards(r[i].p);
	return want;
}

u32 pool_destroy(struct pool *p)
{
	u32 bad = 0;

	for (u32 i = 0; i < p->nruns; i++)
		bad += frame_free_range(p->run[i].start, p->run[i].end) !=
		       EXTENT_OK;
	for (u32 i = 0; i < p->nguards; i++)
		if (p->guard[i].claimed)
			bad += frame_free(p->guard[i].pa, SZ_4K) != EXTENT_OK;
	p->n = p->nruns = p->nguards = 0;
	p->zeroed = p->unzeroed = (struct folio_list){ 0, 0, 0 };
	return bad;
}

#define NONE (~0u)

static void push(struct pool *p, struct folio_list *l, u32 i)
{
	p->f[i].next = NONE;
	if (l->count++)
		p->f[l->tail].next = i;
	else
		l->head = i;
	l->tail = i;
}

static struct folio *pop(struct pool *p, struct folio_list *l)
{
	struct folio *f;

	if (!l->count)
		return NULL;
	f = &p->f[l->head];
	l->head = f->next;
	l->count--;
	return f;
}

static u32 free_count(const struct pool *p)
{
	return pool_zeroed(p) +
	       __atomic_load_n(&p->unzeroed.count, __ATOMIC_RELAXED);
}

/* The wait under way, if any, is over: counted, timed. */
static void waited(struct pool *p)
{
	u64 t0 = p->wait_since;

	if (!t0)
		return;
	p->waits++;
	p->wait_ticks += rdtsc() - t0;
	__atomic_store_n(&p->wait_since, 0, __ATOMIC_RELEASE);
}

struct folio *pool_take(struct pool *p)
{
	for (u32 spins = 0, watched = 0;;) {
		u64 flags = spin_lock_irqsave_watched(&p->lock, NULL, "for a pool's lock");
		u32 busy = p->busy;
		struct folio *f;

		f = pop(p, &p->zeroed);
		if (!f)
			f = pop(p, &p->unzeroed);
		spin_unlock_irqrestore(&p->lock, flags);
		if (f || !busy) {
			waited(p);
			return f;
		}
		if (!p->wait_since)	/* never 0: 0 is no wait */
			__atomic_store_n(&p->wait_since, rdtsc() | 1,
					 __ATOMIC_RELEASE);
		/* The zeroer gives one back within a folio's clear: until
		 * it does, read the counts rather than take the lock. */
		while (!free_count(p) &&
		       __atomic_load_n(&p->busy, __ATOMIC_ACQUIRE)) {
			if (smp_aborted) {
				waited(p);
				return NULL;
			}
			pool_backoff(&spins, TAKE_BACKOFF_MAX);
			watch_wait(&watched, ~0u, "for a folio a zeroer holds",
				   WATCH_LOOSE);
		}
	}
}

struct folio *pool_take_unzeroed(struct pool *p)
{
	u64 flags;
	struct folio *f;

	/* Nothing to zero is the zeroer's usual answer: no lock for it. */
	if (!__atomic_load_n(&p->unzeroed.count, __ATOMIC_RELAXED))
		return NULL;
	flags = spin_lock_irqsave_watched(&p->lock, NULL, "for a pool's lock");
	f = pop(p, &p->unzeroed);
	if (f)
		p->busy++;
	spin_unlock_irqrestore(&p->lock, flags);
	return f;
}

void pool_put_zeroed(struct pool *p, struct folio *f)
{
	u64 flags = spin_lock_irqsave_watched(&p->lock, NULL, "for a pool's lock");

	f->zeroed = FOLIO_ZEROED;
	push(p, &p->zeroed, (u32)(f - p->f));
	p->busy--;
	spin_unlock_irqrestore(&p->lock, flags);
}

void pool_reset(struct pool *p)
{
	p->zeroed = p->unzeroed = (struct folio_list){ 0, 0, 0 };
	for (u32 i = 0; i < p->n; i++) {
		struct folio *f = &p->f[i];

		if (f->mapped)
			f->zeroed = FOLIO_UNZEROED;
		f->mapped = 0;
		push(p, f->zeroed ? &p->zeroed : &p->unzeroed, i);
	}
}

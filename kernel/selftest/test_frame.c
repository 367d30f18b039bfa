// SPDX-License-Identifier: GPL-2.0-only
/* Self-tests: the frame allocator on the real memory map. */
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/paging.h"
#include "arch/x86_64/tsc.h"
#include "kernel/mm/memory.h"
#include "kernel/mm/pool.h"
#include "kernel/smp/smp.h"
#include "kernel/timebase.h"
#include "kernel/selftest/selftest.h"

static const char *size_name(u64 size)
{
	return size == SZ_4K ? "4K" : size == SZ_2M ? "2M" : "1G";
}

static void alloc_aligned(struct tctx *t, u64 size, u32 count)
{
	u64 before = frame_free_bytes(), got[8];
	u32 n = 0;

	if (frame_count_free_blocks(size) < count) {
		skip(t, "fewer than %u free %s frames", count, size_name(size));
		return;
	}
	for (; n < count; n++) {
		got[n] = frame_alloc(size);
		if (!check(t, got[n] != FRAME_NONE, "%s allocation %u failed",
			   size_name(size), n))
			break;
		check(t, IS_ALIGNED(got[n], size), "%#llx not %s aligned",
		      (unsigned long long)got[n], size_name(size));
		check(t, got[n] + size <= memory.kernel_start ||
		      got[n] >= memory.kernel_end, "frame overlaps the kernel");
		check(t, !frame_overlaps_free(got[n], got[n] + size),
		      "allocated frame still free");
		for (u32 j = 0; j < n; j++)
			check(t, got[j] != got[n], "same frame twice");
	}
	while (n--)
		check(t, frame_free(got[n], size) == 0, "free failed");
	check(t, frame_free_bytes() == before, "free bytes %llu, was %llu",
	      (unsigned long long)frame_free_bytes(),
	      (unsigned long long)before);
}

static void alloc_4k(struct tctx *t)
{
	alloc_aligned(t, SZ_4K, 8);
}

static void alloc_2m(struct tctx *t)
{
	alloc_aligned(t, SZ_2M, 4);
}

static void alloc_1g(struct tctx *t)
{
	alloc_aligned(t, SZ_1G, 1);
}

static void double_free(struct tctx *t)
{
	u64 pa = frame_alloc(SZ_4K);

	if (!check(t, pa != FRAME_NONE, "no 4K frame"))
		return;
	check(t, frame_free(pa, SZ_4K) == 0, "first free failed");
	/* The allocator reports each failed free on the console too. */
	note(t, "a double and a misaligned free follow, on purpose");
	check(t, frame_free(pa, SZ_4K) == EXTENT_EOVERLAP,
	      "double free not detected");
	check(t, frame_free(pa + 1, SZ_4K) == EXTENT_EINVAL,
	      "misaligned free not refused");
}

/*
 * The frames exhaustion took, recorded in pages that are themselves taken
 * frames: the frame that finds the last page full becomes the next page.
 * Only one frame in DRAIN_PER_PAGE is written, because writing each would
 * make a virtual machine's host fault in and zero all of its memory
 * (under QEMU, 4 GiB took 3-5 s, nearly all of it the 2M frames).
 */
struct drained {
	u64 pa, size;
};

struct drain_page {
	u64 next_pa;		/* the page before, 0 for the first */
	u64 n;
	struct drained e[];	/* e[0] is this page's own frame */
};

#define DRAIN_PER_PAGE ((SZ_4K - sizeof(struct drain_page)) / \
			sizeof(struct drained))

static void drain_add(struct drain_page **page, u64 pa, u64 size)
{
	struct drain_page *p = *page;

	if (!p || p->n == DRAIN_PER_PAGE) {
		struct drain_page *np = phys_to_virt(pa);

		np->next_pa = p ? p->e[0].pa : 0;
		np->n = 0;
		*page = p = np;
	}
	p->e[p->n++] = (struct drained){ pa, size };
}

/* Take every frame of @size, recording each. */
static u64 drain(u64 size, struct drain_page **page, u64 *count, u64 *highest)
{
	u64 bytes = 0, pa;

	while ((pa = frame_alloc(size)) != FRAME_NONE) {
		drain_add(page, pa, size);
		bytes += size;
		(*count)++;
		*highest = MAX(*highest, pa + size);
	}
	return bytes;
}

/* Give back every frame recorded, each page's own last. */
static void refill(struct tctx *t, struct drain_page *p)
{
	while (p) {
		struct drained self = p->e[0];
		u64 next = p->next_pa;

		for (u64 i = p->n; i-- > 1;)
			check(t, frame_free(p->e[i].pa, p->e[i].size) == 0,
			      "free of %#llx failed",
			      (unsigned long long)p->e[i].pa);
		check(t, frame_free(self.pa, self.size) == 0,
		      "free of %#llx failed", (unsigned long long)self.pa);
		p = next ? phys_to_virt(next) : NULL;
	}
}

static void exhaustion(struct tctx *t)
{
	u64 before = frame_free_bytes(), n = 0, high = 0, got = 0;
	struct drain_page *page = NULL;

	got += drain(SZ_1G, &page, &n, &high);
	got += drain(SZ_2M, &page, &n, &high);
	got += drain(SZ_4K, &page, &n, &high);
	check(t, frame_free_bytes() == 0, "%llu bytes left after draining",
	      (unsigned long long)frame_free_bytes());
	check(t, got == before, "drained %llu of %llu free bytes",
	      (unsigned long long)got, (unsigned long long)before);
	check(t, frame_alloc(SZ_4K) == FRAME_NONE, "allocation after "
	      "exhaustion succeeded");
	if (memory.max_ram_end > 4 * GiB)
		check(t, high > 4 * GiB, "no frame above 4 GiB handed out");
	refill(t, page);
	check(t, frame_free_bytes() == before, "free bytes %llu after refill, "
	      "was %llu", (unsigned long long)frame_free_bytes(),
	      (unsigned long long)before);
	note(t, "%llu frames, %llu MiB, highest end %#llx",
	     (unsigned long long)n, (unsigned long long)(got >> 20),
	     (unsigned long long)high);
}

/*
 * The pool's two lists: a fault takes the oldest zeroed folio first, then
 * the oldest unzeroed; a zeroer's folio goes to the zeroed list; a reset
 * puts mapped folios back unzeroed and keeps the others' state.
 */
static void pool_zeroed_first(struct tctx *t)
{
	static struct folio slots[4];
	struct pool p;
	struct folio *f, *z;
	u32 order[4];

	if (!check(t, pool_create(&p, slots, SZ_4K, 4) == 4, "no 4 frames"))
		return;
	f = pool_take_unzeroed(&p);		/* folio 0, to be zeroed */
	check(t, f == &slots[0] && p.busy == 1, "a zeroer took %ld",
	      (long)(f - slots));
	pool_put_zeroed(&p, f);
	z = pool_take_unzeroed(&p);		/* folio 1, zeroed too */
	pool_put_zeroed(&p, z);
	for (u32 i = 0; i < 4; i++) {
		f = pool_take(&p);
		order[i] = f ? (u32)(f - slots) : ~0u;
		if (f)
			f->mapped = i == 0;	/* the workload used folio 0 */
	}
	check(t, order[0] == 0 && order[1] == 1 && order[2] == 2 &&
	      order[3] == 3, "faults took %u %u %u %u, expected 0 1 2 3 "
	      "(zeroed first, FIFO)", order[0], order[1], order[2], order[3]);
	check(t, !pool_take(&p), "a fifth folio from a pool of four");
	pool_reset(&p);
	check(t, !slots[0].zeroed && slots[1].zeroed && pool_zeroed(&p) == 1,
	      "after a reset: folio 0 (mapped) zeroed %u, folio 1 (not) %u, "
	      "%u on the zeroed list", slots[0].zeroed, slots[1].zeroed,
	      pool_zeroed(&p));
	f = pool_take(&p);
	check(t, f == &slots[1], "after the reset the zeroed folio comes "
	      "first, got %ld", f ? (long)(f - slots) : -1L);
	pool_destroy(&p);
}

/* A zeroer on another CPU: holds its folio until the faulting CPU is
 * seen waiting for it (or a second has passed), then puts it back
 * zeroed. */
struct zeroer_hold {
	struct pool *p;
	struct folio *f;
};

static void hold_then_put(void *arg)
{
	struct zeroer_hold *h = arg;
	u64 end = rdtsc() + timebase.tsc_hz;

	while (!__atomic_load_n(&h->p->wait_since, __ATOMIC_ACQUIRE) &&
	       rdtsc() < end)
		cpu_relax();
	pool_put_zeroed(h->p, h->f);
}

/*
 * A fault that finds no free folio while a zeroer holds one waits for it
 * (hugetlb's hpage_wait_zerobusy()): the wait is counted and timed, and
 * the fault gets that folio, zeroed.  A take that finds one waits not.
 */
static void pool_counts_waits(struct tctx *t)
{
	static struct folio slots[1];
	static struct zeroer_hold h;
	struct pool p;
	struct folio *f;
	u32 cpu = 1;

	if (!smp_is_up(cpu)) {
		skip(t, "needs a second CPU for the zeroer (-smp 2)");
		return;
	}
	if (!check(t, pool_create(&p, slots, SZ_4K, 1) == 1, "no frame"))
		return;
	h = (struct zeroer_hold){ &p, pool_take_unzeroed(&p) };
	if (!check(t, h.f && !pool_zeroed(&p), "the zeroer took no folio") ||
	    !check(t, on_cpu(cpu, hold_then_put, &h), "cpu %u took no work",
		   cpu)) {
		pool_destroy(&p);
		return;
	}
	f = pool_take(&p);
	smp_wait(cpu);
	check(t, f == &slots[0] && f->zeroed == FOLIO_ZEROED, "the fault got "
	      "%ld, zeroed %u", f ? (long)(f - slots) : -1L, f ? f->zeroed : 0);
	check(t, p.waits == 1 && p.wait_ticks > 0, "%u waits, %llu ticks: "
	      "expected one, timed", p.waits, (unsigned long long)p.wait_ticks);
	note(t, "waited %llu ticks", (unsigned long long)p.wait_ticks);
	pool_reset(&p);
	pool_wait_reset(&p);
	f = pool_take(&p);
	check(t, f && !p.waits && !p.wait_ticks, "a free folio was waited for: "
	      "%u waits", p.waits);
	pool_destroy(&p);
}

static u64 held(void)
{
	return frame_free_bytes() + frame_kept_bytes();
}

/* Runs of one pool: apart from the other's, a guard frame of its own
 * at each end, taken (not free). */
static void check_runs(struct tctx *t, const struct pool *p,
		       const struct pool *other)
{
	for (u32 i = 0; i < p->nguards; i++) {
		const struct pool_guard *g = &p->guard[i];
		u64 want = g->after ? p->f[g->folio].pa + p->bytes :
			   p->f[g->folio].pa - SZ_4K;

		check(t, g->pa == want && !frame_overlaps_free(g->pa, g->pa + SZ_4K),
		      "pool %u: guard %#llx beside folio %u (pa %#llx) misplaced "
		      "or free", p->cpu, (unsigned long long)g->pa, g->folio,
		      (unsigned long long)p->f[g->folio].pa);
	}
	for (u32 i = 0; i < p->nruns; i++)
		for (u32 j = 0; j < other->nruns; j++)
			check(t, p->run[i].end <= other->run[j].start ||
			      other->run[j].end <= p->run[i].start,
			      "runs of two pools overlap or touch");
}

/*
 * Two pools made together: the same count, in runs that stay apart,
 * guards at both ends; given back, the allocator is as it was.  More
 * than fits: none kept, nothing lost.
 */
static void pools_together(struct tctx *t)
{
	static struct folio slots[2][64];
	static struct pool p[2];
	struct pool_req r[2] = { { &p[0], slots[0], 0, NULL, 0 },
				 { &p[1], slots[1], 1, NULL, 0 } };
	u64 before = held();
	u32 n = pools_create(r, 2, SZ_4K, 64, 0);

	check(t, n == 64 && p[0].n == 64 && p[1].n == 64,
	      "pools of %u and %u of 64 4K folios", p[0].n, p[1].n);
	check(t, p[0].nguards == 2 * p[0].nruns && p[1].nguards == 2 * p[1].nruns,
	      "guards %u and %u for %u and %u runs", p[0].nguards, p[1].nguards,
	      p[0].nruns, p[1].nruns);
	check_runs(t, &p[0], &p[1]);
	check_runs(t, &p[1], &p[0]);
	check(t, !pool_destroy(&p[0]) && !pool_destroy(&p[1]), "a free failed");
	check(t, held() == before, "%lld bytes lost",
	      (long long)(before - held()));
	/* 1G folios, 64 each: none fits twice on a test machine. */
	n = pools_create(r, 2, SZ_1G, 64, 0);
	check(t, n < 64 && p[0].n == n && p[1].n == n, "%u, %u and %u of 64 "
	      "1G folios", n, p[0].n, p[1].n);
	check(t, !pool_destroy(&p[0]) && !pool_destroy(&p[1]), "a free failed");
	check(t, held() == before, "%lld bytes lost after trials",
	      (long long)(before - held()));
}

SUITE(suite_frame, "frame",
	{ "alloc_4k", alloc_4k },
	{ "alloc_2m", alloc_2m },
	{ "alloc_1g", alloc_1g },
	{ "double_free", double_free },
	{ "exhaustion", exhaustion },
	{ "pool_zeroed_first", pool_zeroed_first },
	{ "pool_counts_waits", pool_counts_waits },
	{ "pools_together", pools_together },
);

// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench=fault: the demand-fault benchmark.  For every folio size x
 * primitive x order (x chunk, for the orders that have one), run the
 * workload over a region of not-present folios: warm-ups, then measured
 * runs, each preceded by filling the pool with a pattern and setting the
 * cache state, each followed by checking every folio is zero.  Nothing is
 * printed while the workload runs; records follow each run.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/memops.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/tsc.h"
#include "arch/x86_64/user.h"
#include "kernel/bench/bench.h"
#include "kernel/console.h"
#include "kernel/bench/fault.h"
#include "kernel/mm/memory.h"
#include "kernel/report.h"
#include "kernel/timebase.h"
#include "kernel/bench/workload.h"
#include "lib/benchrec.h"
#include "lib/calib.h"
#include "lib/format.h"
#include "lib/stats.h"
#include "lib/string.h"

#define PATTERN 0xdeadbeefcafef00dULL

enum pass_kind { PASS_VERIFY, PASS_WARMUP, PASS_MEASURE };
static const char *const pass_names[] = { "verify", "warmup", "measure" };

struct bench_cfg {
	struct bench_desc d;	/* what the records say */
	const struct hz_config *c;
	u32 folio;
	enum prim_id prim;
	enum clear_order order;
	u64 bytes;		/* folio size */
	u32 count;		/* folios in the region */
	u64 region;
	const char *no_folio;	/* why count is 0 */
};

static struct workload wl;
static struct pool pool;
static struct bench_outcome out;
static struct fault_ctx fault_ctx;	/* per CPU once APs run workloads */

u32 bench_count(const struct hz_config *c)
{
	return bench_matrix_count(c);
}

/* Untimed: the pool and its guards full of pattern, so zeroing shows. */
static void fill_pool(void)
{
	for (u32 i = 0; i < pool.n; i++)
		fill_qwords(phys_to_virt(pool.f[i].pa), PATTERN, pool.bytes);
	for (u32 i = 0; i < pool.nguards; i++)
		fill_qwords(phys_to_virt(pool.guard_pa[i]), PATTERN, SZ_4K);
}

static void plan_touches(const struct bench_cfg *b)
{
	const struct hz_config *c = b->c;
	u64 *a = wl.addrs, rng = c->seed;

	touch_permutation(c, b->count, a, &rng);
	for (u32 k = 0; k < b->count; k++)
		a[k] = b->region + a[k] * b->bytes +
		       (u64)touch_page(c, b->bytes, &rng) * SZ_4K;
}

static void set_cache_state(const struct hz_config *c)
{
	if (c->cache == CACHE_WBINVD)
		wbinvd();
	else if (c->cache == CACHE_CLFLUSH)
		for (u32 i = 0; i < pool.n; i++)
			clflush_range(phys_to_virt(pool.f[i].pa), pool.bytes);
}

static u64 check_folio(const struct hz_config *c, const u8 *p, u64 bytes)
{
	u64 off;

	if (c->verify == VERIFY_FULL)
		return find_not_qword(p, 0, bytes);
	/* Sampled: one line per 4K page, spread, plus both ends. */
	for (u64 pg = 0; pg < bytes; pg += SZ_4K) {
		off = pg + ((pg / SZ_4K) * 37 % 64) * 64;
		if (find_not_qword(p + off, 0, 64) != ~0ULL)
			return off + find_not_qword(p + off, 0, 64);
	}
	off = find_not_qword(p + bytes - 64, 0, 64);
	return off == ~0ULL ? find_not_qword(p, 0, 64) : bytes - 64 + off;
}

static void verify(const struct bench_cfg *b)
{
	for (u32 i = 0; i < fault_ctx.nfaults; i++) {
		u64 off = check_folio(b->c, phys_to_virt(pool.f[i].pa), b->bytes);

		if (off != ~0ULL)
			bench_fail(&out, "%s: folio %u (pa %#llx, fault page "
				   "%llu) not zero at offset %#llx", b->d.name, i,
			     (unsigned long long)pool.f[i].pa,
			     (unsigned long long)wl.fault_page[i],
			     (unsigned long long)off);
	}
	for (u32 i = 0; i < pool.nguards; i++)
		if (find_not_qword(phys_to_virt(pool.guard_pa[i]), PATTERN,
				   SZ_4K) != ~0ULL)
			bench_fail(&out, "%s: guard page %#llx next to the pool "
				   "was written", b->d.name,
				   (unsigned long long)pool.guard_pa[i]);
}

static void unmap_all(const struct bench_cfg *b)
{
	enum leaf_size l = b->folio == FOLIO_4K ? LEAF_4K :
			   b->folio == FOLIO_2M ? LEAF_2M : LEAF_1G;

	for (u32 i = 0; i < b->count; i++)
		pt_unmap(wl.pml4, b->region + (u64)i * b->bytes, l, NULL);
	pool_reset(&pool);
	write_cr3(read_cr3());	/* and anything the walk cached */
}

static void one_pass(const struct bench_cfg *b, u32 run, enum pass_kind k)
{
	const struct hz_config *c = b->c;
	u32 access = k == PASS_VERIFY ? ACCESS_NONE : c->access;
	u32 before = out.failures, n;
	struct fault_ctx *fc = &fault_ctx;
	struct bench_pass p;

	fill_pool();
	plan_touches(b);
	memset(wl.access_ticks, 0, (u64)b->count * 8);
	set_cache_state(c);
	memset(fc, 0, sizeof(*fc));
	fc->pml4 = wl.pml4;
	fc->region = b->region;
	fc->region_end = b->region + (u64)b->count * b->bytes;
	fc->leaf = b->folio == FOLIO_4K ? LEAF_4K : b->folio == FOLIO_2M ?
		   LEAF_2M : LEAF_1G;
	fc->pool = &pool;
	fc->clear = prim_fns[b->prim];
	fc->order = b->order;
	fc->chunk_pages = b->d.chunk ? (u32)MIN(b->d.chunk / SZ_4K, (u64)~0u) : 1;
	fc->radius = (u32)c->radius;
	fc->inject_skip_line = c->inject == INJECT_SKIP_LINE;
	fc->max = b->count;
	fc->clear_ticks = wl.clear_ticks;
	fc->fault_page = wl.fault_page;
	wl.args->count = b->count;
	wl.args->folio_bytes = b->bytes;
	wl.args->access = access;
	wl.args->use_rdtscp = cpu_info.has_rdtscp;
	this_cpu()->fault = fc;
	fc->active = true;
	workload_run(&wl, c->cpl == 1);
	fc->active = false;
	this_cpu()->fault = NULL;
	n = fc->nfaults;
	if (n != b->count)
		bench_fail(&out, "%s: %u of %u folios faulted", b->d.name, n,
			   b->count);
	if (access != ACCESS_WRITE)
		verify(b);
	p = (struct bench_pass){ run, pass_names[k], access, n, fc->resched,
				 wl.fault_ticks, wl.clear_ticks, wl.access_ticks,
				 access == ACCESS_WRITE ? "n/a" :
				 out.failures > before ? "fail" : "ok" };
	bench_rec_run(&records, &b->d, &p);
	if (k == PASS_MEASURE) {
		if (c->samples == SAMPLES_ALL) {
			bench_rec_samples(&records, b->d.id, run, "fault",
					  wl.fault_ticks, n);
			bench_rec_samples(&records, b->d.id, run, "clear",
					  wl.clear_ticks, n);
			if (access != ACCESS_NONE)
				bench_rec_samples(&records, b->d.id, run,
						  "access", wl.access_ticks, n);
			if (c->offset == OFFSET_RANDOM)
				bench_rec_samples(&records, b->d.id, run,
						  "page", wl.fault_page, n);
		}
		/* The page numbers are printed: their array is scratch now. */
		bench_keep_run(&out, &p, wl.fault_page);
	}
	unmap_all(b);
}

static void run_config(struct ktap *k, struct bench_cfg *b)
{
	const struct hz_config *c = b->c;
	char why[160];
	u32 run = 0;

	memset(&out, 0, sizeof(out));
	bench_rec_config(&records, &b->d);
	if (!prim_supported(b->prim, why, sizeof(why)) || b->count == 0) {
		if (b->count == 0)
			strlcpy(why, b->no_folio, sizeof(why));
		bench_rec_summary(&records, &b->d, &out, "skip", why,
				  timebase.tsc_hz);
		ktap_result(k, KTAP_SKIP, b->d.name, why);
		return;
	}
	/* With a write access the folios end up written: check zeroing on a
	 * pass of its own first. */
	if (c->access == ACCESS_WRITE)
		one_pass(b, run++, PASS_VERIFY);
	for (u64 i = 0; i < c->warmups; i++)
		one_pass(b, run++, PASS_WARMUP);
	for (u64 i = 0; i < c->runs; i++)
		one_pass(b, run++, PASS_MEASURE);
	bench_rec_summary(&records, &b->d, &out, out.failures ? "fail" : "ok",
			  out.failures ? out.first : NULL, timebase.tsc_hz);
	if (out.failures) {
		ktap_diag(k, "%s", out.first);
		if (out.failures > 1)
			ktap_diag(k, "%s: %u more failures", b->d.name,
				  out.failures - 1);
	}
	ktap_result(k, out.failures ? KTAP_FAIL : KTAP_OK, b->d.name, NULL);
}

/* How many folios of @f fit: the request, clamped to what memory allows. */
static u32 fit_count(const struct hz_config *c, u32 f)
{
	u64 bytes = folio_bytes[f], want = c->size / bytes, have;
	char a[16], bsz[16];

	have = MIN(want, (u64)WL_MAX_FAULTS);
	have = MIN(have, REGION_MAX / bytes);
	/* Leave some memory for page tables of the region (4K folios need
	 * one per 2M mapped). */
	have = MIN(have, frame_count_free_blocks(bytes) -
		   MIN(frame_count_free_blocks(bytes),
		       f == FOLIO_4K ? 2048ULL + have / 512 : f == FOLIO_2M ? 2ULL : 0ULL));
	if (have < want)
		printk("hugezero: bench: size=%s of %s folios clamped to %s: "
		       "%llu folios %s\n", size_name(c->size, a, sizeof(a)),
		       folio_names[f], size_name(have * bytes, bsz, sizeof(bsz)),
		       (unsigned long long)have,
		       have == (u64)WL_MAX_FAULTS ? "(the most one run records)"
						  : "fit in free memory");
	return (u32)have;
}

static void run_folio(struct ktap *k, const struct hz_config *c, u32 f,
		      u32 *id)
{
	struct matrix_iter it = { 0, 0, 0 };
	struct bench_cfg b;
	u32 prim, order;

	memset(&b, 0, sizeof(b));
	b.c = b.d.c = c;
	b.folio = f;
	b.bytes = folio_bytes[f];
	b.region = REGION_VA(f);
	b.d.bench = "fault";
	b.d.folio = folio_names[f];
	b.no_folio = "no free folio of this size";
	if (f == FOLIO_1G && !cpu_info.has_pdpe1gb) {
		/* A PS bit in a PDPTE is reserved without it: mapping one would #PF. */
		b.no_folio = "CPU lacks 1 GiB pages (CPUID 80000001h:EDX[26] clear)";
	} else {
		b.count = fit_count(c, f);
		while (b.count && !pool_create(&pool, b.bytes, b.count))
			b.count--;	/* the clamp's margin was not enough */
	}
	b.d.folios = b.count;
	b.d.size = (u64)b.count * b.bytes;
	while (bench_matrix_next(c, f, "", &it, &b.d, id, &prim, &order)) {
		b.prim = prim;
		b.order = order;
		run_config(k, &b);
	}
	pool_destroy(&pool);
}

void bench_run(struct ktap *k, const struct hz_config *c)
{
	u32 id = 0, fails = k->fail;

	fault_init();
	user_init();
	ktap_subtest_start(k, "fault", bench_count(c));
	if (!workload_create(&wl)) {
		printk("hugezero: bench: no memory for the workload's tables "
		       "and sample arrays\n");
		ktap_subtest_end(k, "fault", KTAP_FAIL);
		k->fail++;
		return;
	}
	workload_enter_space(&wl);
	for (u32 f = 0; f < FOLIO_COUNT; f++)
		if (c->folios >> f & 1)
			run_folio(k, c, f, &id);
	workload_leave_space();
	workload_destroy(&wl);
	ktap_subtest_end(k, "fault", k->fail > fails ? KTAP_FAIL : KTAP_OK);
}

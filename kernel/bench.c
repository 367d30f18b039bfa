// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench=fault: the demand-fault benchmark.  For every folio size x
 * primitive x order (x chunk, for the orders that have one), run the
 * workload over a region of not-present folios: warm-ups, then measured
 * runs, each preceded by filling the pool with a pattern and setting the
 * cache state, each followed by checking every folio is zero.  Nothing is
 * printed while the workload runs; records follow each run.
 */
#include <stdarg.h>
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/memops.h"
#include "arch/x86_64/tsc.h"
#include "arch/x86_64/user.h"
#include "kernel/bench.h"
#include "kernel/console.h"
#include "kernel/fault.h"
#include "kernel/memory.h"
#include "kernel/report.h"
#include "kernel/timebase.h"
#include "kernel/workload.h"
#include "lib/calib.h"
#include "lib/format.h"
#include "lib/stats.h"
#include "lib/string.h"

#define PATTERN 0xdeadbeefcafef00dULL
#define MAX_RUNS 1000

enum pass_kind { PASS_VERIFY, PASS_WARMUP, PASS_MEASURE };
static const char *const pass_names[] = { "verify", "warmup", "measure" };

struct bench_cfg {
	const struct hz_config *c;
	u32 id, folio;
	enum prim_id prim;
	enum clear_order order;
	u64 chunk;		/* 0: the order has none */
	u64 bytes;		/* folio size */
	u32 count;		/* folios in the region */
	u64 region;
	char name[64];
};

/* What one configuration found, across its passes. */
struct outcome {
	u32 failures;
	char first[160];
	u32 nruns;
	u64 fault_total[MAX_RUNS], clear_total[MAX_RUNS];
	u64 fault_med[MAX_RUNS], clear_med[MAX_RUNS], access_med[MAX_RUNS],
	    over_med[MAX_RUNS];
	u64 resched;
};

static struct workload wl;
static struct pool pool;
static struct outcome out;
static u64 rng_state;

static bool uses_chunk(enum clear_order o)
{
	return o == ORDER_BATCHED || o == ORDER_NEIGHBOURHOOD;
}

u32 bench_count(const struct hz_config *c)
{
	u32 n = 0;

	for (u32 f = 0; f < FOLIO_COUNT; f++)
		for (u32 p = 0; p < PRIM_COUNT; p++)
			for (u32 o = 0; o < ORDER_COUNT; o++)
				if ((c->folios >> f & 1) && (c->clears >> p & 1) &&
				    (c->orders >> o & 1))
					n += uses_chunk(o) ? c->nchunks : 1;
	return n;
}

static u64 rng(void)
{
	/* xorshift64*: reproducible from seed= across machines. */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static const char *size_name(u64 b, char *buf, size_t n)
{
	if (b % GiB == 0)
		ksnprintf(buf, n, "%lluG", (unsigned long long)(b / GiB));
	else if (b % MiB == 0)
		ksnprintf(buf, n, "%lluM", (unsigned long long)(b / MiB));
	else
		ksnprintf(buf, n, "%lluK", (unsigned long long)(b / KiB));
	return buf;
}

static void fail(const char *fmt, ...) __printf(1, 2);

static void fail(const char *fmt, ...)
{
	va_list ap;

	if (!out.failures++) {
		va_start(ap, fmt);
		kvsnprintf(out.first, sizeof(out.first), fmt, ap);
		va_end(ap);
	}
}

/* Untimed: the pool and its guards full of pattern, so zeroing shows. */
static void fill_pool(void)
{
	for (u32 i = 0; i < pool.n; i++)
		fill_qwords(phys_to_virt(pool.f[i].pa), PATTERN, pool.bytes);
	for (u32 i = 0; i < pool.nguards; i++)
		fill_qwords(phys_to_virt(pool.guard_pa[i]), PATTERN, SZ_4K);
}

static u64 touch_offset(const struct hz_config *c, u64 bytes)
{
	switch (c->offset) {
	case OFFSET_MIDDLE:
		return ALIGN_DOWN(bytes / 2, SZ_4K);
	case OFFSET_LAST:
		return bytes - SZ_4K;
	case OFFSET_RANDOM:
		return (rng() % (bytes / SZ_4K)) * SZ_4K;
	}
	return 0;
}

static void plan_touches(const struct bench_cfg *b)
{
	const struct hz_config *c = b->c;
	u64 *a = wl.addrs;

	rng_state = c->seed ? c->seed : 1;
	for (u32 k = 0; k < b->count; k++)
		a[k] = c->touch == TOUCH_REVERSE ? b->count - 1 - k : k;
	if (c->touch == TOUCH_RANDOM)
		for (u32 k = b->count; k > 1; k--) {
			u32 j = (u32)(rng() % k);
			u64 t = a[k - 1];

			a[k - 1] = a[j];
			a[j] = t;
		}
	for (u32 k = 0; k < b->count; k++)
		a[k] = b->region + a[k] * b->bytes + touch_offset(c, b->bytes);
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
			fail("%s: folio %u (pa %#llx, fault page %llu) not zero "
			     "at offset %#llx", b->name, i,
			     (unsigned long long)pool.f[i].pa,
			     (unsigned long long)wl.fault_page[i],
			     (unsigned long long)off);
	}
	for (u32 i = 0; i < pool.nguards; i++)
		if (find_not_qword(phys_to_virt(pool.guard_pa[i]), PATTERN,
				   SZ_4K) != ~0ULL)
			fail("%s: guard page %#llx next to the pool was written",
			     b->name, (unsigned long long)pool.guard_pa[i]);
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

static void print_samples(const struct bench_cfg *b, u32 run,
			  const char *kind, const u64 *v, u32 n)
{
	char num[24];
	struct rec r;

	for (u32 k = 0; k < n;) {
		u32 first = k;

		rec_begin(&records, &r, "samples");
		rec_u64(&r, "cfg", b->id);
		rec_u64(&r, "run", run);
		rec_str(&r, "kind", kind);
		rec_u64(&r, "first", first);
		rec_raw(&r, " v=");
		while (k < n) {
			int len = ksnprintf(num, sizeof(num), "%s%llu",
					    k > first ? "," : "",
					    (unsigned long long)v[k]);

			if ((size_t)len + 16 > rec_room(&r))
				break;
			rec_raw(&r, num);
			k++;
		}
		rec_u64(&r, "n", k - first);
		rec_end(&records, &r);
	}
}

static u64 total(const u64 *v, u32 n)
{
	u64 s = 0;

	for (u32 i = 0; i < n; i++)
		s += v[i];
	return s;
}

/* After printing: per-run medians (sorting the arrays in place). */
static void keep_run(const struct bench_cfg *b, u32 n)
{
	struct stats s;
	u32 i = out.nruns++;

	out.fault_total[i] = total(wl.fault_ticks, n);
	out.clear_total[i] = total(wl.clear_ticks, n);
	for (u32 k = 0; k < n; k++)	/* overhead: the fault less its clearing */
		wl.fault_page[k] = wl.fault_ticks[k] - wl.clear_ticks[k];
	stats_of(wl.fault_page, n, &s);
	out.over_med[i] = s.median;
	stats_of(wl.fault_ticks, n, &s);
	out.fault_med[i] = s.median;
	stats_of(wl.clear_ticks, n, &s);
	out.clear_med[i] = s.median;
	if (b->c->access != ACCESS_NONE) {
		stats_of(wl.access_ticks, n, &s);
		out.access_med[i] = s.median;
	}
}

static void record_run(const struct bench_cfg *b, u32 run, enum pass_kind k,
		       u32 access, u32 failures_before)
{
	struct rec r;
	u32 n = fault_ctx.nfaults;

	rec_begin(&records, &r, "run");
	rec_u64(&r, "cfg", b->id);
	rec_u64(&r, "run", run);
	rec_str(&r, "pass", pass_names[k]);
	rec_str(&r, "access", access_names[access]);
	rec_u64(&r, "faults", n);
	rec_u64(&r, "resched", fault_ctx.resched);
	rec_u64(&r, "fault_ticks", total(wl.fault_ticks, n));
	rec_u64(&r, "clear_ticks", total(wl.clear_ticks, n));
	if (access != ACCESS_NONE)
		rec_u64(&r, "access_ticks", total(wl.access_ticks, n));
	rec_str(&r, "verify", access == ACCESS_WRITE ? "n/a" :
		out.failures > failures_before ? "fail" : "ok");
	rec_end(&records, &r);
}

static void one_pass(const struct bench_cfg *b, u32 run, enum pass_kind k)
{
	const struct hz_config *c = b->c;
	u32 access = k == PASS_VERIFY ? ACCESS_NONE : c->access;
	u32 before = out.failures, n;
	struct fault_ctx *fc = &fault_ctx;

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
	fc->clear = clear_fns[b->prim];
	fc->order = b->order;
	fc->chunk_pages = b->chunk ? (u32)MIN(b->chunk / SZ_4K, (u64)~0u) : 1;
	fc->radius = (u32)c->radius;
	fc->inject_skip_line = c->inject == INJECT_SKIP_LINE;
	fc->max = b->count;
	fc->clear_ticks = wl.clear_ticks;
	fc->fault_page = wl.fault_page;
	wl.args->count = b->count;
	wl.args->folio_bytes = b->bytes;
	wl.args->access = access;
	wl.args->use_rdtscp = cpu_info.has_rdtscp;
	fc->active = true;
	workload_run(&wl, c->cpl == 1);
	fc->active = false;
	n = fc->nfaults;
	if (n != b->count)
		fail("%s: %u of %u folios faulted", b->name, n, b->count);
	if (access != ACCESS_WRITE)
		verify(b);
	out.resched = fc->resched;
	record_run(b, run, k, access, before);
	if (k == PASS_MEASURE) {
		if (c->samples == SAMPLES_ALL) {
			print_samples(b, run, "fault", wl.fault_ticks, n);
			print_samples(b, run, "clear", wl.clear_ticks, n);
			if (access != ACCESS_NONE)
				print_samples(b, run, "access", wl.access_ticks, n);
			if (c->offset == OFFSET_RANDOM)
				print_samples(b, run, "page", wl.fault_page, n);
		}
		keep_run(b, n);
	}
	unmap_all(b);
}

static void record_config(const struct bench_cfg *b)
{
	const struct hz_config *c = b->c;
	struct rec r;

	rec_begin(&records, &r, "config");
	rec_u64(&r, "cfg", b->id);
	rec_str(&r, "name", b->name);
	rec_str(&r, "bench", "fault");
	rec_str(&r, "folio", folio_names[b->folio]);
	rec_str(&r, "clear", prim_names[b->prim]);
	rec_str(&r, "order", order_names[b->order]);
	rec_u64(&r, "chunk", b->chunk);
	rec_u64(&r, "radius", b->order == ORDER_NEIGHBOURHOOD ? c->radius : 0);
	rec_u64(&r, "size", (u64)b->count * b->bytes);
	rec_u64(&r, "size_requested", c->size);
	rec_u64(&r, "folios", b->count);
	rec_str(&r, "touch", touch_names[c->touch]);
	rec_str(&r, "offset", offset_names[c->offset]);
	rec_str(&r, "access", access_names[c->access]);
	rec_str(&r, "cache", cache_names[c->cache]);
	rec_str(&r, "cpl", cpl_names[c->cpl]);
	rec_u64(&r, "warmups", c->warmups);
	rec_u64(&r, "runs", c->runs);
	rec_str(&r, "verify", verify_names[c->verify]);
	rec_u64(&r, "seed", c->seed);
	rec_str(&r, "inject", inject_names[c->inject]);
	rec_end(&records, &r);
}

static u64 ns_median(const u64 *v, u32 n)
{
	static u64 tmp[MAX_RUNS];

	memcpy(tmp, v, n * sizeof(u64));
	return tsc_to_ns(median_u64(tmp, n));
}

/* GiB/s x 1000 of @bytes in @ticks, as perf bench prints GB/sec (2^30). */
static u64 gibps_milli(u64 bytes, u64 ticks)
{
	return ticks ? mul_div_u64(bytes * 1000, timebase.tsc_hz, ticks) >> 30 : 0;
}

static void record_summary(const struct bench_cfg *b, const char *status,
			   const char *reason)
{
	u64 bytes = (u64)b->count * b->bytes, g[MAX_RUNS], cg[MAX_RUNS];
	struct stats s, cs;
	struct rec r;

	for (u32 i = 0; i < out.nruns; i++) {
		g[i] = gibps_milli(bytes, out.fault_total[i]);
		cg[i] = gibps_milli(bytes, out.clear_total[i]);
	}
	stats_of(g, out.nruns, &s);
	stats_of(cg, out.nruns, &cs);
	rec_begin(&records, &r, "summary");
	rec_u64(&r, "cfg", b->id);
	rec_str(&r, "status", status);
	if (reason)
		rec_str(&r, "reason", reason);
	rec_u64(&r, "runs", out.nruns);
	if (out.nruns) {
		rec_u64(&r, "gibps_milli_mean", s.mean);
		rec_u64(&r, "gibps_stddev_pct_x100",
			s.mean ? s.stddev * 10000 / s.mean : 0);
		rec_u64(&r, "clear_gibps_milli_mean", cs.mean);
		rec_u64(&r, "fault_ns_median", ns_median(out.fault_med, out.nruns));
		rec_u64(&r, "clear_ns_median", ns_median(out.clear_med, out.nruns));
		rec_u64(&r, "overhead_ns_median", ns_median(out.over_med, out.nruns));
		if (b->c->access != ACCESS_NONE)
			rec_u64(&r, "access_ns_median",
				ns_median(out.access_med, out.nruns));
		rec_u64(&r, "resched_per_run", out.resched);
	}
	rec_end(&records, &r);
}

static void run_config(struct ktap *k, struct bench_cfg *b)
{
	const struct hz_config *c = b->c;
	char why[160];
	u32 run = 0;

	memset(&out, 0, sizeof(out));
	record_config(b);
	if (!clear_supported(b->prim, why, sizeof(why)) || b->count == 0) {
		if (b->count == 0)
			ksnprintf(why, sizeof(why), "no free %s folio",
				  folio_names[b->folio]);
		record_summary(b, "skip", why);
		ktap_result(k, KTAP_SKIP, b->name, why);
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
	record_summary(b, out.failures ? "fail" : "ok",
		       out.failures ? out.first : NULL);
	if (out.failures) {
		ktap_diag(k, "%s", out.first);
		if (out.failures > 1)
			ktap_diag(k, "%s: %u more failures", b->name,
				  out.failures - 1);
	}
	ktap_result(k, out.failures ? KTAP_FAIL : KTAP_OK, b->name, NULL);
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
	struct bench_cfg b = { c, 0, f, 0, 0, 0, folio_bytes[f], 0,
			       REGION_VA(f), "" };
	char chunk[16];

	b.count = fit_count(c, f);
	while (b.count && !pool_create(&pool, b.bytes, b.count))
		b.count--;	/* the clamp's margin was not enough */
	for (u32 p = 0; p < PRIM_COUNT; p++) {
		for (u32 o = 0; o < ORDER_COUNT; o++) {
			u32 nch = uses_chunk(o) ? c->nchunks : 1;

			if (!(c->clears >> p & 1) || !(c->orders >> o & 1))
				continue;
			for (u32 ch = 0; ch < nch; ch++) {
				b.id = ++*id;
				b.prim = p;
				b.order = o;
				b.chunk = uses_chunk(o) ? c->chunks[ch] : 0;
				ksnprintf(b.name, sizeof(b.name), "%s.%s.%s%s%s",
					  folio_names[f], prim_names[p],
					  order_names[o], b.chunk ? "." : "",
					  b.chunk ? size_name(b.chunk, chunk,
							      sizeof(chunk)) : "");
				run_config(k, &b);
			}
		}
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

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Benchmark records and their arithmetic.  GB/s is 2^30 bytes per second,
 * as perf bench prints GB/sec; medians are per run, then the median of
 * those across runs (the host tools recompute exact ones from samples).
 */
#include <stdarg.h>
#include "lib/benchrec.h"
#include "lib/calib.h"
#include "lib/format.h"
#include "lib/order.h"
#include "lib/prims.h"
#include "lib/stats.h"
#include "lib/string.h"

const char *size_name(u64 b, char *buf, size_t n)
{
	if (b && b % GiB == 0)
		ksnprintf(buf, n, "%lluG", (unsigned long long)(b / GiB));
	else if (b && b % MiB == 0)
		ksnprintf(buf, n, "%lluM", (unsigned long long)(b / MiB));
	else
		ksnprintf(buf, n, "%lluK", (unsigned long long)(b / KiB));
	return buf;
}

u64 sum_u64(const u64 *v, u32 n)
{
	u64 s = 0;

	for (u32 i = 0; v && i < n; i++)
		s += v[i];
	return s;
}

static bool uses_chunk(u32 order)
{
	return order == ORDER_BATCHED || order == ORDER_NEIGHBOURHOOD;
}

bool bench_matrix_next(const struct hz_config *c, u32 folio, const char *prefix,
		       struct matrix_iter *it, struct bench_desc *d, u32 *id,
		       u32 *prim, u32 *order)
{
	char chunk[16];

	for (; it->p < PRIM_COUNT; it->p++, it->o = 0) {
		for (; it->o < ORDER_COUNT; it->o++, it->ch = 0) {
			u32 nch = uses_chunk(it->o) ? c->nchunks : 1;

			if (!(c->prims >> it->p & 1) || !(c->orders >> it->o & 1) ||
			    it->ch >= nch)
				continue;
			*prim = it->p;
			*order = it->o;
			d->id = ++*id;
			d->clear = prim_names[it->p];
			d->order = order_names[it->o];
			d->chunk = uses_chunk(it->o) ? c->chunks[it->ch] : 0;
			d->radius = it->o == ORDER_NEIGHBOURHOOD ? c->radius : 0;
			ksnprintf(d->name, sizeof(d->name), "%s%s.%s.%s%s%s",
				  prefix, folio_names[folio], prim_names[it->p],
				  order_names[it->o], d->chunk ? "." : "",
				  d->chunk ? size_name(d->chunk, chunk,
						       sizeof(chunk)) : "");
			it->ch++;
			return true;
		}
	}
	return false;
}

u32 bench_matrix_count(const struct hz_config *c)
{
	u32 n = 0;

	for (u32 f = 0; f < FOLIO_COUNT; f++)
		for (u32 p = 0; p < PRIM_COUNT; p++)
			for (u32 o = 0; o < ORDER_COUNT; o++)
				if ((c->folios >> f & 1) && (c->prims >> p & 1) &&
				    (c->orders >> o & 1))
					n += uses_chunk(o) ? c->nchunks : 1;
	return n;
}

u64 bench_random(u64 *state)
{
	u64 x = *state ? *state : 1;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dULL;
}

void touch_permutation(const struct hz_config *c, u32 n, u64 *idx, u64 *rng)
{
	for (u32 k = 0; k < n; k++)
		idx[k] = c->touch == TOUCH_REVERSE ? n - 1 - k : k;
	if (c->touch != TOUCH_RANDOM)
		return;
	for (u32 k = n; k > 1; k--) {	/* Fisher-Yates */
		u32 j = (u32)(bench_random(rng) % k);
		u64 t = idx[k - 1];

		idx[k - 1] = idx[j];
		idx[j] = t;
	}
}

u32 touch_page(const struct hz_config *c, u64 folio_bytes, u64 *rng)
{
	u32 nr = (u32)(folio_bytes / SZ_4K);

	switch (c->offset) {
	case OFFSET_MIDDLE:
		return nr / 2;
	case OFFSET_LAST:
		return nr - 1;
	case OFFSET_RANDOM:
		return (u32)(bench_random(rng) % nr);
	}
	return 0;
}

void bench_fail(struct bench_outcome *o, const char *fmt, ...)
{
	va_list ap;

	if (!o->failures++) {
		va_start(ap, fmt);
		kvsnprintf(o->first, sizeof(o->first), fmt, ap);
		va_end(ap);
	}
}

void bench_rec_machine(struct rec_writer *w, const struct machine_id *m)
{
	struct rec r;

	rec_begin(w, &r, "machine");
	rec_str(&r, "vendor", m->vendor);
	rec_hex(&r, "family", m->family);
	rec_hex(&r, "model", m->model);
	rec_u64(&r, "stepping", m->stepping);
	rec_str(&r, "brand", m->brand);
	if (m->microcode != ~0ULL)
		rec_hex(&r, "microcode", m->microcode);
	else
		rec_str(&r, "microcode", "n/a");
	rec_str(&r, "hypervisor", m->hypervisor[0] ? m->hypervisor : "none");
	rec_u64(&r, "l1d", m->l1d);
	rec_u64(&r, "l2", m->l2);
	rec_u64(&r, "l3", m->l3);
	rec_u64(&r, "line", m->line);
	rec_u64(&r, "mem", m->mem);
	rec_u64(&r, "phys_bits", m->phys_bits);
	rec_str(&r, "features", m->features);
	rec_end(w, &r);
}

void bench_rec_timebase(struct rec_writer *w, const struct timebase_id *t)
{
	struct rec r;

	rec_begin(w, &r, "timebase");
	rec_u64(&r, "tsc_hz", t->tsc_hz);
	rec_str(&r, "source", t->source);
	rec_u64(&r, "invariant", t->invariant);
	rec_u64(&r, "disagreement_ppm", t->disagreement_ppm);
	rec_str(&r, "references", t->references);
	rec_u64(&r, "overhead_min", t->overhead_min);
	rec_u64(&r, "overhead_median", t->overhead_median);
	rec_end(w, &r);
}

void bench_rec_config(struct rec_writer *w, const struct bench_desc *d)
{
	const struct hz_config *c = d->c;
	struct rec r;

	rec_begin(w, &r, "config");
	rec_u64(&r, "cfg", d->id);
	rec_str(&r, "name", d->name);
	rec_str(&r, "bench", d->bench);
	rec_str(&r, "folio", d->folio);
	rec_str(&r, "clear", d->clear);
	rec_str(&r, "order", d->order);
	rec_u64(&r, "chunk", d->chunk);
	rec_u64(&r, "radius", d->radius);
	rec_u64(&r, "size", d->size);
	rec_u64(&r, "size_requested", c->size);
	rec_u64(&r, "folios", d->folios);
	if (d->backing)
		rec_str(&r, "backing", d->backing);
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
	rec_end(w, &r);
}

void bench_rec_run(struct rec_writer *w, const struct bench_desc *d,
		   const struct bench_pass *p)
{
	struct rec r;

	rec_begin(w, &r, "run");
	rec_u64(&r, "cfg", d->id);
	rec_u64(&r, "run", p->run);
	rec_str(&r, "pass", p->pass);
	rec_str(&r, "access", access_names[p->access]);
	rec_u64(&r, "faults", p->faults);
	rec_u64(&r, "resched", p->resched);
	if (p->fault)
		rec_u64(&r, "fault_ticks", sum_u64(p->fault, p->faults));
	if (p->clear)
		rec_u64(&r, "clear_ticks", sum_u64(p->clear, p->faults));
	if (p->access != ACCESS_NONE && p->access_t)
		rec_u64(&r, "access_ticks", sum_u64(p->access_t, p->faults));
	rec_str(&r, "verify", p->verify);
	rec_end(w, &r);
}

void bench_rec_samples(struct rec_writer *w, u32 cfg, u32 run, const char *kind,
		       const u64 *v, u32 n)
{
	char num[24];
	struct rec r;

	for (u32 k = 0; k < n;) {
		u32 first = k;

		rec_begin(w, &r, "samples");
		rec_u64(&r, "cfg", cfg);
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
		rec_end(w, &r);
	}
}

static u64 median_of(const u64 *v, u32 n, u64 *scratch)
{
	struct stats s;

	memcpy(scratch, v, (size_t)n * sizeof(u64));
	stats_of(scratch, n, &s);
	return s.median;
}

void bench_keep_run(struct bench_outcome *o, const struct bench_pass *p,
		    u64 *scratch)
{
	u32 i = o->nruns, n = p->faults;

	if (i == BENCH_MAX_RUNS)
		return;
	o->nruns++;
	o->resched = p->resched;
	o->fault_total[i] = sum_u64(p->fault, n);
	o->clear_total[i] = sum_u64(p->clear, n);
	if (p->fault)
		o->fault_med[i] = median_of(p->fault, n, scratch);
	if (p->clear)
		o->clear_med[i] = median_of(p->clear, n, scratch);
	if (p->fault && p->clear) {
		struct stats s;

		/* Overhead: each fault less its clearing. */
		for (u32 k = 0; k < n; k++)
			scratch[k] = p->fault[k] - p->clear[k];
		stats_of(scratch, n, &s);
		o->over_med[i] = s.median;
	}
	if (p->access != ACCESS_NONE && p->access_t) {
		o->has_access = true;
		o->access_med[i] = median_of(p->access_t, n, scratch);
	}
}

static u64 ns_median(const u64 *v, u32 n, u64 hz)
{
	u64 tmp[BENCH_MAX_RUNS];

	memcpy(tmp, v, (size_t)n * sizeof(u64));
	return ticks_to_ns(median_u64(tmp, n), hz);
}

/* GiB/s x 1000 of @bytes in @ticks of a @hz clock. */
static u64 gibps_milli(u64 bytes, u64 ticks, u64 hz)
{
	return ticks ? mul_div_u64(bytes * 1000, hz, ticks) >> 30 : 0;
}

void bench_rec_summary(struct rec_writer *w, const struct bench_desc *d,
		       const struct bench_outcome *o, const char *status,
		       const char *reason, u64 hz)
{
	u64 g[BENCH_MAX_RUNS], cg[BENCH_MAX_RUNS];
	bool faults = o->nruns && o->fault_total[0];
	bool clears = o->nruns && o->clear_total[0];
	struct stats s, cs;
	struct rec r;

	for (u32 i = 0; i < o->nruns; i++) {
		g[i] = gibps_milli(d->size, faults ? o->fault_total[i] :
				   o->clear_total[i], hz);
		cg[i] = gibps_milli(d->size, o->clear_total[i], hz);
	}
	stats_of(g, o->nruns, &s);
	stats_of(cg, o->nruns, &cs);
	rec_begin(w, &r, "summary");
	rec_u64(&r, "cfg", d->id);
	rec_str(&r, "status", status);
	if (reason)
		rec_str(&r, "reason", reason);
	rec_u64(&r, "runs", o->nruns);
	if (o->nruns) {
		rec_u64(&r, "gibps_milli_mean", s.mean);
		rec_u64(&r, "gibps_stddev_pct_x100",
			s.mean ? s.stddev * 10000 / s.mean : 0);
		if (clears)
			rec_u64(&r, "clear_gibps_milli_mean", cs.mean);
		if (faults)
			rec_u64(&r, "fault_ns_median",
				ns_median(o->fault_med, o->nruns, hz));
		if (clears)
			rec_u64(&r, "clear_ns_median",
				ns_median(o->clear_med, o->nruns, hz));
		if (faults && clears)
			rec_u64(&r, "overhead_ns_median",
				ns_median(o->over_med, o->nruns, hz));
		if (o->has_access)
			rec_u64(&r, "access_ns_median",
				ns_median(o->access_med, o->nruns, hz));
		rec_u64(&r, "resched_per_run", o->resched);
	}
	rec_end(w, &r);
}

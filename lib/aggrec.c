// SPDX-License-Identifier: GPL-2.0-only
/*
 * The group's records.  Wall time is the last finish less the first start:
 * what the whole group took, as vm-scalability's throughput is the sum of
 * every process's bytes over the run.  A CPU that did not finish, or a
 * clock the CPUs do not share, leaves no wall time to believe: the record
 * says refused instead of a number.
 */
#include "lib/aggrec.h"
#include "lib/calib.h"
#include "lib/format.h"
#include "lib/outcome.h"
#include "lib/stats.h"
#include "lib/string.h"

void agg_group_init(struct agg_group *g, u32 group, const char *cpus,
		    u32 ncpus, enum agg_unit unit, u64 hz)
{
	memset(g, 0, sizeof(*g));
	g->group = group;
	g->cpus = cpus;
	g->ncpus = ncpus;
	g->unit = unit;
	g->hz = hz;
}

static u64 to_ns(const struct agg_group *g, u64 v)
{
	return g->unit == AGG_US ? v * 1000 : ticks_to_ns(v, g->hz);
}

struct agg_sums {
	u64 bytes, stime, utime;
	u64 first, last_start, last;	/* starts and ends of those finished */
	u32 slowest, fastest;	/* indices in the pass's cpu[], or ~0u */
	const char *refused;
};

static void sum_pass(const struct agg_pass *p, struct agg_sums *s,
		     char *why, size_t n)
{
	memset(s, 0, sizeof(*s));
	s->first = ~0ULL;
	s->slowest = s->fastest = ~0u;
	s->refused = p->refused;
	for (u32 i = 0; i < p->n; i++) {
		const struct agg_cpu *c = &p->cpu[i];
		u64 took = c->end - c->start;

		s->bytes += c->bytes;
		s->stime += c->stime;
		s->utime += c->utime;
		if (!c->finished) {
			if (!s->refused) {
				ksnprintf(why, n, "cpu %u did not finish the "
					  "pass", c->cpu);
				s->refused = why;
			}
			continue;
		}
		s->first = MIN(s->first, c->start);
		s->last_start = MAX(s->last_start, c->start);
		s->last = MAX(s->last, c->end);
		if (s->slowest == ~0u ||
		    took > p->cpu[s->slowest].end - p->cpu[s->slowest].start)
			s->slowest = i;
		if (s->fastest == ~0u ||
		    took < p->cpu[s->fastest].end - p->cpu[s->fastest].start)
			s->fastest = i;
	}
}

/*
 * The start skew in the reference CPU's time: each start less its
 * offset, the latest less the earliest.  Each corrected start is off by
 * at most its own offset_err, and the skew is the difference of two
 * CPUs' starts (the truly latest and earliest, or it is 0), so it is
 * known to +- the sum of the two largest errors: not their max (two CPUs
 * may be off in opposite directions), nor the sum of all (two starts
 * make the skew).  docs/smp.md.
 */
static void corr_skew(const struct agg_pass *p, u64 *skew, u64 *err)
{
	s64 lo = 0, hi = 0;
	u64 e1 = 0, e2 = 0;

	for (u32 i = 0; i < p->n; i++) {
		const struct agg_cpu *c = &p->cpu[i];
		/* From the first CPU's start: no wrap near either end. */
		s64 t = (s64)(c->start - p->cpu[0].start) - c->offset;

		lo = i ? MIN(lo, t) : t;
		hi = i ? MAX(hi, t) : t;
		if (c->offset_err > e1) {
			e2 = e1;
			e1 = c->offset_err;
		} else {
			e2 = MAX(e2, c->offset_err);
		}
	}
	*skew = (u64)(hi - lo);
	*err = p->n > 1 ? e1 + e2 : 0;
}

/* The times that compare across CPUs; none from a refused pass. */
static void rec_across(struct rec *r, const struct agg_pass *p,
		       const struct agg_sums *s)
{
	u64 skew, err;

	if (s->refused) {
		rec_str(r, "refused", s->refused);
		return;
	}
	rec_u64(r, "start_skew_ticks", s->last_start - s->first);
	if (p->offsets) {
		corr_skew(p, &skew, &err);
		rec_u64(r, "start_skew_corr_ticks", skew);
		rec_u64(r, "start_skew_err_ticks", err);
	}
	rec_u64(r, "wall_ticks", s->last - s->first);
}

static void rec_extreme(struct rec *r, const char *key, const char *ticks,
			const struct agg_cpu *c)
{
	rec_u64(r, key, c->cpu);
	rec_u64(r, ticks, c->end - c->start);
}

static void keep(struct agg_group *g, const struct agg_sums *s)
{
	u32 i = g->nruns;

	if (i == BENCH_MAX_RUNS)
		return;
	g->nruns++;
	if (s->refused && !g->refused[0])
		ksnprintf(g->refused, sizeof(g->refused), "%s", s->refused);
	g->gibps_milli[i] = s->refused ? 0 :
			    gibps_milli(s->bytes, s->last - s->first, g->hz);
	g->stime_ns[i] = to_ns(g, s->stime);
	g->utime_ns[i] = to_ns(g, s->utime);
}

void agg_rec_pass(struct rec_writer *w, struct agg_group *g,
		  const struct agg_pass *p)
{
	bool us = g->unit == AGG_US;
	struct agg_sums s;
	char why[80];
	struct rec r;

	sum_pass(p, &s, why, sizeof(why));
	rec_begin(w, &r, "agg");
	rec_u64(&r, "group", g->group);
	rec_u64(&r, "run", p->run);
	rec_str(&r, "pass", p->pass);
	rec_str(&r, "cpus", g->cpus);
	rec_u64(&r, "ncpus", g->ncpus);
	rec_u64(&r, "bytes", s.bytes);
	rec_across(&r, p, &s);
	rec_u64(&r, us ? "stime_us" : "stime_ticks", s.stime);
	rec_u64(&r, us ? "utime_us" : "utime_ticks", s.utime);
	if (s.slowest != ~0u) {
		rec_extreme(&r, "slowest_cpu", "slowest_ticks", &p->cpu[s.slowest]);
		rec_extreme(&r, "fastest_cpu", "fastest_ticks", &p->cpu[s.fastest]);
	}
	rec_end(w, &r);
	if (p->measured)
		keep(g, &s);
}

/* "KEY_mean" and its between-run standard deviation in % x 100. */
static void rec_mean_sd(struct rec *r, const char *mean, const char *sd,
			const u64 *v, u32 n)
{
	u64 tmp[BENCH_MAX_RUNS];
	struct stats s;

	memcpy(tmp, v, (size_t)n * sizeof(u64));
	stats_of(tmp, n, &s);
	rec_u64(r, mean, s.mean);
	rec_u64(r, sd, s.mean ? s.stddev * 10000 / s.mean : 0);
}

void agg_rec_summary(struct rec_writer *w, const struct agg_group *g,
		     const char *status, const char *reason)
{
	bool refused = strcmp(status, "ok") == 0 && g->refused[0];
	struct rec r;

	rec_begin(w, &r, "agg_summary");
	rec_u64(&r, "group", g->group);
	rec_str(&r, "status", refused ? "refused" : status);
	if (refused || reason)
		rec_str(&r, "reason", refused ? g->refused : reason);
	rec_u64(&r, "runs", g->nruns);
	if (g->stopped_by)
		rec_str(&r, "stopped_by", g->stopped_by);
	rec_str(&r, "cpus", g->cpus);
	rec_u64(&r, "ncpus", g->ncpus);
	if (g->nruns) {
		/* No wall time of a refused pass is a number to average. */
		if (!g->refused[0])
			rec_mean_sd(&r, "gibps_milli_mean", "gibps_stddev_pct_x100",
				    g->gibps_milli, g->nruns);
		rec_mean_sd(&r, "stime_ns_mean", "stime_stddev_pct_x100",
			    g->stime_ns, g->nruns);
		rec_mean_sd(&r, "utime_ns_mean", "utime_stddev_pct_x100",
			    g->utime_ns, g->nruns);
	}
	rec_end(w, &r);
}

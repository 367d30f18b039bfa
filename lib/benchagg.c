// SPDX-License-Identifier: GPL-2.0-only
#include "lib/benchagg.h"
#include "lib/calib.h"
#include "lib/stats.h"
#include "lib/string.h"

struct agg_sums {
	u64 bytes, stime, utime, stime_us, utime_us;
	u64 first_start, last_start, last_end;
	u32 slow, fast;		/* member indices */
};

static void sum_members(const struct agg_pass *a, struct agg_sums *s)
{
	memset(s, 0, sizeof(*s));
	s->first_start = ~0ULL;
	for (u32 i = 0; i < a->ncpus; i++) {
		const struct agg_member *m = &a->m[i];
		u64 own = m->end - m->start;

		s->bytes += m->bytes;
		s->stime += m->stime;
		s->utime += m->utime;
		s->stime_us += m->stime_us;
		s->utime_us += m->utime_us;
		s->first_start = MIN(s->first_start, m->start);
		s->last_start = MAX(s->last_start, m->start);
		s->last_end = MAX(s->last_end, m->end);
		if (own > a->m[s->slow].end - a->m[s->slow].start)
			s->slow = i;
		if (own < a->m[s->fast].end - a->m[s->fast].start)
			s->fast = i;
	}
}

static const char *unfinished(const struct agg_pass *a)
{
	for (u32 i = 0; i < a->ncpus; i++)
		if (!a->m[i].finished)
			return "a CPU did not fault all of its folios";
	return NULL;
}

static void keep(const struct agg_pass *a, const struct agg_sums *s,
		 const char *refuse, struct agg_outcome *o, u64 hz)
{
	u32 i = o->nruns;

	if (i == BENCH_MAX_RUNS)
		return;
	o->stime_ns[i] = a->rusage ? s->stime_us * 1000 : ticks_to_ns(s->stime, hz);
	o->utime_ns[i] = a->rusage ? s->utime_us * 1000 : ticks_to_ns(s->utime, hz);
	o->gibps_milli[i] = 0;
	if (refuse) {
		if (!o->refused++)
			strlcpy(o->refuse, refuse, sizeof(o->refuse));
	} else if (s->last_end > s->first_start) {
		o->gibps_milli[i] = mul_div_u64(s->bytes * 1000, hz,
						s->last_end - s->first_start) >> 30;
	}
	o->nruns++;
}

void agg_pass_record(struct rec_writer *w, const struct agg_pass *a,
		     struct agg_outcome *o, u64 hz)
{
	const char *refuse = a->refuse ? a->refuse : unfinished(a);
	struct agg_sums s;
	struct rec r;

	sum_members(a, &s);
	rec_begin(w, &r, "agg");
	rec_u64(&r, "group", a->group);
	rec_u64(&r, "run", a->run);
	rec_str(&r, "pass", a->pass);
	rec_str(&r, "cpus", a->cpus);
	rec_u64(&r, "ncpus", a->ncpus);
	rec_u64(&r, "bytes", s.bytes);
	if (refuse) {
		rec_str(&r, "refused", refuse);
	} else {
		rec_u64(&r, "start_skew_ticks", s.last_start - s.first_start);
		rec_u64(&r, "wall_ticks", s.last_end - s.first_start);
	}
	if (a->rusage) {
		rec_u64(&r, "stime_us", s.stime_us);
		rec_u64(&r, "utime_us", s.utime_us);
	} else {
		rec_u64(&r, "stime_ticks", s.stime);
		rec_u64(&r, "utime_ticks", s.utime);
	}
	rec_u64(&r, "slowest_cpu", a->m[s.slow].cpu);
	rec_u64(&r, "slowest_ticks", a->m[s.slow].end - a->m[s.slow].start);
	rec_u64(&r, "fastest_cpu", a->m[s.fast].cpu);
	rec_u64(&r, "fastest_ticks", a->m[s.fast].end - a->m[s.fast].start);
	rec_end(w, &r);
	if (!strcmp(a->pass, "measure"))
		keep(a, &s, refuse, o, hz);
}

static void mean_pct(struct rec *r, const char *mean_key, const char *pct_key,
		     u64 *v, u32 n)
{
	struct stats s;

	stats_of(v, n, &s);
	rec_u64(r, mean_key, s.mean);
	rec_u64(r, pct_key, s.mean ? s.stddev * 10000 / s.mean : 0);
}

void agg_summary_record(struct rec_writer *w, u32 group, const char *cpus,
			u32 ncpus, const struct agg_outcome *o,
			const char *status, const char *reason)
{
	u64 v[BENCH_MAX_RUNS];
	struct rec r;

	if (!strcmp(status, "ok") && o->refused) {
		status = "refused";
		reason = o->refuse;
	}
	rec_begin(w, &r, "agg_summary");
	rec_u64(&r, "group", group);
	rec_str(&r, "status", status);
	if (reason)
		rec_str(&r, "reason", reason);
	rec_u64(&r, "runs", o->nruns);
	rec_str(&r, "cpus", cpus);
	rec_u64(&r, "ncpus", ncpus);
	if (o->nruns) {
		if (!o->refused) {
			memcpy(v, o->gibps_milli, o->nruns * sizeof(v[0]));
			mean_pct(&r, "gibps_milli_mean", "gibps_stddev_pct_x100",
				 v, o->nruns);
		}
		memcpy(v, o->stime_ns, o->nruns * sizeof(v[0]));
		mean_pct(&r, "stime_ns_mean", "stime_stddev_pct_x100", v, o->nruns);
		memcpy(v, o->utime_ns, o->nruns * sizeof(v[0]));
		mean_pct(&r, "utime_ns_mean", "utime_stddev_pct_x100", v, o->nruns);
	}
	rec_end(w, &r);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * A configuration's outcome: each measured pass kept, then summed up in
 * its summary record.  GB/s is 2^30 bytes per second, as perf bench
 * prints GB/sec; medians are per run, then the median of those across
 * runs (the host tools recompute exact ones from samples).  Summaries are
 * net of the empty timed pair's cost; samples stay raw.
 */
#include <stdarg.h>
#include "lib/autorun.h"
#include "lib/calib.h"
#include "lib/format.h"
#include "lib/outcome.h"
#include "lib/series.h"
#include "lib/stats.h"
#include "lib/string.h"

u64 sum_u64(const u64 *v, u32 n)
{
	u64 s = 0;

	for (u32 i = 0; v && i < n; i++)
		s += v[i];
	return s;
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

static u64 median_of(const u64 *v, u32 n, u64 *scratch)
{
	struct stats s;

	memcpy(scratch, v, (size_t)n * sizeof(u64));
	stats_of(scratch, n, &s);
	return s.median;
}

/* Net of the timer: @v less @ticks, never below zero. */
static u64 net(u64 v, u64 ticks)
{
	return v > ticks ? v - ticks : 0;
}

/* Lateness is not net of anything: a wake-up's delay is what it is. */
static void keep_probe(struct bench_outcome *o, u32 i,
		       const struct bench_pass *p)
{
	struct stats s;

	if (p->probe_expected > p->nprobe)
		o->probe_lost += p->probe_expected - p->nprobe;
	/* No sample is no latency figure (a starved probe is not a fast
	 * one): its run keeps none, and the summary says lost. */
	o->has_probe = true;
	if (!p->nprobe) {
		o->probe_med[i] = o->probe_p99[i] = o->probe_p999[i] = 0;
		o->probe_max[i] = ~0ULL;
		return;
	}
	stats_of(p->probe, p->nprobe, &s);
	o->probe_med[i] = s.median;
	o->probe_p99[i] = s.p99;
	o->probe_p999[i] = s.p999;
	o->probe_max[i] = s.max;
}

/*
 * What fault @k's sample is net of: the pairs of a fault window, or the
 * workload's pair alone for a fault served by a folio zeroed in advance
 * (prezero=: its clear is 0, the handler timed none).  The host tools
 * net it the same way (scripts/hzlib/results.py sample_timers()).
 */
static u64 fault_timer(const struct bench_outcome *o,
		       const struct bench_pass *p, u32 k)
{
	return p->prezeroed && p->clear && !p->clear[k] ? o->net_of :
	       o->fault_net_of;
}

/* Σ of @v's samples, each net of its own timer, as the host sums them. */
static u64 net_sum(const struct bench_outcome *o, const struct bench_pass *p,
		   const u64 *v, bool fault)
{
	u64 s = 0;

	for (u32 k = 0; k < p->faults; k++)
		s += net(v[k], fault ? fault_timer(o, p, k) : o->net_of);
	return s;
}

void bench_keep_run(struct bench_outcome *o, const struct bench_pass *p,
		    u64 *scratch)
{
	u32 i = o->nruns, n = p->faults;
	u64 ov = o->net_of;

	if (i == BENCH_MAX_RUNS)
		return;
	o->nruns++;
	o->resched = p->resched;
	o->fault_total[i] = p->fault ? net_sum(o, p, p->fault, true) : 0;
	o->clear_total[i] = p->clear ? net_sum(o, p, p->clear, false) : 0;
	if (p->fault) {
		struct stats s;

		for (u32 k = 0; k < n; k++)
			scratch[k] = net(p->fault[k], fault_timer(o, p, k));
		stats_of(scratch, n, &s);
		o->fault_med[i] = s.median;
	}
	if (p->clear)
		o->clear_med[i] = net(median_of(p->clear, n, scratch), ov);
	if (p->fault && p->clear) {
		struct stats s;

		/* Overhead: each net fault less its net clear. */
		for (u32 k = 0; k < n; k++)
			scratch[k] = net(net(p->fault[k], fault_timer(o, p, k)),
					 net(p->clear[k], ov));
		stats_of(scratch, n, &s);
		o->over_med[i] = s.median;
	}
	if (p->access != ACCESS_NONE && p->access_t) {
		o->has_access = true;
		o->access_med[i] = net(median_of(p->access_t, n, scratch), ov);
	}
	if (p->probe)
		keep_probe(o, i, p);
	o->has_freq |= p->has_freq;
	o->has_smi |= p->has_smi;
	o->eff_khz[i] = p->has_freq ? p->eff_khz : 0;
	o->smis[i] = p->has_smi ? p->smis : 0;
}

/* "run 2: 1 SMI; run 3: 3.1% off the median frequency": what a summary
 * must not average in silently. */
static bool flag_runs(const struct bench_outcome *o, char *buf, size_t n)
{
	u64 tmp[BENCH_MAX_RUNS], med;
	size_t len = 0;

	buf[0] = '\0';
	memcpy(tmp, o->eff_khz, o->nruns * sizeof(u64));
	med = o->has_freq ? median_u64(tmp, o->nruns) : 0;
	for (u32 i = 0; i < o->nruns && len < n; i++) {
		u64 f = o->eff_khz[i], off = f > med ? f - med : med - f;

		if (o->smis[i])
			len += (size_t)ksnprintf(buf + len, n - len, "%srun %u: %llu "
						 "SMI%s", len ? "; " : "", i,
						 (unsigned long long)o->smis[i],
						 o->smis[i] > 1 ? "s" : "");
		if (med && off * 100 > med * FREQ_TOLERANCE_PCT && len < n)
			len += (size_t)ksnprintf(buf + len, n - len, "%srun %u: "
						 "%llu kHz, %llu.%llu%% off the median",
						 len ? "; " : "", i,
						 (unsigned long long)f,
						 (unsigned long long)(off * 100 / med),
						 (unsigned long long)(off * 1000 / med % 10));
	}
	return len > 0;
}

static u64 ns_median(const u64 *v, u32 n, u64 hz)
{
	u64 tmp[BENCH_MAX_RUNS];

	memcpy(tmp, v, (size_t)n * sizeof(u64));
	return ticks_to_ns(median_u64(tmp, n), hz);
}

u64 gibps_milli(u64 bytes, u64 ticks, u64 hz)
{
	return ticks ? mul_div_u64(bytes * 1000, hz, ticks) >> 30 : 0;
}

u64 bench_run_gibps(const struct bench_outcome *o, u32 i, u64 size, u64 hz)
{
	bool faults = o->nruns && o->fault_total[0];

	return gibps_milli(size, faults ? o->fault_total[i] : o->clear_total[i],
			   hz);
}

u64 bench_run_gibps_micro(const struct bench_outcome *o, u32 i, u64 size,
			  u64 hz)
{
	bool faults = o->nruns && o->fault_total[0];
	u64 t = faults ? o->fault_total[i] : o->clear_total[i];

	return t ? mul_div_u64(mul_div_u64(size, hz, t), 1000000, 1ULL << 30) :
		   0;
}

/* Median over runs of each run's median, p99, p99.9; max of the maxima. */
static void probe_summary(struct rec *r, const struct bench_outcome *o, u64 hz)
{
	u64 mx = 0;

	for (u32 i = 0; i < o->nruns; i++)
		mx = MAX(mx, o->probe_max[i]);
	if (mx == ~0ULL) {	/* a run without one sample */
		rec_u64(r, "probe_lost", o->probe_lost);
		return;
	}
	rec_u64(r, "probe_ns_median", ns_median(o->probe_med, o->nruns, hz));
	rec_u64(r, "probe_ns_p99", ns_median(o->probe_p99, o->nruns, hz));
	rec_u64(r, "probe_ns_p999", ns_median(o->probe_p999, o->nruns, hz));
	rec_u64(r, "probe_ns_max", ticks_to_ns(mx, hz));
	rec_u64(r, "probe_lost", o->probe_lost);
}

/* The series flags of the measured passes (docs/statistics.md, "Series a
 * mean hides"), each test's figure where it ran. */
_Static_assert(BENCH_MAX_RUNS <= SERIES_MAX_N, "every series checked");

static void series_rec(struct rec *r, const struct bench_outcome *o,
		       u64 *scratch)
{
	struct series_check c;

	series_check(o->gibps, o->nruns, scratch, &c);
	rec_str(r, "series", series_word(&c));
	if (c.drift_tested)
		rec_s64(r, "drift_s", c.drift_s);
	if (c.bimodal_tested && c.sep_inf)
		rec_str(r, "bimodal_sep_x100", "inf");
	else if (c.bimodal_tested)
		rec_u64(r, "bimodal_sep_x100", c.sep_x100);
}

void bench_rec_summary(struct rec_writer *w, const struct bench_desc *d,
		       const struct bench_outcome *o, const char *status,
		       const char *reason, u64 hz)
{
	char flags[240];
	u64 g[BENCH_MAX_RUNS], cg[BENCH_MAX_RUNS];
	bool faults = o->nruns && o->fault_total[0];
	bool clears = o->nruns && o->clear_total[0];
	struct stats s, cs;
	struct rec r;

	for (u32 i = 0; i < o->nruns; i++) {
		g[i] = bench_run_gibps(o, i, d->size, hz);
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
	if (d->c->runs_auto && o->auto_stop)
		rec_str(&r, "stopped_by", auto_stop_names[o->auto_stop]);
	if (d->c->runs_auto && o->has_ci)
		rec_u64(&r, "ci_pct_x100", o->ci_pct_x100);
	if (o->nruns)
		series_rec(&r, o, g);	/* g: sorted above, free */
	if (o->nruns) {
		rec_u64(&r, "net_of_ticks", o->net_of);
		rec_u64(&r, "fault_net_of_ticks", o->fault_net_of);
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
		if (o->has_probe)
			probe_summary(&r, o, hz);
		/* perf's loop touches and nothing more: an access in the
		 * window is not its figure; and it maps hugetlb pages (its
		 * -p 2MB/1GB: MAP_HUGETLB), never THP's or madvised base
		 * pages, so no other backing is its figure either. */
		if (d->c->access == ACCESS_NONE && perfbench_backing(d->backing))
			perfbench_rec(&r, &o->perfbench);
		if (flag_runs(o, flags, sizeof(flags)))
			rec_str(&r, "flagged", flags);
	}
	rec_end(w, &r);
}

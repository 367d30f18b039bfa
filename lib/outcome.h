/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_OUTCOME_H
#define LIB_OUTCOME_H

#include "lib/benchrec.h"
#include "lib/perfbench.h"

/* What one configuration found, across its passes. */
struct bench_outcome {
	u32 failures;
	char first[160];
	u32 nruns;
	bool has_access;
	u64 fault_total[BENCH_MAX_RUNS], clear_total[BENCH_MAX_RUNS];
	u64 fault_med[BENCH_MAX_RUNS], clear_med[BENCH_MAX_RUNS];
	u64 access_med[BENCH_MAX_RUNS], over_med[BENCH_MAX_RUNS];
	u64 resched;
	/* probe=latency: per run, its wake-up lateness (ticks) */
	bool has_probe;
	u64 probe_med[BENCH_MAX_RUNS], probe_p99[BENCH_MAX_RUNS];
	u64 probe_p999[BENCH_MAX_RUNS], probe_max[BENCH_MAX_RUNS];
	u64 probe_lost;		/* wake-ups expected and not had, all runs */
	/* per run: effective frequency (0: unknown) and SMIs */
	u64 eff_khz[BENCH_MAX_RUNS], smis[BENCH_MAX_RUNS];
	bool has_freq, has_smi;
	u64 net_of;	/* ticks taken off each clear and access sample's figures */
	u64 fault_net_of;	/* ... and off each fault sample's: the timer
				 * pairs inside a fault window (outer + inner) */
	struct perfbench perfbench;	/* every timed pass's wall time */
	/* each measured pass's GiB/s x 10⁶ (the series flags; runs=auto's
	 * rule); runs=auto: what stopped the passes (enum auto_stop;
	 * AUTO_GO: a failure did), and the 95% interval's half-width
	 * reached, % of the mean x 100 */
	u64 gibps[BENCH_MAX_RUNS];
	u32 auto_stop;
	bool has_ci;
	u64 ci_pct_x100;
};

/* A run is flagged when its effective frequency is this far from the
 * median of the runs' (per cent), or an SMI arrived during it. */
#define FREQ_TOLERANCE_PCT 2

/*
 * Keep a measured pass's totals and medians, net of the timer
 * (o->fault_net_of per fault sample, o->net_of per clear or access one,
 * and per fault served by a folio zeroed in advance: its clear is 0 and
 * its window holds the workload's pair alone), each sample on its own
 * and clamped at 0, as the host tools net them.
 * Sorts copies in @scratch (n entries), never the caller's arrays.
 */
void bench_keep_run(struct bench_outcome *o, const struct bench_pass *p,
		    u64 *scratch);
void bench_rec_summary(struct rec_writer *w, const struct bench_desc *d,
		       const struct bench_outcome *o, const char *status,
		       const char *reason, u64 tsc_hz);
/* Record the first failure's text, count them all. */
void bench_fail(struct bench_outcome *o, const char *fmt, ...) __printf(2, 3);
u64 sum_u64(const u64 *v, u32 n);
/* Measured pass @i's GiB/s x 1000 over @size bytes: of its faults, or of
 * its clears where it has none (bench=bare). */
u64 bench_run_gibps(const struct bench_outcome *o, u32 i, u64 size, u64 hz);
/* ... x 10⁶: runs=auto's series, fine enough for a pass under 1 GiB/s. */
u64 bench_run_gibps_micro(const struct bench_outcome *o, u32 i, u64 size,
			  u64 hz);
/* GiB/s x 1000 of @bytes in @ticks of a @hz clock; 0 for no ticks. */
u64 gibps_milli(u64 bytes, u64 ticks, u64 hz);

#endif

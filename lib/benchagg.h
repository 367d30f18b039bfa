/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_BENCHAGG_H
#define LIB_BENCHAGG_H

#include "lib/benchrec.h"
#include "lib/record.h"

/*
 * What the CPUs of one group did together in a pass (docs/smp.md): the
 * agg record, and over the measured passes the agg_summary -- the seed's
 * view of vm-scalability's anon-w-seq-hugetlb: the sum over CPUs of the
 * kernel's part (stime) and the user's (utime), and total bytes over the
 * wall time from the first start to the last finish.  Written by the
 * kernel and the companion alike.
 */
struct agg_member {
	u32 cpu;
	u64 start, end;		/* its timed part, in the run's ticks */
	u64 stime, utime;	/* ticks (kernel) */
	u64 stime_us, utime_us;	/* getrusage (companion) */
	u64 bytes;
	bool finished;		/* it faulted every folio */
};

struct agg_pass {
	u32 group, run;
	const char *pass;
	const char *cpus;
	u32 ncpus;
	bool rusage;		/* stime_us/utime_us rather than ticks */
	const char *refuse;	/* why cross-CPU times are not trusted, or NULL */
	const struct agg_member *m;
};

struct agg_outcome {
	u32 nruns;
	u64 gibps_milli[BENCH_MAX_RUNS];
	u64 stime_ns[BENCH_MAX_RUNS], utime_ns[BENCH_MAX_RUNS];
	u32 refused;		/* measured passes without a wall time */
	char refuse[160];	/* the first reason */
};

/* Write the agg record for @a; keep it in @o when it is a measured pass. */
void agg_pass_record(struct rec_writer *w, const struct agg_pass *a,
		     struct agg_outcome *o, u64 hz);
void agg_summary_record(struct rec_writer *w, u32 group, const char *cpus,
			u32 ncpus, const struct agg_outcome *o,
			const char *status, const char *reason);

#endif

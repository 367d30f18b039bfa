/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_AGGREC_H
#define LIB_AGGREC_H

#include "lib/benchrec.h"

/*
 * What the CPUs of a group did together (docs/smp.md): an agg record per
 * pass, from each CPU's start and end on one clock and its system and user
 * time, and an agg_summary per group over its measured passes.  The
 * kernel counts stime and utime in TSC ticks; the companion takes them
 * from getrusage(), in microseconds.
 */
enum agg_unit { AGG_TICKS, AGG_US };

/*
 * One CPU's pass.  A line of its own: the kernel's members write theirs
 * at the common start of a timed part, all at once (docs/smp.md).
 */
struct agg_cpu {
	u32 cpu;
	bool finished;		/* it ran its pass to the end */
	u64 start, end;		/* its clock's ticks, as read */
	u64 stime, utime;	/* in the group's unit */
	u64 bytes;		/* its region */
	s64 offset;		/* its clock less the reference CPU's */
	u64 offset_err;		/* @offset is known to +- this */
} __aligned(64);

struct agg_pass {
	u32 run;
	const char *pass;	/* verify, warmup, measure */
	bool measured;		/* kept for the summary */
	const char *refused;	/* why no CPU's clock can be trusted, or NULL */
	const struct agg_cpu *cpu;
	u32 n;
	/* cpu[].offset measured: the start skew in the reference's time too */
	bool offsets;
};

/* A group, and its measured passes so far. */
struct agg_group {
	u32 group;
	const char *cpus;	/* cpulist */
	u32 ncpus;
	enum agg_unit unit;
	u64 hz;
	u32 nruns;
	char refused[120];	/* the first measured pass's refusal */
	/* runs=auto: the rule that stopped every member, or NULL */
	const char *stopped_by;
	u64 gibps_milli[BENCH_MAX_RUNS];
	u64 stime_ns[BENCH_MAX_RUNS], utime_ns[BENCH_MAX_RUNS];
};

void agg_group_init(struct agg_group *g, u32 group, const char *cpus,
		    u32 ncpus, enum agg_unit unit, u64 hz);
/* The pass's agg record; a measured one is kept in @g. */
void agg_rec_pass(struct rec_writer *w, struct agg_group *g,
		  const struct agg_pass *p);
/*
 * The group's agg_summary: @status ok, fail or skip with @reason (NULL
 * for none); ok becomes refused when a measured pass's wall time was.
 */
void agg_rec_summary(struct rec_writer *w, const struct agg_group *g,
		     const char *status, const char *reason);

#endif

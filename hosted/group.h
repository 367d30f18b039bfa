/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HOSTED_GROUP_H
#define HOSTED_GROUP_H

#include "hosted/companion.h"
#include "lib/benchrun.h"

/*
 * cpus=: one process per CPU, each pinned to its CPU and running the same
 * configurations over a region of its own, every pass released for all of
 * them at once, as vm-scalability's usemem -n N runs (docs/companion.md).
 * The parent numbers and writes every process's records, and after each
 * pass an agg record of what they did together.
 */

/* The CPUs of one scale= step. */
struct group_cpus {
	struct cpu_set set;
	u32 n;
	char list[256];		/* cpulist */
	const char *numa;	/* the records' numa: none on one node */
	char numa_skip[160];	/* why numa= cannot run here, or "" */
};

/* What each process runs: configurations through companion_run_config(). */
typedef void (*group_body)(void *ctx);

/*
 * Fork one process per CPU of @g, pin each, run @body(@ctx) in each and
 * write their records; *@id advances past their configurations.  Returns
 * how many configurations failed (a process lost counts as one).
 */
u32 group_run(const struct group_cpus *g, u32 *id, group_body body, void *ctx);
/* A configuration skipped before any process ran: each CPU's config
 * record and skip summary, and the group's agg_summary. */
u32 group_skip(const struct group_cpus *g, struct bench_desc *d, u32 *id,
	       const char *why);

/*
 * In a group's process, called by companion_run_config(),
 * companion_run_rounds() and the timed passes; outside a group they do
 * nothing.  begin: the configuration's number, group and place into @d
 * (up to ROUND_GROUP_MAX configurations open at once, a round group's).
 * end: @d's outcome (or @skip) for the parent.
 */
void group_config_begin(struct bench_desc *d);
void group_config_end(const struct bench_desc *d, const struct bench_outcome *o,
		      const char *skip);
/* Around a pass of @d's timed part: wait for every process, then time
 * it; the getrusage() times go into @p's run record. */
void group_pass_begin(const struct bench_desc *d,
		      const struct bench_outcome *o);
void group_pass_end(struct bench_pass *p, const struct bench_outcome *o);
/* A pass that failed before its timed part: still in step, not finished. */
void group_pass_lost(const struct bench_desc *d, struct bench_pass *p);
/*
 * runs=auto in a group's process: the processes agree after each round
 * through their shared page (lib/benchrun.h, struct bench_agree); NULL
 * outside a group, with runs=N or a group of one.
 */
const struct bench_agree *group_agreement(const struct hz_config *c);

#endif

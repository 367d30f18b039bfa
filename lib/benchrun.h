/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_BENCHRUN_H
#define LIB_BENCHRUN_H

#include "lib/benchrec.h"
#include "lib/outcome.h"

/*
 * The run skeleton, written once for the kernel's bench=fault and the
 * companion's bench=bare and bench=linux-fault: for one configuration,
 * the config record; a verify pass first when access=write will overwrite
 * the folios; warm-ups (recorded, not kept); measured runs; each pass as
 *
 *	fill (pattern) -> cache state -> timed -> verify -> release
 *	-> run record -> samples (measured passes) -> reset
 *
 * and the summary.  What a pass does is the side's: the callbacks.
 * With runs=auto the measured passes go on until lib/autorun.c's rule
 * stops them (docs/statistics.md, "runs=auto: the contract").
 *
 * interleave=on runs a round group, configurations that share a pool,
 * together (bench_run_rounds()): their config records; each one's
 * verify pass; warm-up rounds, then measured rounds, each member one
 * pass a round in a seeded random order; their summaries.  A drift of
 * the machine then lands on every member of a round alike.
 */
enum pass_kind { PASS_VERIFY, PASS_WARMUP, PASS_MEASURE };

/*
 * runs=auto where several CPUs (the kernel's cpus=/scale= groups) or
 * processes (the companion's) run the same configurations together,
 * meeting at every timed part: each would stop at its own round while
 * the others wait for it.  After each measured round every member posts
 * its view of the rule and reads the group's, the same for all, so that
 * all stop after the same round (docs/statistics.md, "runs=auto in a
 * group of CPUs").
 */
struct auto_view {
	u32 live;	/* series still held to the rule: not failed */
	bool within;	/* every one of them within precision= */
	u64 elapsed;	/* the measured rounds so far, ticks */
};

struct bench_agree {
	/*
	 * @v: this member's view in, the group's out: live summed, within
	 * all of them, elapsed the longest.  false: the group cannot agree
	 * (the run was aborted elsewhere): every member stops.
	 */
	bool (*fn)(void *arg, struct auto_view *v);
	void *arg;
};

struct bench_ops {
	/* Untimed: the pattern into every folio (and guard), so zeroing shows. */
	void (*fill)(void *ctx);
	/* Untimed: cache=cold|warm|wbinvd over what was filled. */
	void (*cache)(void *ctx, u32 mode);
	/*
	 * The timed part, with @access (none on a verify pass): sets @p's
	 * faults, resched and sample arrays; failures into @o.
	 */
	void (*timed)(void *ctx, u32 access, struct bench_pass *p,
		      struct bench_outcome *o);
	/* Every folio checked; not called when the access overwrote them.
	 * Sets p's injected/detected counts; failures into @o. */
	void (*verify)(void *ctx, struct bench_pass *p, struct bench_outcome *o);
	/* Unmap, put the folios back. */
	void (*reset)(void *ctx);
	/* Optional: a remark for an ok summary (runs that disagree, ...). */
	void (*note)(void *ctx, const struct bench_outcome *o, char *buf,
		     size_t n);
	/* Optional, after the check and before the run record: the
	 * workload frees its folios (prezero=on-free zeroes them there,
	 * and checks what it zeroed: failures into @o). */
	void (*release)(void *ctx, struct bench_pass *p,
			struct bench_outcome *o);
	/* Optional, a round group of more than one: before each pass of
	 * this member, make the state the members share (one CPU's, one
	 * process's) its own again, as it was when it ran alone. */
	void (*enter)(void *ctx);
};

struct bench_job {
	struct rec_writer *w;
	struct bench_desc *d;
	const struct bench_ops *ops;
	void *ctx;
	struct bench_outcome *o;	/* the caller's: large */
	u64 tsc_hz;
	u64 net_of;			/* the empty timed pair, ticks */
	u64 fault_net_of;		/* the pairs in a fault window */
	u64 *scratch;			/* d->folios entries */
	/* runs=auto's budget_s: the side's clock, tsc_hz ticks (lib/ cannot
	 * read one); NULL: no budget can stop the passes */
	u64 (*clock)(void);
	const char *fail;		/* a reason: fails without running */
	/* runs=auto in a group (above); NULL: this member alone decides.
	 * With one, a failed series keeps running in step, left out of
	 * the rule; in a round group, job[0]'s serves them all. */
	const struct bench_agree *agree;
};

/* A pass's probe samples into @p; a probe that filled its @cap samples
 * before the pass ended fails the configuration, saying so. */
struct probe_take {
	u64 *late;
	const u64 *fault;
	u32 n, cap;
	u64 expected;
	bool truncated;
};
void bench_take_probe(struct bench_pass *p, struct bench_outcome *o,
		      const char *name, const struct probe_take *t);

/*
 * Run one configuration; @skip (a reason) writes a skipped summary
 * instead, j->fail a failed one.  Returns true when it ran and every
 * check held.
 */
bool bench_run_config(const struct bench_job *j, const char *skip);

/* The most configurations one round group holds: each keeps its own
 * outcome (lib/outcome.h) for the whole group. */
#define ROUND_GROUP_MAX 16

/*
 * One round group: @n jobs, each with its own ctx and outcome, the same
 * hz_config.  @skip[i] (a reason, or NULL) skips one, as
 * bench_run_config() does; @ok[i] says whether it ran and every check
 * held.  Each job's d->round_group is set: the first job's id.  The
 * order of the passes depends only on the config's seed= and that id,
 * so the CPUs of a group, running the same round group, run it in the
 * same order.  With runs=N every member runs every round; with
 * runs=auto a member that fails stops (in a group, job[0].agree: runs on
 * in step, out of the rule), and the rule stops them all.
 */
struct bench_rounds {
	const struct bench_job *job;
	const char *const *skip;
	bool *ok;
	u32 n;
	/* Optional: after each measured round (from 0), outside every
	 * timed part: the companion's --round-hook runs the plain loops. */
	void (*round_end)(void *arg, u32 round);
	void *arg;
	/* Measured rounds, where not the configuration's runs= (0):
	 * bench=split's split_runs= for the group its faults lead. */
	u32 runs;
};
void bench_run_rounds(const struct bench_rounds *r);

#endif

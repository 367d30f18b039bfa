/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_BENCH_GROUP_H
#define KERNEL_BENCH_GROUP_H

#include "arch/x86_64/percpu.h"
#include "kernel/smp/smp.h"
#include "lib/aggrec.h"
#include "lib/benchrun.h"
#include "lib/outcome.h"
#include "lib/ktap.h"
#include "lib/params.h"

/*
 * The CPUs of one scale= step running the matrix together.  Every member
 * walks the same configurations and passes, meeting the others at
 * barriers: to agree whether a configuration runs (any member's reason
 * to skip skips it for all), at the start of each timed part (the common
 * release), at its end (so that no CPU prints while another is timed),
 * and at the end of a configuration.  The lowest-numbered member, the
 * leader, writes what is the group's: the agg records and the KTAP line.
 */
struct bench_group;

struct group_member {
	u64 value;		/* group_min()'s */
	struct auto_view view;	/* group_auto()'s */
	u32 auto_stop;		/* runs=auto: what stopped its config */
	struct bench_agree agree;	/* group_agreement()'s */
	struct bench_group *g;
	u32 idx;
	char skip[160];
	bool ok;
	u32 failures;
	char first[160];
} __aligned(64);

struct bench_group {
	const struct hz_config *c;
	struct ktap *k;
	u32 n;
	u32 cpu[MAX_CPUS];		/* member -> CPU */
	char cpus[CPULIST_TEXT_MAX + 1];	/* their cpulist, as records keep it */
	/* Names and records say the CPUs: false for the boot CPU alone
	 * without scale=, whose records are as before SMP (docs/smp.md). */
	bool says_cpus;
	u32 cfg_base, group_base;	/* numbering before this step */
	struct barrier bar;
	struct barrier_slot bar_slot[MAX_CPUS];	/* by CPU number */
	struct group_member m[MAX_CPUS];
	/* A line each (struct agg_cpu): written at the common release */
	struct agg_cpu am[MAX_CPUS];
	/* The leader's, one per member of the round group running */
	struct agg_group agg[ROUND_GROUP_MAX];
	char skip[200];			/* the group's decision */
};

u32 group_index(const struct bench_group *g, u32 cpu);
/* Post this member's reason to skip ("" to run) for configuration group
 * @group, round group member @member; all return the group's (empty:
 * run), to be copied before the next call.  A run aborted elsewhere
 * reads as a skip. */
const char *group_agree(struct bench_group *g, u32 idx, u32 member, u32 group,
			const char *mine);
/* The least of every member's @v, for all of them (sizes agreed on). */
u64 group_min(struct bench_group *g, u32 idx, u64 v);
/*
 * runs=auto in a group of several CPUs: the hook through which this
 * member agrees with the others after each measured round (lib/benchrun.h,
 * struct bench_agree); NULL with runs=N or a group of one, which decides
 * alone as before.
 */
const struct bench_agree *group_agreement(struct bench_group *g, u32 idx);
/* The common start of a timed part: this member's start TSC; false (and
 * nothing to time) when the run was aborted. */
bool group_start(struct bench_group *g, u32 idx);
/* This member's end of it (@a: its end TSC, times, bytes); the leader
 * then writes the agg record. */
void group_end(struct bench_group *g, u32 idx, u32 member,
	       const struct agg_cpu *a, u32 run, const char *pass);
/* The configuration's outcome for this member; the leader writes the
 * KTAP line named @name (skipped for @skip when not @ran) and the
 * agg_summary. */
void group_config_end(struct bench_group *g, u32 idx, u32 member,
		      const char *name, const char *skip,
		      const struct bench_outcome *o, bool ran);
/*
 * Once every member has come here (what each did before is visible), the
 * leader alone runs @fn(@arg); all return when it is done, false when
 * the run was aborted (@fn may not have run).
 */
bool group_lead(struct bench_group *g, u32 idx, void (*fn)(void *), void *arg);

#endif

// SPDX-License-Identifier: GPL-2.0-only
/*
 * runs=auto in a group (lib/benchrun.c, struct bench_agree): one member's
 * runner against a fake of the group below it.  The fake answers as the
 * kernel's group_auto() and the companion's group_proc.c would, with the
 * other members' views scripted: their series left, whether they are
 * within precision= after each round.  The member must stop when the
 * group does, not when it alone would; a failed series runs on in step,
 * out of the rule; a group that cannot agree stops every member.
 */
#include <stdlib.h>
#include "lib/autorun.h"
#include "lib/benchrun.h"
#include "lib/outcome.h"
#include "lib/params.h"
#include "lib/record.h"
#include "lib/string.h"
#include "tests/host/fake_ops.h"
#include "tests/host/unit.h"

static char summary[RECORD_MAX + 8];
static u32 measured;		/* measured run records seen */

static void sink(void *ctx, const char *line)
{
	(void)ctx;
	if (strstr(line, " summary ") || !strncmp(line, "summary ", 8) ||
	    strstr(line, "summary cfg="))
		strlcpy(summary, line, sizeof(summary));
	if (strstr(line, " pass=measure"))
		measured++;
}

/* The passes: each one fault of 1000 ticks (an even series: within any
 * precision from round 3); pass @fail_at (from 1) fails. */
static u32 npass, fail_at;
static u64 sample = 1000;

static void timed(void *ctx, u32 access, struct bench_pass *p,
		  struct bench_outcome *o)
{
	(void)ctx, (void)access;
	p->faults = 1;
	p->fault = &sample;
	p->clear = &sample;
	if (++npass == fail_at)
		bench_fail(o, "pass %u: a folio not zero", npass);
}

static const struct bench_ops ops = FAKE_OPS(timed);

/* The group below: the others' views by round (from 1); 0 aborts. */
struct others {
	u32 within_from;	/* the others within from this round */
	u32 abort_at;		/* the group cannot agree at this round */
	u32 live;		/* their series left */
	u32 rounds;		/* agreements so far */
	struct auto_view mine[8];	/* what this member posted */
};

static bool fake_group(void *arg, struct auto_view *v)
{
	struct others *g = arg;
	u32 n = ++g->rounds;

	if (n <= 8)
		g->mine[n - 1] = *v;
	if (n == g->abort_at)
		return false;
	v->live += g->live;
	v->within &= n >= g->within_from;
	v->elapsed += 0;
	return true;
}

static struct bench_desc desc;
static struct hz_config cfg;
static struct rec_writer w;
static u64 scratch[1];

static struct bench_job job_for(struct bench_outcome *o,
				const struct bench_agree *a)
{
	config_defaults(&cfg);
	cfg.runs_auto = true;
	cfg.max_runs = 8;
	cfg.warmups = 0;
	cfg.access = ACCESS_NONE;
	memset(&desc, 0, sizeof(desc));
	desc.c = &cfg;
	desc.name[0] = 'x';
	desc.bench = desc.folio = desc.clear = desc.order = "x";
	desc.size = 2 * MiB;
	desc.folios = 1;
	rec_writer_init(&w, sink, NULL);
	npass = measured = 0;
	fail_at = 0;
	summary[0] = '\0';
	return (struct bench_job){ .w = &w, .d = &desc, .ops = &ops, .o = o,
				   .tsc_hz = 1000000000ULL, .scratch = scratch,
				   .agree = a };
}

/* The group a member is in, its others scripted; the member's job in it. */
static struct others g;
static const struct bench_agree in_g = { fake_group, &g };

static struct bench_job member_of(struct bench_outcome *o,
				  struct others others)
{
	g = others;
	return job_for(o, &in_g);
}

/* Within alone from round 3, the others from round 5: five rounds, by
 * precision, for everyone. */
TEST(autogroup_stops_when_the_group_does)
{
	static struct bench_outcome o;
	struct bench_job j = member_of(&o, (struct others){
		.within_from = 5, .live = 3 });

	EXPECT(bench_run_config(&j, NULL));
	EXPECT_EQ(npass, 5);
	EXPECT_EQ(measured, 5);
	EXPECT_EQ(g.rounds, 5);
	EXPECT_EQ(o.auto_stop, AUTO_PRECISION);
	EXPECT(strstr(summary, " runs=5 stopped_by=precision "), "%s", summary);
	/* What it posted: its one series, within from round 2 (the
	 * rule's three rounds are the group's to apply) */
	EXPECT_EQ(g.mine[0].live, 1);
	EXPECT(!g.mine[0].within);
	EXPECT(g.mine[2].within);
	/* Alone (no agree), the same series stops at three. */
	j = job_for(&o, NULL);
	EXPECT(bench_run_config(&j, NULL));
	EXPECT_EQ(npass, 3);
	EXPECT(strstr(summary, " runs=3 stopped_by=precision "), "%s", summary);
}

/* Others never within: max_runs stops every member at the same round. */
TEST(autogroup_max_runs)
{
	static struct bench_outcome o;
	struct bench_job j = member_of(&o, (struct others){
		.within_from = 100, .live = 1 });

	EXPECT(bench_run_config(&j, NULL));
	EXPECT_EQ(npass, 8);
	EXPECT(strstr(summary, " runs=8 stopped_by=max_runs "), "%s", summary);
}

/* A failed pass: alone it ends the passes; in a group the series runs on
 * in step, out of the rule (live 0, within left to the others), and its
 * summary says fail with no stopped_by. */
TEST(autogroup_failed_member_keeps_step)
{
	static struct bench_outcome o;
	struct bench_job j = member_of(&o, (struct others){
		.within_from = 4, .live = 2 });

	fail_at = 2;
	EXPECT(!bench_run_config(&j, NULL));
	EXPECT_EQ(npass, 4);
	EXPECT_EQ(g.rounds, 4);
	EXPECT_EQ(g.mine[1].live, 0);
	EXPECT(g.mine[1].within);
	EXPECT(strstr(summary, "status=fail"), "%s", summary);
	EXPECT(!strstr(summary, "stopped_by"), "%s", summary);
	j = job_for(&o, NULL);
	fail_at = 2;
	EXPECT(!bench_run_config(&j, NULL));
	EXPECT_EQ(npass, 2);
	/* Every series of the group failed: they stop, no rule. */
	j = member_of(&o, (struct others){
		.within_from = 100, .live = 0 });
	fail_at = 1;
	EXPECT(!bench_run_config(&j, NULL));
	EXPECT_EQ(npass, 1);
}

/* A group that cannot agree (aborted elsewhere) stops each member there,
 * with no rule named. */
TEST(autogroup_abort_stops)
{
	static struct bench_outcome o;
	struct bench_job j = member_of(&o, (struct others){
		.within_from = 100, .live = 1, .abort_at = 2 });

	bench_run_config(&j, NULL);
	EXPECT_EQ(npass, 2);
	EXPECT(!strstr(summary, "stopped_by"), "%s", summary);
}

/* A round group in a group: job[0]'s agree serves the round; a member
 * that fails still runs every round, the other stops by the rule. */
TEST(autogroup_round_group)
{
	static struct bench_outcome o[2];
	struct bench_job job[2];
	struct bench_desc d2;
	const char *skip[2] = { NULL, NULL };
	bool ok[2];
	struct bench_rounds r = { .job = job, .skip = skip, .ok = ok, .n = 2 };

	job[0] = member_of(&o[0], (struct others){
		.within_from = 6, .live = 2 });
	d2 = desc;
	d2.id = 2;
	job[1] = job[0];
	job[1].d = &d2;
	job[1].o = &o[1];
	job[1].agree = NULL;	/* job[0]'s speaks for the round */
	fail_at = 3;		/* the second round's first pass */
	bench_run_rounds(&r);
	EXPECT_EQ(g.rounds, 6);
	EXPECT_EQ(npass, 12);
	EXPECT_EQ(measured, 12);
	EXPECT(ok[0] != ok[1]);
	EXPECT_EQ(o[0].nruns, 6);
	EXPECT_EQ(o[1].nruns, 6);
	EXPECT_EQ(g.mine[0].live, 2);
	EXPECT_EQ(g.mine[2].live, 1);
	EXPECT_EQ(ok[0] ? o[0].auto_stop : o[1].auto_stop, AUTO_PRECISION);
	EXPECT_EQ(ok[0] ? o[1].auto_stop : o[0].auto_stop, AUTO_GO);
}

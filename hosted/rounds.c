// SPDX-License-Identifier: GPL-2.0-only
/*
 * The companion's round groups (interleave=on): configurations that share
 * this process's CPU and a memory kind run through lib/benchrun.c's
 * bench_run_rounds(), each member with its own desc, ctx and outcome; the
 * per-configuration work companion_run_config() does around a blocked
 * run is done here around the group.  docs/companion.md, "Round groups".
 *
 * --round-hook CMD: after each measured round of a group that holds a
 * linux-fault configuration and something to pair it with, CMD runs
 * (sh -c, on this CPU, waited for) with HZ_ROUND_GROUP and HZ_ROUND set:
 * `make bench` runs the plain loops there, so that their figures pair
 * with the companion's by round (scripts/hzlib/split.py, plain_check).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "arch/x86_64/tsc.h"
#include "hosted/companion.h"
#include "hosted/group.h"
#include "lib/benchrun.h"
#include "lib/format.h"

static const char *hook_cmd;
static bool hook_ran;

void round_hook_set(const char *cmd)
{
	hook_cmd = cmd;
}

/* A hook given that never ran would leave the cross-check silently
 * empty: say why. */
void round_hook_done(void)
{
	if (hook_cmd && !hook_ran)
		fprintf(stderr, "hugezero-linux: --round-hook never ran: it runs "
			"after the measured rounds of a bench=split round group "
			"(interleave=on, no cpus=) that pairs the fault with bare "
			"clearing, and this run had none\n");
}

/* CMD after measured round @round of the group whose first
 * configuration is @arg; a failure is said, not fatal: the companion's
 * figures stand without the cross-check. */
static void run_hook(void *arg, u32 round)
{
	u32 group = ((const struct bench_desc *)arg)->id;
	char g[16], r[16];
	pid_t pid;
	int st;

	hook_ran = true;
	ksnprintf(g, sizeof(g), "%u", group);
	ksnprintf(r, sizeof(r), "%u", round);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		setenv("HZ_ROUND_GROUP", g, 1);
		setenv("HZ_ROUND", r, 1);
		execl("/bin/sh", "sh", "-c", hook_cmd, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0)
		fprintf(stderr, "hugezero-linux: --round-hook after round %u of "
			"group %u did not exit 0\n", round, group);
}

static void say(const struct bench_job *j, const char *skip, bool ok)
{
	if (skip)
		fprintf(stderr, "skip %s: %s\n", j->d->name, skip);
	else
		fprintf(stderr, "%s %s\n", ok ? "ok  " : "FAIL", j->d->name);
}

/* pmu=: the counters are this thread's on this CPU, not a
 * configuration's, and each pass reads them around its own faults or
 * clears: one set opened for the whole group, with room for its largest
 * member's folios, serves every member in turn (and no per-pass
 * open/close adds system calls between the members' passes). */
static void counters_for(struct bench_job *job, u32 n)
{
	u32 big = 0;

	for (u32 i = 1; i < n; i++)
		if (job[i].d->folios > job[big].d->folios)
			big = i;
	counters_open(job[big].d);
	for (u32 i = 0; i < n; i++)
		job[i].d->pmu = job[big].d->pmu;
}

u32 companion_run_rounds(struct bench_job *job, const char *const *skip, u32 n,
			 bool led, bool hook)
{
	struct bench_outcome *o = calloc(n, sizeof(*o));
	bool ok[ROUND_GROUP_MAX];
	struct bench_rounds r = { .job = job, .skip = skip, .ok = ok, .n = n };
	u32 failed = 0;

	if (!o || n > ROUND_GROUP_MAX) {
		fprintf(stderr, "hugezero-linux: no memory for a round group of "
			"%u\n", n);
		free(o);
		return n;
	}
	if (hook && hook_cmd && n > 1) {
		r.round_end = run_hook;
		r.arg = job[0].d;
	}
	/* A group that pairs a fault with the bare clearing. */
	if (led && n > 1)
		r.runs = (u32)job[0].d->c->split_runs;
	for (u32 i = 0; i < n; i++) {
		job[i].o = &o[i];
		job[i].clock = rdtsc;
		group_config_begin(job[i].d);
	}
	/* In a cpus= group: the processes agree after each round. */
	job[0].agree = group_agreement(job[0].d->c);
	counters_for(job, n);
	bench_run_rounds(&r);
	counters_close();
	for (u32 i = 0; i < n; i++) {
		say(&job[i], skip[i], ok[i]);
		failed += !skip[i] && !ok[i];
		group_config_end(job[i].d, &o[i], skip[i]);
	}
	free(o);
	return failed;
}

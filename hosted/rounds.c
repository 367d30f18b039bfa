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
#include "lib/benchrun.h"
#include "lib/format.h"

static const char *hook_cmd;

void round_hook_set(const char *cmd)
{
	hook_cmd = cmd;
}

/* CMD for measured round @round of @group; a failure is said, not fatal:
 * the companion's figures stand without the cross-check. */
static void run_hook(u32 group, u32 round)
{
	char g[16], r[16];
	pid_t pid;
	int st;

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

/*
 * Where the rounds are: lib/benchrun.c calls a member's enter before each
 * of its passes in a group of more than one, and each live member runs
 * once a round (a verify "round" first with access=write, then the
 * warm-up rounds, then the measured ones).  A member entering a second
 * time starts the next round; the last ends when the group returns.
 */
struct watch {
	u32 group, seen, rounds, before;	/* before: rounds not measured */
	u32 entered;				/* bit per member, this round */
	bool hooked;
};

struct hooked {
	const struct bench_ops *ops;
	void *ctx;
	struct watch *w;
	u32 bit;
};

static void round_done(struct watch *w)
{
	if (w->entered && w->rounds++ >= w->before && w->hooked)
		run_hook(w->group, w->rounds - 1 - w->before);
	w->entered = 0;
}

static void h_enter(void *ctx)
{
	struct hooked *h = ctx;

	if (h->w->entered & h->bit)
		round_done(h->w);
	h->w->entered |= h->bit;
	if (h->ops->enter)
		h->ops->enter(h->ctx);
}

static void h_fill(void *ctx)
{
	struct hooked *h = ctx;

	h->ops->fill(h->ctx);
}

static void h_cache(void *ctx, u32 mode)
{
	struct hooked *h = ctx;

	h->ops->cache(h->ctx, mode);
}

static void h_timed(void *ctx, u32 access, struct bench_pass *p,
		    struct bench_outcome *o)
{
	struct hooked *h = ctx;

	h->ops->timed(h->ctx, access, p, o);
}

static void h_verify(void *ctx, struct bench_pass *p, struct bench_outcome *o)
{
	struct hooked *h = ctx;

	h->ops->verify(h->ctx, p, o);
}

static void h_reset(void *ctx)
{
	struct hooked *h = ctx;

	h->ops->reset(h->ctx);
}

static void h_note(void *ctx, const struct bench_outcome *o, char *buf,
		   size_t n)
{
	struct hooked *h = ctx;

	if (h->ops->note)
		h->ops->note(h->ctx, o, buf, n);
}

static void h_release(void *ctx, struct bench_pass *p, struct bench_outcome *o)
{
	struct hooked *h = ctx;

	if (h->ops->release)
		h->ops->release(h->ctx, p, o);
}

static const struct bench_ops hooked_ops = {
	.fill = h_fill, .cache = h_cache, .timed = h_timed,
	.verify = h_verify, .reset = h_reset, .note = h_note,
	.release = h_release, .enter = h_enter,
};

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
			 bool hook)
{
	struct bench_outcome *o = calloc(n, sizeof(*o));
	struct hooked *h = calloc(n, sizeof(*h));
	struct watch w = { 0 };
	bool ok[ROUND_GROUP_MAX];
	struct bench_rounds r = { job, skip, ok, n };
	u32 failed = 0;

	if (!o || !h || n > ROUND_GROUP_MAX) {
		fprintf(stderr, "hugezero-linux: no memory for a round group of "
			"%u\n", n);
		free(o);
		free(h);
		return n;
	}
	w.group = job[0].d->id;
	w.hooked = hook && hook_cmd && n > 1;
	w.before = (job[0].d->c->access == ACCESS_WRITE) +
		   (u32)job[0].d->c->warmups;
	for (u32 i = 0; i < n; i++) {
		job[i].o = &o[i];
		job[i].clock = rdtsc;
		h[i] = (struct hooked){ job[i].ops, job[i].ctx, &w, 1u << i };
		job[i].ops = &hooked_ops;
		job[i].ctx = &h[i];
	}
	counters_for(job, n);
	bench_run_rounds(&r);
	round_done(&w);
	counters_close();
	for (u32 i = 0; i < n; i++) {
		job[i].ops = h[i].ops;
		job[i].ctx = h[i].ctx;
		say(&job[i], skip[i], ok[i]);
		failed += !skip[i] && !ok[i];
	}
	free(h);
	free(o);
	return failed;
}

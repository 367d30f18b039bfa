// SPDX-License-Identifier: GPL-2.0-only
/*
 * One process of a group (hosted/group_shm.h): pinned to its CPU, it runs
 * the configurations, writes its records into the pipe to the parent, and
 * keeps step with the others.  Its passes are released together by a
 * spinning barrier, and end at it too (nothing runs beside a timed part
 * but the others' timed parts), so that the start of each is within a cache line's
 * travel of the others'; a process that spun for BARRIER_SPIN_US sleeps
 * on a futex instead, so that a long wait does not hold its CPU from
 * the others (or cost it the scheduler's favour), and the waits between
 * passes sleep too, so that the parent has a CPU to write with.
 */

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include "arch/x86_64/tsc.h"
#include "hosted/group_shm.h"

static struct member {
	struct group_shm *sh;
	struct group_slot *slot;
	u32 index, round;
	int fd;
	u32 cpu, first_id, first_group, nconfigs;
	const struct group_cpus *g;
	/* Each open configuration's (a round group's members'), in turn */
	struct group_place place[ROUND_GROUP_MAX];
	const struct group_place *cur;	/* the pass's configuration */
	bool pending;			/* a pass timed and not yet posted */
	u32 failures;			/* the outcome's, at the pass's start */
	struct rusage ru;
} me;
static bool member;

static void pipe_write(const char *line)
{
	size_t n = strlen(line);
	ssize_t w;

	/* One write below PIPE_BUF is atomic: the lines of different
	 * processes never mix. */
	do
		w = write(me.fd, line, n);
	while (w < 0 && errno == EINTR);
	if (w != (ssize_t)n)
		_exit(4);	/* the parent is gone */
}

static void emit_pipe(void *ctx, const char *line)
{
	(void)ctx;
	pipe_write(line);
}

static void post(u32 kind)
{
	struct group_shm *sh = me.sh;
	u32 seen;

	me.slot->kind = kind;
	me.slot->group = me.cur->smp.group;
	me.round++;
	if (__atomic_add_fetch(&sh->posted, 1, __ATOMIC_ACQ_REL) == sh->n)
		pipe_write(GROUP_DOORBELL);
	if (kind == ROUND_EXIT)
		return;
	while ((seen = __atomic_load_n(&sh->consumed, __ATOMIC_ACQUIRE)) <
	       me.round)
		futex_wait(&sh->consumed, seen);
}

/* A pass is posted when the next begins (or its configuration ends):
 * after its run and samples records, so that its agg follows them. */
static void post_pending(void)
{
	if (me.pending)
		post(ROUND_PASS);
	me.pending = false;
}

#define BARRIER_SPIN_US 10000

static bool released(struct group_shm *sh, u32 gen)
{
	return __atomic_load_n(&sh->gen, __ATOMIC_ACQUIRE) != gen;
}

static void group_barrier(struct group_shm *sh)
{
	u32 gen = __atomic_load_n(&sh->gen, __ATOMIC_ACQUIRE);
	u64 until;

	if (__atomic_add_fetch(&sh->arrived, 1, __ATOMIC_ACQ_REL) == sh->n) {
		__atomic_store_n(&sh->arrived, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&sh->gen, gen + 1, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&sh->sleepers, __ATOMIC_SEQ_CST))
			futex_wake(&sh->gen);
		return;
	}
	until = rdtsc() + tsc_hz / 1000000 * BARRIER_SPIN_US;
	while (!released(sh, gen) && rdtsc() < until)
		__builtin_ia32_pause();
	if (released(sh, gen))
		return;
	/* Counted before the last look at gen: the releaser, which stores
	 * gen before it reads sleepers, sees us or we see its gen. */
	__atomic_add_fetch(&sh->sleepers, 1, __ATOMIC_SEQ_CST);
	while (!released(sh, gen))
		futex_wait(&sh->gen, gen);
	__atomic_sub_fetch(&sh->sleepers, 1, __ATOMIC_SEQ_CST);
}

static u64 us_of(const struct timeval *t)
{
	return (u64)t->tv_sec * 1000000 + (u64)t->tv_usec;
}

static void pass_start(void)
{
	post_pending();
	group_barrier(me.sh);
	getrusage(RUSAGE_SELF, &me.ru);
	me.slot->start = tsc_begin();
}

static void pass_stop(struct bench_pass *p, bool finished)
{
	struct group_slot *s = me.slot;
	struct rusage ru;

	s->end = tsc_end();
	getrusage(RUSAGE_SELF, &ru);
	p->rusage = true;
	p->stime_us = us_of(&ru.ru_stime) - us_of(&me.ru.ru_stime);
	p->utime_us = us_of(&ru.ru_utime) - us_of(&me.ru.ru_utime);
	s->stime_us = p->stime_us;
	s->utime_us = p->utime_us;
	s->run = p->run;
	strlcpy(s->pass, p->pass, sizeof(s->pass));
	s->finished = finished;
	s->bytes = me.cur->bytes;
	me.pending = true;
	/* As the kernel's group_end(): nobody verifies, writes records or
	 * unmaps (hugetlb_lock) while another is still timed. */
	group_barrier(me.sh);
}

/* @d's place: group_config_begin() pointed its smp at it. */
static const struct group_place *place_of(const struct bench_desc *d)
{
	return (const struct group_place *)d->smp;
}

void group_pass_begin(const struct bench_desc *d,
		      const struct bench_outcome *o)
{
	if (!member)
		return;
	me.failures = o->failures;
	pass_start();
	/* After the last pass was posted: this one is @d's. */
	me.cur = place_of(d);
}

void group_pass_end(struct bench_pass *p, const struct bench_outcome *o)
{
	if (member)
		pass_stop(p, o->failures == me.failures);
}

void group_pass_lost(const struct bench_desc *d, struct bench_pass *p)
{
	if (!member)
		return;
	pass_start();
	me.cur = place_of(d);
	pass_stop(p, false);
}

void group_config_begin(struct bench_desc *d)
{
	/* A round group holds at most ROUND_GROUP_MAX configurations, all
	 * ended before the next group begins: a ring of places serves. */
	struct group_place *pl = &me.place[me.nconfigs % ROUND_GROUP_MAX];

	if (!member)
		return;
	group_place(me.g, me.cpu, me.first_group + me.nconfigs, pl);
	pl->bytes = d->size;
	d->id = me.first_id + me.nconfigs * me.sh->n + me.index;
	d->smp = &pl->smp;
	/* Every region of the group on this CPU's LLC counts in fits_llc. */
	d->llc_regions = cpu_llc_sharers(me.cpu, &me.g->set);
	me.nconfigs++;
}

void group_config_end(const struct bench_desc *d, const struct bench_outcome *o,
		      const char *skip)
{
	const char *why = skip && skip[0] ? skip : o->first;

	if (!member)
		return;
	post_pending();
	me.cur = place_of(d);
	me.slot->auto_stop = o->auto_stop;
	me.slot->status = skip && skip[0] ? ROUND_SKIP :
			  o->failures ? ROUND_FAIL : ROUND_OK;
	strlcpy(me.slot->reason, me.slot->status == ROUND_OK ? "" : why,
		sizeof(me.slot->reason));
	post(ROUND_CONFIG);
}

/*
 * Every process's view of runs=auto's rule in, the group's out: series
 * left summed, within all of them, the longest elapsed.  The first
 * barrier makes every view visible, the second keeps each until all
 * have read it; every process reads the same and so decides alike.
 */
static bool agree(void *arg, struct auto_view *v)
{
	struct group_shm *sh = me.sh;
	struct auto_view all = { 0, true, 0 };

	(void)arg;
	me.slot->view = *v;
	group_barrier(sh);
	for (u32 i = 0; i < sh->n; i++) {
		const struct auto_view *m = &sh->slot[i].view;

		all.live += m->live;
		all.within &= m->within;
		all.elapsed = MAX(all.elapsed, m->elapsed);
	}
	group_barrier(sh);
	*v = all;
	return true;
}

static const struct bench_agree agreement = { agree, NULL };

const struct bench_agree *group_agreement(const struct hz_config *c)
{
	return member && c->runs_auto && me.sh->n > 1 ? &agreement : NULL;
}

/* Signals as they were before the parent changed them: a ^C kills the
 * process, and only the parent puts the host's settings back. */
static void plain_signals(void)
{
	sigset_t s;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	sigemptyset(&s);
	sigaddset(&s, SIGCHLD);
	sigprocmask(SIG_UNBLOCK, &s, NULL);
}

void group_proc_main(const struct group_proc *a)
{
	char err[160];

	plain_signals();
	close(a->parent_fd);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != a->parent)
		_exit(3);
	if (host_pin(a->cpu, err, sizeof(err)) < 0) {
		fprintf(stderr, "hugezero-linux: cpu %u: %s\n", a->cpu, err);
		_exit(3);
	}
	memset(&me, 0, sizeof(me));
	me.sh = a->sh;
	me.slot = &a->sh->slot[a->index];
	me.index = a->index;
	me.fd = a->fd;
	me.first_id = a->first_id;
	me.first_group = a->first_group;
	me.g = a->g;
	me.cpu = a->cpu;
	member = true;
	rec_writer_init(&records, emit_pipe, NULL);
	a->body(a->ctx);
	post_pending();
	post(ROUND_EXIT);
	_exit(0);
}

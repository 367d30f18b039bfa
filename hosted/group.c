// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpus= in the companion: the parent of a group (hosted/group.h).  It
 * forks one process per CPU and is then the only writer of standard
 * output: every process's records come to it through one pipe, whole
 * lines, and it numbers and checksums them again (rec_restamp) so that
 * the log has one gap-free sequence; after each pass it reads the
 * processes' slots and writes the agg record, after each configuration
 * the agg_summary.  A process that dies stops the group.
 */

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include "hosted/group_shm.h"
#include "lib/aggrec.h"
#include "lib/autorun.h"
#include "lib/format.h"

static u32 groups;			/* group numbers given, from 1 */
/* The groups being written: a round group's members' passes come
 * round by round, so up to ROUND_GROUP_MAX are open at once. */
static struct agg_group aggs[ROUND_GROUP_MAX];
static bool agg_open[ROUND_GROUP_MAX];
static volatile sig_atomic_t child_exited;

struct parent {
	const struct group_cpus *g;
	struct group_shm *sh;
	size_t sh_bytes;
	pid_t *pid;
	u32 *cpu;			/* the CPU of each process */
	struct agg_cpu *acpu;
	int fd;				/* the pipe's reading end */
	u32 alive, rounds, configs, failed;
	u32 first_group;
	bool broken;
	const char *refused;		/* no shared clock: why */
	size_t len;
	char buf[1 << 16];
};

void group_place(const struct group_cpus *g, u32 cpu, u32 group,
		 struct group_place *p)
{
	u32 node = cpu_node(cpu);

	/* Linux allocates on the faulting CPU's node unless told otherwise. */
	if (strcmp(g->numa, numa_names[NUMA_INTERLEAVE]) == 0)
		ksnprintf(p->mem_node, sizeof(p->mem_node), "%s",
			  numa_names[NUMA_INTERLEAVE]);
	else
		ksnprintf(p->mem_node, sizeof(p->mem_node), "%u", node);
	p->smp = (struct bench_smp){
		.cpus = g->list, .ncpus = g->n, .cpu = cpu, .node = node,
		.mem_node = p->mem_node, .numa = g->numa, .group = group,
	};
}

static void on_sigchld(int sig)
{
	(void)sig;
	child_exited = 1;
}

/* Group @group's agg, opened at its first pass; NULL when more are open
 * than a round group holds (the processes are then out of step). */
static struct agg_group *open_agg(struct parent *p, u32 group)
{
	u32 free = ROUND_GROUP_MAX;

	for (u32 i = 0; i < ROUND_GROUP_MAX; i++) {
		if (agg_open[i] && aggs[i].group == group)
			return &aggs[i];
		if (!agg_open[i] && free == ROUND_GROUP_MAX)
			free = i;
	}
	if (free == ROUND_GROUP_MAX)
		return NULL;
	agg_group_init(&aggs[free], group, p->g->list, p->g->n, AGG_US, tsc_hz);
	agg_open[free] = true;
	return &aggs[free];
}

static void close_agg(const struct agg_group *a)
{
	agg_open[a - aggs] = false;
}

static void pass_agg(struct parent *p, struct agg_group *agg)
{
	const struct group_slot *s0 = &p->sh->slot[0];
	/* Linux syncs the TSCs itself and publishes no offsets: no
	 * corrected start skew (.offsets false). */
	struct agg_pass a = { .run = s0->run, .pass = s0->pass,
			      .measured = strcmp(s0->pass, "measure") == 0,
			      .refused = p->refused, .cpu = p->acpu,
			      .n = p->g->n };

	for (u32 i = 0; i < p->g->n; i++) {
		const struct group_slot *s = &p->sh->slot[i];

		p->acpu[i] = (struct agg_cpu){
			.cpu = p->cpu[i], .finished = s->finished,
			.start = s->start, .end = s->end,
			.stime = s->stime_us, .utime = s->utime_us,
			.bytes = s->bytes,
		};
	}
	agg_rec_pass(&records, agg, &a);
}

/* The group's status: skip when its processes skipped (all do, or none),
 * fail when one failed, with that CPU's reason; with runs=auto, the rule
 * that stopped every process that did not fail. */
static void config_summary(struct parent *p, struct agg_group *agg)
{
	const char *status = "ok";
	char reason[200] = "";

	for (u32 i = 0; i < p->g->n; i++) {
		const struct group_slot *s = &p->sh->slot[i];

		if (s->auto_stop)
			agg->stopped_by = auto_stop_names[s->auto_stop];
		if (s->status == ROUND_SKIP && !reason[0]) {
			status = "skip";
			ksnprintf(reason, sizeof(reason), "%s", s->reason);
		}
		if (s->status != ROUND_FAIL)
			continue;
		p->failed++;
		if (strcmp(status, "fail") != 0) {
			status = "fail";
			ksnprintf(reason, sizeof(reason), "cpu %u: %s",
				  p->cpu[i], s->reason);
		}
	}
	agg_rec_summary(&records, agg, status, reason[0] ? reason : NULL);
	close_agg(agg);
	p->configs++;
}

static void stop_all(struct parent *p, const char *why)
{
	u32 open = 0;

	fprintf(stderr, "hugezero-linux: %s: stopping the group's processes\n",
		why);
	/* Every group open fails; none open, the next one does. */
	for (u32 i = 0; i < ROUND_GROUP_MAX && !p->broken; i++) {
		if (!agg_open[i])
			continue;
		agg_rec_summary(&records, &aggs[i], "fail", why);
		close_agg(&aggs[i]);
		open++;
	}
	if (!p->broken && !open) {
		struct agg_group *a = open_agg(p, p->first_group + p->configs);

		agg_rec_summary(&records, a, "fail", why);
		close_agg(a);
		open++;
	}
	p->failed += open;
	p->configs += open;
	p->broken = true;
	for (u32 i = 0; i < p->g->n; i++)
		if (p->pid[i] > 0)
			kill(p->pid[i], SIGKILL);
}

static void consume(struct parent *p)
{
	struct group_shm *sh = p->sh;
	const struct group_slot *s0 = &sh->slot[0];
	struct agg_group *agg = NULL;
	char why[120];

	for (u32 i = 1; i < p->g->n; i++)
		if (sh->slot[i].kind != s0->kind ||
		    sh->slot[i].group != s0->group) {
			ksnprintf(why, sizeof(why), "the processes on cpu %u "
				  "and cpu %u are out of step", p->cpu[0],
				  p->cpu[i]);
			stop_all(p, why);
			return;
		}
	if (s0->kind == ROUND_PASS || s0->kind == ROUND_CONFIG)
		agg = open_agg(p, s0->group);
	if ((s0->kind == ROUND_PASS || s0->kind == ROUND_CONFIG) && !agg) {
		stop_all(p, "more configurations open at once than a round "
			 "group holds");
		return;
	}
	if (s0->kind == ROUND_PASS)
		pass_agg(p, agg);
	else if (s0->kind == ROUND_CONFIG)
		config_summary(p, agg);
	__atomic_store_n(&sh->posted, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&sh->consumed, ++p->rounds, __ATOMIC_RELEASE);
	futex_wake(&sh->consumed);
}

static void forward(struct parent *p, const char *line)
{
	/* A stopped group's records still go out; its rounds are over. */
	if (strcmp(line, GROUP_DOORBELL) == 0) {
		if (!p->broken)
			consume(p);
	}
	else if (!rec_restamp(&records, line))
		fprintf(stderr, "hugezero-linux: a process's record came "
			"damaged, left out: %.60s\n", line);
}

/* Read what the pipe holds and forward its whole lines; false at EOF. */
static bool drain(struct parent *p)
{
	ssize_t got = read(p->fd, p->buf + p->len, sizeof(p->buf) - 1 - p->len);
	char *line = p->buf, *nl;

	if (got <= 0)
		return got < 0 && errno == EINTR;
	p->len += (size_t)got;
	p->buf[p->len] = '\0';
	while ((nl = memchr(line, '\n', (size_t)(p->buf + p->len - line)))) {
		char next = nl[1];

		nl[1] = '\0';
		forward(p, line);
		nl[1] = next;
		line = nl + 1;
	}
	p->len = (size_t)(p->buf + p->len - line);
	memmove(p->buf, line, p->len);
	if (p->len == sizeof(p->buf) - 1)
		p->len = 0;		/* no record is this long */
	return true;
}

/* A process that ended before its last round, or not by exit(0). */
static void reap(struct parent *p, int flags)
{
	for (u32 i = 0; i < p->g->n; i++) {
		char why[120];
		int st;

		if (p->pid[i] <= 0 || waitpid(p->pid[i], &st, flags) <= 0)
			continue;
		p->pid[i] = 0;
		p->alive--;
		if (WIFEXITED(st) && WEXITSTATUS(st) == 0 &&
		    p->sh->slot[i].kind == ROUND_EXIT)
			continue;
		if (WIFSIGNALED(st))
			ksnprintf(why, sizeof(why), "the process on cpu %u was "
				  "killed by signal %d", p->cpu[i], WTERMSIG(st));
		else
			ksnprintf(why, sizeof(why), "the process on cpu %u "
				  "exited early (status %d)", p->cpu[i],
				  WEXITSTATUS(st));
		if (!p->broken)
			stop_all(p, why);
	}
}

static void parent_loop(struct parent *p, const sigset_t *waitmask)
{
	struct pollfd pfd = { p->fd, POLLIN, 0 };

	for (;;) {
		int r = ppoll(&pfd, 1, NULL, waitmask);

		if (r > 0 && !drain(p))
			break;		/* every process closed its end */
		if (child_exited) {
			child_exited = 0;
			reap(p, WNOHANG);
		}
	}
	reap(p, 0);
}

static bool spawn(struct parent *p, int wfd, u32 *id, group_body body,
		  void *ctx)
{
	struct group_proc a = { p->sh, p->g, 0, 0, wfd, p->fd, getpid(),
				*id + 1, p->first_group, body, ctx };

	fflush(stdout);
	fflush(stderr);
	for (u32 i = 0; i < p->g->n; i++) {
		a.index = i;
		a.cpu = p->cpu[i];
		p->pid[i] = fork();
		if (p->pid[i] == 0)
			group_proc_main(&a);
		if (p->pid[i] < 0) {
			stop_all(p, "fork failed");
			return false;
		}
		p->alive++;
	}
	return true;
}

/* Memory for one group: freed by group_free(). */
static bool group_alloc(struct parent *p, const struct group_cpus *g)
{
	memset(p, 0, offsetof(struct parent, buf));
	p->g = g;
	p->sh_bytes = sizeof(struct group_shm) + g->n * sizeof(struct group_slot);
	p->sh = mmap(NULL, p->sh_bytes, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p->sh == MAP_FAILED)
		p->sh = NULL;
	p->pid = calloc(g->n, sizeof(*p->pid));
	p->cpu = calloc(g->n, sizeof(*p->cpu));
	/* agg_cpu is a cache line's: malloc()'s 16 bytes would not do. */
	p->acpu = aligned_alloc(_Alignof(struct agg_cpu),
				g->n * sizeof(*p->acpu));
	if (!p->sh || !p->pid || !p->cpu || !p->acpu)
		return false;
	p->sh->n = g->n;
	for (u32 i = 0; i < g->n; i++)
		p->cpu[i] = cpu_set_nth(&g->set, i, CPUSET_MAX);
	/* Starts and ends of different CPUs are compared: Linux keeps the
	 * TSC as its clock only while the CPUs' TSCs agree. */
	if (strcmp(host.clocksource, "tsc") != 0)
		p->refused = "Linux's clocksource is not tsc: the CPUs' TSCs "
			     "may not agree";
	return true;
}

static void group_free(struct parent *p)
{
	if (p->sh)
		munmap(p->sh, p->sh_bytes);
	free(p->pid);
	free(p->cpu);
	free(p->acpu);
}

u32 group_run(const struct group_cpus *g, u32 *id, group_body body, void *ctx)
{
	static struct parent p;
	struct sigaction sa = { .sa_handler = on_sigchld }, old_sa;
	sigset_t chld, old, waitmask;
	int fds[2];
	u32 failed;

	if (!group_alloc(&p, g) || pipe(fds) != 0) {
		fprintf(stderr, "hugezero-linux: no memory or pipe for a group "
			"of %u processes\n", g->n);
		group_free(&p);
		return 1;
	}
	p.fd = fds[0];
	p.first_group = groups + 1;
	memset(agg_open, 0, sizeof(agg_open));
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigaction(SIGCHLD, &sa, &old_sa);
	sigprocmask(SIG_BLOCK, &chld, &old);
	waitmask = old;
	sigdelset(&waitmask, SIGCHLD);
	spawn(&p, fds[1], id, body, ctx);
	close(fds[1]);		/* EOF once every process has exited */
	parent_loop(&p, &waitmask);
	close(fds[0]);
	sigprocmask(SIG_SETMASK, &old, NULL);
	sigaction(SIGCHLD, &old_sa, NULL);
	/* A group stopped half-way used its numbers all the same (stop_all()
	 * counted the groups it failed). */
	*id += p.configs * g->n;
	groups += p.configs;
	failed = p.failed;
	group_free(&p);
	return failed;
}

u32 group_skip(const struct group_cpus *g, struct bench_desc *d, u32 *id,
	       const char *why)
{
	struct bench_job j = {
		.w = &records,
		.d = d,
		.tsc_hz = tsc_hz,
		.net_of = tsc_overhead,
		.fault_net_of = tsc_overhead,
	};
	struct group_place pl;
	u32 group = ++groups;

	for (u32 i = 0; i < g->n; i++) {
		group_place(g, cpu_set_nth(&g->set, i, CPUSET_MAX), group, &pl);
		d->smp = &pl.smp;
		d->id = ++*id;
		companion_run_config(&j, why);
	}
	d->smp = NULL;
	agg_group_init(&aggs[0], group, g->list, g->n, AGG_US, tsc_hz);
	agg_rec_summary(&records, &aggs[0], "skip", why);
	return 0;
}

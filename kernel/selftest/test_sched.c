// SPDX-License-Identifier: GPL-2.0-only
/*
 * Self-tests: tasks and the scheduler.  Every case leaves the CPU as it
 * found it: back on the boot task, model off, interrupts masked, every
 * task it made joined.  Orders are checked by a log of events each task
 * appends to; times, where there are any, only relative to each other.
 */
#include "arch/x86_64/irqflags.h"
#include "arch/x86_64/traps.h"
#include "kernel/selftest/test_sched.h"

void log_ev(struct evlog *l, char c)
{
	if (l->n < LOG_MAX)
		l->ev[l->n++] = c;
	l->ev[l->n] = '\0';
}

bool log_is(struct tctx *t, const struct evlog *l, const char *want)
{
	u32 i = 0;

	while (want[i] && i < l->n && l->ev[i] == want[i])
		i++;
	return check(t, !want[i] && i == l->n, "events '%s', expected '%s'",
		     l->ev, want);
}

bool sched_up(struct tctx *t, enum preempt_model m)
{
	char why[64];

	if (!sched_init_cpu(cpu(), why, sizeof(why))) {
		skip(t, "%s", why);
		return false;
	}
	sched_set_model(cpu(), m, 0);
	return true;
}

void sched_down(struct tctx *t)
{
	sched_set_model(cpu(), PREEMPT_MODEL_OFF, 0);
	check(t, current_task() == &this_rq()->boot, "not on the boot task");
	check(t, !preempt_count(), "preempt_count %u left behind",
	      preempt_count());
	check(t, irqs_disabled(), "interrupts left enabled");
	check(t, !trap_set_irq_exit_hook(NULL), "irq-exit hook left behind");
}

static void sleep_wait(void)
{
	set_current_state(TASK_SLEEPING);
	schedule();
}

struct task *spawn(struct tctx *t, const char *name, void (*fn)(void *),
		   void *arg, u32 prio, bool rt)
{
	struct task *p = task_create(cpu(), name, fn, arg, prio, rt);

	check(t, p != NULL, "no memory for task %s", name);
	return p;
}

/*
 * Start each task in turn and join it: the first usually wakes the rest
 * itself, and one a wake-up never reached is started here so that none
 * is left behind.  False if one of them could not be made.
 */
bool run_tasks(struct task *const *ts, u32 n)
{
	for (u32 i = 0; i < n; i++)
		if (!ts[i])
			return false;
	for (u32 i = 0; i < n; i++) {
		wake_up(ts[i]);
		task_join(ts[i]);
	}
	return true;
}

/* Ping-pong: each side wakes the other and sleeps. */
#define ROUNDS 50

struct pingpong {
	struct evlog log;
	struct task *a, *b;
};

static void ping(void *arg)
{
	struct pingpong *pp = arg;

	for (u32 i = 0; i < ROUNDS; i++) {
		log_ev(&pp->log, 'a');
		wake_up(pp->b);
		sleep_wait();
	}
}

static void pong(void *arg)
{
	struct pingpong *pp = arg;

	for (u32 i = 0; i < ROUNDS; i++) {
		log_ev(&pp->log, 'b');
		wake_up(pp->a);
		if (i + 1 < ROUNDS)
			sleep_wait();
	}
}

static void ping_pong(struct tctx *t)
{
	struct pingpong pp = { 0 };
	struct sched_stats *st = sched_stats(cpu());
	unsigned long long n;
	u64 before;
	u32 i;

	if (!sched_up(t, PREEMPT_MODEL_NONE))
		return;
	pp.a = spawn(t, "ping", ping, &pp, PRIO_WORKLOAD, false);
	pp.b = spawn(t, "pong", pong, &pp, PRIO_WORKLOAD, false);
	before = st->switches;
	if (run_tasks((struct task *[]){ pp.a, pp.b }, 2)) {
		n = st->switches - before;
		/* boot->a, then a->b and b->a each round, a->boot at the end */
		check(t, n == 2 * ROUNDS + 2, "%llu switches, expected %u", n,
		      2 * ROUNDS + 2);
		for (i = 0; i < pp.log.n && pp.log.ev[i] == "ab"[i & 1]; i++)
			;
		check(t, i == 2 * ROUNDS && pp.log.n == 2 * ROUNDS,
		      "not alternating from event %u: '%s'", i, pp.log.ev);
		note(t, "%llu switches", n);
	}
	sched_down(t);
}

void mark_fn(void *arg)
{
	struct mark *m = arg;

	log_ev(m->log, m->c);
}

/* Highest first, rt above normal, FIFO within a priority. */
static void run_order(struct tctx *t)
{
	static const struct { char c; u32 prio; bool rt; } spec[] = {
		{ 'w', PRIO_WORKLOAD, false }, { 'p', PRIO_PROBE, false },
		{ 'x', PRIO_WORKLOAD, false }, { 'q', PRIO_PROBE, false },
		{ 'r', PRIO_WORKLOAD, true },
	};
	struct task *ts[ARRAY_SIZE(spec)];
	struct mark ms[ARRAY_SIZE(spec)];
	struct evlog log = { 0 };
	u32 i;

	if (!sched_up(t, PREEMPT_MODEL_NONE))
		return;
	for (i = 0; i < ARRAY_SIZE(spec); i++) {
		ms[i] = (struct mark){ &log, spec[i].c };
		ts[i] = spawn(t, "mark", mark_fn, &ms[i], spec[i].prio,
			      spec[i].rt);
	}
	for (i = 0; i < ARRAY_SIZE(spec); i++)
		if (ts[i])
			wake_up(ts[i]);
	for (i = 0; i < ARRAY_SIZE(spec); i++)
		if (ts[i])
			task_join(ts[i]);
	log_is(t, &log, "rpqwx");
	sched_down(t);
}

/* A low task wakes a higher one, then reaches schedule(). */
struct wake_higher {
	struct evlog log;
	struct task *hi;
	bool flagged;
};

static void low_fn(void *arg)
{
	struct wake_higher *w = arg;

	log_ev(&w->log, '1');
	wake_up(w->hi);
	w->flagged = this_rq()->need_resched;
	log_ev(&w->log, '2');
	schedule();
	log_ev(&w->log, '3');
}

static void high_fn(void *arg)
{
	struct wake_higher *w = arg;

	log_ev(&w->log, 'H');
}

static void higher_first(struct tctx *t)
{
	struct wake_higher w = { 0 };
	struct task *lo;

	if (!sched_up(t, PREEMPT_MODEL_NONE))
		return;
	lo = spawn(t, "low", low_fn, &w, PRIO_WORKLOAD, false);
	w.hi = spawn(t, "high", high_fn, &w, PRIO_PROBE, false);
	if (run_tasks((struct task *[]){ lo, w.hi }, 2)) {
		check(t, w.flagged, "waking a higher task did not set "
		      "need_resched");
		log_is(t, &w.log, "12H3");
	}
	sched_down(t);
}

/* The running task's own guard page: a #PF at its address. */
struct guard {
	u64 rv_below, rv_bottom, cr2;
	u8 *stack;
};

static void touch(void *arg)
{
	(void)*(volatile u8 *)arg;
}

static void guard_fn(void *arg)
{
	struct guard *g = arg;
	struct trap_info ti = { 0 };

	g->stack = current_task()->stack;
	g->rv_bottom = trap_try(touch, g->stack, &ti);
	g->rv_below = trap_try(touch, g->stack - 1, &ti);
	g->cr2 = ti.cr2;
}

static void stack_guard(struct tctx *t)
{
	struct guard g = { 0 };
	struct task *p;

	if (!sched_up(t, PREEMPT_MODEL_NONE))
		return;
	p = spawn(t, "guard", guard_fn, &g, PRIO_WORKLOAD, false);
	if (run_tasks(&p, 1)) {
		check(t, g.rv_bottom == 0, "the stack's lowest byte faulted");
		check(t, g.rv_below == X86_PF + 1 && g.cr2 == (u64)g.stack - 1,
		      "no #PF below the stack (trap %llu, cr2 %#llx, stack %p)",
		      (unsigned long long)g.rv_below,
		      (unsigned long long)g.cr2, g.stack);
	}
	sched_down(t);
}

/* Nesting counts; without a preemptible model the last enable does not
 * switch even with TIF_NEED_RESCHED set: only schedule() does. */
static void preempt_nesting(struct tctx *t)
{
	struct sched_stats *st = sched_stats(cpu());
	struct evlog log = { 0 };
	struct mark m = { &log, 'H' };
	struct task *hi;
	u64 before;

	if (!sched_up(t, PREEMPT_MODEL_NONE))
		return;
	check(t, !preempt_count(), "count %u at the start", preempt_count());
	preempt_disable();
	preempt_disable();
	check(t, preempt_count() == 2, "count %u after two disables",
	      preempt_count());
	hi = spawn(t, "high", mark_fn, &m, PRIO_PROBE, false);
	if (hi) {
		before = st->switches;
		wake_up(hi);
		preempt_enable();
		check(t, preempt_count() == 1, "count %u after one enable",
		      preempt_count());
		preempt_enable();
		check(t, st->switches == before && !log.n, "preempt_enable() "
		      "switched under none");
		schedule();
		log_is(t, &log, "H");
		task_join(hi);
	} else {
		preempt_enable();
		preempt_enable();
	}
	sched_down(t);
}

static void wake_other(void *arg)
{
	wake_up(arg);
}

/* Another CPU's task: a BUG before its run queue is touched (no resched
 * IPI could tell that CPU).  Its number only, so one CPU will do. */
static void wake_up_own_cpu_only(struct tctx *t)
{
	static struct task other;
	struct trap_info ti;
	u64 r;

	other = (struct task){ .name = "other", .cpu = cpu() ^ 1,
			       .state = TASK_SLEEPING };
	note(t, "a 'sched: BUG' line follows, on purpose");
	r = trap_try(wake_other, &other, &ti);
	check(t, r == X86_UD + 1, "wake_up() of cpu %u's task on cpu %u: %s%s",
	      other.cpu, cpu(), r ? "" : "no BUG",
	      r ? trap_name(r - 1) : "");
	check(t, other.state == TASK_SLEEPING && !other.on_rq,
	      "the task was woken anyway");
	check(t, irqs_disabled(), "interrupts left enabled");
}

SUITE(suite_sched, "sched",
	{ "ping_pong", ping_pong },
	{ "run_order", run_order },
	{ "higher_first", higher_first },
	{ "stack_guard", stack_guard },
	{ "preempt_nesting", preempt_nesting },
	{ "none_cond_resched", none_cond_resched },
	{ "voluntary_might_resched", voluntary_might_resched },
	{ "full_irq_exit", full_irq_exit },
	{ "lazy_normal_waits", lazy_normal_waits },
	{ "lazy_tick_upgrades", lazy_tick_upgrades },
	{ "lazy_rt_at_once", lazy_rt_at_once },
	{ "full_preempt_enable", full_preempt_enable },
	{ "full_rep_stosb", full_rep_stosb },
	{ "sleep_until_wakes", sleep_until_wakes },
	{ "lazy_user_return", lazy_user_return },
	{ "lazy_trap_return", lazy_trap_return },
	{ "wake_up_own_cpu_only", wake_up_own_cpu_only },
);

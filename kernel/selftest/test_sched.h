/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_SELFTEST_TEST_SCHED_H
#define KERNEL_SELFTEST_TEST_SCHED_H

#include "arch/x86_64/percpu.h"
#include "kernel/sched/rq.h"
#include "kernel/selftest/selftest.h"

/*
 * The sched suite's own helpers, shared by its two files: test_sched.c
 * (tasks and the run queue, and the suite's list of cases) and
 * test_preempt.c (the preemption models); test_fpu.c runs tasks with
 * them too.
 */
#define LOG_MAX 128

/* The events each task appends to, in order. */
struct evlog {
	u32 n;
	char ev[LOG_MAX + 1];
};

/* mark_fn()'s argument: the letter it logs. */
struct mark {
	struct evlog *log;
	char c;
};

static inline u32 cpu(void)
{
	return this_cpu()->cpu;
}

void log_ev(struct evlog *l, char c);
/* The log is @want exactly; a failed check if not. */
bool log_is(struct tctx *t, const struct evlog *l, const char *want);
/* This CPU's run queue under model @m (skipped if it cannot have one),
 * and back to the boot task with the model off, checked. */
bool sched_up(struct tctx *t, enum preempt_model m);
void sched_down(struct tctx *t);
struct task *spawn(struct tctx *t, const char *name, void (*fn)(void *),
		   void *arg, u32 prio, bool rt);
/* Start each of @ts and join it; false if one could not be made. */
bool run_tasks(struct task *const *ts, u32 n);
/* Each task logs its letter and exits. */
void mark_fn(void *arg);

/* test_preempt.c's cases, listed in the suite with test_sched.c's. */
void none_cond_resched(struct tctx *t);
void voluntary_might_resched(struct tctx *t);
void full_irq_exit(struct tctx *t);
void lazy_normal_waits(struct tctx *t);
void lazy_tick_upgrades(struct tctx *t);
void lazy_rt_at_once(struct tctx *t);
void full_preempt_enable(struct tctx *t);
void full_rep_stosb(struct tctx *t);
void sleep_until_wakes(struct tctx *t);
void lazy_user_return(struct tctx *t);
void lazy_trap_return(struct tctx *t);

#endif

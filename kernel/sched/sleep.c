// SPDX-License-Identifier: GPL-2.0-only
/*
 * sleep_until(): a task's own ktimer wakes it, as Linux's
 * schedule_hrtimeout() with its on-stack hrtimer_sleeper.  Until the
 * deadline: a wake_up() before it only makes the task sleep again (a
 * latency probe measures from the deadline), and a one-shot count that
 * fires a little early is armed again.
 */
#include "arch/x86_64/irqflags.h"
#include "arch/x86_64/tsc.h"
#include "kernel/sched/rq.h"

static void sleep_timer_fn(struct ktimer *kt)
{
	wake_up((struct task *)((u8 *)kt - offsetof(struct task, wake)));
}

void sleep_until(u64 deadline)
{
	struct rq *rq = this_rq();
	struct task *t = rq->curr;
	u64 flags = irq_save();

	if (rq->model == PREEMPT_MODEL_OFF)
		sched_bug("sleep_until() without a model: nothing wakes it");
	t->wake.fn = sleep_timer_fn;
	while (rdtsc() < deadline) {
		set_current_state(TASK_SLEEPING);
		if (!t->wake.armed)
			ktimer_arm(rq->cpu, &t->wake, deadline);
		schedule();
	}
	ktimer_cancel(rq->cpu, &t->wake);
	irq_restore(flags);
}

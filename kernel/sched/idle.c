// SPDX-License-Identifier: GPL-2.0-only
/*
 * The idle task, below every other (Linux's do_idle() with the HLT
 * idle routine).  It waits only under a model: without one no interrupt
 * can ever arrive to wake a task, so reaching it is a bug.
 */
#include "arch/x86_64/irqflags.h"
#include "kernel/sched/rq.h"

void idle_task_fn(void *arg)
{
	struct rq *rq = this_rq();

	(void)arg;
	for (;;) {
		irq_disable();
		while (!rq->need_resched) {
			if (rq->model == PREEMPT_MODEL_OFF)
				sched_bug("idle without a model: nothing can "
					  "wake a task");
			safe_halt();
		}
		schedule();
	}
}

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
			if (rq->idle_work && rq->idle_work(rq->idle_arg)) {
				irq_disable();
				continue;
			}
			safe_halt();
		}
		schedule();
	}
}

void sched_set_idle_work(u32 cpu, bool (*fn)(void *arg), void *arg)
{
	struct rq *rq = cpu_rq(cpu);
	u64 flags = read_rflags();

	irq_disable();
	rq->idle_arg = arg;
	rq->idle_work = fn;
	if (flags & RFLAGS_IF)
		irq_enable();
}

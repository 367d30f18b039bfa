// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scheduler's tick, from kernel/time's periodic ktimer in the timer
 * interrupt.  Linux's sched_tick() does the fair class's accounting too;
 * with fixed priorities and no time slices all that is left is the lazy
 * model's promise: a pending TIF_NEED_RESCHED_LAZY becomes
 * TIF_NEED_RESCHED, so a kernel-mode hog is preempted within a tick.
 */
#include "kernel/sched/rq.h"
#include "kernel/time/timer.h"
#include "lib/printk.h"

static void sched_tick(void)
{
	struct rq *rq = this_rq();

	if (model_lazy(rq->model) && rq->need_resched_lazy) {
		rq->stats.lazy_ticks++;
		resched_curr(rq);
	}
}

bool sched_tick_start(struct rq *rq, u32 hz)
{
	char why[96];

	if (!tick_start(rq->cpu, hz, sched_tick, why, sizeof(why))) {
		printk("sched: cpu %u: no tick: %s\n", rq->cpu, why);
		return false;
	}
	rq->hz = hz;
	return true;
}

void sched_tick_stop(struct rq *rq)
{
	if (rq->hz)
		tick_stop(rq->cpu);
	rq->hz = 0;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The preemption models: preempt_count, the reschedule points and what
 * each model makes of them.  Linux switches models by patching static
 * calls (sched_dynamic_update()); here one table, read per call, says the
 * same thing:
 *
 *              cond_resched    might_resched   preempt_schedule  irq exit  lazy
 *   none       __cond_resched  RET0            NOP               NOP       no
 *   voluntary  __cond_resched  __cond_resched  NOP               NOP       no
 *   full       RET0            RET0            preempt_schedule  resched   no
 *   lazy       RET0            RET0            preempt_schedule  resched   yes
 *
 * ("irq exit": irqentry_exit_cond_resched(), "lazy": dynamic_preempt_lazy().)
 *
 * PREEMPT_MODEL_OFF is none of them: no task but the caller, every hook
 * a plain call that finds nothing to do.
 */
#include "arch/x86_64/irqflags.h"
#include "kernel/sched/rq.h"

static const struct model_calls {
	bool cond_resched, might_resched, preempt, lazy;
} calls[] = {
	[PREEMPT_MODEL_OFF]		= { false, false, false, false },
	[PREEMPT_MODEL_NONE]		= { true, false, false, false },
	[PREEMPT_MODEL_VOLUNTARY]	= { true, true, false, false },
	[PREEMPT_MODEL_FULL]		= { false, false, true, false },
	[PREEMPT_MODEL_LAZY]		= { false, false, true, true },
};

bool model_cond_resched(enum preempt_model m)
{
	return calls[m].cond_resched;
}

bool model_might_resched(enum preempt_model m)
{
	return calls[m].might_resched;
}

bool model_preemptible(enum preempt_model m)
{
	return calls[m].preempt;
}

bool model_lazy(enum preempt_model m)
{
	return calls[m].lazy;
}

u32 preempt_count(void)
{
	return this_rq()->preempt_count;
}

void preempt_disable(void)
{
	this_rq()->preempt_count++;
	barrier();
}

/* Entered preemptible; interrupts on again when it returns. */
static void preempt_schedule_common(struct rq *rq, enum sched_mode mode)
{
	do {
		rq->preempt_count++;
		__schedule(rq, mode);
		rq->preempt_count--;
		irq_enable();
	} while (rq->need_resched);
}

/* preempt_schedule(): nothing unless preemptible() -- count 0, IF set. */
static void preempt_schedule(struct rq *rq)
{
	if (!rq->preempt_count && !irqs_disabled())
		preempt_schedule_common(rq, SM_PREEMPT);
}

/* Only TIF_NEED_RESCHED counts (x86 folds just that bit into the count). */
static inline void count_sub_resched(struct rq *rq, u32 n)
{
	barrier();
	rq->preempt_count -= n;
	if (!rq->preempt_count && rq->need_resched &&
	    model_preemptible(rq->model))
		preempt_schedule(rq);
}

void preempt_enable(void)
{
	count_sub_resched(this_rq(), 1);
}

/* __local_bh_disable_ip(): the count raised, nothing else (no lockdep). */
void local_bh_disable(void)
{
	this_rq()->preempt_count += SOFTIRQ_DISABLE_OFFSET;
	barrier();
}

/* __local_bh_enable_ip(): no softirq is ever pending, so it is the
 * count's drop and preempt_check_resched(). */
void local_bh_enable(void)
{
	count_sub_resched(this_rq(), SOFTIRQ_DISABLE_OFFSET);
}

/*
 * From the return of an interrupt to preemptible kernel code, interrupts
 * off.  Linux enables them around __schedule() (which disables them for
 * the rq lock) and disables them again before returning to the entry
 * code; so does this.
 */
void preempt_schedule_irq(struct rq *rq)
{
	if (rq->preempt_count || !irqs_disabled())
		sched_bug("preempt_schedule_irq() not from an interrupt exit");
	do {
		rq->preempt_count++;
		irq_enable();
		__schedule(rq, SM_IRQ);
		irq_disable();
		rq->preempt_count--;
	} while (rq->need_resched);
}

/*
 * should_resched(0) && !irqs_disabled(), as Linux: with interrupts off
 * the switch would turn them on behind the caller's back.  The fault
 * path enables them under a model, as Linux's #PF handler does, so its
 * cond_resched() switches there.
 */
static void __cond_resched(struct rq *rq)
{
	if (!rq->preempt_count && rq->need_resched && !irqs_disabled())
		preempt_schedule_common(rq, SM_COND);
}

/* noinline: the call itself is part of what a resched point costs. */
__attribute__((noinline)) void cond_resched(void)
{
	struct rq *rq = this_rq();

	if (model_cond_resched(rq->model))
		__cond_resched(rq);
	barrier();
}

void might_resched(void)
{
	struct rq *rq = this_rq();

	if (model_might_resched(rq->model))
		__cond_resched(rq);
}

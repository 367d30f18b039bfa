// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scheduler's half of the return from an interrupt, Linux's
 * irqentry_exit() (kernel/entry/common.c): registered with traps.c, it
 * runs after the handler, before the IRET, interrupts off, with the
 * interrupted context's frame.
 */
#include "arch/x86_64/irqflags.h"
#include "arch/x86_64/traps.h"
#include "arch/x86_64/user.h"
#include "kernel/sched/fpu.h"
#include "kernel/sched/rq.h"

/*
 * exit_to_user_mode_loop(): on the way to ring 3 either flag reschedules,
 * under every model -- user code holds nothing a switch could break.
 */
static void exit_to_user_mode_loop(struct rq *rq)
{
	while (rq->need_resched || rq->need_resched_lazy) {
		irq_enable();
		schedule();
		irq_disable();
	}
}

/* raw_irqentry_exit_cond_resched(), a NOP unless the model preempts. */
static void irqentry_exit_cond_resched(struct rq *rq)
{
	if (model_preemptible(rq->model) && !rq->preempt_count &&
	    rq->need_resched)
		preempt_schedule_irq(rq);
}

/*
 * To kernel code only if it ran with interrupts on (regs_irqs_disabled())
 * and was not the idle task: Linux's entry from idle sets exit_rcu, which
 * skips the preemption -- do_idle() notices need_resched itself.
 */
static void irqentry_exit_sched(struct rq *rq, struct regs *r)
{
	if (rq->model == PREEMPT_MODEL_OFF)
		return;
	if (r->cs & 3)
		exit_to_user_mode_loop(rq);
	else if ((r->rflags & RFLAGS_IF) && rq->curr != rq->idle)
		irqentry_exit_cond_resched(rq);
}

/*
 * Then, to user code, arch_exit_to_user_mode_prepare(): the user's FPU
 * registers loaded if a kernel_fpu_begin() or a switch saved them
 * (TIF_NEED_FPU_LOAD).  User code is ring 3, or the workload's own code
 * at CPL 0 (user_code()), where scheduling stays that of kernel code.
 */
void sched_irq_exit(struct regs *r)
{
	struct rq *rq = this_rq();

	if (!rq->ready)
		return;
	irqentry_exit_sched(rq, r);
	if (rq->curr->need_fpu_load && user_code(r))
		switch_fpu_return();
}

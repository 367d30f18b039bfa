// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel SIMD and a user's FPU registers (fpu.h).  Linux's per-task
 * struct fpu is task->fpstate and task->need_fpu_load; its per-CPU
 * kernel_fpu_allowed and fpu_fpregs_owner_ctx are the run queue's
 * in_kernel_fpu and fpregs_owner.  Tasks never migrate, so Linux's
 * fpu->last_cpu, the other half of fpregs_state_valid(), is always this
 * CPU.  Saves and restores are counted (sched_stats()).
 */
#include "arch/x86_64/fpu.h"
#include "arch/x86_64/irqflags.h"
#include "kernel/sched/fpu.h"
#include "kernel/sched/rq.h"
#include "lib/string.h"

/* save_fpregs_to_fpstate(), the flag set first as Linux does. */
static void save_user(struct rq *rq, struct task *t)
{
	t->need_fpu_load = true;
	fpu_save(t->fpstate);
	rq->stats.fpu_saves++;
}

/* kernel_fpu_begin_mask(KFPU_MXCSR): x86-64's kernel_fpu_begin(). */
void kernel_fpu_begin(void)
{
	struct rq *rq = this_rq();
	struct task *t = rq->curr;

	if (!irqs_disabled())
		local_bh_disable();		/* fpregs_lock() */
	if (rq->in_kernel_fpu)
		sched_bug("kernel_fpu_begin() inside kernel_fpu_begin()");
	rq->in_kernel_fpu = true;
	/* Before sched_init_cpu() there is no task, so nothing to keep. */
	if (rq->ready && t->fpstate && !t->need_fpu_load)
		save_user(rq, t);
	rq->fpregs_owner = NULL;	/* __cpu_invalidate_fpregs_state() */
	if (fpu_current() != FPU_NONE)
		fpu_ldmxcsr(MXCSR_DEFAULT);
}

void kernel_fpu_end(void)
{
	struct rq *rq = this_rq();

	if (!rq->in_kernel_fpu)
		sched_bug("kernel_fpu_end() without kernel_fpu_begin()");
	rq->in_kernel_fpu = false;
	if (!irqs_disabled())
		local_bh_enable();		/* fpregs_unlock() */
}

/* The saved registers stay in the CPU too: @prev still owns them, and
 * its return to user code loads nothing unless someone used them. */
void switch_fpu(struct rq *rq, struct task *prev)
{
	if (prev->fpstate && !prev->need_fpu_load)
		save_user(rq, prev);
}

void switch_fpu_return(void)
{
	struct rq *rq = this_rq();
	struct task *t = rq->curr;

	if (!rq->ready || !t->need_fpu_load)
		return;
	if (rq->fpregs_owner != t) {	/* !fpregs_state_valid() */
		fpu_restore(t->fpstate);
		rq->fpregs_owner = t;	/* fpregs_activate() */
		rq->stats.fpu_restores++;
	}
	t->need_fpu_load = false;
}

void fpu_user_attach(void *area)
{
	struct rq *rq = this_rq();

	if (!rq->ready)
		sched_bug("fpu_user_attach() before sched_init_cpu()");
	memset(area, 0, fpu_area_size());
	rq->curr->fpstate = area;
	rq->curr->need_fpu_load = false;
	rq->fpregs_owner = rq->curr;
}

void fpu_user_detach(void)
{
	struct rq *rq = this_rq();
	u64 flags;

	if (!rq->ready)
		return;
	flags = irq_save();
	switch_fpu_return();
	rq->curr->fpstate = NULL;
	if (rq->fpregs_owner == rq->curr)
		rq->fpregs_owner = NULL;
	irq_restore(flags);
}

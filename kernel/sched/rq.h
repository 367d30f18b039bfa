/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_SCHED_RQ_H
#define KERNEL_SCHED_RQ_H

#include "arch/x86_64/percpu.h"
#include "kernel/sched/sched.h"

/*
 * One CPU's scheduler state, as Linux's struct rq.  Linux keeps
 * TIF_NEED_RESCHED{,_LAZY} in the running task's thread_info and clears
 * them on every switch; only the current task ever carries them, so here
 * they live with the CPU.  Everything is changed with interrupts off (the
 * rq lock's irqsave): a wake-up may come from a timer interrupt.  Lines
 * of its own: preempt_count and the flags change inside timed faults.
 */
struct rq {
	u32 cpu;
	bool ready;
	enum preempt_model model;
	u32 hz;				/* of its tick; 0: none */
	u32 preempt_count;
	bool need_resched;		/* TIF_NEED_RESCHED */
	bool need_resched_lazy;		/* TIF_NEED_RESCHED_LAZY */
	struct task *curr;
	struct task *idle;
	struct task *queue;		/* runnable, not running; best first */
	struct task boot;		/* whoever called sched_init_cpu() */
	/* fpu.c: kernel_fpu_begin()..end() running (Linux's inverted
	 * kernel_fpu_allowed), and whose registers the CPU holds
	 * (fpu_fpregs_owner_ctx; NULL: nobody's, kernel SIMD used them) */
	bool in_kernel_fpu;
	struct task *fpregs_owner;
	/* Work the idle task does instead of halting, or NULL */
	bool (*idle_work)(void *arg);
	void *idle_arg;
	struct sched_stats stats;
} __aligned(64);

struct rq *cpu_rq(u32 cpu);

static inline struct rq *this_rq(void)
{
	return cpu_rq(this_cpu()->cpu);
}

/* How __schedule() was reached (Linux's sched_mode); every mode but
 * SM_NONE is a preemption: the task stays runnable whatever its state. */
enum sched_mode {
	SM_NONE,	/* schedule(): a sleeping task leaves the run queue */
	SM_PREEMPT,	/* preempt_schedule(): it stays, whatever its state */
	SM_IRQ,		/* preempt_schedule_irq(): counted as a preemption */
	SM_COND,	/* __cond_resched(): counted as a resched call */
};

/* core.c: pick the next task and switch to it, with preempt_count() 1;
 * returns with interrupts off, true if it switched. */
bool __schedule(struct rq *rq, enum sched_mode mode);
void resched_curr(struct rq *rq);
void resched_curr_lazy(struct rq *rq);
void enqueue_task(struct rq *rq, struct task *t);

/* preempt.c: what the model makes of each hook (Linux's static calls). */
bool model_cond_resched(enum preempt_model m);
bool model_might_resched(enum preempt_model m);
bool model_preemptible(enum preempt_model m);	/* preempt_schedule, irq exit */
bool model_lazy(enum preempt_model m);
void preempt_schedule_irq(struct rq *rq);

/* fpu.c: switch_fpu(), from context_switch() before the stacks swap. */
void switch_fpu(struct rq *rq, struct task *prev);

/* tick.c: the model's tick, hz = 0 for none. */
bool sched_tick_start(struct rq *rq, u32 hz);
void sched_tick_stop(struct rq *rq);

/* entry.c: traps.c's irq-exit hook. */
struct regs;
void sched_irq_exit(struct regs *r);

/* idle.c */
void idle_task_fn(void *arg);

/* BUG(): a state the scheduler cannot continue from. */
__noreturn void sched_bug(const char *why);

#endif

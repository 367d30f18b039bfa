/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_SCHED_SCHED_H
#define KERNEL_SCHED_SCHED_H

#include "lib/preempt.h"
#include "lib/types.h"
#include "kernel/time/timer.h"

/*
 * Tasks and a per-CPU scheduler with Linux's preemption models
 * (docs/sched.md maps each piece to the Linux function it mirrors).
 *
 * Without a model (the default, and every configuration that names none)
 * nothing here runs: no tick, interrupts masked, cond_resched() a call
 * that finds nothing to do: the benchmark as it is measured alone.
 */

/* Priorities, highest runs: the probe above the workload, idle below all.
 * A real-time task is one whose wake-up preempts at once under lazy too. */
enum task_prio { PRIO_IDLE = 0, PRIO_WORKLOAD = 10, PRIO_PROBE = 20 };

enum task_state { TASK_RUNNABLE, TASK_SLEEPING, TASK_DEAD };

struct task {
	const char *name;
	u32 cpu;
	u32 prio;
	bool rt;			/* SCHED_FIFO-like class */
	enum task_state state;
	u64 rsp;			/* saved by the context switch */
	u8 *stack;			/* kernel stack, an unmapped guard below */
	u64 stack_size;
	u64 rsp0;			/* TSS.rsp0 while it runs */
	u64 *pml4;			/* its address space; NULL: any (lazy TLB) */
	struct ktimer wake;		/* sleep_until() */
	void (*entry)(void *arg);
	void *arg;
	struct task *next;		/* run queue link */
	bool on_rq;			/* queued (Linux's p->on_rq) */
	struct task *joiner;		/* task_join() sleeping on it */
	u64 switches_in;
	/* A user's FPU registers (kernel/sched/fpu.h): where they are kept
	 * when saved; NULL for a kernel task, which has none (PF_KTHREAD). */
	void *fpstate;
	bool need_fpu_load;		/* TIF_NEED_FPU_LOAD */
	/* order=tree: the context of the tree's code it is running, if
	 * any (lib/tree.h) */
	struct tree_ctx *tree_ctx;
};

struct sched_stats {
	u64 switches;			/* context switches on this CPU */
	u64 preemptions;		/* of them, on return from an interrupt */
	u64 resched_calls;		/* cond_/might_resched() that switched */
	u64 lazy_ticks;			/* ticks that made a lazy request due */
	u64 fpu_saves;			/* a user's FPU registers saved */
	u64 fpu_restores;		/* ... and loaded again */
};

/* The calling context becomes CPU @cpu's first task; an idle task is made. */
bool sched_init_cpu(u32 cpu, char *why, size_t n);
/* With @hz (100, 250 or 1000) a tick calls sched_tick(), 0 for none;
 * false (and printed) when the tick cannot start.  Interrupts are the
 * caller's to enable. */
bool sched_set_model(u32 cpu, enum preempt_model m, u32 hz);
/* A new task is stopped, as after kthread_create(): wake_up() starts it.
 * It runs fn(arg) with interrupts as the switch left them (off), then
 * task_exit(). */
struct task *task_create(u32 cpu, const char *name, void (*fn)(void *),
			 void *arg, u32 prio, bool rt);
/* What one task_create() takes from the frame allocator at most: its
 * task, its stack and a page table where the stack's window needs one. */
u64 task_create_bytes(void);
__noreturn void task_exit(void);
/* Wait until @t has exited, then free it (kthread_stop()'s wait and the
 * last put_task_struct()): a task's memory has no other owner. */
void task_join(struct task *t);
struct task *current_task(void);
/* order=tree's context slots are the running task's (lib/tree.h), or the
 * CPU's before it has one: registered once, at boot. */
void sched_tree_slots(void);
/* The calling task now runs in @pml4 (NULL: whatever is loaded), so a
 * switch back to it loads it again. */
void sched_set_space(u64 *pml4);
/* Linux's set_current_state(): TASK_SLEEPING then schedule() blocks until
 * a wake_up(); a wake-up in between makes the schedule() return at once. */
void set_current_state(enum task_state s);

void schedule(void);
/* Only on @t's own CPU: another CPU's task is a BUG (no resched IPI). */
void wake_up(struct task *t);
/* Sleep until TSC time @deadline has passed (the task's ktimer wakes it;
 * an earlier wake_up() does not end the sleep).  Needs a model. */
void sleep_until(u64 deadline);

void preempt_disable(void);
void preempt_enable(void);
u32 preempt_count(void);
/*
 * local_bh_disable()/local_bh_enable(), as fpregs_lock() uses them:
 * SOFTIRQ_DISABLE_OFFSET in the count, so preemption stops as Linux's
 * does; the enable reschedules as preempt_enable().  There are no
 * softirqs here, so none is ever run on the enable.
 */
#define SOFTIRQ_DISABLE_OFFSET	0x200	/* 2 * SOFTIRQ_OFFSET (1 << 8) */
void local_bh_disable(void);
void local_bh_enable(void);

/* Linux's cond_resched(): a reschedule point under none and voluntary, a
 * no-op under full and lazy; a plain call with no model. */
void cond_resched(void);
/* might_resched(), inside might_sleep(): a reschedule point under
 * voluntary only (the fault path's allocation). */
void might_resched(void);

struct sched_stats *sched_stats(u32 cpu);

/*
 * What CPU @cpu's idle task does instead of halting (FreeBSD's idle
 * zeroing, Windows' zero-page thread): @fn, called with interrupts off,
 * does one unit and returns true, or false for none to do (then it
 * halts).  NULL: halt.  The idle task looks for a task to run between
 * units; @fn may enable interrupts and take resched points within one.
 */
void sched_set_idle_work(u32 cpu, bool (*fn)(void *arg), void *arg);

#endif

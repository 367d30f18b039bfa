// SPDX-License-Identifier: GPL-2.0-only
/*
 * The per-CPU scheduler: run queues, __schedule(), wake-ups and the
 * resched flags, as Linux's kernel/sched/core.c with two classes -- rt
 * above normal -- of fixed priorities, FIFO within a priority.  What
 * each preemption model makes of the flags is in preempt.c.
 */
#include "arch/x86_64/spinlock.h"
#include "arch/x86_64/irqflags.h"
#include "arch/x86_64/paging.h"
#include "arch/x86_64/switch.h"
#include "arch/x86_64/traps.h"
#include "kernel/bug.h"
#include "kernel/sched/rq.h"
#include "kernel/watch.h"
#include "lib/format.h"
#include "lib/tree.h"

static struct rq runqueues[MAX_CPUS];

struct rq *cpu_rq(u32 cpu)
{
	return &runqueues[cpu];
}

__noreturn void sched_bug(const char *why)
{
	bug("sched", "%s", why);
}

/* Does @a run before @b?  The rt class first, then the higher priority. */
static bool runs_before(const struct task *a, const struct task *b)
{
	if (a->rt != b->rt)
		return a->rt;
	return a->prio > b->prio;
}

/* @head: ahead of its equals, where SCHED_FIFO keeps a preempted task;
 * else behind them, where a woken one goes. */
static void insert(struct rq *rq, struct task *t, bool head)
{
	struct task **pp = &rq->queue;

	while (*pp && (head ? runs_before(*pp, t) : !runs_before(t, *pp)))
		pp = &(*pp)->next;
	t->next = *pp;
	*pp = t;
	t->on_rq = true;
}

void enqueue_task(struct rq *rq, struct task *t)
{
	insert(rq, t, false);
}

static struct task *pick_next_task(struct rq *rq, struct task *prev,
				   enum sched_mode mode)
{
	bool stays = prev->state == TASK_RUNNABLE ||
		     (mode != SM_NONE && prev->state == TASK_SLEEPING);
	struct task *next;

	if (stays && prev != rq->idle)
		insert(rq, prev, true);
	next = rq->queue;
	if (!next)
		return rq->idle;
	rq->queue = next->next;
	next->next = NULL;
	next->on_rq = false;
	return next;
}

/*
 * What belongs to the CPU rather than the stack: a user's FPU registers
 * (__switch_to()'s switch_fpu(): saved unless already in memory), and
 * TSS.rsp0, saved as well as loaded: user_run() moves it below its own
 * frames, and a task switched out while in ring 3 must come back to that
 * value.  A task without an address space of its own borrows the last
 * one (Linux's lazy TLB for kernel threads): every PML4 shares the
 * kernel half.
 */
static void context_switch(struct task *prev, struct task *next)
{
	struct percpu *pc = this_cpu();

	switch_fpu(cpu_rq(pc->cpu), prev);
	prev->rsp0 = pc->tss.rsp0;
	pc->tss.rsp0 = next->rsp0;
	if (next->pml4) {
		u64 cr3 = virt_to_phys(next->pml4);

		if (cr3 != read_cr3())
			write_cr3(cr3);
	}
	switch_stack(&prev->rsp, next->rsp);
}

void sched_set_space(u64 *pml4)
{
	if (cpu_rq(this_cpu()->cpu)->curr)
		cpu_rq(this_cpu()->cpu)->curr->pml4 = pml4;
}

bool __schedule(struct rq *rq, enum sched_mode mode)
{
	struct task *prev, *next;

	irq_disable();
	prev = rq->curr;
	next = pick_next_task(rq, prev, mode);
	/* clear_tsk_need_resched(): both flags, whoever runs next. */
	rq->need_resched = false;
	rq->need_resched_lazy = false;
	if (next == prev)
		return false;
	rq->stats.switches++;
	rq->stats.preemptions += mode == SM_IRQ;
	rq->stats.resched_calls += mode == SM_COND;
	next->switches_in++;
	rq->curr = next;
	context_switch(prev, next);
	return true;
}

void schedule(void)
{
	struct rq *rq = this_rq();
	u64 flags = irq_save();

	if (!rq->ready)
		sched_bug("schedule() before sched_init_cpu()");
	if (rq->preempt_count)
		sched_bug("scheduling while atomic");
	do {
		rq->preempt_count++;
		__schedule(rq, SM_NONE);
		rq->preempt_count--;
	} while (rq->need_resched);
	irq_restore(flags);
}

/* __resched_curr(): the idle task is always preempted at once; a pending
 * TIF_NEED_RESCHED makes a lazy request moot. */
static void __resched_curr(struct rq *rq, bool lazy)
{
	if (rq->curr == rq->idle)
		lazy = false;
	if (rq->need_resched || (lazy && rq->need_resched_lazy))
		return;
	if (lazy)
		rq->need_resched_lazy = true;
	else
		rq->need_resched = true;
}

void resched_curr(struct rq *rq)
{
	__resched_curr(rq, false);
}

/* Lazy only under the lazy model (get_lazy_tif_bit()). */
void resched_curr_lazy(struct rq *rq)
{
	__resched_curr(rq, model_lazy(rq->model));
}

/*
 * wakeup_preempt(): a class above the current one preempts at once; in
 * the same class a higher priority does, lazily for the normal class
 * (fair's resched_curr_lazy()), at once for rt (wakeup_preempt_rt()).
 */
static void wakeup_preempt(struct rq *rq, struct task *p)
{
	struct task *curr = rq->curr;

	if (curr == rq->idle || (p->rt && !curr->rt))
		resched_curr(rq);
	else if (p->rt == curr->rt && p->prio > curr->prio)
		p->rt ? resched_curr(rq) : resched_curr_lazy(rq);
}

/*
 * try_to_wake_up().  Only this CPU's tasks: a wake-up of another CPU's
 * task would need its run queue's lock and the resched IPI
 * (VEC_RESCHEDULE), and neither exists, so it is a BUG, not a silent
 * change to another CPU's queue.  The preempt_disable()/preempt_enable()
 * pair is Linux's too: under full and lazy the preempt_enable() switches
 * at once when the wake-up set TIF_NEED_RESCHED and interrupts are on.
 */
void wake_up(struct task *t)
{
	struct rq *rq = cpu_rq(t->cpu);
	u64 flags;

	if (t->cpu != this_cpu()->cpu)
		bug("sched", "wake_up() of task '%s' of cpu %u: only its own "
		    "CPU may wake it", t->name, t->cpu);
	preempt_disable();
	flags = irq_save();
	if (t->state == TASK_SLEEPING) {
		t->state = TASK_RUNNABLE;
		if (t != rq->curr && !t->on_rq)
			enqueue_task(rq, t);
		if (t != rq->curr)
			wakeup_preempt(rq, t);
	}
	irq_restore(flags);
	preempt_enable();
}

void set_current_state(enum task_state s)
{
	this_rq()->curr->state = s;
	barrier();
}

struct task *current_task(void)
{
	return this_rq()->curr;
}

static struct tree_ctx **tree_slot(void)
{
	static struct tree_ctx *cpu_slot[MAX_CPUS];
	struct task *t = current_task();

	return t ? &t->tree_ctx : &cpu_slot[this_cpu()->cpu];
}

void sched_tree_slots(void)
{
	tree_slot_register(tree_slot);
}

struct sched_stats *sched_stats(u32 cpu)
{
	return &cpu_rq(cpu)->stats;
}

/*
 * The irq-exit hook is there only while some CPU has a model (a static
 * key's count): without one every trap returns exactly as before.
 */
static u32 cpus_with_model;
/* CPUs turn models on and off at once: count and hook change together. */
static struct spinlock model_lock = SPINLOCK_INIT;

static void count_model(enum preempt_model from, enum preempt_model to)
{
	bool was = from != PREEMPT_MODEL_OFF, is = to != PREEMPT_MODEL_OFF;

	spin_lock_watched(&model_lock, NULL, "for the scheduler's model lock");
	if (is && !was && !cpus_with_model++)
		trap_set_irq_exit_hook(sched_irq_exit);
	if (was && !is && !--cpus_with_model)
		trap_set_irq_exit_hook(NULL);
	spin_unlock(&model_lock);
}

bool sched_set_model(u32 cpu, enum preempt_model m, u32 hz)
{
	struct rq *rq = cpu_rq(cpu);
	u64 flags = irq_save();
	bool ok = true;

	sched_tick_stop(rq);
	count_model(rq->model, m);
	rq->model = m;
	if (m != PREEMPT_MODEL_OFF && hz)
		ok = sched_tick_start(rq, hz);
	irq_restore(flags);
	return ok;
}

/* The boot context keeps the CPU's own stack and whatever TSS.rsp0 says. */
static void init_boot_task(struct rq *rq, u32 cpu)
{
	struct percpu *pc = this_cpu();
	struct task *t = &rq->boot;

	t->name = "boot";
	t->cpu = cpu;
	t->prio = PRIO_WORKLOAD;
	t->state = TASK_RUNNABLE;
	t->stack = pc->stacks->kernel;
	t->stack_size = sizeof(pc->stacks->kernel);
	t->rsp0 = pc->tss.rsp0;
	/* Whatever it runs in now is its own (the benchmark's workload
	 * space, say): a switch back must load it again. */
	t->pml4 = phys_to_virt(read_cr3() & PTE_ADDR);
	rq->curr = t;
}

bool sched_init_cpu(u32 cpu, char *why, size_t n)
{
	struct rq *rq = cpu_rq(cpu);

	if (rq->ready)
		return true;
	rq->cpu = cpu;
	init_boot_task(rq, cpu);
	rq->idle = task_create(cpu, "idle", idle_task_fn, NULL, PRIO_IDLE,
			       false);
	if (!rq->idle) {
		ksnprintf(why, n, "no memory for the idle task");
		return false;
	}
	/* Never queued: picked when nothing else is runnable. */
	rq->idle->state = TASK_RUNNABLE;
	rq->ready = true;
	return true;
}

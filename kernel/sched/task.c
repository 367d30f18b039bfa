// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel tasks: a descriptor in a 4K frame, a stack with a guard page
 * below, and a first switch frame that enters task_launch() through
 * arch/x86_64/switch.asm's trampoline.
 */
#include "arch/x86_64/irqflags.h"
#include "arch/x86_64/paging.h"
#include "arch/x86_64/switch.h"
#include "kernel/mm/kstack.h"
#include "kernel/mm/memory.h"
#include "kernel/sched/rq.h"
#include "lib/string.h"

#define TASK_STACK_SIZE	(16 * KiB)	/* x86-64's THREAD_SIZE */

_Static_assert(sizeof(struct task) <= SZ_4K, "a task fits its frame");

/* schedule_tail() and kthread(): the switch's preempt_disable() ends
 * here; interrupts stay as the switch left them. */
static void task_launch(struct task *t)
{
	cpu_rq(t->cpu)->preempt_count--;
	t->entry(t->arg);
	task_exit();
}

/* RSP 16-byte aligned after the trampoline's pop of ret, a zero word
 * above it and RBP zero, so a backtrace ends here. */
static void init_switch_frame(struct task *t)
{
	u64 top = (u64)t->stack + t->stack_size;
	struct switch_frame *f = (struct switch_frame *)(top - 16 - sizeof(*f));

	memset(f, 0, sizeof(*f));
	f->r12 = (u64)t;
	f->r13 = (u64)task_launch;
	f->ret = (u64)switch_trampoline;
	t->rsp = (u64)f;
	t->rsp0 = top;
}

struct task *task_create(u32 cpu, const char *name, void (*fn)(void *),
			 void *arg, u32 prio, bool rt)
{
	u64 pa = frame_alloc(SZ_4K);
	struct task *t;

	if (pa == FRAME_NONE)
		return NULL;
	t = phys_to_virt(pa);
	memset(t, 0, sizeof(*t));
	t->stack = kstack_alloc(TASK_STACK_SIZE);
	if (!t->stack) {
		frame_free(pa, SZ_4K);
		return NULL;
	}
	t->stack_size = TASK_STACK_SIZE;
	t->name = name;
	t->cpu = cpu;
	t->prio = prio;
	t->rt = rt;
	t->entry = fn;
	t->arg = arg;
	t->state = TASK_SLEEPING;
	init_switch_frame(t);
	return t;
}

u64 task_create_bytes(void)
{
	return SZ_4K + TASK_STACK_SIZE + SZ_4K;
}

/* do_task_dead(): never picked again; task_join() frees it. */
__noreturn void task_exit(void)
{
	struct rq *rq = this_rq();
	struct task *t = rq->curr;

	irq_disable();
	if (t == &rq->boot || t == rq->idle)
		sched_bug("task_exit() by the boot or the idle task");
	rq->preempt_count++;
	t->state = TASK_DEAD;
	if (t->joiner)
		wake_up(t->joiner);
	__schedule(rq, SM_NONE);
	sched_bug("a dead task ran again");
}

void task_join(struct task *t)
{
	u64 flags = irq_save();

	while (t->state != TASK_DEAD) {
		t->joiner = current_task();
		set_current_state(TASK_SLEEPING);
		schedule();
	}
	irq_restore(flags);
	kstack_free(t->stack, t->stack_size);
	frame_free(virt_to_phys(t), SZ_4K);
}

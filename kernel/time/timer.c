// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-CPU time events on the one-shot LAPIC timer, as Linux's hrtimers on
 * a clockevent device: a list of ktimers by deadline, the hardware armed
 * for its head (hrtimer_reprogram(), clockevents_program_event()).  The
 * periodic tick is a ktimer of its own that moves itself one period on,
 * as tick_sched_timer() does, so "the earliest of the next tick and the
 * earliest timer" is simply the head of the list.
 */
#include "arch/x86_64/apic.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/pic.h"
#include "arch/x86_64/traps.h"
#include "arch/x86_64/tsc.h"
#include "kernel/bug.h"
#include "kernel/time/timer.h"
#include "kernel/timebase.h"
#include "lib/format.h"

#define ARMED_UNKNOWN	(~0ULL)	/* after an interrupt: rewrite */

/* Lines of its own: the tick's interrupt writes it inside timed parts. */
struct timer_cpu {
	bool up;
	bool in_irq;		/* the handler arms once, on its way out */
	u64 armed;		/* deadline in the hardware; 0: disarmed */
	struct ktimer *head;
	struct ktimer tick;
	u64 period;		/* of the tick, TSC ticks; 0: no tick */
	void (*tick_fn)(void);
	struct lapic_info apic;
	struct irq_stats stats;
} __aligned(64);

static struct timer_cpu timer_cpus[MAX_CPUS];

static struct timer_cpu *this_timer(void)
{
	return &timer_cpus[this_cpu()->cpu];
}

static void program(struct timer_cpu *tc)
{
	u64 want = tc->head ? tc->head->deadline : 0;

	if (tc->in_irq || want == tc->armed)
		return;
	tc->armed = want;
	lapic_timer_arm(want);
}

static void enqueue(struct timer_cpu *tc, struct ktimer *t, u64 deadline)
{
	struct ktimer **p = &tc->head;

	/* 0 would mean "disarmed" to the hardware: the past is 1 as well. */
	t->deadline = deadline ? deadline : 1;
	while (*p && (*p)->deadline <= t->deadline)
		p = &(*p)->next;
	t->next = *p;
	*p = t;
	t->armed = true;
}

static void dequeue(struct timer_cpu *tc, struct ktimer *t)
{
	for (struct ktimer **p = &tc->head; *p; p = &(*p)->next) {
		if (*p == t) {
			*p = t->next;
			break;
		}
	}
	t->next = NULL;
	t->armed = false;
}

/*
 * The list and the LAPIC are the calling CPU's, unlocked: a timer armed
 * for another CPU would race with that CPU's interrupt and program this
 * one's APIC.  Another CPU's timer is armed on it, through on_cpu().
 */
static struct timer_cpu *own_timer(const char *fn, u32 cpu)
{
	u32 me = this_cpu()->cpu;

	if (cpu != me)
		bug("timer", "%s() for cpu %u's timer: only cpu %u itself may",
		    fn, cpu, cpu);
	return &timer_cpus[me];
}

void ktimer_arm(u32 cpu, struct ktimer *t, u64 deadline)
{
	struct timer_cpu *tc = own_timer(__func__, cpu);

	if (t->armed)
		dequeue(tc, t);
	enqueue(tc, t, deadline);
	program(tc);
}

void ktimer_cancel(u32 cpu, struct ktimer *t)
{
	struct timer_cpu *tc = own_timer(__func__, cpu);

	if (!t->armed)
		return;
	dequeue(tc, t);
	program(tc);
}

/* One period on from the last; periods that already passed (a vCPU
 * descheduled, a long handler) are skipped, not caught up in a burst. */
static void tick_expire(struct ktimer *t)
{
	struct timer_cpu *tc = this_timer();
	u64 now = rdtsc(), next = t->deadline + tc->period;

	if (next <= now) {
		u64 late = (now - next) / tc->period + 1;

		tc->stats.ticks_missed += late;
		next += late * tc->period;
	}
	tc->stats.ticks++;
	enqueue(tc, t, next);
	tc->tick_fn();
}

bool tick_start(u32 cpu, u32 hz, void (*tick_fn)(void), char *why,
		size_t n)
{
	struct timer_cpu *tc = own_timer(__func__, cpu);

	if (hz != 100 && hz != 250 && hz != 1000) {
		ksnprintf(why, n, "hz=%u is not a tick rate: 100, 250 or 1000",
			  hz);
		return false;
	}
	if (!tc->up) {
		ksnprintf(why, n, "cpu %u has no usable APIC timer", cpu);
		return false;
	}
	tc->period = timebase.tsc_hz / hz;
	tc->tick_fn = tick_fn;
	tc->tick.fn = tick_expire;
	ktimer_arm(cpu, &tc->tick, rdtsc() + tc->period);
	return true;
}

void tick_stop(u32 cpu)
{
	struct timer_cpu *tc = own_timer(__func__, cpu);

	ktimer_cancel(cpu, &tc->tick);
	tc->period = 0;
}

static void expire(struct timer_cpu *tc, u64 now)
{
	while (tc->head && tc->head->deadline <= now) {
		struct ktimer *t = tc->head;

		tc->head = t->next;
		t->next = NULL;
		t->armed = false;
		t->fn(t);
	}
}

static void account(struct irq_stats *s, u64 t0)
{
	s->irqs++;
	s->handler_tsc += rdtsc() - t0;
}

/*
 * EOI first, as Linux's sysvec_apic_timer_interrupt(): the irq-exit hook
 * may switch tasks after this returns.  An interrupt with nothing due
 * (the one-shot count came early) just arms again for the head.
 */
static bool timer_irq(struct regs *r)
{
	struct timer_cpu *tc = this_timer();
	u64 t0 = rdtsc();

	(void)r;
	lapic_eoi();
	tc->armed = ARMED_UNKNOWN;
	tc->in_irq = true;
	expire(tc, t0);
	tc->in_irq = false;
	program(tc);
	account(&tc->stats, t0);
	return true;
}

/* Counted and dropped: the APIC's spurious vector takes no EOI (SDM vol.
 * 3, 10.9); the 8259s' only for a line really in service. */
static bool spurious_irq(struct regs *r)
{
	struct irq_stats *s = &this_timer()->stats;
	u64 t0 = rdtsc();

	if (r->vector != VEC_SPURIOUS)
		pic_ack((u32)r->vector);
	s->spurious++;
	account(s, t0);
	return true;
}

/*
 * Any other external vector nobody claimed: firmware may leave one pending
 * in the IRR (a timer it armed), to arrive at the first STI.  Acknowledged
 * if in service and counted, as Linux's spurious_interrupt(), never fatal.
 */
static bool stray_irq(struct regs *r)
{
	struct irq_stats *s = &this_timer()->stats;
	u64 t0 = rdtsc();

	if (this_timer()->up && lapic_in_service((u8)r->vector))
		lapic_eoi();
	s->spurious++;
	account(s, t0);
	return true;
}

/* Software interrupts of ours (user_init()'s exit vector) are registered
 * later and replace this. */
static void claim_strays(void)
{
	for (u32 v = VEC_PIC_BASE + PIC_VECTORS; v < VEC_SPURIOUS; v++)
		if (v != VEC_LOCAL_TIMER)
			trap_set_handler(v, stray_irq);
}

bool timer_init_cpu(u32 cpu, char *why, size_t n)
{
	struct timer_cpu *tc = &timer_cpus[cpu];

	/* The handlers are the machine's, not a CPU's: set them once, before
	 * any other CPU runs and before anything else claims a vector. */
	if (cpu == 0) {
		claim_strays();
		trap_set_handler(VEC_LOCAL_TIMER, timer_irq);
		trap_set_handler(VEC_SPURIOUS, spurious_irq);
		for (u32 v = VEC_PIC_BASE; v < VEC_PIC_BASE + PIC_VECTORS; v++)
			trap_set_handler(v, spurious_irq);
	}
	tc->up = lapic_init(&tc->apic, timebase.tsc_hz, why, n);
	return tc->up;
}

const struct lapic_info *timer_apic(u32 cpu)
{
	return timer_cpus[cpu].up ? &timer_cpus[cpu].apic : NULL;
}

struct irq_stats *irq_stats(u32 cpu)
{
	return &timer_cpus[cpu].stats;
}

/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_TIME_TIMER_H
#define KERNEL_TIME_TIMER_H

#include "arch/x86_64/apic.h"
#include "lib/types.h"

/*
 * Per-CPU time events on the one-shot LAPIC timer, as Linux's tick and
 * hrtimers on a clockevent device: a periodic tick at hz= (each tick
 * re-arms the one-shot for the earliest of the next tick and the earliest
 * timer) and one-shot timers at TSC deadlines (a sleeping task's wake-up).
 * Callbacks run in the timer interrupt, interrupts disabled.  Everything
 * here is the calling CPU's (@cpu is its number: another's is a BUG; arm
 * a timer of another CPU on it, with on_cpu()); call with interrupts
 * disabled.  Nothing is armed, and no interrupt comes, until tick_start()
 * or ktimer_arm() is called.
 */
struct ktimer {
	u64 deadline;			/* TSC */
	void (*fn)(struct ktimer *t);
	struct ktimer *next;		/* in the CPU's list, by deadline */
	bool armed;
};

/* What interrupts cost a CPU: counted in the handlers, never inside a
 * timed region of a configuration without a scheduling model. */
struct irq_stats {
	u64 irqs;		/* interrupts taken, spurious ones too */
	u64 ticks;		/* of them, periodic ticks */
	u64 ticks_missed;	/* periods skipped: a tick came a period late */
	u64 spurious;		/* the APIC's, or the 8259s' */
	u64 handler_tsc;	/* TSC ticks inside interrupt handlers */
};

/*
 * Bring up this CPU's APIC timer; false (with @why) if it has none.  The
 * handlers are registered either way: a spurious 8259 interrupt is
 * counted, not fatal, on a machine without an APIC too.
 */
bool timer_init_cpu(u32 cpu, char *why, size_t n);
/* The APIC as timer_init_cpu() found it; NULL if it is unusable. */
const struct lapic_info *timer_apic(u32 cpu);
/*
 * Start the periodic tick at @hz (100, 250 or 1000, as CONFIG_HZ),
 * calling @tick_fn from each; false, with @why, for another rate or a CPU
 * without a timer.  The first tick comes one period from now.
 */
bool tick_start(u32 cpu, u32 hz, void (*tick_fn)(void), char *why,
		size_t n);
void tick_stop(u32 cpu);
/* Arm (or move) @t to fire at TSC time @deadline; a past one fires as
 * soon as interrupts are enabled.  Equal deadlines fire in arming order.
 * On a CPU whose timer_init_cpu() failed it never fires. */
void ktimer_arm(u32 cpu, struct ktimer *t, u64 deadline);
void ktimer_cancel(u32 cpu, struct ktimer *t);
struct irq_stats *irq_stats(u32 cpu);

#endif

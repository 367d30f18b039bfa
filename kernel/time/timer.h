/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_TIME_TIMER_H
#define KERNEL_TIME_TIMER_H

#include "lib/types.h"

/*
 * Per-CPU time events on the one-shot LAPIC timer, as Linux's tick and
 * hrtimers on a clockevent device: a periodic tick at hz= (each tick
 * re-arms the one-shot for the earliest of the next tick and the earliest
 * timer) and one-shot timers at TSC deadlines (a sleeping task's wake-up).
 * Callbacks run in the timer interrupt, interrupts disabled.  Everything
 * here is the calling CPU's; call with interrupts disabled.
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
	u64 irqs;		/* interrupts taken */
	u64 ticks;		/* of them, periodic ticks */
	u64 spurious;
	u64 handler_tsc;	/* TSC ticks inside interrupt handlers */
};

/* Bring up this CPU's APIC timer; false (with @why) if it has none. */
bool timer_init_cpu(u32 cpu, char *why, size_t n);
/* Start the periodic tick at @hz, calling @tick_fn from each; stop it. */
void tick_start(u32 cpu, u32 hz, void (*tick_fn)(void));
void tick_stop(u32 cpu);
void ktimer_arm(u32 cpu, struct ktimer *t, u64 deadline);
void ktimer_cancel(u32 cpu, struct ktimer *t);
struct irq_stats *irq_stats(u32 cpu);

#endif

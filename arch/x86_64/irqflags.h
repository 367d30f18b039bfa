/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_IRQFLAGS_H
#define ARCH_IRQFLAGS_H

#include "arch/x86_64/cpu.h"

/*
 * Saving and testing the interrupt flag, as Linux's local_irq_save() and
 * friends; cpu.h has the bare CLI and STI.  Without a scheduling model
 * nothing here ever finds the flag set.
 */
static inline u64 irq_save(void)
{
	u64 f = read_rflags();

	irq_disable();
	return f;
}

/* As Linux: called with interrupts off, it only ever turns them on. */
static inline void irq_restore(u64 flags)
{
	if (flags & RFLAGS_IF)
		irq_enable();
}

static inline bool irqs_disabled(void)
{
	return !(read_rflags() & RFLAGS_IF);
}

/* STI's one-instruction shadow: no interrupt between it and HLT, so a
 * wake-up checked with IF clear just before cannot be lost. */
static inline void safe_halt(void)
{
	__asm__ volatile("sti; hlt; cli" ::: "memory");
}

#endif

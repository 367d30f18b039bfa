/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_SPINLOCK_H
#define ARCH_SPINLOCK_H

#include "arch/x86_64/cpu.h"
#include "lib/types.h"

/*
 * A ticket lock: FIFO, so no CPU starves behind the others, as Linux's
 * before qspinlock (arch/x86/include/asm/spinlock.h, v4.1).  The _irqsave
 * forms are for locks an interrupt handler may also take (the console).
 */
struct spinlock {
	volatile u32 next, owner;
};

#define SPINLOCK_INIT { 0, 0 }

static inline void spin_lock(struct spinlock *l)
{
	u32 me = __atomic_fetch_add(&l->next, 1, __ATOMIC_ACQUIRE);

	while (__atomic_load_n(&l->owner, __ATOMIC_ACQUIRE) != me)
		cpu_relax();
}

static inline bool spin_trylock(struct spinlock *l)
{
	u32 me = __atomic_load_n(&l->owner, __ATOMIC_RELAXED);

	return __atomic_compare_exchange_n(&l->next, &me, me + 1, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static inline void spin_unlock(struct spinlock *l)
{
	__atomic_store_n(&l->owner, l->owner + 1, __ATOMIC_RELEASE);
}

static inline u64 spin_lock_irqsave(struct spinlock *l)
{
	u64 flags = read_rflags();

	irq_disable();
	spin_lock(l);
	return flags;
}

static inline void spin_unlock_irqrestore(struct spinlock *l, u64 flags)
{
	spin_unlock(l);
	if (flags & RFLAGS_IF)
		irq_enable();
}

#endif

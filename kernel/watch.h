/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_WATCH_H
#define KERNEL_WATCH_H

#include "arch/x86_64/cache.h"
#include "arch/x86_64/spinlock.h"
#include "arch/x86_64/tsc.h"
#include "lib/types.h"

/*
 * Every spin that waits on another CPU (a barrier, the end of on_cpu()'s
 * work, the console lock, a folio a zeroer holds) calls watch_wait() as
 * it goes round, so a run whose every CPU is busy or waiting still ends
 * at its deadline: the waiter itself notices, and names the CPU it waits
 * on.  Linux's buddy hard-lockup detector (kernel/watchdog_buddy.c) has
 * one CPU watch another the same way, from work it does anyway.
 *
 * The watch is registered by whoever owns the deadline (kernel/time/
 * deadline.c); the waits live below it and only call through here.
 */
enum watch_kind {
	WATCH_PRECISE,	/* the wait knows which CPU is late: a barrier */
	WATCH_LOOSE,	/* it only knows whom it waits on, who may wait too */
};

typedef void (*watch_fn)(u32 culprit, const char *waiting,
			 enum watch_kind kind);

void watch_set(watch_fn fn);
/*
 * When the watch acts on a wait of each kind (a TSC value; ~0ull, the
 * default: never).  A wait that reads it once as it starts and then its
 * own TSC calls watch_call() only past it, touching nothing shared before
 * (the barrier, spin_lock_watched()); so it must be set before the waits
 * it bounds begin.
 */
void watch_set_due(u64 precise, u64 loose);
u64 watch_due(enum watch_kind kind);

/*
 * Called from a wait loop with its own counter @spins: every 64th round
 * asks the watch.  @culprit: the CPU waited on (~0u: unknown).  Returns
 * only if the run goes on (or another CPU is ending it).
 */
void watch_call(u32 culprit, const char *waiting, enum watch_kind kind);

static inline void watch_wait(u32 *spins, u32 culprit, const char *waiting,
			      enum watch_kind kind)
{
	if (!(++*spins & 63))
		watch_call(culprit, waiting, kind);
}

/*
 * A ticket lock shared by CPUs, its wait watched: a holder stuck for good
 * (hung, or stopped while it held it) does not keep the run from its
 * deadline.  @holder: where the holder's CPU number is kept, or NULL.
 */
static inline void spin_lock_watched(struct spinlock *l,
				     const volatile u32 *holder,
				     const char *what)
{
	u32 me = __atomic_fetch_add(&l->next, 1, __ATOMIC_ACQUIRE), spins = 0;
	u64 due = watch_due(WATCH_LOOSE);

	/* The lock's line alone until the deadline; then whose it is. */
	while (__atomic_load_n(&l->owner, __ATOMIC_ACQUIRE) != me) {
		cpu_relax();
		if (!(++spins & 63) && rdtsc() >= due)
			watch_call(holder ? *holder : ~0u, what, WATCH_LOOSE);
	}
}

/*
 * A shared lock laid out for many CPUs: the ticket lock on a line of its
 * own (every taker bumps it, queued ones spin on it), the holder's number
 * on another with the holder's own state (written by the holder; read by
 * a taker once, to see whether it is itself, and by queued ones only past
 * the deadline, to name it), so that neither bounces with the other nor
 * with whatever the lock protects.  Linux separates hot fields likewise
 * (____cacheline_aligned_in_smp).  Declare it __cacheline_aligned.
 */
struct watched_lock {
	struct spinlock lock ____cacheline_aligned;
	volatile u32 holder ____cacheline_aligned;	/* ~0u: none */
	volatile u32 depth;	/* for a holder that re-enters */
	u64 flags;		/* the holder's RFLAGS, given back at unlock */
};

_Static_assert(offsetof(struct watched_lock, holder) == SMP_CACHE_BYTES &&
	       sizeof(struct watched_lock) == 2 * SMP_CACHE_BYTES,
	       "a lock and its holder on lines of their own");

#define WATCHED_LOCK_INIT { .lock = SPINLOCK_INIT, .holder = ~0u }

static inline u64 spin_lock_irqsave_watched(struct spinlock *l,
					    const volatile u32 *holder,
					    const char *what)
{
	u64 flags = read_rflags();

	irq_disable();
	spin_lock_watched(l, holder, what);
	return flags;
}

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_BARRIER_H
#define LIB_BARRIER_H

#include "lib/types.h"

/*
 * A reusable barrier for n members, by generation: the last to arrive
 * starts the next one.  Its pure logic lives here so that the kernel
 * (kernel/smp/smp.c) and a host model (tests/host/barrier/) run the same
 * code; the spin's pause, the clock and what to do past the deadline
 * come in as callbacks, so nothing here touches hardware.
 *
 * Waiting without traffic: a waiter reads the generation's line and
 * nothing else of the barrier until its own clock says the deadline has
 * passed; only then does it read the members' slots to name the late
 * one -- as Linux's csd_lock_wait() spins on the csd's flag alone and
 * csd_lock_wait_toolong() looks at the target CPU only once its local
 * sched_clock() says the wait is too long.  The hot fields are on lines
 * of their own, as Linux lays them out with ____cacheline_aligned_in_smp:
 * the count every arrival bumps, the generation the waiters read, and
 * the read-mostly rest (set at init).
 */
#define BARRIER_LINE 64

struct barrier_slot {
	volatile u32 gen;	/* the generation this member arrived at, + 1 */
} __aligned(BARRIER_LINE);

struct barrier {
	volatile u32 count __aligned(BARRIER_LINE);	/* every arrival */
	volatile u32 gen __aligned(BARRIER_LINE);	/* what waiters spin on */
	/* Read-mostly: written by barrier_init() alone. */
	u32 n __aligned(BARRIER_LINE);
	struct barrier_slot *slot;	/* by member id; NULL: none */
	const u32 *ids;			/* the n members' ids */
};

_Static_assert(offsetof(struct barrier, gen) == BARRIER_LINE,
	       "the generation shares no line with the count");
_Static_assert(offsetof(struct barrier, n) == 2 * BARRIER_LINE,
	       "the members' list shares no line with the hot words");
_Static_assert(sizeof(struct barrier_slot) == BARRIER_LINE,
	       "each member's slot is a line of its own");

struct barrier_ops {
	void (*relax)(void *ctx);	/* one round of the spin (cpu_relax) */
	u64 (*now)(void *ctx);		/* this CPU's own clock (the TSC) */
	bool (*aborted)(void *ctx);	/* the run was given up: leave */
	/* Past the deadline: @late is the first member that has not
	 * arrived (~0u: unknown, without slots).  May not return. */
	void (*overdue)(void *ctx, u32 late);
	/* NULL, or the last arrival's wake-up of waiters that sleep on
	 * @gen (a futex) rather than spin: called after it changed. */
	void (*wake)(void *ctx, volatile u32 *gen);
};

/* @slot (indexed by member id) and @ids (the n members) may be NULL:
 * a late member is then not named. */
void barrier_init(struct barrier *b, u32 n, struct barrier_slot *slot,
		  const u32 *ids);
/*
 * Arrive as member @me and wait for the others.  Every 64 rounds the
 * waiter reads @ops->now() and @ops->aborted(); once now() >= @deadline
 * (~0ull: never) it calls @ops->overdue() with the late member, and goes
 * on waiting if that returns.  False when the run was aborted.
 */
bool barrier_wait(struct barrier *b, u32 me, u64 deadline,
		  const struct barrier_ops *ops, void *ctx);
/* The first member that has not arrived at generation @gen, or ~0u. */
u32 barrier_late(const struct barrier *b, u32 gen);

#ifdef BARRIER_TRACE
/*
 * The host model's build (-DBARRIER_TRACE): every access to the
 * barrier's memory is reported first, so the model can count which
 * lines a waiter reads and when.
 */
enum barrier_access { BARRIER_LOAD, BARRIER_STORE, BARRIER_RMW };
void barrier_trace(const volatile void *p, enum barrier_access a);
#endif

#endif

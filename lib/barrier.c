// SPDX-License-Identifier: GPL-2.0-only
/*
 * The barrier's logic (lib/barrier.h), with every access to its memory
 * through the helpers below: plain atomics in the kernel and the
 * companion, reported to the host model first under BARRIER_TRACE.
 */
#include "lib/barrier.h"

#ifdef BARRIER_TRACE
#define TRACE(p, a) barrier_trace(p, a)
#else
#define TRACE(p, a) do { } while (0)
#endif

static inline u32 load(const volatile u32 *p)
{
	TRACE(p, BARRIER_LOAD);
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static inline void store(volatile u32 *p, u32 v)
{
	TRACE(p, BARRIER_STORE);
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static inline u32 add(volatile u32 *p)
{
	TRACE(p, BARRIER_RMW);
	return __atomic_add_fetch(p, 1, __ATOMIC_ACQ_REL);
}

/* A read-mostly field: written before the members start, so plain. */
#define READ_CFG(b, field) ({ TRACE(&(b)->field, BARRIER_LOAD); (b)->field; })

void barrier_init(struct barrier *b, u32 n, struct barrier_slot *slot,
		  const u32 *ids)
{
	b->count = 0;
	b->gen = 0;
	b->n = n;
	b->slot = slot;
	b->ids = ids;
	for (u32 i = 0; slot && ids && i < n; i++)
		slot[ids[i]].gen = 0;
}

u32 barrier_late(const struct barrier *b, u32 gen)
{
	struct barrier_slot *slot = READ_CFG(b, slot);
	const u32 *ids = READ_CFG(b, ids);
	u32 n = READ_CFG(b, n);

	for (u32 i = 0; slot && ids && i < n; i++) {
		u32 id = ids[i];

		TRACE(&ids[i], BARRIER_LOAD);
		if (load(&slot[id].gen) != gen + 1)
			return id;
	}
	return ~0u;
}

/*
 * The arrival reads what it needs (n, its slot) before it bumps the
 * count; from then on the wait reads the generation alone, and the
 * clock, which is the CPU's own.
 */
bool barrier_wait(struct barrier *b, u32 me, u64 deadline,
		  const struct barrier_ops *ops, void *ctx)
{
	struct barrier_slot *slot = READ_CFG(b, slot);
	u32 n = READ_CFG(b, n), gen = load(&b->gen), spins = 0;

	if (slot)
		store(&slot[me].gen, gen + 1);
	if (add(&b->count) == n) {
		/* Nobody bumps it again before the store below releases. */
		TRACE(&b->count, BARRIER_STORE);
		__atomic_store_n(&b->count, 0, __ATOMIC_RELAXED);
		store(&b->gen, gen + 1);
		if (ops->wake)
			ops->wake(ctx, &b->gen);
		return !ops->aborted(ctx);
	}
	while (load(&b->gen) == gen) {
		ops->relax(ctx);
		if (++spins & 63)
			continue;
		if (ops->aborted(ctx))
			return false;
		if (ops->now(ctx) >= deadline)
			ops->overdue(ctx, barrier_late(b, gen));
	}
	return !ops->aborted(ctx);
}

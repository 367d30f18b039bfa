// SPDX-License-Identifier: GPL-2.0-only
/*
 * Folio pool.  Guard frames: the 4K frames just before and after folios,
 * where free, are taken too; the benchmark fills them with its pattern and
 * checks them after every run, so a clear that runs past its folio shows.
 */
#include "kernel/mm/memory.h"
#include "kernel/mm/pool.h"

static void take_guard(struct pool *p, u64 pa)
{
	if (p->nguards < POOL_GUARDS && frame_claim(pa, SZ_4K))
		p->guard_pa[p->nguards++] = pa;
}

u32 pool_create(struct pool *p, struct folio *slots, u64 bytes, u32 n)
{
	return pool_create_on(p, slots, bytes, n, NULL, 0);
}

/* Folio i from nodes[i % nnodes]: one node, or round-robin over several. */
u32 pool_create_on(struct pool *p, struct folio *slots, u64 bytes, u32 n,
		   const u32 *nodes, u32 nnodes)
{
	p->bytes = bytes;
	p->n = 0;
	p->nguards = 0;
	p->f = slots;
	for (u32 i = 0; i < MIN(n, (u32)POOL_MAX); i++) {
		u64 pa = nnodes ? frame_alloc_node(bytes, nodes[i % nnodes]) :
			 frame_alloc(bytes);

		if (pa == FRAME_NONE)
			break;
		slots[i].pa = pa;
		slots[i].zeroed = FOLIO_UNZEROED;
		slots[i].mapped = 0;
		p->n++;
	}
	p->lock = (struct spinlock)SPINLOCK_INIT;
	p->busy = 0;
	pool_reset(p);
	for (u32 i = 0; i < p->n && p->nguards < POOL_GUARDS; i++) {
		if (slots[i].pa >= SZ_4K)
			take_guard(p, slots[i].pa - SZ_4K);
		take_guard(p, slots[i].pa + bytes);
	}
	return p->n;
}

void pool_shrink(struct pool *p, u32 n)
{
	while (p->n > n)
		frame_free(p->f[--p->n].pa, p->bytes);
	pool_reset(p);
}

void pool_destroy(struct pool *p)
{
	for (u32 i = 0; i < p->n; i++)
		frame_free(p->f[i].pa, p->bytes);
	for (u32 i = 0; i < p->nguards; i++)
		frame_free(p->guard_pa[i], SZ_4K);
	p->n = p->nguards = 0;
	p->zeroed = p->unzeroed = (struct folio_list){ 0, 0, 0 };
}

#define NONE (~0u)

static void push(struct pool *p, struct folio_list *l, u32 i)
{
	p->f[i].next = NONE;
	if (l->count++)
		p->f[l->tail].next = i;
	else
		l->head = i;
	l->tail = i;
}

static struct folio *pop(struct pool *p, struct folio_list *l)
{
	struct folio *f;

	if (!l->count)
		return NULL;
	f = &p->f[l->head];
	l->head = f->next;
	l->count--;
	return f;
}

struct folio *pool_take(struct pool *p)
{
	struct folio *f;

	for (;;) {
		u64 flags = spin_lock_irqsave(&p->lock);
		u32 busy = p->busy;

		f = pop(p, &p->zeroed);
		if (!f)
			f = pop(p, &p->unzeroed);
		spin_unlock_irqrestore(&p->lock, flags);
		/* The zeroer gives one back within a folio's clear. */
		if (f || !busy)
			return f;
		cpu_relax();
	}
}

struct folio *pool_take_unzeroed(struct pool *p)
{
	u64 flags = spin_lock_irqsave(&p->lock);
	struct folio *f = pop(p, &p->unzeroed);

	if (f)
		p->busy++;
	spin_unlock_irqrestore(&p->lock, flags);
	return f;
}

void pool_put_zeroed(struct pool *p, struct folio *f)
{
	u64 flags = spin_lock_irqsave(&p->lock);

	f->zeroed = FOLIO_ZEROED;
	push(p, &p->zeroed, (u32)(f - p->f));
	p->busy--;
	spin_unlock_irqrestore(&p->lock, flags);
}

void pool_reset(struct pool *p)
{
	p->zeroed = p->unzeroed = (struct folio_list){ 0, 0, 0 };
	for (u32 i = 0; i < p->n; i++) {
		struct folio *f = &p->f[i];

		if (f->mapped)
			f->zeroed = FOLIO_UNZEROED;
		f->mapped = 0;
		push(p, f->zeroed ? &p->zeroed : &p->unzeroed, i);
	}
}

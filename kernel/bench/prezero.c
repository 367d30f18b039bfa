// SPDX-License-Identifier: GPL-2.0-only
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/paging.h"
#include "arch/x86_64/tsc.h"
#include "kernel/bench/prezero.h"
#include "kernel/smp/smp.h"
#include "lib/order.h"

void prezero_setup(struct prezero *z, const struct hz_config *c,
		   struct pool *p, u32 prim, const struct zero_plan *plan)
{
	z->pool = p;
	z->prim = prim_fns[c->prezero_clear == PREZERO_SAME ? prim :
			   c->prezero_clear];
	z->plan = *plan;
	if (c->prezero_order != PREZERO_SAME) {
		z->plan.order = c->prezero_order;
		z->plan.chunk = MAX(z->plan.chunk, 1u);
	}
	z->low = (u32)((u64)p->n * c->prezero_low / 100);
	z->high = (u32)MAX((u64)p->n * c->prezero_high / 100, (u64)1);
	z->ticks = z->folios = 0;
	z->run = z->running = 0;
}

/* One folio, as the fault path would (from its first page), timed. */
static void zero_one(struct prezero *z, struct folio *f)
{
	struct zero_ops ops = { z->prim, NULL, NULL, NULL, NULL };
	u64 t0 = tsc_begin();

	folio_zero(phys_to_virt(f->pa), (u32)(z->pool->bytes / SZ_4K), 0,
		   &z->plan, &ops);
	z->ticks += tsc_end() - t0;
	z->folios++;
}

void prezero_request(struct prezero *z, u64 n)
{
	struct folio *f;

	for (u64 i = 0; i < n && (f = pool_take_unzeroed(z->pool)); i++) {
		zero_one(z, f);
		pool_put_zeroed(z->pool, f);
	}
}

void prezero_on_free(struct prezero *z, struct folio *f)
{
	zero_one(z, f);
	f->zeroed = FOLIO_ZEROED;
}

/*
 * kzerod's loop: below the low watermark start zeroing, go on up to the
 * high one (FreeBSD's hysteresis), then wait.  Interrupts are off, as for
 * any work on_cpu() gives; nothing else runs on this CPU.
 */
static void dedicated(void *arg)
{
	struct prezero *z = arg;
	bool filling = true;

	z->running = 1;
	while (__atomic_load_n(&z->run, __ATOMIC_ACQUIRE)) {
		u32 have = pool_zeroed(z->pool);
		struct folio *f;

		if (have < z->low)
			filling = true;
		else if (have >= z->high)
			filling = false;
		if (!filling || !(f = pool_take_unzeroed(z->pool))) {
			cpu_relax();
			continue;
		}
		zero_one(z, f);
		pool_put_zeroed(z->pool, f);
	}
	z->running = 0;
}

bool prezero_dedicated_start(struct prezero *z, u32 cpu)
{
	z->cpu = cpu;
	__atomic_store_n(&z->run, 1, __ATOMIC_RELEASE);
	if (on_cpu(cpu, dedicated, z))
		return true;
	z->run = 0;
	return false;
}

void prezero_dedicated_stop(struct prezero *z)
{
	__atomic_store_n(&z->run, 0, __ATOMIC_RELEASE);
	smp_wait(z->cpu);
}

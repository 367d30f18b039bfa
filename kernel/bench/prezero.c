// SPDX-License-Identifier: GPL-2.0-only
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/paging.h"
#include "arch/x86_64/tsc.h"
#include "kernel/bench/bench_cpu.h"
#include "kernel/bench/prezero.h"
#include "kernel/sched/fpu.h"
#include "kernel/sched/sched.h"
#include "kernel/smp/smp.h"
#include "kernel/timebase.h"
#include "kernel/watch.h"
#include "lib/cpulist.h"
#include "lib/format.h"
#include "lib/matrix.h"
#include "lib/order.h"
#include "lib/string.h"

/* An idle zeroer notices a refill within this many PAUSEs (some tens of
 * microseconds): nothing refills its pool inside a timed part. */
#define ZEROER_BACKOFF_MAX 1024

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
	z->ticks = z->folios = z->resched = 0;
	z->freed_pages = 0;
	z->run = z->running = 0;
	z->simd = false;
	z->model_on = false;
}

/* One folio, as the fault path would (from its first page), timed;
 * the resched points it took counted where @ops takes them. */
static void zero_with(struct prezero *z, struct folio *f,
		      const struct zero_ops *ops)
{
	u64 t0 = tsc_begin();
	s64 points;

	points = folio_zero(phys_to_virt(f->pa), (u32)(z->pool->bytes / SZ_4K),
			    0, &z->plan, ops);
	z->ticks += tsc_end() - t0;
	z->folios++;
	if (points > 0 && ops->resched)
		z->resched += (u64)points;
}

/* A SIMD zeroer's kernel_fpu_begin()/end() around each primitive call,
 * as the fault path's (fault.c call_enter()), model or none: not
 * preemptible inside a call, preemptible between calls. */
static void zeroer_enter(void *ctx)
{
	struct prezero *z = ctx;

	if (z->simd)
		kernel_fpu_begin();
}

static void zeroer_leave(void *ctx)
{
	struct prezero *z = ctx;

	if (z->simd)
		kernel_fpu_end();
}

/* dedicated: interrupts off on a CPU of its own, no model, no points;
 * a SIMD primitive still between kernel_fpu_begin() and end(). */
static void zero_one(struct prezero *z, struct folio *f)
{
	struct zero_ops ops = { z->prim, NULL, z, zeroer_enter, zeroer_leave,
				NULL };

	zero_with(z, f, &ops);
}

static void zeroer_resched(void *ctx)
{
	(void)ctx;
	cond_resched();
}

/* order=tree's might_sleep(). */
static void zeroer_might_resched(void *ctx)
{
	(void)ctx;
	might_resched();
}

/* A resched point of the zeroer's own loop, counted with the plan's:
 * with interrupts on under a model, where cond_resched() can act. */
static void loop_resched(struct prezero *z)
{
	if (z->model_on)
		irq_enable();
	cond_resched();
	if (z->model_on)
		irq_disable();
	z->resched++;
}

/*
 * request and on-free: in the benchmark task's own context, as a write
 * to zeroable_hugepages or a free runs in Linux's task context.  Under a
 * model with interrupts on (the model's tick and preemption act), a SIMD
 * primitive between kernel_fpu_begin() and kernel_fpu_end() around each
 * call.  @points: the plan's resched points, as folio_zero_user() takes
 * them (request), or none, as kernel_init_pages() clears a freed folio
 * page by page without one (on-free).
 */
static void zero_in_task(struct prezero *z, struct folio *f, bool points)
{
	struct zero_ops ops = { z->prim, points ? zeroer_resched : NULL, z,
				zeroer_enter, zeroer_leave,
				points ? zeroer_might_resched : NULL };

	if (z->model_on)
		irq_enable();
	zero_with(z, f, &ops);
	if (z->model_on)
		irq_disable();
}

/* Between the watermarks: start below the low one, stop at the high one
 * (FreeBSD's hysteresis). */
static bool wants_more(struct prezero *z)
{
	u32 have = pool_zeroed(z->pool);

	if (have < z->low)
		z->filling = true;
	else if (have >= z->high)
		z->filling = false;
	return z->filling;
}

/*
 * Li Zhe's zeroable_hugepages write, on the pre-zeroing of Frank van der
 * Linden's "mm/hugetlb: optionally pre-zero hugetlb pages", which clears
 * each folio with folio_zero_user(folio, 0): the plan's resched points
 * inside a folio, and one after each folio, where the write's loop can be
 * interrupted (its changelog's point 4) and where mm/hugetlb.c's
 * free_hpage_workfn() takes its cond_resched() after each folio.
 */
void prezero_request(struct prezero *z, u64 n)
{
	struct folio *f;

	for (u64 i = 0; i < n && (f = pool_take_unzeroed(z->pool)); i++) {
		zero_in_task(z, f, true);
		pool_put_zeroed(z->pool, f);
		loop_resched(z);
	}
}

/* init_on_free: pages freed in batches of at most this many 4K pages
 * (mm/mmu_gather.c MAX_NR_FOLIOS_PER_FREE, counted in pages under
 * init_on_free), a cond_resched() after each batch. */
#define FREE_BATCH_PAGES 512

/*
 * As init_on_free's: kernel_init_pages() clears the folio page by page
 * with no resched point inside; __tlb_batch_free_encoded_pages() takes
 * one after each batch, whose size it counts in pages under
 * init_on_free, at least one folio: after every 2M or 1G folio, after
 * every 512 of 4K.
 */
void prezero_on_free(struct prezero *z, struct folio *f)
{
	zero_in_task(z, f, false);
	f->zeroed = FOLIO_ZEROED;
	z->freed_pages += (u32)(z->pool->bytes / SZ_4K);
	if (z->freed_pages >= FREE_BATCH_PAGES)
		prezero_free_end(z);
}

/* The last batch of a free, short or not, ends with its resched point. */
void prezero_free_end(struct prezero *z)
{
	if (!z->freed_pages)
		return;
	z->freed_pages = 0;
	loop_resched(z);
}

/*
 * kzerod's loop: below the low watermark start zeroing, go on up to the
 * high one (FreeBSD's hysteresis), then wait.  Interrupts are off, as for
 * any work on_cpu() gives; nothing else runs on this CPU.  Waiting, it
 * reads the pool's counts with a growing pause and takes the lock only
 * when there is a folio to take: its line is the faulting CPU's during
 * timed faults.  An aborted run ends it.
 */
static void dedicated(void *arg)
{
	struct prezero *z = arg;
	u32 spins = 0, watched = 0;

	z->running = 1;
	z->filling = true;
	while (__atomic_load_n(&z->run, __ATOMIC_ACQUIRE) && !smp_aborted) {
		struct folio *f;

		if (!wants_more(z) || !(f = pool_take_unzeroed(z->pool))) {
			pool_backoff(&spins, ZEROER_BACKOFF_MAX);
			/* The CPU it zeroes for may hang with none idle to
			 * say so: the zeroer watches too. */
			watch_wait(&watched, ~0u, "as the dedicated zeroer",
				   WATCH_LOOSE);
			continue;
		}
		spins = 0;
		zero_one(z, f);
		pool_put_zeroed(z->pool, f);
	}
	z->running = 0;
}

/* kzerod with nothing to give: every folio of its own pool, round and
 * round, until stopped. */
static void apart(void *arg)
{
	struct prezero *z = arg;

	z->running = 1;
	for (u32 i = 0; __atomic_load_n(&z->run, __ATOMIC_ACQUIRE) &&
	     !smp_aborted; i = (i + 1) % z->apart->n)
		zero_one(z, &z->apart->f[i]);
	z->running = 0;
}

bool prezero_apart_start(struct prezero *z, u32 cpu, struct pool *p)
{
	z->cpu = cpu;
	z->apart = p;
	__atomic_store_n(&z->run, 1, __ATOMIC_RELEASE);
	if (p->n && on_cpu(cpu, apart, z))
		return true;
	z->run = 0;
	return false;
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

bool prezero_dedicated_stop(struct prezero *z)
{
	/* Never started (prezero_before() said why): no answer to wait for. */
	if (!__atomic_load_n(&z->run, __ATOMIC_ACQUIRE))
		return true;
	__atomic_store_n(&z->run, 0, __ATOMIC_RELEASE);
	return smp_wait(z->cpu);
}

/* The idle task's unit: one folio, with interrupts on, giving the CPU
 * back at the plan's resched points as the model says. */
static bool idle_unit(void *arg)
{
	struct prezero *z = arg;
	struct zero_ops ops = { z->prim, zeroer_resched, z, zeroer_enter,
				zeroer_leave, zeroer_might_resched };
	struct folio *f;

	if (!z->run || !wants_more(z) || !(f = pool_take_unzeroed(z->pool)))
		return false;
	irq_enable();
	zero_with(z, f, &ops);
	irq_disable();
	pool_put_zeroed(z->pool, f);
	return true;
}

void prezero_idle(struct prezero *z, u32 cpu, u64 ms, u64 tsc_hz, bool simd)
{
	z->simd = simd;
	z->filling = true;
	z->run = 1;
	sched_set_idle_work(cpu, idle_unit, z);
	sleep_until(rdtsc() + tsc_hz / 1000 * ms);
	z->run = 0;
	/* The idle task may have been preempted inside a folio: let it put
	 * it back before any fault can want it. */
	while (__atomic_load_n(&z->pool->busy, __ATOMIC_ACQUIRE))
		sleep_until(rdtsc() + tsc_hz / 10000);
	sched_set_idle_work(cpu, NULL, NULL);
}

/*
 * The glue between a configuration of bench=fault and its zeroer: which
 * mode this point runs, whether it can, and what it spent.
 */

/* Pre-zeroing CPUs left out (smp_leave_out()): bench_verdict() names
 * them, as they are not of cpus=. */
static struct cpu_set lost;

/* A CPU this machine has that was left out, at bring-up or since. */
static bool left_out(u32 cpu)
{
	return cpu < MAX_CPUS && smp.by_cpu[cpu] &&
	       smp.by_cpu[cpu]->state == SMP_FAILED;
}

/* The zeroing CPU of prezero=dedicated: prezero_cpu=, else the highest
 * CPU that is up and not this group's; else the highest left out, which
 * fails the configuration (prezero_before()) where none would skip it. */
static u32 zeroing_cpu(const struct bench_cfg *b)
{
	if (b->c->prezero_cpu != CPU_AUTO)
		return (u32)b->c->prezero_cpu;
	/* Not CPU 0: it runs the benchmark's own work, on_cpu() none. */
	for (u32 cpu = smp.ncpus; cpu-- > 1;)
		if (smp_is_up(cpu) && group_index(b->g, cpu) == ~0u)
			return cpu;
	for (u32 cpu = smp.ncpus; cpu-- > 1;)
		if (left_out(cpu) && group_index(b->g, cpu) == ~0u)
			return cpu;
	return ~0u;
}

/*
 * The pre-zeroing CPU was left out: before its pass, or as it did not
 * take the zeroer's work, so the pass ran with no zeroer.  The
 * configuration fails, named with why.
 */
void prezero_lost(struct bench_cfg *b, struct bench_outcome *o)
{
	u32 cpu = b->d.prezero_cpu;

	bench_fail(o, "%s: the pre-zeroing cpu %u left out: %s", b->d.name,
		   cpu, left_out(cpu) ? smp.by_cpu[cpu]->reason : "no answer");
	cpu_set_add(&lost, cpu);
}

u32 prezero_lost_cpus(char *list, size_t n, bool reset)
{
	u32 count = cpu_set_count(&lost, CPUSET_MAX);

	if (n)
		cpulist_format(&lost, list, n);
	if (reset)
		memset(&lost, 0, sizeof(lost));
	return count;
}

/* The primitive the zeroers clear with. */
static u32 zeroer_prim(const struct bench_cfg *b)
{
	return b->c->prezero_clear == PREZERO_SAME ? b->d.at.v[AXIS_PRIM] :
	       b->c->prezero_clear;
}

/* Every configuration starts with no folio zeroed ahead. */
void prezero_config(struct bench_cfg *b)
{
	struct pool *pool = &b->bc->pool;
	struct prezero *z = &b->bc->prezero;

	b->prezero = matrix_prezero(&b->d.at);
	b->d.prezero = b->c->prezeros ? prezero_names[b->prezero] : NULL;
	b->d.prezero_cpu = b->prezero == PREZERO_DEDICATED ? zeroing_cpu(b) : 0;
	for (u32 i = 0; i < pool->n; i++)
		pool->f[i].zeroed = FOLIO_UNZEROED;
	pool_reset(pool);
	prezero_setup(z, b->c, pool, b->d.at.v[AXIS_PRIM], &b->d.plan);
	/* request and on-free zero in this task, outside the workload's
	 * run: a kernel task for the FPU then, as the idle task is, so
	 * kernel_fpu_begin() saves nothing (docs/sched.md, "Kernel SIMD"). */
	z->model_on = b->d.at.v[AXIS_PREEMPT] != PREEMPT_MODEL_OFF;
	z->simd = prim_is_simd(zeroer_prim(b));
}

/* prezero_pool=apart: as many folios again, for the zeroer alone. */
static bool apart_up(struct bench_cfg *b)
{
	struct bench_cpu *bc = b->bc;

	/* Its descriptors were made before the group's pools (keep_up()). */
	if (!bc->apart_slots)
		return false;
	if (pool_create(&bc->apart, bc->apart_slots, b->bytes, b->count) ==
	    b->count)
		return true;
	count_bad_frees(pool_destroy(&bc->apart));
	return false;
}

/* Whether this point's pre-zeroing can run here, or why not. */
bool prezero_can(struct bench_cfg *b, char *why, size_t n)
{
	u32 cpu = b->d.prezero_cpu;

	if (b->prezero != PREZERO_NONE && b->c->prezero_clear != PREZERO_SAME &&
	    !prim_supported(b->c->prezero_clear, why, n))
		return false;	/* a zeroer that would #UD */
	if (b->prezero == PREZERO_IDLE && !b->d.at.v[AXIS_PREEMPT]) {
		ksnprintf(why, n, "prezero=idle needs a scheduling model: the "
			  "idle task runs only under one (preempt=)");
		return false;
	}
	if (b->prezero != PREZERO_DEDICATED)
		return true;
	if (b->g->n > 1) {
		ksnprintf(why, n, "prezero=dedicated zeroes for one CPU's pool: "
			  "give cpus= one CPU");
		return false;
	}
	if (cpu == ~0u || !cpu || (!smp_is_up(cpu) && !left_out(cpu)) ||
	    group_index(b->g, cpu) != ~0u) {
		ksnprintf(why, n, "prezero=dedicated needs a CPU of its own, up, "
			  "not CPU 0 and not in cpus=: %s", cpu == ~0u ?
			  "none is free" : "prezero_cpu= names one that is not");
		return false;
	}
	if (b->c->prezero_pool == PREZERO_POOL_APART && !apart_up(b)) {
		ksnprintf(why, n, "prezero_pool=apart: no memory for the zeroer's "
			  "own %u folios", b->count);
		return false;
	}
	return true;
}

static const char *const prezero_by[PREZERO_COUNT] = {
	[PREZERO_REQUEST] = "request", [PREZERO_IDLE] = "idle",
	[PREZERO_DEDICATED] = "dedicated", [PREZERO_ON_FREE] = "free",
};

/*
 * Before the timed part: request zeroes now, in this context (as a write
 * to zeroable_hugepages just before the VM starts: after the cache state,
 * so what it leaves in the cache the workload finds); idle sleeps for
 * prezero_idle_ms while the idle task zeroes; dedicated starts its CPU
 * and gives it prezero_idle_ms to fill up first.
 */
void prezero_before(struct bench_cfg *b, struct bench_outcome *o)
{
	struct prezero *z = &b->bc->prezero;

	z->ticks = z->folios = z->resched = 0;
	z->freed_pages = 0;
	pool_wait_reset(z->pool);
	if (b->prezero == PREZERO_REQUEST)
		prezero_request(z, b->c->prezero_n);
	if (b->prezero == PREZERO_IDLE)
		prezero_idle(z, b->bc->cpu, b->c->prezero_idle_ms,
			     timebase.tsc_hz, prim_is_simd(zeroer_prim(b)));
	if (b->prezero != PREZERO_DEDICATED)
		return;
	/* hang_at=zeroer (test-only): its CPU hangs as the idle loop would
	 * give it this work, having taken every work before. */
	if (b->c->hang_at == HANG_AT_ZEROER)
		smp_set_hang(HANG_AT_IDLE, &b->c->hang_cpu);
	if (!(b->c->prezero_pool == PREZERO_POOL_APART ?
	      prezero_apart_start(z, b->d.prezero_cpu, &b->bc->apart) :
	      prezero_dedicated_start(z, b->d.prezero_cpu))) {
		if (left_out(b->d.prezero_cpu)) {
			prezero_lost(b, o);
			return;
		}
		bench_fail(o, "%s: cpu %u would not take the zeroing", b->d.name,
			   b->d.prezero_cpu);
		return;
	}
	for (u64 end = rdtsc() + timebase.tsc_hz / 1000 * b->c->prezero_idle_ms;
	     rdtsc() < end;)
		cpu_relax();
}

/* Who zeroed ahead in this pass, and what it spent (on-free: later,
 * in op_release, which adds to it). */
void prezero_account(struct bench_cfg *b, struct bench_pass *p)
{
	const struct prezero *z = &b->bc->prezero;

	if (!b->prezero)
		return;
	p->prezero_by = prezero_by[b->prezero] ? prezero_by[b->prezero] : "none";
	p->prezeroed = b->bc->fault.prezeroed;
	p->prezero_ticks = z->ticks;
	p->prezero_folios = z->folios;
	/* The kernel's own: Linux says neither. */
	p->zeroer_counted = true;
	p->prezero_resched = z->resched;
	p->prezero_waits = z->pool->waits;
	p->prezero_wait_ticks = z->pool->wait_ticks;
}

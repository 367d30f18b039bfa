/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_BENCH_PREZERO_H
#define KERNEL_BENCH_PREZERO_H

#include "arch/x86_64/clear.h"
#include "kernel/mm/pool.h"
#include "lib/params.h"
#include "lib/zero.h"

/*
 * Zeroing free folios before a fault wants them (docs/prezero.md): on
 * request in the requester's context (Li Zhe's zeroable_hugepages), on
 * free (init_on_free), or continuously on a CPU of its own (openEuler's
 * kzerod) between the low and high watermarks.  Each keeps what it spent
 * and how many folios it zeroed, per pass: who paid, and when.
 */
struct prezero {
	struct pool *pool;
	prim_fn prim;
	struct zero_plan plan;
	u32 low, high;		/* watermarks, folios */
	/* this pass */
	u64 ticks, folios;
	/* dedicated: the zeroing CPU's loop */
	u32 cpu;
	volatile u32 run, running;
	bool filling;		/* between the watermarks, going up */
	struct pool *apart;	/* dedicated, prezero_pool=apart: its own */
	/* A SIMD zeroer, model or none: each call between kernel_fpu_begin()
	 * and kernel_fpu_end(), in a task that is a kernel task for the FPU
	 * (idle; the benchmark's own outside the workload's run) */
	bool simd;
	bool model_on;		/* request, on-free: a scheduling model */
	u64 resched;		/* this pass: resched points the zeroing took */
	u32 freed_pages;	/* on-free: 4K pages since the last point */
};

/* For pool @p: how its folios are zeroed (prezero_clear=, prezero_order=
 * or the configuration's own) and the watermarks as folio counts. */
void prezero_setup(struct prezero *z, const struct hz_config *c,
		   struct pool *p, u32 prim, const struct zero_plan *plan);
/* request: up to @n unzeroed free folios zeroed now, here. */
void prezero_request(struct prezero *z, u64 n);
/* on-free: folio @f, just unmapped, zeroed now, here; the free's
 * resched point after each batch of FREE_BATCH_PAGES pages. */
void prezero_on_free(struct prezero *z, struct folio *f);
/* on-free: the free is over; its last batch's resched point. */
void prezero_free_end(struct prezero *z);
/* dedicated: CPU @cpu keeps the pool's zeroed folios between the
 * watermarks until stopped; false when @cpu cannot take work. */
bool prezero_dedicated_start(struct prezero *z, u32 cpu);
/* The same, zeroing @apart over and over (watermarks aside): folios no
 * fault takes, so the foreground gets only the contention. */
bool prezero_apart_start(struct prezero *z, u32 cpu, struct pool *apart);
/* Stop it: false when its CPU did not take the work and was left out
 * (smp_wait()), so nothing zeroed ahead; true when it never started. */
bool prezero_dedicated_stop(struct prezero *z);
/* idle: this CPU's idle task zeroes between the watermarks, a folio at a
 * time with resched points, while the caller sleeps @ms; then the caller
 * waits until the idle task holds no folio.  Under a model only.
 * @simd: the primitive is SIMD, so each call runs between
 * kernel_fpu_begin() and kernel_fpu_end(); the idle task is a kernel
 * task, with no registers of its own to save. */
void prezero_idle(struct prezero *z, u32 cpu, u64 ms, u64 tsc_hz, bool simd);

#endif

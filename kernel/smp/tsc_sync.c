// SPDX-License-Identifier: GPL-2.0-only
/*
 * How far each CPU's TSC is from CPU 0's.  Two measurements, CPU 0 and
 * one other at a time, both spinning on shared lines:
 *
 * - an offset by ping-pong: CPU 0 reads t0 and pings, the other reads t1
 *   and pongs, CPU 0 reads t2; t1 - (t0 + t2) / 2 is the offset to within
 *   half the round trip, kept from the round with the least;
 * - Linux's check_tsc_warp() (arch/x86/kernel/tsc_sync.c): both take a
 *   lock in turn for a while, each reading the TSC and comparing it with
 *   the last one read by either; a read lower than that is a warp.
 *
 * Linux only does the second and corrects with TSC_ADJUST; hugezero
 * corrects nothing, it states the skew, and an aggregate that compares
 * times across CPUs refuses beyond the bound (docs/smp.md).
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/spinlock.h"
#include "arch/x86_64/tsc.h"
#include "kernel/console.h"
#include "kernel/smp/smp.h"
#include "kernel/time/watchdog.h"
#include "lib/calib.h"
#include "lib/format.h"
#include "lib/params.h"
#include "lib/string.h"

#define PINGS 2000
#define WARP_MS 2

static inline u64 rdtsc_ordered(void)
{
	u32 lo, hi;

	__asm__ volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return ((u64)hi << 32) | lo;
}

struct sync {
	volatile u32 ping __aligned(64);
	volatile u32 pong __aligned(64);
	volatile u64 t1;
	volatile u32 step __aligned(64);	/* the target's: how far */
	volatile u32 go;			/* the source's: go on */
	u64 end;		/* TSC past which either gives up */
	struct spinlock lock __aligned(64);
	u64 last, warps;
	u64 warp_ticks;
};

static struct sync sy;

/* Until *@v is @want or the TSC passes @end: the TSC read every 64
 * rounds, so a ping-pong's round trip stays the lines' own. */
static bool await(const volatile u32 *v, u32 want, u64 end)
{
	for (u32 spins = 0; __atomic_load_n(v, __ATOMIC_ACQUIRE) != want;) {
		cpu_relax();
		if (!(++spins & 63) && rdtsc() > end)
			return false;
	}
	return true;
}

/*
 * spin_lock()'s ticket, its wait bounded by @end: false, the ticket
 * abandoned.  FIFO as the ticket lock is, so the two CPUs hand the lock
 * to each other (a try-lock let the one that just unlocked take it
 * again: a quarter of the hand-offs, where alone a warp shows); the lock
 * is theirs alone, both stop at @end, and measure() clears it.
 */
static bool ticket_until(struct spinlock *l, u64 end)
{
	u32 me = __atomic_fetch_add(&l->next, 1, __ATOMIC_ACQUIRE);

	for (u32 spins = 0;
	     __atomic_load_n(&l->owner, __ATOMIC_ACQUIRE) != me;) {
		cpu_relax();
		if (!(++spins & 63) && rdtsc() > end)
			return false;
	}
	return true;
}

/*
 * check_tsc_warp(): each read against the last read by either CPU.  The
 * lock is never waited on past the window: a CPU that died holding it
 * leaves the other at the window's end, not spinning for good.
 */
static void warp_check(void)
{
	u64 end = rdtsc() + sy.warp_ticks;

	while (rdtsc() < end) {
		u64 prev, now;

		if (!ticket_until(&sy.lock, end))
			break;
		prev = sy.last;
		now = rdtsc_ordered();
		sy.last = now;
		if (prev > now)
			sy.warps++;
		spin_unlock(&sy.lock);
	}
}

/* The target's steps, each announced in sy.step, each wait bounded by
 * sy.end: a source that gave up is not waited on for ever. */
static void target(void *arg)
{
	(void)arg;
	__atomic_store_n(&sy.step, 1, __ATOMIC_RELEASE);
	if (!await(&sy.go, 1, sy.end))
		return;
	smp_hang_point(HANG_AT_TSC_SYNC);
	for (u32 i = 1; i <= PINGS; i++) {
		if (!await(&sy.ping, i, sy.end))
			return;
		sy.t1 = rdtsc_ordered();
		__atomic_store_n(&sy.pong, i, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&sy.step, 2, __ATOMIC_RELEASE);
	if (!await(&sy.go, 2, sy.end))
		return;
	warp_check();
}

/* The ping-pong; false, with why, when the target stops answering. */
static bool ping_pong(struct smp_cpu *c, u64 answer, char *why, size_t n)
{
	u64 best = ~0ULL;

	for (u32 i = 1; i <= PINGS; i++) {
		u64 t0, t2, t1;

		watchdog_touch(c->cpu);	/* progress: the last ping answered */
		t0 = rdtsc_ordered();

		__atomic_store_n(&sy.ping, i, __ATOMIC_RELEASE);
		if (!await(&sy.pong, i, t0 + answer)) {
			ksnprintf(why, n, "no answer to the TSC sync's ping %u "
				  "of %u within %u ms", i, PINGS,
				  smp_answer_ms);
			return false;
		}
		t2 = rdtsc_ordered();
		t1 = sy.t1;
		if (t2 - t0 < best) {
			best = t2 - t0;
			c->tsc_offset = (s64)(t1 - t0) - (s64)(best / 2);
			c->tsc_err = (best + 1) / 2;
		}
	}
	return true;
}

/* The target at @step within @answer ticks; else @why: it did not @what
 * within the bound, then @tail. */
static bool await_step(u32 step, u64 answer, const char *what,
		       const char *tail, char *why, size_t n)
{
	if (await(&sy.step, step, rdtsc() + answer))
		return true;
	ksnprintf(why, n, "it did not %s within %u ms%s", what, smp_answer_ms,
		  tail);
	return false;
}

/* Each wait on @c bounded: false, with why, for a CPU that did not
 * answer (it may be hung with interrupts masked, anywhere). */
static bool measure(struct smp_cpu *c, u64 tsc_hz, char *why, size_t n)
{
	u64 answer = tsc_hz / 1000 * smp_answer_ms;

	memset(&sy, 0, sizeof(sy));
	sy.warp_ticks = tsc_hz / 1000 * WARP_MS;
	/* The target's own bound: past every step of ours and the warp's. */
	sy.end = rdtsc() + 4 * answer + sy.warp_ticks;
	if (!on_cpu(c->cpu, target, NULL)) {
		ksnprintf(why, n, "the TSC sync's IPI stayed pending in the "
			  "ICR for 100 ms");
		return false;
	}
	/* Progress after each answered wait: no two bounded waits in a row
	 * add up to the watchdog's stall bound. */
	watchdog_touch(c->cpu);
	if (!await_step(1, answer, "take its TSC sync work", " of the IPI",
			why, n))
		return false;
	__atomic_store_n(&sy.go, 1, __ATOMIC_RELEASE);
	if (!ping_pong(c, answer, why, n))
		return false;
	watchdog_touch(c->cpu);
	if (!await_step(2, answer, "reach the TSC warp check", "", why, n))
		return false;
	__atomic_store_n(&sy.go, 2, __ATOMIC_RELEASE);
	watchdog_touch(c->cpu);
	warp_check();
	if (!smp_wait_for(c->cpu, rdtsc() + answer)) {
		ksnprintf(why, n, "its TSC sync work did not end within %u ms",
			  smp_answer_ms);
		return false;
	}
	c->tsc_warps = sy.warps;
	return true;
}

void smp_tsc_sync(u64 tsc_hz, u64 bound_ns)
{
	char why[96];

	smp_phase_reset();
	smp.skew_bound = mul_div_u64(tsc_hz, bound_ns, 1000000000ULL);
	smp.skew_max = 0;
	smp_hang_point(HANG_AT_TSC_SYNC);	/* the boot CPU's */
	for (u32 cpu = 1; cpu < smp.ncpus; cpu++) {
		struct smp_cpu *c = smp.by_cpu[cpu];
		u64 skew;

		if (!smp_is_up(cpu))
			continue;
		watchdog_touch(cpu);
		if (!measure(c, tsc_hz, why, sizeof(why))) {
			smp_leave_out(cpu, why);
			continue;
		}
		skew = (u64)(c->tsc_offset < 0 ? -c->tsc_offset : c->tsc_offset) +
		       c->tsc_err;
		smp.skew_max = MAX(smp.skew_max, skew);
		printk("tsc: cpu %u: offset %lld ticks (+- %llu) from cpu 0, "
		       "%llu warps\n", cpu, (long long)c->tsc_offset,
		       (unsigned long long)c->tsc_err,
		       (unsigned long long)c->tsc_warps);
		if (c->tsc_warps)
			smp.skew_max = MAX(smp.skew_max, smp.skew_bound + 1);
	}
	smp.tsc_ok = smp.skew_max <= smp.skew_bound;
	if (smp.nup > 1)
		printk("tsc: skew across CPUs at most %llu ticks; bound %llu "
		       "(tsc_skew_ns=%llu): %s\n", (unsigned long long)smp.skew_max,
		       (unsigned long long)smp.skew_bound,
		       (unsigned long long)bound_ns,
		       smp.tsc_ok ? "times compare across CPUs" :
		       "aggregates across CPUs will refuse wall times");
}

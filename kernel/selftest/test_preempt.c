// SPDX-License-Identifier: GPL-2.0-only
/*
 * Self-tests of the sched suite: the preemption models.  Where a wake-up
 * of a higher task gets the CPU under none, voluntary, full and lazy:
 * inside a resched point, on an interrupt's return, inside one REP
 * STOSB, on the way back to ring 3.  The cases are listed in
 * test_sched.c's suite and keep its rules: each leaves the CPU as it
 * found it, and times only relative to each other.
 */
#include "arch/x86_64/irqflags.h"
#include "arch/x86_64/traps.h"
#include "arch/x86_64/tsc.h"
#include "arch/x86_64/user.h"
#include "kernel/bench/workload.h"
#include "kernel/mm/memory.h"
#include "kernel/mm/vmem.h"
#include "kernel/selftest/test_sched.h"
#include "kernel/time/timer.h"
#include "kernel/timebase.h"
#include "lib/calib.h"
#include "lib/string.h"

extern char __utext_start[];

static u64 us_to_tsc(u64 us)
{
	return mul_div_u64(us, timebase.tsc_hz, 1000000);
}

static bool need_timer(struct tctx *t)
{
	if (timer_apic(cpu()))
		return true;
	skip(t, "no usable APIC timer (the apic: line says why)");
	return false;
}

/*
 * A hog of the workload's priority spins with interrupts on, calling the
 * resched points it is given; 500 us in, a ktimer wakes a probe above it.
 * Where the probe first runs -- inside which resched point, after which
 * interrupt, before or after the hog gave up -- is the model's answer.
 */
struct hog_spec {
	enum preempt_model model;
	u32 hz;
	bool might, cond;	/* the resched points the hog calls */
	bool probe_rt;
	u64 bound_us;		/* the hog gives up this long after the wake */
};

struct hog_run {
	const struct hog_spec *spec;
	struct ktimer kt;
	struct task *probe;
	volatile char phase;	/* 'm', 'c': inside might_/cond_resched() */
	volatile bool probe_ran;
	char seen_phase;
	bool ran_during;	/* before the hog gave up */
	bool lazy_at_wake, full_at_wake;
	volatile u64 wake_tsc;
	volatile u64 spins, wake_spins;	/* the hog's loops, all, at the wake */
	u64 wake_ticks, run_ticks;
	struct sched_stats before, after;
};

static void hog_wake(struct ktimer *kt)
{
	struct hog_run *h = (struct hog_run *)((u8 *)kt -
					       offsetof(struct hog_run, kt));

	h->wake_ticks = irq_stats(cpu())->ticks;
	h->wake_spins = h->spins;
	h->wake_tsc = rdtsc();
	wake_up(h->probe);
	h->lazy_at_wake = this_rq()->need_resched_lazy;
	h->full_at_wake = this_rq()->need_resched;
}

static void hog_probe(void *arg)
{
	struct hog_run *h = arg;

	h->run_ticks = irq_stats(cpu())->ticks;
	h->seen_phase = h->phase;
	h->probe_ran = true;
}

static void spin_us(u64 us)
{
	u64 end = rdtsc() + us_to_tsc(us);

	while (rdtsc() < end)
		cpu_relax();
}

/*
 * Until @bound_us after the wake-up (or 5 s, if it never comes), and
 * HOG_MIN_SPINS loops of its own since: a vCPU its host leaves off its
 * core sees the TSC run on while it does not, and must not give up on
 * time it never ran (make test's QEMUs, several to a core).
 */
#define HOG_MIN_SPINS 5000	/* some 200 ms of spinning */

static bool hog_gives_up(const struct hog_run *h, u64 start)
{
	u64 now = rdtsc();

	if (h->wake_tsc)
		return now - h->wake_tsc > us_to_tsc(h->spec->bound_us) &&
		       h->spins - h->wake_spins >= HOG_MIN_SPINS;
	return now - start > us_to_tsc(5000000) && h->spins >= HOG_MIN_SPINS;
}

static void hog_fn(void *arg)
{
	struct hog_run *h = arg;
	u64 start = rdtsc();

	ktimer_arm(cpu(), &h->kt, start + us_to_tsc(500));
	irq_enable();
	while (!h->probe_ran && !hog_gives_up(h, start)) {
		h->spins++;
		spin_us(20);
		if (h->spec->might) {
			h->phase = 'm';
			might_resched();
			h->phase = 0;
		}
		spin_us(20);
		if (h->spec->cond) {
			h->phase = 'c';
			cond_resched();
			h->phase = 0;
		}
	}
	irq_disable();
	ktimer_cancel(cpu(), &h->kt);
	h->ran_during = h->probe_ran;
}

static bool run_hog(struct tctx *t, const struct hog_spec *spec,
		    struct hog_run *h)
{
	struct task *hog;
	bool ok;

	*h = (struct hog_run){ .spec = spec };
	h->kt.fn = hog_wake;
	if (!need_timer(t) || !sched_up(t, spec->model))
		return false;
	if (spec->hz && !sched_set_model(cpu(), spec->model, spec->hz)) {
		skip(t, "no tick at %u Hz", spec->hz);
		sched_down(t);
		return false;
	}
	hog = spawn(t, "hog", hog_fn, h, PRIO_WORKLOAD, false);
	h->probe = spawn(t, "probe", hog_probe, h, PRIO_PROBE, spec->probe_rt);
	h->before = *sched_stats(cpu());
	ok = run_tasks((struct task *[]){ hog, h->probe }, 2);
	h->after = *sched_stats(cpu());
	sched_down(t);
	return ok;
}

static u64 delta(const struct hog_run *h, size_t field)
{
	return *(const u64 *)((const u8 *)&h->after + field) -
	       *(const u64 *)((const u8 *)&h->before + field);
}

#define DELTA(h, f) delta(h, offsetof(struct sched_stats, f))

/*
 * Where the probe ran: inside resched point @phase, or (phase 0) on an
 * interrupt's return -- counted as a preemption, not a resched call.  An
 * interrupt may land inside a point that is a NOP; the counts still tell.
 */
static void expect_point(struct tctx *t, const struct hog_run *h, char phase)
{
	check(t, h->ran_during, "the probe did not run while the hog spun");
	if (phase)
		check(t, h->seen_phase == phase, "the probe ran in phase '%c', "
		      "expected '%c'", h->seen_phase ? h->seen_phase : '0',
		      phase);
	check(t, DELTA(h, preemptions) == !phase, "%llu preemptions",
	      (unsigned long long)DELTA(h, preemptions));
	check(t, DELTA(h, resched_calls) == !!phase, "%llu resched calls",
	      (unsigned long long)DELTA(h, resched_calls));
}

/* None: need_resched waits for cond_resched(); might_resched() is none. */
void none_cond_resched(struct tctx *t)
{
	static const struct hog_spec s = { PREEMPT_MODEL_NONE, 0, true, true,
					   false, 2000000 };
	struct hog_run h;

	if (run_hog(t, &s, &h))
		expect_point(t, &h, 'c');
}

void voluntary_might_resched(struct tctx *t)
{
	static const struct hog_spec s = { PREEMPT_MODEL_VOLUNTARY, 0, true,
					   false, false, 2000000 };
	struct hog_run h;

	if (run_hog(t, &s, &h))
		expect_point(t, &h, 'm');
}

/* Full: on the interrupt's return, between the resched points. */
void full_irq_exit(struct tctx *t)
{
	static const struct hog_spec s = { PREEMPT_MODEL_FULL, 0, true, true,
					   false, 2000000 };
	struct hog_run h;

	if (run_hog(t, &s, &h))
		expect_point(t, &h, 0);
}

/* A normal-class wake-up under lazy asks only for the lazy resched. */
static void expect_lazy_only(struct tctx *t, const struct hog_run *h)
{
	check(t, h->lazy_at_wake && !h->full_at_wake, "wake-up set lazy %d, "
	      "need_resched %d", h->lazy_at_wake, h->full_at_wake);
}

/* Lazy, no tick: a normal-class wake-up never preempts kernel code. */
void lazy_normal_waits(struct tctx *t)
{
	static const struct hog_spec s = { PREEMPT_MODEL_LAZY, 0, true, true,
					   false, 20000 };
	struct hog_run h;

	if (!run_hog(t, &s, &h))
		return;
	expect_lazy_only(t, &h);
	check(t, !h.ran_during && h.probe_ran, "the probe ran %s",
	      h.ran_during ? "while the hog spun" : "never");
}

/* ... and the next tick makes it TIF_NEED_RESCHED. */
void lazy_tick_upgrades(struct tctx *t)
{
	static const struct hog_spec s = { PREEMPT_MODEL_LAZY, 1000, false,
					   false, false, 2000000 };
	struct hog_run h;

	if (!run_hog(t, &s, &h))
		return;
	expect_lazy_only(t, &h);
	check(t, h.ran_during, "the probe did not run while the hog spun");
	check(t, h.run_ticks > h.wake_ticks, "the probe ran before a tick "
	      "(%llu ticks at the wake-up, %llu at the run)",
	      (unsigned long long)h.wake_ticks,
	      (unsigned long long)h.run_ticks);
	check(t, DELTA(&h, preemptions) == 1, "%llu preemptions",
	      (unsigned long long)DELTA(&h, preemptions));
}

/* Lazy, no tick: an rt wake-up preempts at the interrupt's return. */
void lazy_rt_at_once(struct tctx *t)
{
	static const struct hog_spec s = { PREEMPT_MODEL_LAZY, 0, false, false,
					   true, 2000000 };
	struct hog_run h;

	if (!run_hog(t, &s, &h))
		return;
	check(t, h.full_at_wake, "an rt wake-up did not set need_resched");
	expect_point(t, &h, 0);
}

/*
 * Full, interrupts on: a wake-up of a higher task switches in wake_up()'s
 * own preempt_enable(); inside preempt_disable() only the outermost
 * preempt_enable() does.
 */
struct nest {
	struct evlog log;
	struct mark h, i;
	struct task *th, *ti;
};

static void nest_fn(void *arg)
{
	struct nest *n = arg;

	irq_enable();
	log_ev(&n->log, '1');
	wake_up(n->th);
	log_ev(&n->log, '2');
	preempt_disable();
	preempt_disable();
	wake_up(n->ti);
	log_ev(&n->log, '3');
	preempt_enable();
	log_ev(&n->log, '4');
	preempt_enable();
	log_ev(&n->log, '5');
	irq_disable();
}

void full_preempt_enable(struct tctx *t)
{
	struct nest n = { 0 };
	struct task *lo;

	n.h = (struct mark){ &n.log, 'H' };
	n.i = (struct mark){ &n.log, 'I' };
	if (!need_timer(t) || !sched_up(t, PREEMPT_MODEL_FULL))
		return;
	lo = spawn(t, "low", nest_fn, &n, PRIO_WORKLOAD, false);
	n.th = spawn(t, "high", mark_fn, &n.h, PRIO_PROBE, false);
	n.ti = spawn(t, "high", mark_fn, &n.i, PRIO_PROBE, false);
	if (run_tasks((struct task *[]){ lo, n.th, n.ti }, 3))
		log_is(t, &n.log, "1H234I5");
	sched_down(t);
}

/*
 * Full: preempted inside one REP STOSB, which the CPU interrupts between
 * iterations with RDI and RCX updated.  The probe finds the buffer's
 * first byte cleared and its last not yet; the hog, resumed, finishes.
 * If the timer came before the instruction started or after it ended
 * (a host that stalled the vCPU), it is tried again, up to 5 times.
 */
#define STOSB_BYTES	(32 * MiB)

struct stosb_run {
	u8 *buf;
	struct ktimer kt;
	struct task *probe;
	u8 first, last;
	bool cleared;
};

static void stosb_wake(struct ktimer *kt)
{
	wake_up(((struct stosb_run *)((u8 *)kt -
				      offsetof(struct stosb_run, kt)))->probe);
}

static void stosb_probe(void *arg)
{
	struct stosb_run *r = arg;

	r->first = r->buf[0];
	r->last = r->buf[STOSB_BYTES - 1];
}

static void stosb_hog(void *arg)
{
	struct stosb_run *r = arg;
	u8 *p = r->buf;
	u64 n = STOSB_BYTES;

	ktimer_arm(cpu(), &r->kt, rdtsc() + us_to_tsc(500));
	irq_enable();
	__asm__ volatile("rep stosb" : "+D"(p), "+c"(n) : "a"(0) : "memory");
	irq_disable();
	ktimer_cancel(cpu(), &r->kt);
	r->cleared = !r->buf[0] && !r->buf[STOSB_BYTES - 1] && !n;
}

static bool stosb_once(struct tctx *t, struct stosb_run *r)
{
	struct task *hog;

	memset(r->buf, 0xff, STOSB_BYTES);
	r->first = r->last = 0x5a;
	hog = spawn(t, "stosb", stosb_hog, r, PRIO_WORKLOAD, false);
	r->probe = spawn(t, "probe", stosb_probe, r, PRIO_PROBE, false);
	return run_tasks((struct task *[]){ hog, r->probe }, 2);
}

void full_rep_stosb(struct tctx *t)
{
	struct stosb_run r = { 0 };
	u32 tries = 0;

	r.kt.fn = stosb_wake;
	if (!need_timer(t))
		return;
	r.buf = vmem_alloc(STOSB_BYTES);
	if (!r.buf) {
		skip(t, "no memory for a %llu MiB buffer",
		     (unsigned long long)(STOSB_BYTES / MiB));
		return;
	}
	if (!sched_up(t, PREEMPT_MODEL_FULL))
		goto out;
	while (tries++ < 5 && stosb_once(t, &r) &&
	       !(r.first == 0 && r.last == 0xff))
		;
	check(t, r.first == 0 && r.last == 0xff, "the probe saw first byte "
	      "%#x, last %#x after %u tries: not inside the REP STOSB",
	      r.first, r.last, tries);
	check(t, r.cleared, "the REP STOSB did not finish after the switch");
	if (tries > 1)
		note(t, "%u tries", tries);
	sched_down(t);
out:
	vmem_free(r.buf);
}

/* Lazy: the sleeper is normal-class, but a wake-up of the idle task's
 * CPU is never lazy. */
void sleep_until_wakes(struct tctx *t)
{
	struct task *idle;
	u64 deadline = 0, woke = 0, before;
	bool slept = false;

	if (!need_timer(t) || !sched_up(t, PREEMPT_MODEL_LAZY))
		return;
	idle = this_rq()->idle;
	/* A vCPU descheduled past the deadline before sleep_until() looks
	 * finds nothing to sleep for: try again, a few times, never assert
	 * on a sleep that did not happen. */
	for (u32 tries = 0; tries < 3 && !slept; tries++) {
		before = idle->switches_in;
		deadline = rdtsc() + us_to_tsc(20000);
		sleep_until(deadline);
		woke = rdtsc();
		check(t, woke >= deadline, "woke %llu TSC ticks early",
		      (unsigned long long)(deadline - woke));
		/* More than once if a one-shot count fired early. */
		slept = idle->switches_in > before;
	}
	check(t, slept, "idle never ran in three 20 ms sleeps");
	note(t, "woke %llu us after the deadline",
	     (unsigned long long)mul_div_u64(woke - deadline, 1000000,
					     timebase.tsc_hz));
	sched_down(t);
}

/*
 * Lazy, no tick: the same normal-class wake-up that never preempts kernel
 * code is honoured on the way back to ring 3 (exit_to_user_mode_loop()).
 * The ring-3 spin has interrupts on; the probe stops it through the
 * kernel's view of its page.
 */
struct user_run {
	struct ktimer kt;
	struct task *probe;
	struct user_spin *spin;
	bool lazy_at_wake, full_at_wake;
	u64 spins_at_run;
};

static void user_wake(struct ktimer *kt)
{
	struct user_run *u = (struct user_run *)kt;

	wake_up(u->probe);
	u->lazy_at_wake = this_rq()->need_resched_lazy;
	u->full_at_wake = this_rq()->need_resched;
}

static void user_probe(void *arg)
{
	struct user_run *u = arg;

	u->spins_at_run = u->spin->spins;
	u->spin->stop = 1;
}

static void run_ring3(struct workload *wl, struct user_run *u)
{
	u64 rip = USER_CODE_VA + (u64)((char *)user_spin - __utext_start);

	u->spin = (struct user_spin *)wl->args;
	*u->spin = (struct user_spin){ 0, 1ULL << 28, 0 };
	ktimer_arm(cpu(), &u->kt, rdtsc() + us_to_tsc(500));
	workload_enter_space(wl);
	user_run_flags(rip, USER_STACK_VA + SZ_4K, USER_ARGS_VA,
		       USER_RFLAGS | RFLAGS_IF);
	workload_leave_space();
	ktimer_cancel(cpu(), &u->kt);
}

void lazy_user_return(struct tctx *t)
{
	struct user_run u = { 0 };
	struct sched_stats *st = sched_stats(cpu());
	struct workload wl;
	u64 before;

	_Static_assert(offsetof(struct user_run, kt) == 0, "user_wake()");
	u.kt.fn = user_wake;
	if (!need_timer(t))
		return;
	if (!workload_create(&wl, WL_MAX_FAULTS, FRAME_ANY_NODE)) {
		skip(t, "no memory for a ring-3 address space");
		workload_destroy(&wl);
		return;
	}
	if (!sched_up(t, PREEMPT_MODEL_LAZY))
		goto out;
	user_init();
	u.probe = spawn(t, "probe", user_probe, &u, PRIO_PROBE, false);
	if (u.probe) {
		before = st->switches;
		run_ring3(&wl, &u);
		check(t, u.lazy_at_wake && !u.full_at_wake, "wake-up set lazy "
		      "%d, need_resched %d", u.lazy_at_wake, u.full_at_wake);
		check(t, u.spin->stop && u.spin->spins < u.spin->bound,
		      "ring 3 spun to its bound: the probe did not run");
		check(t, st->switches - before == 2, "%llu switches, expected "
		      "2", (unsigned long long)(st->switches - before));
		wake_up(u.probe);
		task_join(u.probe);
	}
	sched_down(t);
out:
	workload_destroy(&wl);
}

/*
 * Lazy: the same on the return from an exception to ring 3, interrupts
 * off throughout as in the workload's #PF path: the #BP's handler wakes
 * the probe, the return to ring 3 runs it before the next instruction.
 */
static struct task *trap_probe;
static bool trap_lazy;

static bool user_bp(struct regs *r)
{
	if (!(r->cs & 3))
		return false;
	wake_up(trap_probe);
	trap_lazy = this_rq()->need_resched_lazy && !this_rq()->need_resched;
	return true;
}

void lazy_trap_return(struct tctx *t)
{
	struct evlog log = { 0 };
	struct mark m = { &log, 'P' };
	struct workload wl;
	u64 rip = USER_CODE_VA + (u64)((char *)user_trap - __utext_start);

	if (!workload_create(&wl, WL_MAX_FAULTS, FRAME_ANY_NODE)) {
		skip(t, "no memory for a ring-3 address space");
		workload_destroy(&wl);
		return;
	}
	if (!sched_up(t, PREEMPT_MODEL_LAZY))
		goto out;
	user_init();
	trap_probe = spawn(t, "probe", mark_fn, &m, PRIO_PROBE, false);
	if (trap_probe) {
		trap_set_handler(X86_BP, user_bp);
		workload_enter_space(&wl);
		user_run(rip, USER_STACK_VA + SZ_4K, 0);
		workload_leave_space();
		trap_set_handler(X86_BP, NULL);
		log_ev(&log, 'U');
		check(t, trap_lazy, "the wake-up in the #BP was not lazy");
		task_join(trap_probe);
		log_is(t, &log, "PU");
	}
	sched_down(t);
out:
	workload_destroy(&wl);
}

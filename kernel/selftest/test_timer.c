// SPDX-License-Identifier: GPL-2.0-only
/*
 * Self-tests: the LAPIC timer, ktimers and the tick.  Interrupts are
 * enabled only inside a case's waits, each bounded on the TSC; nothing
 * asserts a speed: QEMU's TCG is slow and its host may be loaded, so
 * rates are checked within wide relative bounds and latencies are only
 * reported.
 */
#include "arch/x86_64/apic.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/traps.h"
#include "arch/x86_64/tsc.h"
#include "kernel/selftest/selftest.h"
#include "kernel/time/timer.h"
#include "kernel/timebase.h"
#include "lib/calib.h"
#include "lib/stats.h"
#include "lib/string.h"

#define LOG_MAX		8
#define LATENCY_RUNS	16

struct fire_log {
	volatile u32 n;
	u32 order[LOG_MAX];
};

/* A ktimer that notes when, in which interrupt and with which RFLAGS it
 * fired. */
struct probe {
	struct ktimer kt;	/* first: the callback's pointer is ours */
	struct fire_log *log;
	u32 id;
	u64 fired_at;
	u64 irqs;		/* irq_stats' count before this interrupt's */
	u64 rflags;
};

static u32 cpu(void)
{
	return this_cpu()->cpu;
}

static u64 us_to_tsc(u64 us)
{
	return mul_div_u64(us, timebase.tsc_hz, 1000000);
}

static u64 tsc_to_us(u64 ticks)
{
	return tsc_to_ns(ticks) / 1000;
}

static bool need_timer(struct tctx *t)
{
	if (timer_apic(cpu()))
		return true;
	if (!cpu_info.has_apic)
		skip(t, "CPU has no local APIC (CPUID 1:EDX[9] clear)");
	else
		skip(t, "APIC timer unusable (the apic: line says why)");
	return false;
}

/*
 * Interrupts on until *@count reaches @want (never, for a NULL @count) or
 * @us have passed; the caller's IF after.  True if the count was reached.
 * The loop reads the TSC continually and leaves its latest read in
 * *@last if given: a handler that finds it old knows the vCPU stalled (a
 * loaded host, a stopped QEMU) just before it.
 */
static bool wait_irqs(const volatile u32 *count, u32 want, u64 us,
		      volatile u64 *last)
{
	u64 flags = read_rflags(), now = rdtsc(), end = now + us_to_tsc(us);
	bool done;

	irq_enable();
	do {
		if (last)
			*last = now;
		cpu_relax();
	} while (!(count && *count >= want) && (now = rdtsc()) < end);
	irq_disable();
	done = count && *count >= want;
	if (flags & RFLAGS_IF)
		irq_enable();
	return done;
}

static bool irqs_on(const volatile u32 *count, u32 want, u64 us)
{
	return wait_irqs(count, want, us, NULL);
}

static void probe_fire(struct ktimer *kt)
{
	struct probe *p = (struct probe *)kt;

	p->fired_at = rdtsc();
	p->irqs = irq_stats(cpu())->irqs;
	p->rflags = read_rflags();
	if (p->log->n < LOG_MAX)
		p->log->order[p->log->n] = p->id;
	p->log->n++;
}

static void probe_init(struct probe *p, struct fire_log *log, u32 id)
{
	memset(p, 0, sizeof(*p));
	p->kt.fn = probe_fire;
	p->log = log;
	p->id = id;
}

/* Nothing has interrupted the kernel so far: no tick unless asked. */
static void quiet_until_armed(struct tctx *t)
{
	const struct irq_stats *s = irq_stats(cpu());

	check(t, !(read_rflags() & RFLAGS_IF), "interrupts are enabled");
	check(t, !s->irqs && !s->ticks && !s->spurious && !s->handler_tsc,
	      "irq_stats before any timer was armed: %llu irqs, %llu ticks, "
	      "%llu spurious, %llu handler ticks",
	      (unsigned long long)s->irqs, (unsigned long long)s->ticks,
	      (unsigned long long)s->spurious,
	      (unsigned long long)s->handler_tsc);
}

static bool fire_one(struct tctx *t, struct probe *p, u64 us, u64 *latency)
{
	struct fire_log log = { 0, { 0 } };

	probe_init(p, &log, 0);
	ktimer_arm(cpu(), &p->kt, rdtsc() + us_to_tsc(us));
	if (!irqs_on(&log.n, 1, 1000000)) {
		ktimer_cancel(cpu(), &p->kt);
		return check(t, false, "a ktimer %llu us ahead did not fire "
			     "in 1 s", (unsigned long long)us);
	}
	check(t, p->fired_at >= p->kt.deadline, "fired %llu ticks early",
	      (unsigned long long)(p->kt.deadline - p->fired_at));
	check(t, !(p->rflags & RFLAGS_IF), "callback ran with IF set");
	check(t, !p->kt.armed, "still marked armed after firing");
	*latency = p->fired_at - p->kt.deadline;
	return true;
}

static void ktimer_fires(struct tctx *t)
{
	u64 lat[LATENCY_RUNS];
	struct stats st;
	struct probe p;
	u32 n = 0;

	if (!need_timer(t))
		return;
	while (n < LATENCY_RUNS && fire_one(t, &p, 500, &lat[n]))
		n++;
	if (!n)
		return;
	stats_of(lat, n, &st);
	note(t, "latency (fired - deadline) over %u: median %llu ticks "
	     "(%llu us), max %llu ticks (%llu us); timer %s", n,
	     (unsigned long long)st.median,
	     (unsigned long long)tsc_to_us(st.median),
	     (unsigned long long)st.max, (unsigned long long)tsc_to_us(st.max),
	     timer_apic(cpu())->mode);
}

/* Armed out of order (one twice at the same deadline): fire in order. */
static void ktimer_order(struct tctx *t)
{
	static const u32 ms[] = { 3, 1, 4, 2, 5, 1 };
	static const u32 want[] = { 1, 5, 3, 0, 2, 4 };
	struct probe p[ARRAY_SIZE(ms)];
	struct fire_log log = { 0, { 0 } };
	u64 now = rdtsc();

	if (!need_timer(t))
		return;
	for (u32 i = 0; i < ARRAY_SIZE(ms); i++) {
		probe_init(&p[i], &log, i);
		ktimer_arm(cpu(), &p[i].kt, now + us_to_tsc(ms[i] * 1000));
	}
	check(t, irqs_on(&log.n, ARRAY_SIZE(ms), 2000000),
	      "%u of %zu ktimers fired in 2 s", log.n, ARRAY_SIZE(ms));
	for (u32 i = 0; i < ARRAY_SIZE(ms); i++) {
		ktimer_cancel(cpu(), &p[i].kt);
		check(t, i >= log.n || log.order[i] == want[i],
		      "firing %u was timer %u, expected %u", i, log.order[i],
		      want[i]);
		check(t, !p[i].fired_at || p[i].fired_at >= p[i].kt.deadline,
		      "timer %u fired before its deadline", i);
	}
}

static void ktimer_cancel_case(struct tctx *t)
{
	struct probe a, b, c;
	struct fire_log log = { 0, { 0 } };
	u64 now = rdtsc();

	if (!need_timer(t))
		return;
	probe_init(&a, &log, 0);
	probe_init(&b, &log, 1);
	probe_init(&c, &log, 2);
	ktimer_arm(cpu(), &a.kt, now + us_to_tsc(2000));
	ktimer_arm(cpu(), &b.kt, now + us_to_tsc(1000));	/* the head */
	ktimer_arm(cpu(), &c.kt, now + us_to_tsc(3000));	/* the tail */
	ktimer_cancel(cpu(), &b.kt);
	ktimer_cancel(cpu(), &c.kt);
	ktimer_cancel(cpu(), &b.kt);	/* not armed: nothing to do */
	check(t, irqs_on(&log.n, 1, 1000000), "the kept timer did not fire");
	irqs_on(NULL, 0, 10000);	/* past every cancelled deadline */
	ktimer_cancel(cpu(), &a.kt);
	check(t, log.n == 1 && log.order[0] == 0,
	      "%u fired (first: timer %u); only timer 0 should have", log.n,
	      log.order[0]);
	check(t, !b.fired_at && !c.fired_at, "a cancelled timer fired");
}

/* Armed far off, then moved close: fires once, at the new deadline. */
static void ktimer_move(struct tctx *t)
{
	struct fire_log log = { 0, { 0 } };
	struct probe p;
	u64 now = rdtsc(), first = now + us_to_tsc(200000);

	if (!need_timer(t))
		return;
	probe_init(&p, &log, 0);
	ktimer_arm(cpu(), &p.kt, first);
	ktimer_arm(cpu(), &p.kt, now + us_to_tsc(1000));
	check(t, irqs_on(&log.n, 1, 1000000), "the moved timer did not fire");
	while (rdtsc() < first + us_to_tsc(5000))
		irqs_on(NULL, 0, 10000);
	ktimer_cancel(cpu(), &p.kt);
	check(t, log.n == 1, "fired %u times", log.n);
}

/*
 * A deadline the one-shot count cannot reach in one go (the clamp lowered
 * to about 100 us): it comes early, each time armed for the rest, and the
 * timer still fires after its deadline.  A vCPU stalled past the whole
 * window sees one interrupt only: 50 ms, so that a host running three
 * QEMUs on two cores (make test) leaves some of it, and up to 5 tries.
 */
static void ktimer_past_clamp(struct tctx *t)
{
	const struct irq_stats *s = irq_stats(cpu());
	u64 irqs = 0, lat = 0;
	struct probe p;
	bool ok = true;
	u32 old, tries;

	if (!need_timer(t))
		return;
	if (timer_apic(cpu())->tsc_deadline) {
		skip(t, "TSC-deadline mode has no count to clamp");
		return;
	}
	old = lapic_timer_clamp((u32)(timer_apic(cpu())->timer_hz / 10000));
	for (tries = 0; ok && irqs < 2 && tries < 5; tries++) {
		u64 irqs0 = s->irqs;

		ok = fire_one(t, &p, 50000, &lat);
		irqs = s->irqs - irqs0;
	}
	lapic_timer_clamp(old);
	if (!ok)
		return;
	note(t, "50 ms in ~100 us counts: %llu interrupts (try %u), latency "
	     "%llu us", (unsigned long long)irqs, tries,
	     (unsigned long long)tsc_to_us(lat));
	check(t, irqs >= 2, "never came early: %llu interrupt in each of %u "
	      "tries", (unsigned long long)irqs, tries);
}

static volatile u32 ticks_seen;

static void count_tick(void)
{
	ticks_seen++;
}

static bool start_tick(struct tctx *t, u32 hz, void (*fn)(void))
{
	char why[96];

	ticks_seen = 0;
	return check(t, tick_start(cpu(), hz, fn, why, sizeof(why)),
		     "tick_start(%u): %s", hz, why);
}

struct tick_window {
	u64 tsc, ticks, missed, expect;
};

static bool tick_window(struct tctx *t, struct tick_window *w)
{
	const struct irq_stats *s = irq_stats(cpu());
	u64 ticks0 = s->ticks, missed0 = s->ticks_missed, t0;

	if (!start_tick(t, 250, count_tick))
		return false;
	t0 = rdtsc();
	irqs_on(NULL, 0, 400000);
	w->tsc = rdtsc() - t0;
	tick_stop(cpu());
	w->ticks = s->ticks - ticks0;
	w->missed = s->ticks_missed - missed0;
	w->expect = mul_div_u64(w->tsc, 250, timebase.tsc_hz);
	return check(t, w->ticks == ticks_seen, "irq_stats counted %llu "
		     "ticks, the callback %u", (unsigned long long)w->ticks,
		     ticks_seen);
}

/* A tenth of the ticks skipped: the host delayed them (a stalled vCPU,
 * QEMU's timer thread starved), or the tick is broken. */
static bool disturbed(const struct tick_window *w)
{
	return w->missed * 10 > w->expect;
}

/*
 * hz=250 over a TSC-measured window: the count within 0.6x..1.4x of
 * window x hz (wide, yet a tick at twice or two thirds the period fails).
 * A disturbed window is measured again, up to 3 times; if all were, the
 * periods the tick accounted for (ticks and those it skipped) are judged.
 */
static void tick_rate(struct tctx *t)
{
	struct tick_window w;
	u64 counted;
	u32 tries;

	if (!need_timer(t))
		return;
	for (tries = 1;; tries++) {
		if (!tick_window(t, &w))
			return;
		if (!disturbed(&w) || tries == 3)
			break;
	}
	counted = w.ticks + (disturbed(&w) ? w.missed : 0);
	note(t, "window %u: %llu ticks at hz=250 in %llu us (expected %llu), "
	     "%llu missed%s", tries, (unsigned long long)w.ticks,
	     (unsigned long long)tsc_to_us(w.tsc),
	     (unsigned long long)w.expect, (unsigned long long)w.missed,
	     disturbed(&w) ? ": all disturbed, missed ones count" : "");
	check(t, counted * 10 >= w.expect * 6 && counted * 10 <= w.expect * 14,
	      "%llu ticks, expected %llu (0.6x..1.4x)",
	      (unsigned long long)counted, (unsigned long long)w.expect);
}

static void tick_stops(struct tctx *t)
{
	const struct irq_stats *s = irq_stats(cpu());
	u64 irqs0, ticks0;

	if (!need_timer(t) || !start_tick(t, 1000, count_tick))
		return;
	check(t, irqs_on(&ticks_seen, 5, 1000000), "%u ticks at hz=1000 in "
	      "1 s", ticks_seen);
	tick_stop(cpu());
	irqs0 = s->irqs;
	ticks0 = s->ticks;
	irqs_on(NULL, 0, 50000);
	/* One interrupt may have been pending when the tick stopped. */
	check(t, s->ticks == ticks0 && s->irqs - irqs0 <= 1, "after tick_stop: "
	      "%llu ticks, %llu interrupts in 50 ms",
	      (unsigned long long)(s->ticks - ticks0),
	      (unsigned long long)(s->irqs - irqs0));
}

static void tick_rates(struct tctx *t)
{
	static const u32 bad[] = { 0, 99, 300, 1001 };
	const struct irq_stats *s = irq_stats(cpu());
	char why[96];
	u64 irqs0;

	if (!need_timer(t))
		return;
	irqs0 = s->irqs;
	for (u32 i = 0; i < ARRAY_SIZE(bad); i++) {
		bool ok = tick_start(cpu(), bad[i], count_tick, why,
				     sizeof(why));

		check(t, !ok, "hz=%u accepted", bad[i]);
		check(t, ok || !strncmp(why, "hz=", 3), "hz=%u: '%s'",
		      bad[i], why);
		if (ok)
			tick_stop(cpu());
	}
	irqs_on(NULL, 0, 20000);
	check(t, s->irqs == irqs0, "%llu interrupts after refused ticks",
	      (unsigned long long)(s->irqs - irqs0));
	note(t, "refused: %s", why);
}

/*
 * A ktimer a quarter period after a tick fires in an interrupt of its
 * own, before the next tick: the hardware is armed for the earliest
 * event, not the next tick.  A vCPU stalled across both deadlines sees
 * them due in one interrupt: such a round, ending on a stall of half a
 * period or more, does not count.  An interrupt QEMU itself delivers late
 * (its timer thread starved on a loaded host) leaves no gap in the loop,
 * so half the rounds must be apart, not all: armed for the tick alone,
 * none are.
 */
#define BETWEEN_ROUNDS	10

struct between {
	struct probe p;
	struct fire_log log;
	volatile u64 last;	/* the wait loop's latest TSC read */
	u64 stall;		/* half a period */
	u32 rounds, separate, stalled;
	bool waiting;
};

static struct between between;

static void between_tick(void)
{
	struct between *b = &between;
	u64 irqs = irq_stats(cpu())->irqs;

	ticks_seen++;
	if (b->waiting && b->log.n) {
		bool separate = b->p.irqs < irqs;

		if (separate || rdtsc() - b->last < b->stall) {
			b->separate += separate;
			b->rounds++;
		} else {
			b->stalled++;
		}
		b->waiting = false;
	}
	if (!b->waiting && b->rounds < BETWEEN_ROUNDS) {
		b->log.n = 0;
		b->waiting = true;
		ktimer_arm(cpu(), &b->p.kt, rdtsc() + timebase.tsc_hz / 400);
	}
}

static void ktimer_between_ticks(struct tctx *t)
{
	struct between *b = &between;
	u32 rounds;

	if (!need_timer(t))
		return;
	memset(b, 0, sizeof(*b));
	probe_init(&b->p, &b->log, 0);
	b->stall = timebase.tsc_hz / 200;
	if (!start_tick(t, 100, between_tick))
		return;
	wait_irqs(&b->rounds, BETWEEN_ROUNDS, 3000000, &b->last);
	tick_stop(cpu());
	ktimer_cancel(cpu(), &b->p.kt);
	rounds = b->rounds;
	note(t, "%u of %u ktimers fired in an interrupt before the next tick's "
	     "(%u rounds left out: a stall)", b->separate, rounds, b->stalled);
	if (rounds < BETWEEN_ROUNDS && !b->stalled) {
		check(t, false, "only %u rounds in 3 s", rounds);
		return;
	}
	if (rounds < BETWEEN_ROUNDS / 2) {
		skip(t, "the host stalled %u of %u rounds", b->stalled,
		     b->stalled + rounds);
		return;
	}
	check(t, b->separate * 2 >= rounds, "%u of %u ktimers waited for the "
	      "next tick", rounds - b->separate, rounds);
}

static void stats_counted(struct tctx *t)
{
	const struct irq_stats *s = irq_stats(cpu());

	if (!need_timer(t))
		return;
	check(t, s->irqs && s->ticks && s->handler_tsc, "after the timer "
	      "cases: %llu irqs, %llu ticks, %llu handler ticks",
	      (unsigned long long)s->irqs, (unsigned long long)s->ticks,
	      (unsigned long long)s->handler_tsc);
	check(t, s->ticks < s->irqs, "%llu ticks of %llu irqs",
	      (unsigned long long)s->ticks, (unsigned long long)s->irqs);
	if (s->irqs)
		note(t, "%llu irqs, %llu ticks, %llu TSC ticks per handler",
		     (unsigned long long)s->irqs, (unsigned long long)s->ticks,
		     (unsigned long long)(s->handler_tsc / s->irqs));
}

/* Raised in software: the handlers' bookkeeping, not the hardware's. */
static void spurious(struct tctx *t)
{
	const struct irq_stats *s = irq_stats(cpu());
	u64 sp0 = s->spurious, irqs0 = s->irqs;

	__asm__ volatile("int $0xff" ::: "memory");	/* VEC_SPURIOUS */
	__asm__ volatile("int $0x27" ::: "memory");	/* 8259 IRQ7 */
	__asm__ volatile("int $0x2f" ::: "memory");	/* 8259 IRQ15 */
	check(t, s->spurious - sp0 == 3, "%llu of 3 spurious counted",
	      (unsigned long long)(s->spurious - sp0));
	check(t, s->irqs - irqs0 == 3, "%llu of 3 interrupts counted",
	      (unsigned long long)(s->irqs - irqs0));
}

struct hook_seen {
	u32 calls;
	u64 vector, rflags, irqs;
	bool eoi_done, frame_on_my_stack, irqs_off;
	const struct fire_log *log;
};

static struct hook_seen hook_seen;

static void record_exit(struct regs *r)
{
	struct hook_seen *h = &hook_seen;
	u64 at = (u64)r, me = (u64)__builtin_frame_address(0);

	/* An interrupt left pending by an earlier case may come first. */
	if (!h->log->n || h->calls++)
		return;
	h->irqs = irq_stats(cpu())->irqs;
	h->vector = r->vector;
	h->rflags = r->rflags;
	h->eoi_done = !timer_apic(cpu()) || !lapic_in_service((u8)r->vector);
	/* Just above the hook's own frame: the stack a switch would save. */
	h->frame_on_my_stack = at > me && at - me < KSTACK_SIZE;
	h->irqs_off = !(read_rflags() & RFLAGS_IF);
}

static void irq_exit_hook(struct tctx *t)
{
	struct hook_seen *h = &hook_seen;
	struct fire_log log = { 0, { 0 } };
	irq_exit_fn old;
	struct probe p;

	if (!need_timer(t))
		return;
	memset(h, 0, sizeof(*h));
	h->log = &log;
	probe_init(&p, &log, 0);
	old = trap_set_irq_exit_hook(record_exit);
	ktimer_arm(cpu(), &p.kt, rdtsc() + us_to_tsc(500));
	irqs_on(&log.n, 1, 1000000);
	ktimer_cancel(cpu(), &p.kt);
	trap_set_irq_exit_hook(old);
	if (!check(t, h->calls >= 1, "hook not called after the timer fired"))
		return;
	check(t, h->vector == VEC_LOCAL_TIMER, "hook saw vector %#llx",
	      (unsigned long long)h->vector);
	check(t, h->rflags & RFLAGS_IF, "frame's RFLAGS %#llx: the interrupted "
	      "context had IF clear", (unsigned long long)h->rflags);
	check(t, h->irqs == p.irqs + 1, "hook not after the handler that "
	      "fired the timer (irqs %llu, then %llu)",
	      (unsigned long long)p.irqs, (unsigned long long)h->irqs);
	check(t, h->eoi_done, "timer vector still in service in the hook");
	check(t, h->frame_on_my_stack, "frame not on the hook's stack");
	check(t, h->irqs_off, "hook ran with IF set");
}

static void arm_other(void *arg)
{
	ktimer_arm(cpu() ^ 1, arg, rdtsc() + us_to_tsc(1000));
}

static void cancel_other(void *arg)
{
	ktimer_cancel(cpu() ^ 1, arg);
}

/* Another CPU's timer list and APIC: a BUG before either is touched.
 * Its number only, so one CPU will do. */
static void ktimer_own_cpu_only(struct tctx *t)
{
	void (*const fns[])(void *) = { arm_other, cancel_other };
	struct fire_log log = { 0, { 0 } };
	struct trap_info ti;
	struct probe p;

	probe_init(&p, &log, 0);
	note(t, "two 'timer: BUG' lines follow, on purpose");
	for (u32 i = 0; i < ARRAY_SIZE(fns); i++) {
		u64 r = trap_try(fns[i], &p.kt, &ti);

		check(t, r == X86_UD + 1, "%s for cpu %u on cpu %u: %s%s",
		      i ? "ktimer_cancel()" : "ktimer_arm()", cpu() ^ 1, cpu(),
		      r ? "" : "no BUG", r ? trap_name(r - 1) : "");
	}
	check(t, !p.kt.armed, "the timer was armed anyway");
	check(t, !(read_rflags() & RFLAGS_IF), "interrupts left enabled");
}

/* What the benchmark then gets: nothing armed, nothing arriving. */
static void quiet_after(struct tctx *t)
{
	const struct irq_stats *s = irq_stats(cpu());
	u64 irqs0 = s->irqs;

	check(t, !(read_rflags() & RFLAGS_IF), "interrupts left enabled");
	irqs_on(NULL, 0, 20000);
	check(t, s->irqs == irqs0, "%llu interrupts with nothing armed",
	      (unsigned long long)(s->irqs - irqs0));
}

SUITE(suite_timer, "timer",
	{ "quiet_until_armed", quiet_until_armed },
	{ "ktimer_fires", ktimer_fires },
	{ "ktimer_order", ktimer_order },
	{ "ktimer_cancel", ktimer_cancel_case },
	{ "ktimer_move", ktimer_move },
	{ "ktimer_past_clamp", ktimer_past_clamp },
	{ "tick_rate", tick_rate },
	{ "tick_stops", tick_stops },
	{ "tick_rates", tick_rates },
	{ "ktimer_between_ticks", ktimer_between_ticks },
	{ "stats_counted", stats_counted },
	{ "spurious", spurious },
	{ "irq_exit_hook", irq_exit_hook },
	{ "ktimer_own_cpu_only", ktimer_own_cpu_only },
	{ "quiet_after", quiet_after },
);

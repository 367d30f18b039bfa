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

/* A ktimer that notes when, and with which RFLAGS, it fired. */
struct probe {
	struct ktimer kt;	/* first: the callback's pointer is ours */
	struct fire_log *log;
	u32 id;
	u64 fired_at;
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
 */
static bool irqs_on(const volatile u32 *count, u32 want, u64 us)
{
	u64 flags = read_rflags(), end = rdtsc() + us_to_tsc(us);
	bool done;

	irq_enable();
	while (!(count && *count >= want) && rdtsc() < end)
		cpu_relax();
	irq_disable();
	done = count && *count >= want;
	if (flags & RFLAGS_IF)
		irq_enable();
	return done;
}

static void probe_fire(struct ktimer *kt)
{
	struct probe *p = (struct probe *)kt;

	p->fired_at = rdtsc();
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

static bool fire_one(struct tctx *t, struct probe *p, u64 *latency)
{
	struct fire_log log = { 0, { 0 } };

	probe_init(p, &log, 0);
	ktimer_arm(cpu(), &p->kt, rdtsc() + us_to_tsc(500));
	if (!irqs_on(&log.n, 1, 1000000)) {
		ktimer_cancel(cpu(), &p->kt);
		return check(t, false, "a ktimer 500 us ahead did not fire in 1 s");
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
	while (n < LATENCY_RUNS && fire_one(t, &p, &lat[n]))
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

/* hz=250 over a TSC-measured window: the count within 0.5x..1.5x. */
static void tick_rate(struct tctx *t)
{
	const struct irq_stats *s = irq_stats(cpu());
	u64 ticks0 = s->ticks, missed0 = s->ticks_missed, t0, t1, expect;

	if (!need_timer(t) || !start_tick(t, 250, count_tick))
		return;
	t0 = rdtsc();
	irqs_on(NULL, 0, 400000);
	t1 = rdtsc();
	tick_stop(cpu());
	expect = mul_div_u64(t1 - t0, 250, timebase.tsc_hz);
	note(t, "%u ticks at hz=250 in %llu us (expected %llu), %llu missed",
	     ticks_seen, (unsigned long long)tsc_to_us(t1 - t0),
	     (unsigned long long)expect,
	     (unsigned long long)(s->ticks_missed - missed0));
	check(t, ticks_seen * 2 >= expect && ticks_seen * 2 <= expect * 3,
	      "%u ticks, expected %llu (0.5x..1.5x)", ticks_seen,
	      (unsigned long long)expect);
	check(t, s->ticks - ticks0 == ticks_seen, "irq_stats counted %llu "
	      "ticks, the callback %u",
	      (unsigned long long)(s->ticks - ticks0), ticks_seen);
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
		bool ok = tick_start(cpu(), bad[i], count_tick, why, sizeof(why));

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
 * event, not the next tick.  Counted over rounds, as a stalled vCPU may
 * see both due in one interrupt.
 */
struct between {
	struct probe p;
	struct fire_log log;
	u64 fired_irqs;
	u32 rounds, separate;
	bool waiting;
};

static struct between between;

static void between_fire(struct ktimer *kt)
{
	probe_fire(kt);
	between.fired_irqs = irq_stats(cpu())->irqs;
}

static void between_tick(void)
{
	struct between *b = &between;
	u64 irqs = irq_stats(cpu())->irqs;

	ticks_seen++;
	if (b->waiting && b->log.n) {
		b->separate += b->fired_irqs < irqs;
		b->rounds++;
		b->waiting = false;
	}
	if (!b->waiting && b->rounds < 10) {
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
	b->p.kt.fn = between_fire;
	if (!start_tick(t, 100, between_tick))
		return;
	irqs_on(&b->rounds, 10, 2000000);
	tick_stop(cpu());
	ktimer_cancel(cpu(), &b->p.kt);
	rounds = b->rounds;
	note(t, "%u of %u ktimers fired in an interrupt before the next tick's",
	     b->separate, rounds);
	check(t, rounds == 10, "only %u rounds in 2 s", rounds);
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
	u64 vector, rflags;
	bool eoi_done, frame_on_stack, irqs_off, after_handler;
	struct fire_log *log;
};

static struct hook_seen hook_seen;

static void record_exit(struct regs *r)
{
	struct hook_seen *h = &hook_seen;
	struct cpu_stacks *st = this_cpu()->stacks;
	u64 at = (u64)r;

	if (h->calls++)
		return;
	h->vector = r->vector;
	h->rflags = r->rflags;
	h->eoi_done = !timer_apic(cpu()) || !lapic_in_service((u8)r->vector);
	h->frame_on_stack = at >= (u64)st->kernel &&
			    at + sizeof(*r) <= (u64)st->kernel + KSTACK_SIZE;
	h->irqs_off = !(read_rflags() & RFLAGS_IF);
	h->after_handler = h->log->n == 1;
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
	if (!check(t, h->calls >= 1, "hook not called"))
		return;
	check(t, h->vector == VEC_LOCAL_TIMER, "hook saw vector %#llx",
	      (unsigned long long)h->vector);
	check(t, h->rflags & RFLAGS_IF, "frame's RFLAGS %#llx: the "
	      "interrupted context had IF clear", (unsigned long long)h->rflags);
	check(t, h->after_handler, "hook ran before the handler");
	check(t, h->eoi_done, "timer vector still in service in the hook");
	check(t, h->frame_on_stack, "frame not on the kernel stack");
	check(t, h->irqs_off, "hook ran with IF set");
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
	{ "tick_rate", tick_rate },
	{ "tick_stops", tick_stops },
	{ "tick_rates", tick_rates },
	{ "ktimer_between_ticks", ktimer_between_ticks },
	{ "stats_counted", stats_counted },
	{ "spurious", spurious },
	{ "irq_exit_hook", irq_exit_hook },
	{ "quiet_after", quiet_after },
);

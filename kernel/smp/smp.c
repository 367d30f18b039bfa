// SPDX-License-Identifier: GPL-2.0-only
/*
 * Bringing up the application processors and giving them work.  The boot
 * CPU starts them one at a time (they share the trampoline), as Linux's
 * bringup_nonboot_cpus() did before parallel bring-up; each AP sets up
 * its own state (ap_main) and parks in hlt until on_cpu() hands it a
 * function and an IPI on VEC_CALL_FUNCTION -- Linux's
 * smp_call_function_single() in miniature.
 */
#include "arch/x86_64/apic.h"
#include "arch/x86_64/cache.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpu_setup.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/smpboot.h"
#include "arch/x86_64/traps.h"
#include "arch/x86_64/tsc.h"
#include "kernel/console.h"
#include "kernel/main.h"
#include "kernel/mm/kstack.h"
#include "kernel/mm/memory.h"
#include "kernel/mm/vmem.h"
#include "kernel/smp/smp.h"
#include "kernel/time/timer.h"
#include "kernel/time/watchdog.h"
#include "kernel/timebase.h"
#include "kernel/watch.h"
#include "lib/cpunum.h"
#include "lib/format.h"
#include "lib/params.h"
#include "lib/string.h"

const char *const smp_state_names[] = { "up", "no-answer", "disabled",
					"over-max", "failed" };

struct smp_info smp;
/* Every waiter reads it as it spins; written at most once a phase. */
volatile bool smp_aborted __cacheline_aligned;
u32 smp_answer_ms = SMP_ANSWER_MS;

/* Read by idle CPUs alone, set once (smp_stop_others()), never reset. */
volatile bool smp_ending;

/*
 * One CPU's mailbox: the work, and how far it got.  @taken is the AP's
 * answer that it took the work last posted (TAKE_REFUSED: the waiter
 * gave up on it first), on a line of its own: an IPI delivered says
 * nothing of whether the CPU will ever take it (x2APIC's ICR has no
 * delivery status at all), so every waiter asks this, bounded.
 */
struct cpu_work {
	void (*fn)(void *);
	void *arg;
	volatile u32 posted, done;
	u32 gate;		/* smp_run()'s: run once start.gen is this */
	volatile u32 taken __aligned(64);
} __aligned(64);

#define TAKE_REFUSED	0xffffffffu

/* smp_run()'s start: every member took its work before any runs it,
 * so that a member left out never holds the others at a barrier.
 * @cancelled names the gate called off, not a flag the next run resets:
 * work of that gate taken late still runs nothing. */
static struct {
	volatile u32 gen;
	volatile u32 cancelled;
} start __cacheline_aligned;

static struct cpu_work work[MAX_CPUS];
static struct percpu percpus[MAX_CPUS];
static u32 hang_at;
static struct cpu_set hang_cpus;
static u32 work_fail;		/* work_fail=: its next work IPI is stuck */
static u32 stuck;		/* that CPU once stuck: its IPI comes late */

void smp_set_hang(u32 at, const struct cpu_set *cpus)
{
	hang_at = at;
	hang_cpus = *cpus;
}

void smp_set_work_fail(u32 cpu)
{
	work_fail = cpu;
}

/*
 * The work IPI to @cpu: false when it stayed pending in the ICR.  Test-
 * only (work_fail=), smp_run()'s (@gated) once: taken as stuck there,
 * not sent now, and sent at the next smp_run() (deliver_stuck()), as a
 * pending IPI that the CPU accepts late; its INIT is taken as stuck too.
 */
static bool send_work(u32 cpu, bool gated)
{
	if (gated && cpu == work_fail) {
		work_fail = 0;
		stuck = cpu;
		return false;
	}
	return apic_send_ipi(smp.by_cpu[cpu]->apic_id,
			     ICR_DM_FIXED | VEC_CALL_FUNCTION,
			     timebase.tsc_hz / 10);
}

void smp_hang_point(u32 at)
{
	if (at != hang_at || !cpu_set_has(&hang_cpus, this_cpu()->cpu))
		return;
	irq_disable();
	for (;;)
		cpu_relax();
}

static bool call_irq(struct regs *r)
{
	(void)r;
	lapic_eoi();
	return true;
}

/* Says that it takes work @posted, unless its waiter gave up first:
 * then it was left out, and its INIT is on the way. */
static bool take(struct cpu_work *w, u32 posted)
{
	u32 t = __atomic_load_n(&w->taken, __ATOMIC_ACQUIRE);

	while (t != TAKE_REFUSED)
		if (__atomic_compare_exchange_n(&w->taken, &t, posted, false,
						__ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			return true;
	return false;
}

/* The waiter's side of take(): work @posted, not taken yet, never will
 * be.  False when the CPU took it first: then it runs it. */
static bool refuse(struct cpu_work *w, u32 posted)
{
	u32 t = __atomic_load_n(&w->taken, __ATOMIC_ACQUIRE);

	while (t != posted)
		if (__atomic_compare_exchange_n(&w->taken, &t, TAKE_REFUSED,
						false, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			return true;
	return false;
}

/*
 * smp_run()'s work waits for every member to take its own; false when
 * that run was called off (a member did not take it), or is long over:
 * work taken too late (its gate passed) runs nothing, and waits on none.
 */
static bool gate_open(const struct cpu_work *w)
{
	u32 gen;

	if (!w->gate)
		return true;
	while ((s32)((gen = __atomic_load_n(&start.gen, __ATOMIC_ACQUIRE)) -
		     w->gate) < 0)
		cpu_relax();
	return gen == w->gate && start.cancelled != w->gate;
}

static void run_work(struct cpu_work *w, u32 posted)
{
	if (!take(w, posted)) {
		for (;;)
			halt();	/* interrupts off: until the INIT */
	}
	if (gate_open(w))
		w->fn(w->arg);
	__atomic_store_n(&w->done, posted, __ATOMIC_RELEASE);
}

/* Interrupts are on only inside hlt: the IPI ends the hlt, nothing else
 * runs in between, and work runs with them off as on the boot CPU. */
static __noreturn void idle_loop(u32 cpu)
{
	struct cpu_work *w = &work[cpu];

	for (;;) {
		u32 posted;

		irq_disable();
		/* The run ends: no work starts (the stop's NMI halts it). */
		if (smp_ending) {
			halt();
			continue;
		}
		posted = __atomic_load_n(&w->posted, __ATOMIC_ACQUIRE);
		if (posted != w->done) {
			/* hang_at=idle: not the first work (the TSC sync's) */
			if (w->done)
				smp_hang_point(HANG_AT_IDLE);
			run_work(w, posted);
			continue;
		}
		__asm__ volatile("sti; hlt" ::: "memory");
	}
}

static void ap_main(struct percpu *pc)
{
	struct smp_cpu *c = smp.by_cpu[pc->cpu];
	struct cpu_setup setup;
	char why[96];

	cpu_setup(&setup);
	if (!setup.pat_ok)
		ksnprintf(c->reason, sizeof(c->reason), "PAT %s", setup.pat);
	/* Without its local APIC it could not take on_cpu()'s IPI: it
	 * says so and stays out (callin 2), parked for good. */
	if (!timer_init_cpu(pc->cpu, why, sizeof(why))) {
		ksnprintf(c->reason, sizeof(c->reason), "its local APIC is "
			  "unusable: %s", why);
		__atomic_store_n(&c->callin, 2, __ATOMIC_RELEASE);
		for (;;)
			halt();
	}
	c->x2apic = apic_cpu_x2apic();
	__atomic_store_n(&c->callin, 1, __ATOMIC_RELEASE);
	smp_hang_point(HANG_AT_BRINGUP);
	idle_loop(pc->cpu);
}

/* An APIC ID no processor has (not 0xff, xAPIC's broadcast): ap_fail=. */
static u32 nobody(void)
{
	u32 id = 0;

	for (u32 i = 0; i < smp.nentries; i++)
		id = MAX(id, smp.entry[i].apic_id + 1);
	return id == 0xff ? 0x100 : id;
}

static bool start_one(struct smp_cpu *c, u32 timeout_ms, bool fail)
{
	struct percpu *pc = &percpus[c->cpu];

	pc->cpu = c->cpu;
	pc->apic_id = fail ? nobody() : c->apic_id;
	pc->stacks = cpu_stacks_alloc();
	if (!pc->stacks) {
		strlcpy(c->reason, "no memory for its stacks", sizeof(c->reason));
		return false;
	}
	if (!smpboot_start(pc, &c->callin, timeout_ms, c->reason,
			   sizeof(c->reason)))
		return false;
	pc->apic_id = c->apic_id;
	if (c->callin == 2)
		c->state = SMP_FAILED;
	return c->callin == 1;
}

/*
 * Room for the boot CPU and every processor of @m: the boot CPU need not
 * be among them (firmware that leaves it out, or lists it disabled), and
 * it is entry 0 whatever the MADT says.
 */
static struct smp_cpu *entries(const struct madt *m)
{
	static struct smp_cpu alone;
	u64 bytes = ((u64)(m ? m->ncpus : 0) + 1) * sizeof(struct smp_cpu);
	struct smp_cpu *e;

	if (!m || !m->ncpus)
		return &alone;
	e = boot_table_alloc(bytes);
	if (!e) {
		printk("hugezero: FATAL: smp: no memory for the table of %u "
		       "processors (%llu bytes): the boot ends\n", m->ncpus + 1,
		       (unsigned long long)bytes);
		finish(RC_FATAL);
	}
	return e;
}

/* One entry of lib/cpunum's walk into smp.entry[]. */
static void add_entry(void *ctx, const struct cpunum *n)
{
	u32 (*node_of)(u32) = *(u32 (**)(u32))ctx;
	struct smp_cpu *c = &smp.entry[smp.nentries++];

	*c = (struct smp_cpu){ .cpu = n->cpu, .apic_id = n->apic_id,
			       .uid = n->uid,
			       .node = node_of ? node_of(n->apic_id) : 0 };
	switch (n->kind) {
	case CPUNUM_BOOT:
		c->state = SMP_UP;
		c->x2apic = apic_cpu_x2apic();
		break;
	case CPUNUM_DISABLED:
		c->state = SMP_DISABLED;
		strlcpy(c->reason, n->online_capable ?
			"not enabled (online-capable: hot-add only)" :
			"not enabled by firmware", sizeof(c->reason));
		break;
	case CPUNUM_OVER_MAX:
		smp.over_max++;
		c->state = SMP_OVER_MAX;
		ksnprintf(c->reason, sizeof(c->reason), "beyond the %d CPUs "
			  "hugezero keeps", MAX_CPUS);
		break;
	case CPUNUM_CPU:
		c->state = SMP_NO_ANSWER;
		break;
	}
	if (c->cpu != ~0u)
		smp.by_cpu[c->cpu] = c;
}

/* The boot CPU, then the MADT's processors in table order. */
static void enumerate(const struct madt *m, u32 (*node_of)(u32))
{
	smp.entry = entries(m);
	smp.nentries = 0;
	smp.present = m ? m->ncpus : 1;
	cpunum_walk(m, this_cpu()->apic_id, MAX_CPUS, add_entry, &node_of,
		    &smp.ncpus);
}

/* Linux's smp_quirk_init_udelay(): the MP spec's 10 ms only on CPUs
 * older than these. */
static bool legacy_init_delay(void)
{
	const struct cpu_info *ci = &cpu_info;

	if (!strcmp(ci->vendor, "GenuineIntel"))
		return ci->family < 6;
	if (!strcmp(ci->vendor, "AuthenticAMD"))
		return ci->family < 0xf;
	if (!strcmp(ci->vendor, "HygonGenuine"))
		return ci->family < 0x18;
	return true;
}

static bool prepare(char *why, size_t n)
{
	u64 page;

	if (!timer_apic(0)) {
		ksnprintf(why, n, "the boot CPU's local APIC is unusable");
		return false;
	}
	page = memory_claim_low_page("AP trampoline");
	trap_set_handler(VEC_CALL_FUNCTION, call_irq);
	return smpboot_init(page, frame_alloc_table, timebase.tsc_hz,
			    legacy_init_delay(), ap_main, why, n);
}

void smp_init(const struct madt *m, u32 (*node_of)(u32), u32 timeout_ms,
	      u32 fail_cpu)
{
	char why[96];
	u32 want;

	enumerate(m, node_of);
	smp.nup = 1;
	if (smp.over_max)
		printk("smp: %u enabled processor%s beyond the %d CPUs hugezero "
		       "keeps: left out (their cpu records say so)\n",
		       smp.over_max, smp.over_max == 1 ? "" : "s", MAX_CPUS);
	want = smp.ncpus - 1;
	if (!want) {
		printk("smp: one CPU (APIC ID %u)\n", smp.entry[0].apic_id);
		return;
	}
	if (!prepare(why, sizeof(why))) {
		printk("smp: application processors not started: %s\n", why);
		for (u32 i = 1; i < smp.nentries; i++)
			if (smp.entry[i].state == SMP_NO_ANSWER)
				strlcpy(smp.entry[i].reason, why,
					sizeof(smp.entry[i].reason));
		return;
	}
	console_set_shared();
	smp_stop_init();
	for (u32 i = 1; i < smp.nentries; i++) {
		struct smp_cpu *c = &smp.entry[i];

		if (c->state != SMP_NO_ANSWER)
			continue;
		watchdog_touch(c->cpu);
		if (start_one(c, timeout_ms, c->cpu == fail_cpu)) {
			c->state = SMP_UP;
			smp.nup++;
		} else {
			if (c->state != SMP_FAILED)
				c->state = SMP_NO_ANSWER;
			printk("smp: cpu %u (APIC ID %u) left out: %s\n", c->cpu,
			       c->apic_id, c->reason);
		}
	}
	printk("smp: %u of %u CPUs up (%u processors in the MADT)\n", smp.nup,
	       smp.ncpus, smp.present);
}

void smp_leave_out(u32 cpu, const char *why)
{
	struct smp_cpu *c = smp_is_up(cpu) ? smp.by_cpu[cpu] : NULL;
	bool init;

	if (!c || !cpu)
		return;
	c->state = SMP_FAILED;
	strlcpy(c->reason, why, sizeof(c->reason));
	smp.nup--;
	/* Work posted and not taken never runs, whenever its IPI comes:
	 * it halts instead, also if the INIT below is lost. */
	refuse(&work[cpu], work[cpu].posted);
	/* Back to wait-for-SIPI, as a CPU that did not check in: nothing
	 * it was in the middle of can write shared state again. */
	init = cpu != stuck &&
	       apic_send_ipi(c->apic_id, ICR_LEVEL | ICR_ASSERT | ICR_DM_INIT,
			     timebase.tsc_hz / 10);
	printk("smp: cpu %u (APIC ID %u) left out: %s\n", cpu, c->apic_id,
	       why);
	if (!init)
		printk("smp: cpu %u: its INIT stayed pending in the ICR for "
		       "100 ms: it takes no more work\n", cpu);
}

void smp_phase_reset(void)
{
	/* The ending's abort stays: every wait is to end for good. */
	if (!__atomic_load_n(&smp_ending, __ATOMIC_ACQUIRE))
		__atomic_store_n(&smp_aborted, false, __ATOMIC_RELEASE);
}

/*
 * An IPI that stayed pending may still come, and any interrupt wakes the
 * CPU to look at its mailbox: work not sent is refused before it is
 * taken, and the CPU left out.  If it took it just then, it runs it.
 */
static bool post(u32 cpu, void (*fn)(void *), void *arg, u32 gate)
{
	struct cpu_work *w = &work[cpu];
	u32 posted = w->posted + 1;

	if (!cpu || !smp_is_up(cpu))
		return false;
	w->fn = fn;
	w->arg = arg;
	w->gate = gate;
	__atomic_store_n(&w->posted, posted, __ATOMIC_RELEASE);
	if (send_work(cpu, gate) || !refuse(w, posted))
		return true;
	smp_leave_out(cpu, "it would not take its work: the IPI stayed "
		      "pending in the ICR for 100 ms");
	return false;
}

bool on_cpu(u32 cpu, void (*fn)(void *), void *arg)
{
	return post(cpu, fn, arg, 0);
}

static u64 answer_end(void)
{
	return rdtsc() + timebase.tsc_hz / 1000 * smp_answer_ms;
}

/*
 * Until @cpu takes the work last posted to it, or the TSC passes @end:
 * then the work is refused, unless it took it just then, and the CPU is
 * left out.  Bounded, this wait is progress to the watchdog.
 */
static bool took(u32 cpu, u64 end)
{
	struct cpu_work *w = &work[cpu];
	u32 posted = w->posted, spins = 0;
	char why[64];

	while (__atomic_load_n(&w->taken, __ATOMIC_ACQUIRE) != posted) {
		cpu_relax();
		if (++spins & 63)
			continue;
		watchdog_touch(cpu);
		if (rdtsc() <= end || !refuse(w, posted))
			continue;
		ksnprintf(why, sizeof(why), "it did not take its work within "
			  "%u ms of the IPI", smp_answer_ms);
		smp_leave_out(cpu, why);
		return false;
	}
	return true;
}

bool smp_wait(u32 cpu)
{
	struct cpu_work *w = &work[cpu];
	u32 spins = 0;

	if (!took(cpu, answer_end()))
		return false;
	while (__atomic_load_n(&w->done, __ATOMIC_ACQUIRE) != w->posted &&
	       !smp_aborted) {
		cpu_relax();
		watch_wait(&spins, cpu, "for its work to end", WATCH_LOOSE);
	}
	return true;
}

bool smp_wait_for(u32 cpu, u64 end)
{
	struct cpu_work *w = &work[cpu];
	u32 spins = 0;

	while (__atomic_load_n(&w->done, __ATOMIC_ACQUIRE) != w->posted) {
		cpu_relax();
		if (!(++spins & 63) && rdtsc() > end)
			return false;
	}
	return true;
}

bool smp_answered(u32 cpu, const volatile u32 *flag, const char *what)
{
	u64 end = answer_end();
	u32 spins = 0;

	if (!took(cpu, end))
		return false;
	while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE)) {
		cpu_relax();
		if (++spins & 63 || rdtsc() <= end)
			continue;
		printk("smp: cpu %u took its work but did not %s within %u ms "
		       "of the IPI\n", cpu, what, smp_answer_ms);
		return false;
	}
	return true;
}

static void wait_done(u32 cpu)
{
	struct cpu_work *w = &work[cpu];
	u32 spins = 0;

	while (__atomic_load_n(&w->done, __ATOMIC_ACQUIRE) != w->posted) {
		cpu_relax();
		watch_wait(&spins, cpu, "for its work to end", WATCH_LOOSE);
	}
}

/* Posts @fn to every other up CPU of @set, behind the gate @gate: those
 * whose IPI could not be sent are left out (post()) and in @failed. */
static void post_all(const struct cpu_set *set, void (*fn)(void *),
		     void *arg, u32 gate, struct cpu_set *posted,
		     struct cpu_set *failed)
{
	u32 me = this_cpu()->cpu;

	for (u32 c = 0; c < smp.ncpus; c++) {
		if (c == me || !cpu_set_has(set, c) || !smp_is_up(c))
			continue;
		cpu_set_add(post(c, fn, arg, gate) ? posted : failed, c);
	}
}

/*
 * Test-only (work_fail=): the IPI that stayed pending comes now, at the
 * next run, before it posts anything: the CPU left out must run nothing
 * (its work was refused).  Had it taken the work, it is waited on, so
 * that what it does is done before this run goes on.
 */
static void deliver_stuck(void)
{
	struct cpu_work *w = &work[stuck];
	u64 end;

	if (!stuck)
		return;
	printk("smp: work_fail=%u: its IPI stuck in the ICR comes now, late "
	       "(test-only)\n", stuck);
	apic_send_ipi(smp.by_cpu[stuck]->apic_id,
		      ICR_DM_FIXED | VEC_CALL_FUNCTION, timebase.tsc_hz / 10);
	stuck = 0;
	end = answer_end();
	while (__atomic_load_n(&w->taken, __ATOMIC_ACQUIRE) != TAKE_REFUSED &&
	       __atomic_load_n(&w->done, __ATOMIC_ACQUIRE) != w->posted &&
	       rdtsc() < end)
		cpu_relax();
}

static void called_off(const struct cpu_set *failed)
{
	char list[128];

	cpulist_format(failed, list, sizeof(list));
	printk("smp: the run is called off before any CPU ran it: cpus %s "
	       "did not take their work\n", list);
}

bool smp_run(const struct cpu_set *set, void (*fn)(void *), void *arg)
{
	u32 gate = start.gen + 1;
	struct cpu_set posted, failed;
	u64 end;

	smp_phase_reset();	/* a step's abort is not the next one's */
	deliver_stuck();
	memset(&posted, 0, sizeof(posted));
	memset(&failed, 0, sizeof(failed));
	post_all(set, fn, arg, gate, &posted, &failed);
	/* Each one asked is waited on, also once the run is called off:
	 * one that is only slow must not be left out. */
	end = answer_end();
	for (u32 c = 0; c < smp.ncpus; c++)
		if (cpu_set_has(&posted, c) && !took(c, end))
			cpu_set_add(&failed, c);
	if (cpu_set_count(&failed, CPUSET_MAX))
		start.cancelled = gate;
	__atomic_store_n(&start.gen, gate, __ATOMIC_RELEASE);
	/* Said once the others waiting at the gate are let go. */
	if (start.cancelled == gate)
		called_off(&failed);
	if (start.cancelled != gate && cpu_set_has(set, this_cpu()->cpu))
		fn(arg);
	/* Done, called off or not: nothing of theirs runs past the return.
	 * One left out took nothing (refused) and is not waited on. */
	for (u32 c = 0; c < smp.ncpus; c++)
		if (cpu_set_has(&posted, c) && smp_is_up(c))
			wait_done(c);
	return start.cancelled != gate;
}

static void bar_relax(void *ctx)
{
	(void)ctx;
	cpu_relax();
}

static u64 bar_now(void *ctx)
{
	(void)ctx;
	return rdtsc();
}

/* smp_aborted has a line of its own: read every 64 rounds, written once
 * a run at most, so the read stays in this CPU's cache. */
static bool bar_aborted(void *ctx)
{
	(void)ctx;
	return smp_aborted;
}

static void bar_overdue(void *ctx, u32 late)
{
	(void)ctx;
	watch_call(late, "at a barrier", WATCH_PRECISE);
}

static const struct barrier_ops bar_ops = {
	.relax = bar_relax,
	.now = bar_now,
	.aborted = bar_aborted,
	.overdue = bar_overdue,
	.wake = NULL,		/* every waiter spins: the release is a store */
};

void smp_barrier_init(struct barrier *b, u32 n, struct barrier_slot *slot,
		      const u32 *cpus)
{
	barrier_init(b, n, slot, cpus);
}

/* The deadline is read once, on arrival: the wait itself touches the
 * generation's line alone until the TSC passes it. */
bool smp_barrier_wait(struct barrier *b)
{
	return barrier_wait(b, this_cpu()->cpu, watch_due(WATCH_PRECISE),
			    &bar_ops, NULL);
}

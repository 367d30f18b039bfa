// SPDX-License-Identifier: GPL-2.0-only
/*
 * deadline_s=: whichever sees the deadline pass first ends the run, once.
 * Only the watchdog's check runs in NMI context (deadline_hung()); the
 * ending it starts waits on no lock (kernel/main.c, take_over()), so no
 * path that ends a run can wait on a lock another context of its own CPU
 * holds.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/tsc.h"
#include "kernel/smp/smp.h"
#include "kernel/time/deadline.h"
#include "kernel/time/timer.h"
#include "kernel/time/watchdog.h"
#include "kernel/watch.h"
#include "lib/format.h"
#include "lib/string.h"

/*
 * What a CPU is doing, for the message: its own line, its own copy, under
 * a sequence count (odd while it writes), so the ender, which reads it
 * once the CPU is stopped, either copies a whole entry or knows it was
 * stopped in the middle of one -- never a torn name.  Linux's seqcount_t
 * (write_seqcount_begin()/read_seqcount_retry()) without the retry: a
 * stopped writer never finishes.
 */
struct doing {
	char what[96];
	const volatile u32 *fault;
	volatile u32 set;
	volatile u32 seq;
} __aligned(64);

static struct doing doing[MAX_CPUS];

enum ending { ENDING_PASSED, ENDING_HUNG };

static struct {
	u64 at, seconds;
	u64 loose_at;		/* a loose wait, or an idle CPU, a bit later */
	void (*expire)(void);
	volatile u32 fired;	/* expire() ran: once, whoever gets there */
	const char *by;		/* who ended it: "deadline", "watchdog" */
	u32 culprit;		/* the CPU named, ~0u none */
	enum ending ending;
	char how[96];		/* how it was noticed */
	struct ktimer boot;
	struct ktimer watch[MAX_CPUS];
} dl;

/* A whole copy of @cpu's entry: false when it was being written. */
static bool doing_copy(u32 cpu, struct doing *out)
{
	const struct doing *d = &doing[cpu];
	u32 seq = __atomic_load_n(&d->seq, __ATOMIC_ACQUIRE);

	if (seq & 1)
		return false;
	memcpy(out->what, (const char *)d->what, sizeof(out->what));
	out->what[sizeof(out->what) - 1] = '\0';
	out->fault = d->fault;
	out->set = d->set;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return __atomic_load_n(&d->seq, __ATOMIC_RELAXED) == seq;
}

/* Whether @cpu is in a pass: doing something, or changing what. */
static bool busy(u32 cpu)
{
	struct doing d;

	return !doing_copy(cpu, &d) || d.set;
}

/* The CPU to name when the one that noticed cannot say: the lowest that
 * is busy. */
static u32 busy_cpu(void)
{
	for (u32 cpu = 0; cpu < MAX_CPUS; cpu++)
		if (busy(cpu))
			return cpu;
	return ~0u;
}

static void describe(u32 cpu, char *buf, size_t n)
{
	const char *late = cpu == this_cpu()->cpu || smp_cpu_stopped(cpu) ?
			   "" : " (it did not stop)";
	struct doing d;

	if (cpu >= MAX_CPUS)
		ksnprintf(buf, n, "outside any benchmark");
	else if (!doing_copy(cpu, &d))
		ksnprintf(buf, n, "on cpu %u, stopped while it changed what it "
			  "was doing%s", cpu, late);
	else if (d.set)
		ksnprintf(buf, n, "during %s on cpu %u, fault %u%s", d.what,
			  cpu, d.fault ? *d.fault : 0, late);
	else
		ksnprintf(buf, n, "on cpu %u, outside any benchmark%s", cpu,
			  late);
}

/* Ends the run, unless another CPU already is (then it returns, and that
 * CPU stops this one); the message is made after the stop. */
static void end_run(const char *by, enum ending e, const char *how,
		    u32 culprit)
{
	dl.by = by;
	dl.ending = e;
	dl.culprit = culprit;
	strlcpy(dl.how, how, sizeof(dl.how));
	dl.expire();
}

static void expire(const char *how, u32 culprit)
{
	if (__atomic_exchange_n(&dl.fired, 1, __ATOMIC_ACQ_REL))
		return;
	end_run("deadline", ENDING_PASSED, how, culprit);
}

void deadline_hung(const char *how, u32 culprit, bool stalled)
{
	/* A run already ending (take_over()) is its ender's to end. */
	if (smp_ending)
		return;
	if (!dl.expire || __atomic_exchange_n(&dl.fired, 1, __ATOMIC_ACQ_REL))
		return;
	if (!stalled)
		end_run("watchdog", ENDING_PASSED, how, ~0u);
	else
		end_run("watchdog", ENDING_HUNG, how, culprit);
}

void deadline_why(char *why, size_t n)
{
	char what[160];

	if (dl.ending == ENDING_PASSED) {
		if (dl.culprit == ~0u)
			dl.culprit = busy_cpu();
		describe(dl.culprit, what, sizeof(what));
		ksnprintf(why, n, "deadline_s=%llu passed (%s) %s",
			  (unsigned long long)dl.seconds, dl.how, what);
	} else if (dl.culprit != ~0u) {
		ksnprintf(why, n, "hung (%s), waiting on cpu %u", dl.how,
			  dl.culprit);
	} else {
		ksnprintf(why, n, "hung (%s) on the boot CPU", dl.how);
		dl.culprit = 0;
	}
}

void deadline_ended_by(const char **by, u32 *culprit, struct cpu_set *cpus)
{
	*by = dl.by ? dl.by : "deadline";
	*culprit = dl.culprit;
	memset(cpus, 0, sizeof(*cpus));
	for (u32 cpu = 0; cpu < MAX_CPUS; cpu++)
		if (busy(cpu))
			cpu_set_add(cpus, cpu);
}

void deadline_init(void (*fn)(void))
{
	dl.expire = fn;
	dl.culprit = ~0u;
}

static void boot_timer(struct ktimer *t)
{
	(void)t;
	expire("the boot CPU's timer", doing[0].set ? 0 : ~0u);
}

/* An AP's, in its timer interrupt: it takes one only with interrupts on
 * (idle, or under a model), so an AP with masked work never watches;
 * every idle one does. */
static void watch_timer(struct ktimer *t)
{
	char how[48];

	(void)t;
	if (dl.fired)
		return;
	ksnprintf(how, sizeof(how), "the watch timer of cpu %u",
		  this_cpu()->cpu);
	expire(how, ~0u);
}

/* A wait on another CPU (kernel/watch.h): past the deadline, the waiter
 * ends the run and names whom it waited on.  A loose wait gives a precise
 * one (a barrier, which knows the late CPU) a tenth of a second first. */
static void watch(u32 culprit, const char *waiting, enum watch_kind kind)
{
	char how[96];
	u64 now = rdtsc();

	if (dl.fired || now < (kind == WATCH_PRECISE ? dl.at : dl.loose_at))
		return;
	if (culprit != ~0u)
		ksnprintf(how, sizeof(how), "cpu %u waiting %s on cpu %u",
			  this_cpu()->cpu, waiting, culprit);
	else
		ksnprintf(how, sizeof(how), "cpu %u waiting %s",
			  this_cpu()->cpu, waiting);
	expire(how, culprit);
}

static void arm_watch(void *arg)
{
	(void)arg;
	ktimer_arm(this_cpu()->cpu, &dl.watch[this_cpu()->cpu], dl.loose_at);
}

void deadline_start(u64 seconds, u64 tsc_hz)
{
	if (!seconds)
		return;
	dl.seconds = seconds;
	dl.at = rdtsc() + seconds * tsc_hz;
	watchdog_deadline(dl.at);
	dl.loose_at = dl.at + tsc_hz / 10;
	dl.boot.fn = boot_timer;
	if (timer_apic(0))
		ktimer_arm(0, &dl.boot, dl.at);
	watch_set_due(dl.at, dl.loose_at);
	watch_set(watch);
	for (u32 cpu = 1; cpu < smp.ncpus && cpu < MAX_CPUS; cpu++) {
		if (!smp_is_up(cpu) || !timer_apic(cpu))
			continue;
		dl.watch[cpu].fn = watch_timer;
		if (on_cpu(cpu, arm_watch, NULL))
			smp_wait(cpu);
	}
}

void deadline_doing(const char *what, u32 cpu, const volatile u32 *fault)
{
	struct doing *d;

	if (cpu >= MAX_CPUS)
		return;
	d = &doing[cpu];
	__atomic_store_n(&d->seq, d->seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	d->set = 0;
	if (what) {
		strlcpy(d->what, what, sizeof(d->what));
		d->fault = fault;
		d->set = 1;
	}
	__atomic_store_n(&d->seq, d->seq + 1, __ATOMIC_RELEASE);
}

void deadline_poll(void)
{
	if (dl.seconds && rdtsc() >= dl.at)
		expire("checked between passes", this_cpu()->cpu);
}

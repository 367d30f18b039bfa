// SPDX-License-Identifier: GPL-2.0-only
#include "arch/x86_64/apic.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/traps.h"
#include "arch/x86_64/tsc.h"
#include "kernel/smp/smp.h"
#include "kernel/time/deadline.h"
#include "kernel/time/timer.h"
#include "lib/format.h"

static struct {
	u64 at, seconds;
	void (*expire)(const char *why);
	const char *what;
	u32 cpu;
	const volatile u32 *fault;
	volatile u32 fired;	/* expire() ran: once, whoever gets there */
	volatile u32 nmi_sent;	/* the watcher's NMI, for the NMI handler */
	u64 watch_at;
	struct ktimer boot, watch;
	u32 watcher;
} dl;

static void expire(const char *how)
{
	char why[200], doing[120];

	if (__atomic_exchange_n(&dl.fired, 1, __ATOMIC_ACQ_REL))
		return;
	if (dl.what)
		ksnprintf(doing, sizeof(doing), "during %s on cpu %u, fault %u",
			  dl.what, dl.cpu, dl.fault ? *dl.fault : 0);
	else
		ksnprintf(doing, sizeof(doing), "outside any benchmark");
	ksnprintf(why, sizeof(why), "deadline_s=%llu passed (%s) %s",
		  (unsigned long long)dl.seconds, how, doing);
	dl.expire(why);
}

static void boot_timer(struct ktimer *t)
{
	(void)t;
	expire("the boot CPU's timer");
}

/* On the watching AP, in its timer interrupt: the boot CPU may have its
 * interrupts masked; an NMI it cannot mask. */
static void watch_timer(struct ktimer *t)
{
	(void)t;
	if (dl.fired)
		return;		/* the boot CPU's timer or a poll came first */
	__atomic_store_n(&dl.nmi_sent, 1, __ATOMIC_RELEASE);
	apic_send_ipi(smp.by_cpu[0]->apic_id, ICR_DM_NMI, 0);
}

/* expire() once only: an NMI landing while the boot CPU's own timer is
 * already ending the run returns to it, so that run ends as exit= says. */
static bool nmi(struct regs *r)
{
	(void)r;
	if (!__atomic_exchange_n(&dl.nmi_sent, 0, __ATOMIC_ACQ_REL))
		return false;	/* not ours: the fatal path reports it */
	expire("an NMI from the watching CPU");
	return true;
}

static void arm_watch(void *arg)
{
	(void)arg;
	ktimer_arm(dl.watcher, &dl.watch, dl.watch_at);
}

void deadline_start(u64 seconds, u64 tsc_hz, void (*fn)(const char *why))
{
	if (!seconds)
		return;
	dl.seconds = seconds;
	dl.expire = fn;
	dl.at = rdtsc() + seconds * tsc_hz;
	/* The watcher a tenth of a second later: where the boot CPU still
	 * takes interrupts its own timer ends the run, and the NMI finds
	 * it done. */
	dl.watch_at = dl.at + tsc_hz / 10;
	dl.boot.fn = boot_timer;
	dl.watch.fn = watch_timer;
	if (timer_apic(0))
		ktimer_arm(0, &dl.boot, dl.at);
	trap_set_handler(X86_NMI, nmi);
	/* The highest AP watches: the last a benchmark takes. */
	for (u32 cpu = smp.ncpus; cpu-- > 1;)
		if (smp_is_up(cpu)) {
			dl.watcher = cpu;
			on_cpu(cpu, arm_watch, NULL);
			smp_wait(cpu);
			break;
		}
}

void deadline_doing(const char *what, u32 cpu, const volatile u32 *fault)
{
	dl.what = what;
	dl.cpu = cpu;
	dl.fault = fault;
}

void deadline_poll(void)
{
	if (dl.seconds && rdtsc() >= dl.at)
		expire("checked between passes");
}

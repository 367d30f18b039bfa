// SPDX-License-Identifier: GPL-2.0-only
/*
 * Stopping every other CPU when the run ends early (deadline, fatal
 * error): the one CPU that ends it must be the only one left writing.
 * As Linux's nmi_shootdown_cpus() (arch/x86/kernel/reboot.c) and the NMI
 * leg of native_stop_other_cpus() (arch/x86/kernel/smp.c): an NMI each,
 * since benchmark work runs with interrupts masked; each CPU acknowledges
 * and halts inside its NMI handler, where further NMIs stay blocked.
 * Whatever a stopped CPU held (the console lock, the records lock, a
 * ticket it waited with) is never given back: the stopper takes the
 * console over instead of waiting (kernel/console.c).
 */
#include "arch/x86_64/apic.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/traps.h"
#include "arch/x86_64/tsc.h"
#include "kernel/smp/smp.h"
#include "lib/string.h"

static volatile u32 stopper = ~0u;
bool smp_stop_chained;
static volatile u32 stopped;
static volatile u8 acked[MAX_CPUS];
/* Test-only (crash=deaf-writer): CPUs that swallow the stop unacked, as
 * one with NMIs blocked would miss it, and whether it came. */
static volatile u8 deaf[MAX_CPUS], missed[MAX_CPUS];

void smp_stop_deafen(void)
{
	deaf[this_cpu()->cpu] = 1;
}

bool smp_stop_missed(void)
{
	return missed[this_cpu()->cpu];
}

bool smp_cpu_stopped(u32 cpu)
{
	return cpu < MAX_CPUS && acked[cpu];
}

bool smp_stop_nmi(struct regs *r)
{
	u32 me = this_cpu()->cpu, s;

	(void)r;
	s = __atomic_load_n(&stopper, __ATOMIC_ACQUIRE);
	if (s == ~0u)
		return false;	/* not ours: the fatal path reports it */
	/* The stopper's own NMI (another source) is swallowed: the fatal
	 * path would find the run already ending and halt the ender, as
	 * Linux's crash_nmi_callback() says of the crashing CPU. */
	if (s == me)
		return true;
	if (deaf[me]) {
		missed[me] = 1;
		return true;
	}
	acked[me] = 1;
	__atomic_add_fetch(&stopped, 1, __ATOMIC_ACQ_REL);
	for (;;)
		halt();
}

void smp_stop_init(void)
{
	/* The watchdog, where one runs, puts its own handler in front. */
	if (!smp_stop_chained)
		trap_set_handler(X86_NMI, smp_stop_nmi);
}

/* This CPU ends the run: from now its own NMIs (the watchdog's) are
 * swallowed, so none re-enters the ending it is in.  First thing, with
 * one CPU too. */
void smp_stop_claim(void)
{
	__atomic_store_n(&stopper, this_cpu()->cpu, __ATOMIC_RELEASE);
}

/* The CPUs asked that have not said so, as a cpulist, into @who. */
static void missing(char *who, size_t n)
{
	struct cpu_set late;

	memset(&late, 0, sizeof(late));
	for (u32 cpu = 0; cpu < smp.ncpus && cpu < MAX_CPUS; cpu++)
		if (cpu != stopper && smp_is_up(cpu) && !acked[cpu])
			cpu_set_add(&late, cpu);
	cpulist_format(&late, who, n);
}

u32 smp_stop_others(u64 wait_tsc, u32 *asked, char *who, size_t n)
{
	u32 me = this_cpu()->cpu, want = 0;
	u64 end;

	*asked = 0;
	if (n)
		who[0] = '\0';
	__atomic_store_n(&stopper, me, __ATOMIC_RELEASE);
	if (smp.ncpus < 2)
		return 0;
	smp_ending = true;
	smp_aborted = true;
	for (u32 cpu = 0; cpu < smp.ncpus; cpu++) {
		if (cpu == me || !smp_is_up(cpu))
			continue;
		want++;
		apic_send_ipi(smp.by_cpu[cpu]->apic_id, ICR_DM_NMI, wait_tsc);
	}
	*asked = want;
	end = rdtsc() + wait_tsc;
	while (__atomic_load_n(&stopped, __ATOMIC_ACQUIRE) < want &&
	       rdtsc() < end)
		cpu_relax();
	want -= MIN(want, __atomic_load_n(&stopped, __ATOMIC_ACQUIRE));
	if (want)
		missing(who, n);
	return want;
}

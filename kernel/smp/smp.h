/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_SMP_SMP_H
#define KERNEL_SMP_SMP_H

#include "arch/x86_64/percpu.h"
#include "lib/barrier.h"
#include "lib/cpulist.h"
#include "lib/madt.h"
#include "lib/record.h"
#include "lib/types.h"

/*
 * Every processor the MADT lists, brought up once at boot and parked in
 * an idle loop (hlt) until given work.  Logical numbers: the boot CPU 0,
 * then the MADT's enabled processors in table order, whether or not they
 * answer (a dead CPU keeps its number and is left out), as Linux numbers
 * its possible CPUs at enumeration (acpi_parse_lapic() ->
 * topology_register_apic()).
 */
enum smp_state { SMP_UP, SMP_NO_ANSWER, SMP_DISABLED, SMP_OVER_MAX,
		 SMP_FAILED };

extern const char *const smp_state_names[];

struct smp_cpu {
	u32 cpu;		/* logical, or ~0u for none */
	u32 apic_id, uid, node;
	enum smp_state state;
	char reason[96];
	bool x2apic;
	s64 tsc_offset;		/* its TSC minus CPU 0's */
	u64 tsc_err;		/* half the ping-pong's round trip */
	u64 tsc_warps;
	volatile u32 callin;
};

struct smp_info {
	u32 present;		/* processors in the MADT (1 without one) */
	u32 nentries;
	/* The boot CPU first, then the MADT's others: room for the MADT's
	 * processors and the boot CPU, which it may not list (boot_table_alloc()
	 * sized by the count; the boot CPU alone without a MADT). */
	struct smp_cpu *entry;
	u32 over_max;		/* enabled processors beyond MAX_CPUS */
	u32 ncpus;		/* logical numbers given */
	u32 nup;
	struct smp_cpu *by_cpu[MAX_CPUS];
	u64 skew_max, skew_bound;
	bool tsc_ok;
};

extern struct smp_info smp;

/*
 * Bring up every enabled processor of @m (NULL: the boot CPU alone),
 * each within @timeout_ms, @node_of giving its NUMA node (NULL: 0).
 * Prints a line per CPU that does not come up and one for the total.
 * @fail_cpu (0: none): test-only, that CPU's IPIs go to an APIC ID
 * nobody has, so that it cannot answer (ap_fail=).
 */
void smp_init(const struct madt *m, u32 (*node_of)(u32 apic_id),
	      u32 timeout_ms, u32 fail_cpu);
/* Measure every CPU's TSC against CPU 0's (tsc_sync.c); print them.
 * Aggregates across CPUs tolerate @bound_ns of skew (tsc_skew_ns=). */
void smp_tsc_sync(u64 tsc_hz, u64 bound_ns);
/* The cpu records and the smp record. */
void smp_report(struct rec_writer *w, u32 nodes, bool slit);

static inline bool smp_is_up(u32 cpu)
{
	return cpu < MAX_CPUS && smp.by_cpu[cpu] &&
	       smp.by_cpu[cpu]->state == SMP_UP;
}

/*
 * How long a CPU may take to answer one step of a bounded wait: to take
 * its work once sent the IPI, or a TSC sync ping.  Linux's
 * cpuhp_wait_for_sync_state() waits 10 s for an AP's "alive"; the
 * watchdog's progress bound, which such a wait touches, is this (or an
 * AP's start timeout, if longer) plus 2 s (wd_stall_s()).
 */
#define SMP_ANSWER_MS 8000
/* The bound in use: SMP_ANSWER_MS, or lower by the test-only answer_ms=. */
extern u32 smp_answer_ms;

/*
 * Run @fn(@arg) on @cpu (an AP that is up and idle), with interrupts
 * off, as the boot CPU runs everything; smp_wait() for its end.  The
 * caller serialises: one piece of work per CPU at a time.  False when
 * @cpu is not up, or the IPI could not be sent: then the work is refused
 * (never run, even if the IPI comes late) and @cpu left out ("it would
 * not take its work: the IPI stayed pending in the ICR for 100 ms"),
 * unless it took the work just then (true).  A delivered IPI says
 * nothing of whether the CPU takes the work: smp_wait() asks.
 */
bool on_cpu(u32 cpu, void (*fn)(void *), void *arg);
/*
 * Until @cpu's work is done, the run is aborted, or the watch ends it.
 * First, within SMP_ANSWER_MS, that @cpu took it: else it is left out
 * (smp_leave_out(), "it did not take its work within 8000 ms of the
 * IPI") and never runs it: false.
 */
bool smp_wait(u32 cpu);
/* Until @cpu's work is done or the TSC passes @end: false then. */
bool smp_wait_for(u32 cpu, u64 end);
/*
 * For work that never ends (crash=): until @cpu took the work on_cpu()
 * just gave it and then set *@flag, within SMP_ANSWER_MS of now in all.
 * False when it did not: not taken, it is left out as by smp_wait();
 * taken, the console says that it did not @what.
 */
bool smp_answered(u32 cpu, const volatile u32 *flag, const char *what);
/*
 * @fn on every up CPU of @set at once, the caller's too; waits for all.
 * No CPU runs it before every other one asked has taken it (each within
 * SMP_ANSWER_MS), so that none waits at a barrier on a member that never
 * came.  One that does not take it (its IPI could not be sent, or it
 * did not answer) is left out, said on the console, and the run is
 * called off: no CPU runs @fn, false.  The caller may run it again on
 * the CPUs still up.
 */
bool smp_run(const struct cpu_set *set, void (*fn)(void *), void *arg);
/* Test-only (work_fail=): the next work IPI to @cpu (0: none) is taken
 * as stuck in the ICR after its work was posted, so that the step is
 * called off; it comes late, at the next smp_run(), and the INIT that
 * leaves the CPU out is taken as stuck too. */
void smp_set_work_fail(u32 cpu);

/*
 * Set by a CPU that aborts a phase or ends the run: the others stop
 * waiting.  smp_phase_reset() at
 * the start of a phase (TSC sync, each step of smp_run()) clears a
 * phase's abort, never the ending's (smp_ending, set for good by
 * smp_stop_others() and the ender).  docs/smp.md, "Waiting, and ending a
 * run early".
 */
extern volatile bool smp_aborted;
extern volatile bool smp_ending;
void smp_phase_reset(void);
/*
 * An up AP that did not answer a bounded wait (@why says which, and how
 * long): state failed with @why (its cpu record), a console line, no
 * longer up, its work posted and not taken refused, and sent INIT so
 * that it can write nothing shared again, as a CPU that never checked in
 * (an INIT that stays pending is said; the refusal halts the CPU).
 * Linux leaves such a CPU offline (cpuhp_wait_for_sync_state()'s
 * "failed to report alive state").
 */
void smp_leave_out(u32 cpu, const char *why);

/*
 * The end of a run that stops early: every other CPU up is sent an NMI
 * and halts in it (kernel/smp/stop.c).  Returns how many of the @asked
 * did not say so within @wait_tsc, and names them in @who (a cpulist).
 * smp_stop_init() installs the NMI handler once the APs are up.
 */
/* hang_cpu= and hang_at= (test-only): the CPUs that hang, and where. */
void smp_set_hang(u32 at, const struct cpu_set *cpus);
/* Hang here, interrupts masked, if this CPU is to at @at (enum hang_at). */
void smp_hang_point(u32 at);
void smp_stop_init(void);
/* The stop's NMI handler, for a handler that chains it first (the
 * watchdog's): true when the NMI was the stop's. */
struct regs;
bool smp_stop_nmi(struct regs *r);
extern bool smp_stop_chained;
void smp_stop_claim(void);
u32 smp_stop_others(u64 wait_tsc, u32 *asked, char *who, size_t n);
/* @cpu acknowledged the stop and is halted. */
bool smp_cpu_stopped(u32 cpu);
/* Test-only (crash=deaf-writer): this CPU swallows the stop's NMI without
 * acknowledging it; smp_stop_missed(): it came. */
void smp_stop_deafen(void);
bool smp_stop_missed(void);

/*
 * A reusable barrier for @n CPUs (lib/barrier.h): false when the run was
 * aborted.  With per-CPU slots (indexed by CPU number) and the members'
 * CPU numbers, a waiter still there past the deadline names a member
 * that has not arrived; before it, a waiter reads the generation's line
 * alone (docs/smp.md, "Waiting, and ending a run early").
 */
void smp_barrier_init(struct barrier *b, u32 n, struct barrier_slot *slot,
		      const u32 *cpus);
bool smp_barrier_wait(struct barrier *b);

#endif

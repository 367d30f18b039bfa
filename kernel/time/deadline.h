/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_TIME_DEADLINE_H
#define KERNEL_TIME_DEADLINE_H

#include "lib/cpulist.h"
#include "lib/types.h"

/*
 * deadline_s=: a run never leaves a machine hung.  Past the deadline the
 * run is stopped (the registered @expire ends it as exit= says), from
 * whichever comes first:
 *  - the boot CPU's timer, where it takes interrupts: a CPU stuck in a
 *    loop with interrupts on, or idle;
 *  - a check the benchmark makes between passes (deadline_poll()): a run
 *    that is only too long, with interrupts masked while it measures;
 *  - any CPU waiting on another (kernel/watch.h): at a barrier it names
 *    the member that did not arrive, so a CPU hung inside a pass of
 *    cpus=all is named by the others;
 *  - the timer of every idle AP, a tenth of a second later: a boot CPU
 *    hung with interrupts masked while the APs idle.
 *  - the NMI watchdog (kernel/time/watchdog.c), a little later still:
 *    every CPU hung with interrupts masked.
 * The CPU that notices ends the run itself: it stops the others with an
 * NMI and takes the console over (kernel/main.c).
 */
void deadline_start(u64 seconds, u64 tsc_hz);
/* Who ends a run: @expire, set before anything can hang (the watchdog
 * covers bring-up, before deadline_start()).  It stops the other CPUs,
 * then asks deadline_why() for the message. */
void deadline_init(void (*expire)(void));
/* The message, made once the others are stopped: what the CPU named was
 * doing is read from a whole entry (docs/hardware.md, "The run
 * deadline"). */
void deadline_why(char *why, size_t n);
/*
 * From the watchdog's NMI: the run is hung -- @stalled: a phase bounded
 * by progress made none (@culprit: the CPU it waits on, ~0u: the boot
 * CPU itself); else the deadline passed with nobody left to notice.
 */
void deadline_hung(const char *how, u32 culprit, bool stalled);
/* For the `hang` record: "deadline" or "watchdog", the CPU named, and
 * the CPUs still in a pass (doing something, or stopped while they
 * changed what), read once they are stopped. */
void deadline_ended_by(const char **by, u32 *culprit, struct cpu_set *busy);
/* What @cpu is doing, for the message: a configuration and its fault
 * counter (@what is copied; NULL: nothing). */
void deadline_doing(const char *what, u32 cpu, const volatile u32 *fault);
void deadline_poll(void);

#endif

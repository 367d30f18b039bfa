/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_TIME_DEADLINE_H
#define KERNEL_TIME_DEADLINE_H

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
 * The CPU that notices ends the run itself: it stops the others with an
 * NMI and takes the console over (kernel/main.c).  A CPU hung with
 * interrupts masked on a one-CPU machine is the one case it cannot catch
 * (docs/hardware.md).
 */
void deadline_start(u64 seconds, u64 tsc_hz, void (*expire)(const char *why));
/* What @cpu is doing, for the message: a configuration and its fault
 * counter (@what is copied; NULL: nothing). */
void deadline_doing(const char *what, u32 cpu, const volatile u32 *fault);
void deadline_poll(void);

#endif

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
 *  - an idle AP's timer, which sends the boot CPU an NMI: a hang with
 *    interrupts masked, where there is a second CPU.
 * A boot CPU hung with interrupts masked on a one-CPU machine is the one
 * case it cannot catch (docs/hardware.md).
 */
void deadline_start(u64 seconds, u64 tsc_hz, void (*expire)(const char *why));
/* What the run is doing, for the message: a configuration on a CPU. */
void deadline_doing(const char *what, u32 cpu, const volatile u32 *fault);
void deadline_poll(void);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_TIME_WATCHDOG_H
#define KERNEL_TIME_WATCHDOG_H

#include "lib/watchdog.h"

/*
 * The watchdog no CPU has to serve: a timer routed through the I/O APIC
 * as an NMI to the boot CPU, asking lib/watchdog.c's rule at every tick
 * whether the boot is hung (docs/hardware.md, "The watchdog").  Armed
 * before the APs start; what it finds is ended through the deadline's
 * path (kernel/time/deadline.c), with its message, rc and `hang` record.
 */
void watchdog_start(u32 mode, u64 tsc_hz, u32 bsp_apic_id, u64 hpet_pa,
		    u32 stall_s);
/* The boot moves to @phase (progress, too). */
void watchdog_phase(enum wd_phase phase);
const char *watchdog_phase_name(void);
/* Progress within a phase; @waiting_on: the CPU it now waits on. */
void watchdog_touch(u32 waiting_on);
/* The run's deadline, a TSC time (0: none); see deadline_start(). */
void watchdog_deadline(u64 at);
/* The `watchdog` record. */
void watchdog_record(struct rec_writer *w);

#endif

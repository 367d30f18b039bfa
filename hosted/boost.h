/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HOSTED_BOOST_H
#define HOSTED_BOOST_H

#include <stddef.h>
#include "lib/types.h"

/*
 * boost= in the companion: turbo (Intel) or Core Performance Boost (AMD)
 * as Linux's cpufreq drivers let user space see and set it, under
 * $HUGEZERO_HOST_ROOT (default /), from the first of:
 *
 *  1. intel_pstate's /sys/devices/system/cpu/intel_pstate/no_turbo
 *     (1: turbo off), when it reads 0 or 1;
 *  2. the cpufreq core's /sys/devices/system/cpu/cpufreq/boost and each
 *     policy's cpufreq/policyN/boost (acpi-cpufreq, amd-pstate, ...): a
 *     policy's own file is what its CPUs run with.
 *
 * The state is on, off, mixed (policies differ) or unknown (no such
 * file: the driver offers no control, as in most virtual machines).
 * docs/companion.md, "Boost".
 */

/*
 * Read the state and, for boost=off or on (@mode, enum boost_mode), set
 * it for the run where it differs: every file written is noted first and
 * put back at exit or on a signal (hosted/restore.h).  False, with
 * @why, when a write is refused (not root, or the driver's refusal): the
 * companion then exits with status 2.  With nothing to write to, it says
 * so on standard error and goes on, the state unknown.
 */
bool boost_apply(u32 mode, char *why, size_t n);

/* The boost record, after the host record: @mode (boost=), the state
 * found, the state the run had, and where it was read (docs/records.md). */
void boost_record(u32 mode);

struct rec;
/*
 * boost=off|on checked (hosted/boost_effect.c): the CPU this process
 * runs on, busy, its APERF/MPERF from /dev/cpu/N/msr against @tsc_hz
 * (lib/boost.c boost_check()); the check's fields into @r, the boost
 * record, and a line on standard error when boost= did not take effect
 * or cannot be checked.  Nothing with boost=firmware.
 */
void boost_effect(struct rec *r, u32 mode, u64 tsc_hz);

#endif

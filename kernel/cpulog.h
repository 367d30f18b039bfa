/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_CPULOG_H
#define KERNEL_CPULOG_H

#include "lib/msrtrace.h"

/*
 * The boot's console lines on what the CPU is and what its vendor paths
 * did (docs/hardware.md, "CPUID and MSR lines"), read by the CPU-model
 * boots (tests/qemu_cpumodel_cases.py): the raw CPUID leaves the
 * primitives and vendor paths are chosen by, and one line per vendor
 * path naming its MSR accesses and their outcome.
 */
void cpulog_cpuid(void);
/* "msr: PATH: ACCESSES; WHAT" */
void cpulog_msr(const char *path, const struct msr_trace *t, const char *what);

#endif

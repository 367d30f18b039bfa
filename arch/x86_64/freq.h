/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_FREQ_H
#define ARCH_FREQ_H

#include "lib/types.h"

/*
 * What moves a number without showing in it: the core's effective
 * frequency against the TSC (IA32_APERF/IA32_MPERF, CPUID 06H:ECX[0], on
 * Intel and AMD alike) and System Management Interrupts (Intel's
 * MSR_SMI_COUNT, 0x34).  Read around a run, never inside a timed region;
 * every read guarded, since a hypervisor may fault on them.
 */
struct freq_caps {
	bool aperfmperf;
	bool smi_count;
	const char *why_not_freq, *why_not_smi;
};

struct freq_snap {
	u64 aperf, mperf, smi;
};

void freq_caps_read(struct freq_caps *c);
void freq_snap(const struct freq_caps *c, struct freq_snap *s);

#endif

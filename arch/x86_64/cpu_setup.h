/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_CPU_SETUP_H
#define ARCH_CPU_SETUP_H

#include "lib/msrtrace.h"
#include "lib/types.h"

/* What cpu_setup() made sure of, or found it could not. */
struct cpu_setup {
	char lfence[80];	/* "serializing (...)" or why not */
	char pat[96];		/* IA32_PAT and whether it is as expected */
	bool pat_ok;
	char misc_enable[112];	/* Intel: MISC_ENABLE's fast strings */
	/* each vendor path's MSR accesses, for its "msr:" line */
	struct msr_trace lfence_msrs, misc_enable_msrs;
};

void cpu_setup(struct cpu_setup *s);

#endif

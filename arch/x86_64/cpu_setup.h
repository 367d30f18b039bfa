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

/* prim_linux()'s reader in the kernel (clear.h, misc_enable_fn): a
 * guarded RDMSR of IA32_MISC_ENABLE, a #GP said in @err. */
bool cpu_misc_enable_read(u64 *val, char *err, size_t n);

#endif

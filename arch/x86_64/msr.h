/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HZ_ARCH_MSR_H
#define HZ_ARCH_MSR_H

#include "lib/msrtrace.h"
#include "lib/types.h"

/*
 * MSR accesses that may fault: a hypervisor or a CPU without the MSR
 * raises #GP.  As Linux's rdmsrq_safe()/wrmsrq_safe() (arch/x86/include/
 * asm/msr.h, an exception-table fixup there, trap_try() here): 0 on
 * success, else the trap's vector + 1, and *val untouched on a fault.
 */
u64 rdmsrq_safe(u32 msr, u64 *val);
u64 wrmsrq_safe(u32 msr, u64 val);

/* The same, each access and its outcome added to @t (NULL: not traced). */
u64 rdmsrq_traced(struct msr_trace *t, u32 msr, u64 *val);
u64 wrmsrq_traced(struct msr_trace *t, u32 msr, u64 val);

/*
 * Test-only (msr_gp=): every guarded access to one of these @n MSRs takes
 * a real #GP in the accessor, caught by trap_try() as a refused access
 * is, without touching the MSR -- what a hypervisor refusing it does.
 * Set before the first access; the APs share the list.
 */
void msr_gp_inject(const u64 *msrs, u32 n);

#endif

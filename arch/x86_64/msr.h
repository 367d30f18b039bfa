/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HZ_ARCH_MSR_H
#define HZ_ARCH_MSR_H

#include "lib/types.h"

/*
 * MSR accesses that may fault: a hypervisor or a CPU without the MSR
 * raises #GP.  As Linux's rdmsrq_safe()/wrmsrq_safe() (arch/x86/include/
 * asm/msr.h, an exception-table fixup there, trap_try() here): 0 on
 * success, else the trap's vector + 1, and *val untouched on a fault.
 */
u64 rdmsrq_safe(u32 msr, u64 *val);
u64 wrmsrq_safe(u32 msr, u64 val);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HOSTED_MSR_H
#define HOSTED_MSR_H

#include "lib/types.h"

/*
 * An MSR of CPU @cpu through Linux's msr driver, /dev/cpu/@cpu/msr under
 * host_root() (pread at the MSR's number, 8 bytes; root and the msr
 * module needed).  True with *@val; else false and @err says why: the
 * file absent ("modprobe msr"), refused, or the read faulted (EIO: the
 * CPU or the hypervisor refuses that MSR).
 */
bool host_rdmsr(u32 cpu, u32 msr, u64 *val, char *err, size_t n);

/* prim_linux()'s reader in the companion: IA32_MISC_ENABLE of CPU 0,
 * the boot CPU, whose early_init_intel() decided (clear.h). */
bool host_misc_enable_read(u64 *val, char *err, size_t n);

#endif

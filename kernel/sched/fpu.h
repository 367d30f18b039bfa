/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_SCHED_FPU_H
#define KERNEL_SCHED_FPU_H

/*
 * Kernel SIMD as Linux does it (kernel_fpu_begin()/kernel_fpu_end(),
 * arch/x86/kernel/fpu/core.c): the interrupted task's extended state
 * saved into @area (arch/x86_64/fpu.c picks XSAVES/XSAVEOPT/XSAVE) and
 * preemption disabled until the end, so a SIMD clear is non-preemptible
 * under every model.  @area: FPU_ALIGN-aligned, fpu_area_size() bytes.
 */
void kernel_fpu_begin(void *area);
void kernel_fpu_end(void *area);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_SCHED_FPU_H
#define KERNEL_SCHED_FPU_H

/*
 * Kernel SIMD and a user's FPU registers, as Linux's x86 FPU code
 * (arch/x86/kernel/fpu/core.c, asm/fpu/sched.h, fpu/context.h;
 * docs/sched.md, "Kernel SIMD"):
 *
 * kernel_fpu_begin() saves the current task's user registers only if
 * they are still live (no TIF_NEED_FPU_LOAD yet) and marks them to be
 * loaded again; later begins in the same entry into the kernel save
 * nothing.  Each begin/end otherwise costs fpregs_lock() (the bh-disable
 * count, which stops preemption: a SIMD call is never preempted) and an
 * LDMXCSR of MXCSR_DEFAULT.  A switch away from a task saves its
 * registers unless they already are in memory (switch_fpu()); the
 * return to user code loads them (switch_fpu_return()) unless the CPU
 * still holds them.  A kernel task (no fpstate) has nothing to save.
 *
 * Begin and end must see interrupts in the same state, as Linux's.
 */
void kernel_fpu_begin(void);
void kernel_fpu_end(void);

/*
 * The calling task holds a user's registers from now on, those the CPU
 * holds now: kept in @area when saved (FPU_ALIGN-aligned, fpu_area_size()
 * bytes, zeroed here), as a task made by fork() has an fpstate.  Needs
 * sched_init_cpu().  Detach loads them back if they are saved, then the
 * task is a kernel task again.
 */
void fpu_user_attach(void *area);
void fpu_user_detach(void);

/* On the way to user code, interrupts off: load the user's registers if
 * they are saved and the CPU no longer holds them (fpregs_restore_userregs()). */
void switch_fpu_return(void);

#endif

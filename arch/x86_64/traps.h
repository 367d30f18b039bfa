/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_TRAPS_H
#define ARCH_TRAPS_H

#include "lib/types.h"

/* The frame isr.asm builds: general registers, then what the CPU pushed. */
struct regs {
	u64 r15, r14, r13, r12, r11, r10, r9, r8;
	u64 rbp, rdi, rsi, rdx, rcx, rbx, rax;
	u64 vector, error;
	u64 rip, cs, rflags, rsp, ss;
};

/* What a recovered exception looked like, for the code that expected it. */
struct trap_info {
	u64 vector, error, cr2, rip;
};

/* Callee-saved state for trap_try(); layout known to isr.asm. */
struct trap_jmp {
	u64 rbx, rbp, r12, r13, r14, r15, rsp, landing;
	struct trap_info info;
};

enum {
	X86_DE = 0, X86_DB = 1, X86_NMI = 2, X86_BP = 3, X86_OF = 4,
	X86_BR = 5, X86_UD = 6, X86_NM = 7, X86_DF = 8, X86_TS = 10,
	X86_NP = 11, X86_SS = 12, X86_GP = 13, X86_PF = 14, X86_MF = 16,
	X86_AC = 17, X86_MC = 18, X86_XM = 19, X86_VE = 20, X86_CP = 21,
};

/* int 0x81: a ring-3 workload is done (arch/x86_64/user.asm). */
#define VEC_USER_EXIT	0x81

#define PF_ERR_P	(1u << 0)
#define PF_ERR_W	(1u << 1)
#define PF_ERR_U	(1u << 2)
#define PF_ERR_I	(1u << 4)

/*
 * A handler claims a trap by returning true; the fault path of the
 * benchmark registers one for user page faults.
 */
typedef bool (*trap_handler_fn)(struct regs *r);
void trap_set_handler(u32 vector, trap_handler_fn fn);

/*
 * Called after a handler has claimed an interrupt or an exception (not
 * NMI, #DF or #MC, which run on IST stacks) and before the IRET, with the
 * interrupted context's frame: where a scheduler preempts on return from
 * an interrupt, as Linux's irqentry_exit() -> preempt_schedule_irq(), and
 * reschedules on every return to ring 3 -- the workload's #PF included,
 * as exc_page_fault() ends in irqentry_exit().  It runs with IF=0, on the
 * stack the interrupt arrived on -- the interrupted task's kernel stack
 * (interrupt gates, no IST; from ring 3, TSS.rsp0) -- and after the
 * handler's EOI, so it may switch to another task and come back much
 * later: the frame waits on that stack and the IRET resumes it.  The
 * interrupted context had interrupts enabled iff RFLAGS.IF is set in the
 * frame; int 0x81 from the workload passes here too, with IF clear, and
 * irqentry_exit() preempts only when it is set.  Entry saves no SIMD
 * state: kernel SIMD runs between kernel_fpu_begin() and end(), not
 * preemptible, and a user's registers are saved and loaded by
 * kernel/sched/fpu.c (the hook loads them on the way back to user
 * code).  Returns the previous hook; NULL removes it.
 */
typedef void (*irq_exit_fn)(struct regs *r);
irq_exit_fn trap_set_irq_exit_hook(irq_exit_fn fn);

/*
 * Run fn(arg); if it raises an exception (other than #DF, NMI, #MC), come
 * back here instead of dying.  Returns 0 when fn returned normally, else
 * vector + 1 with the details in *info.  Used by self-tests that fault on
 * purpose and by probes of MSRs that may not exist.
 */
u64 trap_try(void (*fn)(void *), void *arg, struct trap_info *info);

/* Called by the fatal path before it stops the machine (prints, exits). */
typedef void (*fatal_hook_fn)(void);
/*
 * @begin runs before the exception is dumped (it may stop other CPUs and
 * take the console over, so the dump waits on no lock), @end after it.
 */
void trap_set_fatal_hooks(fatal_hook_fn begin, fatal_hook_fn end);

const char *trap_name(u64 vector);
/* Print a frame-pointer backtrace starting at @rbp (addresses only). */
void print_backtrace(u64 rip, u64 rbp);

#endif

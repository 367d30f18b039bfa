/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_USER_H
#define ARCH_USER_H

#include "lib/types.h"

/* Run ring-3 code at @rip with stack @rsp and first argument @arg until
 * it executes int 0x81.  CR3 must already hold an address space that
 * maps both user-accessible. */
void user_run(u64 rip, u64 rsp, u64 arg);
/* The same with @rflags in ring 3 (USER_RFLAGS | RFLAGS_IF: interrupts
 * on); either way it returns with interrupts off. */
void user_run_flags(u64 rip, u64 rsp, u64 arg, u64 rflags);
void user_init(void);

struct regs;
/*
 * Does the frame return to user code?  Ring 3, as Linux's user_mode(); or
 * the workload's own code (.utext) called at CPL 0 (cpl=0), which is the
 * user for the FPU: there the user's registers are restored as on a
 * return to ring 3.  Only for the FPU: the scheduler treats CPL 0 as
 * kernel code whatever runs there (docs/sched.md).
 */
bool user_code(const struct regs *r);

#define USER_RFLAGS	0x2	/* bit 1 is always set */

/* arch/x86_64/user.asm's user_spin(), for the scheduler's self-tests ... */
struct user_spin {
	volatile u64 stop;	/* set from the kernel to end the spin */
	u64 bound;		/* spins before it gives up */
	u64 spins;		/* out */
};
void user_spin(struct user_spin *s);
/* ... and user_trap(): an int3 from ring 3, then back. */
void user_trap(void);

#endif

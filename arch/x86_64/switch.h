/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_SWITCH_H
#define ARCH_SWITCH_H

#include "lib/types.h"

/*
 * The kernel-stack switch (arch/x86_64/switch.asm), as Linux's
 * __switch_to_asm: the callee-saved registers of the SysV ABI are pushed
 * on the old stack, its RSP stored, the new RSP loaded and the same
 * registers popped, so each task resumes inside its own call of
 * switch_stack().  Everything else (TSS.rsp0, CR3, the run queue) is the
 * caller's.
 *
 * A task that never ran is given a switch_frame whose return address is
 * switch_trampoline: it calls r13(r12) -- the kernel's task launcher and
 * its argument -- which never returns.
 */
struct switch_frame {
	u64 r15, r14, r13, r12, rbp, rbx;
	u64 ret;
};

void switch_stack(u64 *prev_rsp, u64 next_rsp);
void switch_trampoline(void);

#endif

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every structure offset an .asm file of arch/x86_64 relies on, checked at
 * compile time: change a structure and the build stops here, not in a
 * frame that is one register off at run time.
 */
#include <stddef.h>
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/switch.h"
#include "arch/x86_64/traps.h"
#include "arch/x86_64/user.h"
#include "arch/x86_64/workload.h"

/* isr.asm: the frame isr_common pushes is struct regs. */
_Static_assert(offsetof(struct regs, r15) == 0, "isr.asm pushes r15 last");
_Static_assert(offsetof(struct regs, rax) == 14 * 8, "isr.asm pushes rax first");
_Static_assert(offsetof(struct regs, vector) == 15 * 8, "isr.asm: [rsp] vector");
_Static_assert(offsetof(struct regs, error) == 16 * 8, "isr.asm: +8 error");
_Static_assert(offsetof(struct regs, rip) == 17 * 8, "CPU frame: rip");
_Static_assert(offsetof(struct regs, cs) == 18 * 8, "isr.asm tests cs & 3");
_Static_assert(sizeof(struct regs) == 22 * 8, "CPU frame ends with ss");

/* isr.asm's trap_try_asm: struct trap_jmp by offset. */
_Static_assert(offsetof(struct trap_jmp, rbx) == 0, "trap_jmp.rbx");
_Static_assert(offsetof(struct trap_jmp, rbp) == 8, "trap_jmp.rbp");
_Static_assert(offsetof(struct trap_jmp, r12) == 16, "trap_jmp.r12");
_Static_assert(offsetof(struct trap_jmp, r13) == 24, "trap_jmp.r13");
_Static_assert(offsetof(struct trap_jmp, r14) == 32, "trap_jmp.r14");
_Static_assert(offsetof(struct trap_jmp, r15) == 40, "trap_jmp.r15");
_Static_assert(offsetof(struct trap_jmp, rsp) == 48, "trap_jmp.rsp");
_Static_assert(offsetof(struct trap_jmp, landing) == 56, "trap_jmp.landing");

/* this_cpu() reads %gs:0; the CPU reads the TSS by the SDM's layout. */
_Static_assert(offsetof(struct percpu, self) == 0, "this_cpu(): %gs:0");
/* clear.asm's RT_DEPTH_OFF and RT_COUNT_OFF, clear.h's GS_* */
_Static_assert(offsetof(struct percpu, call_depth) == GS_CALL_DEPTH,
	       "RT_DEPTH_OFF");
_Static_assert(offsetof(struct percpu, rethunk_returns) == GS_RETHUNK_RETURNS,
	       "RT_COUNT_OFF");
_Static_assert(offsetof(struct tss, rsp0) == 4, "TSS rsp0");
_Static_assert(offsetof(struct tss, ist) == 36, "TSS ist1");
_Static_assert(offsetof(struct tss, iomap_base) == 102, "TSS iomap base");
_Static_assert(sizeof(struct tss) == 104, "64-bit TSS");

/* workload.asm: struct wl_args by offset (its %defines A_*). */
_Static_assert(offsetof(struct wl_args, count) == 0, "A_COUNT");
_Static_assert(offsetof(struct wl_args, addrs) == 8, "A_ADDRS");
_Static_assert(offsetof(struct wl_args, fault_ticks) == 16, "A_FAULT");
_Static_assert(offsetof(struct wl_args, access_ticks) == 24, "A_ACCESS_T");
_Static_assert(offsetof(struct wl_args, folio_bytes) == 32, "A_FOLIO");
_Static_assert(offsetof(struct wl_args, access) == 40, "A_ACCESS");
_Static_assert(offsetof(struct wl_args, use_rdtscp) == 48, "A_RDTSCP");
_Static_assert(offsetof(struct wl_args, user) == 56, "A_USER");

/* user.asm and workload.asm push these selectors by number. */
_Static_assert(SEL_UDATA == 0x23 && SEL_UCODE == 0x2b, "user.asm SEL_U*");

/* switch.asm pushes rbx first and r15 last; a new task's frame is built
 * in C with the trampoline as its return address. */
_Static_assert(offsetof(struct switch_frame, r15) == 0, "pops r15 first");
_Static_assert(offsetof(struct switch_frame, r13) == 16, "call r13");
_Static_assert(offsetof(struct switch_frame, r12) == 24, "rdi = r12");
_Static_assert(offsetof(struct switch_frame, rbx) == 40, "pushes rbx first");
_Static_assert(offsetof(struct switch_frame, ret) == 48, "then ret");
_Static_assert(sizeof(struct switch_frame) == 7 * 8, "six registers, ret");

/* user.asm's user_spin reads struct user_spin by offset. */
_Static_assert(offsetof(struct user_spin, stop) == 0, "[rdi]");
_Static_assert(offsetof(struct user_spin, bound) == 8, "[rdi + 8]");
_Static_assert(offsetof(struct user_spin, spins) == 16, "[rdi + 16]");

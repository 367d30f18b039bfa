; SPDX-License-Identifier: GPL-2.0-only
; Kernel stack switch between tasks (struct switch_frame in switch.h).

bits 64
default rel
%include "arch/x86_64/calling.inc"

section .text

; void switch_stack(u64 *prev_rsp, u64 next_rsp)
; Interrupts are off; the caller has chosen next and will fix up what
; belongs to the CPU rather than the stack.
global switch_stack
switch_stack:
	PUSH_CALLEE_SAVED
	mov [rdi], rsp
	mov rsp, rsi
	POP_CALLEE_SAVED
	ret

; A new task's first return from switch_stack lands here, RSP 16-byte
; aligned and RBP zero (the end of a backtrace).  It enables nothing.
global switch_trampoline
switch_trampoline:
	mov rdi, r12
	call r13
	ud2

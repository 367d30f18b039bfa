; SPDX-License-Identifier: GPL-2.0-only
; Entering ring 3 and coming back.
;
; user_enter(rip, rsp, arg, u64 *tss_rsp0, u64 *saved_rsp, rflags) keeps
; the callee-saved registers on this stack, points TSS.rsp0 just below
; them (so every trap from ring 3 lands below our live frames), and irets
; to ring 3 with @rflags (interrupts off, or on under a scheduling model).  The workload
; leaves with int 0x81, whose handler (user.c) resumes at user_return on
; the saved stack.

bits 64
default rel
%include "arch/x86_64/calling.inc"
%define SEL_UDATA 0x23
%define SEL_UCODE 0x2b

section .text
global user_enter
user_enter:
	PUSH_CALLEE_SAVED
	mov [r8], rsp
	mov rax, rsp
	and rax, -16
	mov [rcx], rax
	push SEL_UDATA		; ss
	push rsi		; rsp
	push r9			; rflags
	push SEL_UCODE		; cs
	push rdi		; rip
	mov rdi, rdx
	xor eax, eax
	xor ebx, ebx
	xor ecx, ecx
	xor edx, edx
	xor esi, esi
	xor ebp, ebp
	xor r8d, r8d
	xor r9d, r9d
	xor r10d, r10d
	xor r11d, r11d
	xor r12d, r12d
	xor r13d, r13d
	xor r14d, r14d
	xor r15d, r15d
	swapgs
	iretq

global user_return
user_return:
	POP_CALLEE_SAVED
	ret

; Ring-3 code for the scheduler's self-tests, after the workload's page so
; that nothing of the workload moves.  user_spin(struct user_spin *s at
; rdi): spin until s->stop is set or s->bound spins have passed, store the
; count in s->spins and leave.  user_trap: one #BP, then leave.
section .utext.spin progbits alloc exec nowrite align=16
global user_spin
user_spin:
	xor ecx, ecx
.again:
	pause
	inc rcx
	cmp qword [rdi], 0
	jne .done
	cmp rcx, [rdi + 8]
	jb .again
.done:
	mov [rdi + 16], rcx
	int 0x81

global user_trap
user_trap:
	int3
	int 0x81

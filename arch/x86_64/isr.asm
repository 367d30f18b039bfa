; SPDX-License-Identifier: GPL-2.0-only
; Interrupt and exception entry: one stub per vector pushes a uniform
; frame (struct regs in traps.h) and calls trap_dispatch().  Also the
; assembly half of trap_try().

bits 64
default rel
extern trap_dispatch

; Vectors for which the CPU pushes an error code itself.
%macro ISR 1
isr_%1:
%if (%1 == 8) || (%1 >= 10 && %1 <= 14) || (%1 == 17) || (%1 == 21) || (%1 == 29) || (%1 == 30)
%else
	push 0
%endif
	push %1
	jmp isr_common
%endmacro

section .text
align 16
isr_common:
	; [rsp] vector, +8 error, +16 rip, +24 cs: from ring 3, switch GS.
	test qword [rsp + 24], 3
	jz .from_kernel
	swapgs
.from_kernel:
	push rax
	push rbx
	push rcx
	push rdx
	push rsi
	push rdi
	push rbp
	push r8
	push r9
	push r10
	push r11
	push r12
	push r13
	push r14
	push r15
	cld
	mov rdi, rsp		; struct regs *, 16-byte aligned: the CPU
	call trap_dispatch	; aligned RSP before pushing its frame
	pop r15
	pop r14
	pop r13
	pop r12
	pop r11
	pop r10
	pop r9
	pop r8
	pop rbp
	pop rdi
	pop rsi
	pop rdx
	pop rcx
	pop rbx
	pop rax
	add rsp, 16		; vector, error
	test qword [rsp + 8], 3
	jz .to_kernel
	swapgs
.to_kernel:
	iretq

%assign i 0
%rep 256
ISR i
%assign i i + 1
%endrep

; u64 trap_try_asm(void (*fn)(void *), void *arg, struct trap_jmp *j)
; Saves callee-saved registers and the stack pointer in *j; if fn traps,
; trap_dispatch() resumes at .landing with RSP = j->rsp, RDX = j and
; RAX = vector + 1, and we return that to trap_try()'s caller.
global trap_try_asm
trap_try_asm:
	mov [rdx + 0], rbx
	mov [rdx + 8], rbp
	mov [rdx + 16], r12
	mov [rdx + 24], r13
	mov [rdx + 32], r14
	mov [rdx + 40], r15
	mov [rdx + 48], rsp
	lea rax, [.landing]
	mov [rdx + 56], rax
	sub rsp, 8
	mov rax, rdi
	mov rdi, rsi
	call rax
	add rsp, 8
	xor eax, eax
	ret
.landing:
	mov rbx, [rdx + 0]
	mov rbp, [rdx + 8]
	mov r12, [rdx + 16]
	mov r13, [rdx + 24]
	mov r14, [rdx + 32]
	mov r15, [rdx + 40]
	ret

section .rodata
align 8
global isr_table
isr_table:
%assign i 0
%rep 256
	dq isr_ %+ i
%assign i i + 1
%endrep

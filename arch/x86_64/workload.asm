; SPDX-License-Identifier: GPL-2.0-only
; The benchmark's workload: touch each folio once, timing the touch (the
; fault the toucher sees), then optionally write or read the whole folio,
; timed on its own.  It lives in .utext, a page of its own that the
; workload address space maps user-accessible, so the same code runs at
; CPL 3 (entered by iretq, leaves by int 0x81) or at CPL 0 (called).
; No stack beyond its own pushes, no data but what *args points to.

bits 64
default rel
%include "arch/x86_64/calling.inc"

; struct wl_args (arch/x86_64/workload.h; offsets asserted in asm-offsets.c)
%define A_COUNT		0
%define A_ADDRS		8
%define A_FAULT		16
%define A_ACCESS_T	24
%define A_FOLIO		32
%define A_ACCESS	40
%define A_RDTSCP	48
%define A_USER		56
%define VEC_USER_EXIT	0x81

; rax = lfence-bracketed TSC read
%macro TSC_START 0
	lfence
	rdtsc
	lfence
	shl rdx, 32
	or rax, rdx
%endmacro

; The end read waits for the region's stores (arch/x86_64/tsc.h: the same
; instructions as tsc_end(), so the boot's empty-pair overhead applies).
%macro TSC_STOP 1
	mfence
%ifidn %1, rdtscp
	rdtscp
%else
	lfence
	rdtsc
%endif
	lfence
	shl rdx, 32
	or rax, rdx
%endmacro

; One pass over the touch list; %1 selects the stop read (outside the
; timed region, so no branch is timed).
%macro TOUCH_LOOP 1
%%next:
	cmp rbx, r12
	jae .done
	mov rsi, [r13 + rbx * 8]	; where to touch, loaded before timing
	TSC_START
	mov r8, rax
	mov byte [rsi], 0		; a write fault; the byte stays zero
	TSC_STOP %1
	sub rax, r8
	mov [r14 + rbx * 8], rax
	call wl_access_%1
	inc rbx
	jmp %%next
%endmacro

section .utext progbits alloc exec nowrite align=4096
global workload_main
workload_main:
	PUSH_CALLEE_SAVED
	mov rbp, rdi
	mov r12, [rbp + A_COUNT]
	mov r13, [rbp + A_ADDRS]
	mov r14, [rbp + A_FAULT]
	mov r15, [rbp + A_ACCESS_T]
	xor ebx, ebx
	cmp qword [rbp + A_RDTSCP], 0
	je .plain
	TOUCH_LOOP rdtscp
.plain:
	TOUCH_LOOP rdtsc
.done:
	mov rax, [rbp + A_USER]
	POP_CALLEE_SAVED
	test rax, rax
	jz .ret
	int VEC_USER_EXIT		; back to the kernel; never returns here
	ud2
.ret:
	ret

; The post-fault access of the folio containing RSI, as vm-scalability's
; anon-w-seq does (p[i] = i over the whole region), or a read of it.  One
; copy per end read, chosen with the touch loop's, so every timed region
; uses the pair the boot's empty-pair overhead was measured with.
%macro WL_ACCESS 2
%1:
	mov r10, [rbp + A_ACCESS]
	test r10, r10
	jz %%none
	mov rdi, rsi
	mov rcx, [rbp + A_FOLIO]
	lea rdx, [rcx - 1]
	not rdx
	and rdi, rdx
	shr rcx, 3
	TSC_START
	mov r8, rax
	xor r9d, r9d
	cmp r10, 1
	jne %%read
	align 16
%%write:
	mov [rdi], r9
	add rdi, 8
	inc r9
	dec rcx
	jnz %%write
	jmp %%stop
	align 16
%%read:
	add r9, [rdi]
	add rdi, 8
	dec rcx
	jnz %%read
%%stop:
	TSC_STOP %2
	sub rax, r8
	mov [r15 + rbx * 8], rax
%%none:
	ret
%endmacro

WL_ACCESS wl_access_rdtscp, rdtscp
WL_ACCESS wl_access_rdtsc, rdtsc

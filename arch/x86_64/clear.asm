; SPDX-License-Identifier: GPL-2.0-only
; Clearing primitives: void clear_NAME(void *dst, u64 len).
;
; dst 64-byte aligned, len a multiple of 64 (callers pass 4K pages).  One
; call can clear one page or a whole range, the "size hint" of Linux 7.0's
; clear_pages().  Non-temporal ones end with SFENCE.  SIMD ones save and
; restore the one register they use.  Position-independent: the same
; object links into the kernel and into the Linux companion.
;
; Models: orig/rep/erms are arch/x86/lib/clear_page_64.S's
; clear_page_orig (8 x movq per 64 bytes), clear_page_rep (rep stosq) and
; clear_page_erms (rep stosb).

bits 64
default rel
section .text

%macro ENTRY 1
	global %1
	align 32
%1:
%endmacro

; 8 x movq of RAX per 64 bytes over (RDI, RSI bytes): clear_page_orig's
; loop, shared by clear_orig (RAX = 0) and the pattern fill.
%macro MOVQ_LOOP 0
	shr rsi, 6
	jz %%done
	align 16
%%loop:
	mov [rdi], rax
	mov [rdi + 8], rax
	mov [rdi + 16], rax
	mov [rdi + 24], rax
	mov [rdi + 32], rax
	mov [rdi + 40], rax
	mov [rdi + 48], rax
	mov [rdi + 56], rax
	lea rdi, [rdi + 64]
	dec rsi
	jnz %%loop
%%done:
	ret
%endmacro

ENTRY clear_orig
	xor eax, eax
	MOVQ_LOOP

; fill_movq(dst, len, pattern): the untimed fill before every run
; (clear.h says why it is not memset).
ENTRY fill_movq
	mov rax, rdx
	MOVQ_LOOP

ENTRY clear_rep
	mov rcx, rsi
	shr rcx, 3
	xor eax, eax
	rep stosq
	ret

ENTRY clear_erms
	mov rcx, rsi
	xor eax, eax
	rep stosb
	ret

ENTRY clear_movnti
	xor eax, eax
	shr rsi, 6
	jz .done
	align 16
.loop:
	movnti [rdi], rax
	movnti [rdi + 8], rax
	movnti [rdi + 16], rax
	movnti [rdi + 24], rax
	movnti [rdi + 32], rax
	movnti [rdi + 40], rax
	movnti [rdi + 48], rax
	movnti [rdi + 56], rax
	add rdi, 64
	dec rsi
	jnz .loop
.done:
	sfence
	ret

ENTRY clear_movntdq
	sub rsp, 16
	movdqu [rsp], xmm0
	pxor xmm0, xmm0
	shr rsi, 6
	jz .done
	align 16
.loop:
	movntdq [rdi], xmm0
	movntdq [rdi + 16], xmm0
	movntdq [rdi + 32], xmm0
	movntdq [rdi + 48], xmm0
	add rdi, 64
	dec rsi
	jnz .loop
.done:
	sfence
	movdqu xmm0, [rsp]
	add rsp, 16
	ret

ENTRY clear_avx2
	sub rsp, 32
	vmovdqu [rsp], ymm0
	vpxor ymm0, ymm0, ymm0
	shr rsi, 6
	jz .done
	align 16
.loop:
	vmovdqa [rdi], ymm0
	vmovdqa [rdi + 32], ymm0
	add rdi, 64
	dec rsi
	jnz .loop
.done:
	vmovdqu ymm0, [rsp]
	add rsp, 32
	ret

ENTRY clear_avx2_nt
	sub rsp, 32
	vmovdqu [rsp], ymm0
	vpxor ymm0, ymm0, ymm0
	shr rsi, 6
	jz .done
	align 16
.loop:
	vmovntdq [rdi], ymm0
	vmovntdq [rdi + 32], ymm0
	add rdi, 64
	dec rsi
	jnz .loop
.done:
	sfence
	vmovdqu ymm0, [rsp]
	add rsp, 32
	ret

ENTRY clear_avx512
	sub rsp, 64
	vmovdqu64 [rsp], zmm0
	vpxord zmm0, zmm0, zmm0
	shr rsi, 6
	jz .done
	align 16
.loop:
	vmovdqa64 [rdi], zmm0
	add rdi, 64
	dec rsi
	jnz .loop
.done:
	vmovdqu64 zmm0, [rsp]
	add rsp, 64
	ret

ENTRY clear_avx512_nt
	sub rsp, 64
	vmovdqu64 [rsp], zmm0
	vpxord zmm0, zmm0, zmm0
	shr rsi, 6
	jz .done
	align 16
.loop:
	vmovntdq [rdi], zmm0
	add rdi, 64
	dec rsi
	jnz .loop
.done:
	sfence
	vmovdqu64 zmm0, [rsp]
	add rsp, 64
	ret

; CLZERO (AMD): zeroes the 64-byte line containing RAX, weakly ordered.
ENTRY clear_clzero
	mov rax, rdi
	shr rsi, 6
	jz .done
	align 16
.loop:
	db 0x0f, 0x01, 0xfc		; clzero (rax)
	add rax, 64
	dec rsi
	jnz .loop
.done:
	sfence
	ret

section .note.GNU-stack noalloc noexec nowrite progbits

%ifdef HZ_TEST_PRIM
; make HZ_TEST_PRIM=1: the routine of lib/prims.h's test row (REP STOSQ
; again under another name), to prove a primitive is one row and this.
section .text
ENTRY clear_test_stosq
	mov rcx, rsi
	shr rcx, 3
	xor eax, eax
	rep stosq
	ret
%endif

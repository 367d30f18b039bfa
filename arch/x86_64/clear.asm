; SPDX-License-Identifier: GPL-2.0-only
; Clearing primitives: void clear_NAME(void *dst, u64 len).
;
; dst 64-byte aligned, len a multiple of 64 (callers pass 4K pages).  One
; call can clear one page or a whole range, the "size hint" of Linux 7.0's
; clear_pages().  Non-temporal ones end with SFENCE.  SIMD ones save and
; restore the one register they use.  Position-independent: the same
; object links into the kernel and into the Linux companion.
;
;
; Each primitive is assembled once with a plain RET (clear_NAME) and once
; per return thunk of lib/rethunk.h (clear_NAME_rt_KIND, and
; clear_NAME_rtc_KIND counting each return for rethunk_count=); the
; thunks are arch/x86_64/rethunk.inc's, shaped as Linux's retpoline.S.
;
; Models: orig/rep/erms are arch/x86/lib/clear_page_64.S's
; clear_page_orig (8 x movq per 64 bytes), clear_page_rep (rep stosq) and
; clear_page_erms (rep stosb).

bits 64
default rel
section .text

; Per-CPU, from GS base: call_depth_return_thunk's call depth, and the
; count of returns (rethunk_count=); the kernel's struct percpu
; (arch/x86_64/percpu.h, asm-offsets.c checks them), the companion's
; struct gs_area (hosted/gs.c).
%define RT_DEPTH_OFF 8
%define RT_COUNT_OFF 16

; RT_SUFFIX, RT_THUNK, RT_DEPTH: which copy of clear_body.inc is being
; assembled (below); undefined for the plain one, whose names are bare.
%macro ENTRY 1
%ifdef RT_SUFFIX
	global %1 %+ RT_SUFFIX
	align 32
%1 %+ RT_SUFFIX:
%else
	global %1
	align 32
%1:
%endif
%ifdef RT_DEPTH
	; call_depth_return_thunk's other half: INCREMENT_CALL_DEPTH, which
	; Linux's call thunk in the callee's padding runs before its body
	sar qword [abs gs:RT_DEPTH_OFF], 5
%endif
%endmacro

; Linux's RET (arch/x86/include/asm/linkage.h): `jmp __x86_return_thunk`
; in a CONFIG_MITIGATION_RETHUNK kernel, the jump patched at boot to the
; thunk the mitigation picked (alternative.c, patch_return()), or to a
; plain ret where none is needed; here each copy has its own.
%macro RET 0
%ifdef RT_THUNK
	jmp RT_THUNK
%else
	ret
%endif
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
	RET
%endmacro

; fill_movq(dst, len, pattern): the untimed fill before every run
; (clear.h says why it is not memset); a plain ret always.
ENTRY fill_movq
	mov rax, rdx
	MOVQ_LOOP

; The primitives: with a plain RET, then through each thunk (lib/rethunk.h
; enum rethunk_kind; arch/x86_64/clear.c's table names the same suffixes).
%include "arch/x86_64/clear_body.inc"

%define RT_SUFFIX _rt_retbleed
%define RT_THUNK retbleed_return_thunk
%include "arch/x86_64/clear_body.inc"
%undef RT_THUNK
%undef RT_SUFFIX

%define RT_SUFFIX _rt_srso
%define RT_THUNK srso_return_thunk
%include "arch/x86_64/clear_body.inc"
%undef RT_THUNK
%undef RT_SUFFIX

%define RT_SUFFIX _rt_srso_alias
%define RT_THUNK srso_alias_return_thunk
%include "arch/x86_64/clear_body.inc"
%undef RT_THUNK
%undef RT_SUFFIX

%define RT_SUFFIX _rt_depth
%define RT_THUNK call_depth_return_thunk
%define RT_DEPTH
%include "arch/x86_64/clear_body.inc"
%undef RT_DEPTH
%undef RT_THUNK
%undef RT_SUFFIX

%define RT_SUFFIX _rtc_retbleed
%define RT_THUNK rethunk_count_retbleed
%include "arch/x86_64/clear_body.inc"
%undef RT_THUNK
%undef RT_SUFFIX

%define RT_SUFFIX _rtc_srso
%define RT_THUNK rethunk_count_srso
%include "arch/x86_64/clear_body.inc"
%undef RT_THUNK
%undef RT_SUFFIX

%define RT_SUFFIX _rtc_srso_alias
%define RT_THUNK rethunk_count_srso_alias
%include "arch/x86_64/clear_body.inc"
%undef RT_THUNK
%undef RT_SUFFIX

%define RT_SUFFIX _rtc_depth
%define RT_THUNK rethunk_count_depth
%define RT_DEPTH
%include "arch/x86_64/clear_body.inc"
%undef RT_DEPTH
%undef RT_THUNK
%undef RT_SUFFIX

%include "arch/x86_64/rethunk.inc"

section .note.GNU-stack noalloc noexec nowrite progbits

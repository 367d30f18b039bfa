/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Written for hugezero's tests in Linux's macro style: the form of the
 * 2025 v3/v4 series, multi-page routines taking the length in bytes in
 * a 32-bit register.  Not Linux's code.  Their names do not say that:
 * LINUX_ABI=bytes-esi.
 */
#include <linux/export.h>
#include <linux/linkage.h>
#include <linux/cfi_types.h>
#include <linux/objtool.h>
#include <asm/asm.h>

/*
 * Zero a page-aligned region.
 * %rdi	- destination, %esi - length in bytes
 */
SYM_TYPED_FUNC_START(clear_pages_rep)
	movl	%esi, %ecx
	shrl	$3, %ecx
	xorl	%eax, %eax
	rep stosq
	RET
SYM_FUNC_END(clear_pages_rep)
EXPORT_SYMBOL_GPL(clear_pages_rep)

SYM_TYPED_FUNC_START(clear_pages_orig)
	movl	%esi, %ecx
	shrl	$6, %ecx
	xorl	%eax, %eax
	.p2align 4
.Lblock:
	decl	%ecx
	movq	%rax, 0x00(%rdi)
	movq	%rax, 0x08(%rdi)
	movq	%rax, 0x10(%rdi)
	movq	%rax, 0x18(%rdi)
	movq	%rax, 0x20(%rdi)
	movq	%rax, 0x28(%rdi)
	movq	%rax, 0x30(%rdi)
	movq	%rax, 0x38(%rdi)
	leaq	64(%rdi), %rdi
	jnz	.Lblock
	RET
SYM_FUNC_END(clear_pages_orig)
EXPORT_SYMBOL_GPL(clear_pages_orig)

SYM_TYPED_FUNC_START(clear_pages_erms)
	movl	%esi, %ecx
	xorl	%eax, %eax
	rep stosb
	RET
SYM_FUNC_END(clear_pages_erms)
EXPORT_SYMBOL_GPL(clear_pages_erms)

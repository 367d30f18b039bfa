/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Written for hugezero's tests in Linux's macro style: the merged 7.0
 * form, one range routine.  Not Linux's code.
 */
#include <linux/export.h>
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/asm.h>

/*
 * Zero a range.
 * %rdi	- destination, %rcx - length in bytes (a multiple of 64), %rax - 0
 */
SYM_TYPED_FUNC_START(__clear_pages_unrolled)
	shrq	$6, %rcx
	.p2align 4
.Lrow:
	movq	%rax, 0x00(%rdi)
	movq	%rax, 0x08(%rdi)
	movq	%rax, 0x10(%rdi)
	movq	%rax, 0x18(%rdi)
	movq	%rax, 0x20(%rdi)
	movq	%rax, 0x28(%rdi)
	movq	%rax, 0x30(%rdi)
	movq	%rax, 0x38(%rdi)
	addq	$64, %rdi
	decq	%rcx
	jnz	.Lrow
	RET
SYM_FUNC_END(__clear_pages_unrolled)
EXPORT_SYMBOL_GPL(__clear_pages_unrolled)

/*
 * A user-space clear, with exception-table entries: left out.
 * %rdi - destination, %rcx - count; %rcx - bytes left on return
 */
SYM_FUNC_START(rep_stos_alternative)
	ANNOTATE_NOENDBR
	testq	%rcx, %rcx
	jz	.Ldone
.Lbyte:
9:	movb	%al, (%rdi)
	incq	%rdi
	decq	%rcx
	jnz	.Lbyte
.Ldone:
	RET
	_ASM_EXTABLE_UA(9b, .Ldone)
SYM_FUNC_END(rep_stos_alternative)
EXPORT_SYMBOL(rep_stos_alternative)

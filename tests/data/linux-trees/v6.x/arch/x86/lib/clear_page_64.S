/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Written for hugezero's tests in Linux's macro style: the 6.x form,
 * three per-page routines and a user-space clear.  Not Linux's code.
 */
#include <linux/linkage.h>
#include <asm/asm.h>
#include <asm/export.h>
#include <asm/page_types.h>

/* %rdi - the page */
SYM_FUNC_START(clear_page_rep)
	movl	$PAGE_SIZE/8, %ecx
	xorl	%eax, %eax
	rep stosq
	RET
SYM_FUNC_END(clear_page_rep)
EXPORT_SYMBOL_GPL(clear_page_rep)

SYM_FUNC_START(clear_page_orig)
	xorl	%eax, %eax
	movl	$PAGE_SIZE/64, %ecx
	.p2align 4
.Lline:
#define STORE(i) movq %rax, (i)*8(%rdi)
	STORE(0)
	STORE(1)
	STORE(2)
	STORE(3)
	STORE(4)
	STORE(5)
	STORE(6)
	STORE(7)
	leaq	64(%rdi), %rdi
	decl	%ecx
	jnz	.Lline
	RET
SYM_FUNC_END(clear_page_orig)
EXPORT_SYMBOL_GPL(clear_page_orig)

SYM_FUNC_START(clear_page_erms)
	movl	$PAGE_SIZE, %ecx
	xorl	%eax, %eax
	rep stosb
	RET
SYM_FUNC_END(clear_page_erms)
EXPORT_SYMBOL_GPL(clear_page_erms)

/* %rdi - destination, %rcx - count; %rcx - bytes left on return */
SYM_FUNC_START(clear_user_erms)
1:	rep stosb
2:	xorl	%eax, %eax
	RET
	_ASM_EXTABLE_UA(1b, 2b)
SYM_FUNC_END(clear_user_erms)
EXPORT_SYMBOL(clear_user_erms)

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Written for hugezero's tests: a macro no stand-in header defines, used
 * as an operand, which the assembler takes for a symbol.  Refused.
 */
#include <linux/linkage.h>

/* %rdi - page */
SYM_FUNC_START(clear_page_rep)
	movl	$CLEAR_QWORDS, %ecx
	xorl	%eax, %eax
	rep stosq
	RET
SYM_FUNC_END(clear_page_rep)

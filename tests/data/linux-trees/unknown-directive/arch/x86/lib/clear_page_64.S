/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Written for hugezero's tests: a directive the assembler does not know
 * (line 11), which must fail the build naming this file and line.
 */
#include <linux/linkage.h>

SYM_FUNC_START(clear_page_erms)
	movl	$4096, %ecx
	xorl	%eax, %eax
	.hz_no_such_directive 1
	rep stosb
	RET
SYM_FUNC_END(clear_page_erms)

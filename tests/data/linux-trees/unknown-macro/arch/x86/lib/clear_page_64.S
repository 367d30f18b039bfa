/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Written for hugezero's tests: a macro no stand-in header defines
 * (line 12), which must fail the build naming this file and line.
 */
#include <linux/linkage.h>
#include <asm/asm.h>

SYM_FUNC_START(clear_page_rep)
	movl	$4096/8, %ecx
	xorl	%eax, %eax
	HZ_NO_SUCH_MACRO(clear_page_rep)
	rep stosq
	RET
SYM_FUNC_END(clear_page_rep)

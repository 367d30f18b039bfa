/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Written for hugezero's tests: the 2025 series' form, a range routine
 * whose name does not say its convention (the length in bytes in %esi
 * here, the page count in %rsi in the 2022 RFC).  No known routine: the
 * build is refused.
 */
#include <linux/linkage.h>

/* %rdi - destination, %esi - length in bytes */
SYM_FUNC_START(clear_pages_erms)
	movl	%esi, %ecx
	xorl	%eax, %eax
	rep stosb
	RET
SYM_FUNC_END(clear_pages_erms)

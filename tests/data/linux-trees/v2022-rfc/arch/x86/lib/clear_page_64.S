/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Written for hugezero's tests in Linux's macro style: the form of the
 * 2022 RFC, multi-page routines taking the page count.  Not Linux's
 * code.  Their names do not say that: LINUX_ABI=npages-rsi.
 */
#include <linux/export.h>
#include <linux/linkage.h>
#include <asm/asm.h>
#include <asm/page_types.h>

/*
 * Zero pages.
 * %rdi	- destination, %rsi - page count
 */
SYM_FUNC_START(clear_pages_rep)
	movq	%rsi, %rcx
	shlq	$(PAGE_SHIFT - 3), %rcx
	xorl	%eax, %eax
	rep stosq
	RET
SYM_FUNC_END(clear_pages_rep)
EXPORT_SYMBOL_GPL(clear_pages_rep)

SYM_FUNC_START(clear_pages_orig)
	movq	%rsi, %rcx
	shlq	$(PAGE_SHIFT - 6), %rcx
	xorl	%eax, %eax
	.p2align 4
.Lblock:
	movq	%rax, 0x00(%rdi)
	movq	%rax, 0x08(%rdi)
	movq	%rax, 0x10(%rdi)
	movq	%rax, 0x18(%rdi)
	movq	%rax, 0x20(%rdi)
	movq	%rax, 0x28(%rdi)
	movq	%rax, 0x30(%rdi)
	movq	%rax, 0x38(%rdi)
	leaq	64(%rdi), %rdi
	decq	%rcx
	jnz	.Lblock
	RET
SYM_FUNC_END(clear_pages_orig)
EXPORT_SYMBOL_GPL(clear_pages_orig)

SYM_FUNC_START(clear_pages_erms)
	movq	%rsi, %rcx
	shlq	$PAGE_SHIFT, %rcx
	xorl	%eax, %eax
	rep stosb
	RET
SYM_FUNC_END(clear_pages_erms)
EXPORT_SYMBOL_GPL(clear_pages_erms)

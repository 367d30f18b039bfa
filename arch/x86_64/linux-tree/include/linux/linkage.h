/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hugezero's stand-in for the symbol macros Linux's assembler files use
 * (make LINUX=DIR, docs/linux-tree.md), written for hugezero: each
 * routine global, typed, sized and aligned to 16 bytes (x86-64's
 * CONFIG_FUNCTION_ALIGNMENT), with no ENDBR, no kCFI preamble and no
 * padding.  A macro not defined here reaches the assembler as text and
 * fails the build at the tree's file and line.
 */
#ifndef HZ_TREE_LINKAGE_H
#define HZ_TREE_LINKAGE_H

#define HZ_SYM_ALIGN	.balign 16, 0x90;

#define SYM_FUNC_START(name)	HZ_SYM_ALIGN .globl name; .type name, @function; name:
#define SYM_FUNC_START_NOALIGN(name)	.globl name; .type name, @function; name:
#define SYM_FUNC_START_LOCAL(name)	HZ_SYM_ALIGN .type name, @function; name:
#define SYM_FUNC_START_LOCAL_NOALIGN(name)	.type name, @function; name:
#define SYM_FUNC_START_WEAK(name)	HZ_SYM_ALIGN .weak name; .type name, @function; name:
#define SYM_FUNC_END(name)	.size name, . - name;
#define SYM_FUNC_ALIAS(alias, name)	.globl alias; .type alias, @function; .set alias, name;
#define SYM_FUNC_ALIAS_LOCAL(alias, name)	.type alias, @function; .set alias, name;
#define SYM_FUNC_ALIAS_WEAK(alias, name)	.weak alias; .type alias, @function; .set alias, name;

/* Named code that is not a C-callable function: placed, never used. */
#define SYM_CODE_START(name)	HZ_SYM_ALIGN .globl name; name:
#define SYM_CODE_START_LOCAL(name)	HZ_SYM_ALIGN name:
#define SYM_CODE_END(name)	.size name, . - name;

/* kCFI's typed entry: the type hash preamble is left out. */
#define SYM_TYPED_FUNC_START(name)	SYM_FUNC_START(name)

/* Plain ret: no return thunk, no straight-line-speculation INT3. */
#define RET	ret

#endif

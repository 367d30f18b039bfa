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

/*
 * rethunk= (docs/hardware.md, "Return thunks"): the Makefile assembles the
 * tree's file once more per return thunk, with HZ_RT_SUFFIX appended to
 * every routine's name, RET a jump to HZ_RT_THUNK (as a mitigated Linux's
 * RET, patched to its thunk), and with HZ_RT_DEPTH the callee's
 * INCREMENT_CALL_DEPTH on entry (GS base + 8, arch/x86_64/clear.h).
 */
#ifndef HZ_RT_SUFFIX
#define HZ_RT_SUFFIX
#endif
#define HZ_PASTE(a, b)	a##b
#define HZ_XPASTE(a, b)	HZ_PASTE(a, b)
#define HZ_NAME(name)	HZ_XPASTE(name, HZ_RT_SUFFIX)
#ifdef HZ_RT_DEPTH
#define HZ_RT_ENTRY	sarq $5, %gs:8;
#else
#define HZ_RT_ENTRY
#endif

#define SYM_FUNC_START(name)	HZ_SYM_ALIGN .globl HZ_NAME(name); .type HZ_NAME(name), @function; HZ_NAME(name): HZ_RT_ENTRY
#define SYM_FUNC_START_NOALIGN(name)	.globl HZ_NAME(name); .type HZ_NAME(name), @function; HZ_NAME(name): HZ_RT_ENTRY
#define SYM_FUNC_START_LOCAL(name)	HZ_SYM_ALIGN .type HZ_NAME(name), @function; HZ_NAME(name): HZ_RT_ENTRY
#define SYM_FUNC_START_LOCAL_NOALIGN(name)	.type HZ_NAME(name), @function; HZ_NAME(name): HZ_RT_ENTRY
#define SYM_FUNC_START_WEAK(name)	HZ_SYM_ALIGN .weak HZ_NAME(name); .type HZ_NAME(name), @function; HZ_NAME(name): HZ_RT_ENTRY
#define SYM_FUNC_END(name)	.size HZ_NAME(name), . - HZ_NAME(name);
#define SYM_FUNC_ALIAS(alias, name)	.globl HZ_NAME(alias); .type HZ_NAME(alias), @function; .set HZ_NAME(alias), HZ_NAME(name);
#define SYM_FUNC_ALIAS_LOCAL(alias, name)	.type HZ_NAME(alias), @function; .set HZ_NAME(alias), HZ_NAME(name);
#define SYM_FUNC_ALIAS_WEAK(alias, name)	.weak HZ_NAME(alias); .type HZ_NAME(alias), @function; .set HZ_NAME(alias), HZ_NAME(name);

/* Named code that is not a C-callable function: placed, never used. */
#define SYM_CODE_START(name)	HZ_SYM_ALIGN .globl HZ_NAME(name); HZ_NAME(name):
#define SYM_CODE_START_LOCAL(name)	HZ_SYM_ALIGN HZ_NAME(name):
#define SYM_CODE_END(name)	.size HZ_NAME(name), . - HZ_NAME(name);

/* kCFI's typed entry: the type hash preamble is left out. */
#define SYM_TYPED_FUNC_START(name)	SYM_FUNC_START(name)

/* Plain ret, or the copy's thunk; no straight-line-speculation INT3. */
#ifdef HZ_RT_THUNK
#define RET	jmp HZ_RT_THUNK
#else
#define RET	ret
#endif

#endif

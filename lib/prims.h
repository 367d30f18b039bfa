/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_PRIMS_H
#define LIB_PRIMS_H

/*
 * The clearing primitives by name (docs/cmdline.md, key clear=).  The code is in
 * arch/x86_64/clear.asm; the names live here so that the command-line
 * schema, records and host tools share them.
 */
enum prim_id {
	PRIM_ORIG,	/* unrolled 8 x movq (clear_page_orig) */
	PRIM_REP,	/* rep stosq (clear_page_rep) */
	PRIM_ERMS,	/* rep stosb (clear_page_erms) */
	PRIM_MOVNTI,
	PRIM_MOVNTDQ,	/* SSE2 */
	PRIM_AVX2,
	PRIM_AVX2_NT,
	PRIM_AVX512,
	PRIM_AVX512_NT,
	PRIM_CLZERO,
	PRIM_COUNT
};

extern const char *const prim_names[];	/* NULL-terminated, by enum */

/* Does @p use SSE/AVX registers (so Linux would run it between
 * kernel_fpu_begin() and kernel_fpu_end())? */
static inline int prim_is_simd(enum prim_id p)
{
	return p == PRIM_MOVNTDQ || p == PRIM_AVX2 || p == PRIM_AVX2_NT ||
	       p == PRIM_AVX512 || p == PRIM_AVX512_NT;
}

#endif

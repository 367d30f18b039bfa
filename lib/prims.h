/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_PRIMS_H
#define LIB_PRIMS_H

#include "lib/types.h"

/*
 * The clearing primitives, each declared once, in PRIMS() below: its
 * clear= word (the name records and host tools use), its routine (a
 * label in arch/x86_64/clear.asm), whether it uses SSE/AVX registers (so
 * Linux would run it between kernel_fpu_begin() and kernel_fpu_end()),
 * the CPU feature it needs, and the Linux routine it mirrors (NULL: none,
 * a strategy proposed or used elsewhere).  Everything else -- the enum,
 * the names, the help text, arch/'s table of routines, the companion --
 * is made from this list; the host tools read names from the records.
 *
 * Adding a primitive: its routine in clear.asm, one row here, a line in
 * docs/cmdline.md.  A new CPU feature is one more PRIM_FEAT_ value and
 * its test in arch/x86_64/clear.c, feature_ok().
 */
#define PRIMS(X)							\
	X(ORIG, "orig", clear_orig, 0, NONE, "clear_page_orig")		\
	X(REP, "rep", clear_rep, 0, NONE, "clear_page_rep")		\
	X(ERMS, "erms", clear_erms, 0, ERMS, "clear_page_erms")		\
	X(MOVNTI, "movnti", clear_movnti, 0, SSE2, NULL)		\
	X(MOVNTDQ, "movntdq", clear_movntdq, 1, SSE2, NULL)		\
	X(AVX2, "avx2", clear_avx2, 1, AVX2, NULL)			\
	X(AVX2_NT, "avx2-nt", clear_avx2_nt, 1, AVX2, NULL)		\
	X(AVX512, "avx512", clear_avx512, 1, AVX512F, NULL)		\
	X(AVX512_NT, "avx512-nt", clear_avx512_nt, 1, AVX512F, NULL)	\
	X(CLZERO, "clzero", clear_clzero, 0, CLZERO, NULL)		\
	PRIMS_TEST(X)

/*
 * make HZ_TEST_PRIM=1 (tests/test_prim_row.py): a primitive declared by
 * this row and its routine alone, to prove that nothing else names one.
 */
#ifdef HZ_TEST_PRIM
#define PRIMS_TEST(X) X(TEST, "test-stosq", clear_test_stosq, 0, NONE, NULL)
#else
#define PRIMS_TEST(X)
#endif

#define PRIM_ENUM(id, name, fn, simd, feat, linux) PRIM_##id,
enum prim_id { PRIMS(PRIM_ENUM) PRIM_COUNT };
#undef PRIM_ENUM

enum prim_feature {
	PRIM_FEAT_NONE, PRIM_FEAT_ERMS, PRIM_FEAT_SSE2, PRIM_FEAT_AVX2,
	PRIM_FEAT_AVX512F, PRIM_FEAT_CLZERO,
};

struct prim_desc {
	const char *name;
	bool simd;
	enum prim_feature feature;
	const char *linux_fn;
};

extern const struct prim_desc prim_descs[PRIM_COUNT];
extern const char *const prim_names[];	/* NULL-terminated, by enum */

static inline bool prim_is_simd(enum prim_id p)
{
	return p < PRIM_COUNT && prim_descs[p].simd;
}

#endif

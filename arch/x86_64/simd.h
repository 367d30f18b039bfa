/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_SIMD_H
#define ARCH_SIMD_H

#include "lib/types.h"

#define XCR0_X87	(1ULL << 0)
#define XCR0_SSE	(1ULL << 1)
#define XCR0_AVX	(1ULL << 2)
#define XCR0_OPMASK	(1ULL << 5)
#define XCR0_ZMM_HI256	(1ULL << 6)
#define XCR0_HI16_ZMM	(1ULL << 7)
#define XCR0_AVX512	(XCR0_OPMASK | XCR0_ZMM_HI256 | XCR0_HI16_ZMM)

/*
 * SIMD state the clearing primitives may use.  The kernel itself is
 * compiled without SSE, so only code that asks for these registers (and
 * saves what it uses) ever touches them.
 */
struct simd_state {
	bool sse, avx, avx512;
	u64 xcr0;		/* 0 without XSAVE */
	u32 xsave_size;		/* bytes for the enabled components */
};

extern struct simd_state simd;

void simd_init(void);
/* On an AP after the boot CPU ran simd_init(): the same XCR0. */
void simd_init_cpu(void);

#endif

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Self-tests: the SIMD state the clearing primitives need is enabled,
 * proven by executing an instruction of each class (a disabled class
 * raises #UD, which trap_try catches).
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/simd.h"
#include "arch/x86_64/traps.h"
#include "kernel/selftest/selftest.h"

static void run_sse(void *arg)
{
	(void)arg;
	__asm__ volatile("pxor %xmm0, %xmm0\n\tmovdqa %xmm0, %xmm1");
}

static void run_avx(void *arg)
{
	(void)arg;
	__asm__ volatile("vpxor %ymm0, %ymm0, %ymm0\n\tvmovdqa %ymm0, %ymm1\n\t"
			 "vzeroupper");
}

static void run_avx512(void *arg)
{
	(void)arg;
	__asm__ volatile("vpxord %zmm0, %zmm0, %zmm0\n\t"
			 "vmovdqa64 %zmm0, %zmm16\n\tvzeroupper");
}

static void sse_enabled(struct tctx *t)
{
	struct trap_info ti;
	u64 cr4 = read_cr4();

	check(t, simd.sse, "SSE not enabled");
	check(t, (cr4 & (CR4_OSFXSR | CR4_OSXMMEXCPT)) ==
	      (CR4_OSFXSR | CR4_OSXMMEXCPT), "CR4 %#llx",
	      (unsigned long long)cr4);
	check(t, trap_try(run_sse, NULL, &ti) == 0, "SSE instruction raised "
	      "vector %llu", (unsigned long long)ti.vector);
}

static void avx_enabled(struct tctx *t)
{
	struct trap_info ti;

	if (!cpu_info.has_avx) {
		skip(t, "CPU lacks AVX (CPUID 1:ECX[28] clear)");
		return;
	}
	check(t, read_cr4() & CR4_OSXSAVE, "CR4.OSXSAVE clear");
	check(t, (simd.xcr0 & (XCR0_SSE | XCR0_AVX)) == (XCR0_SSE | XCR0_AVX),
	      "XCR0 %#llx lacks SSE|AVX", (unsigned long long)simd.xcr0);
	if (cpu_info.has_avx2)
		check(t, trap_try(run_avx, NULL, &ti) == 0, "AVX2 instruction "
		      "raised vector %llu", (unsigned long long)ti.vector);
}

static void avx512_enabled(struct tctx *t)
{
	struct trap_info ti;

	if (!cpu_info.has_avx512f) {
		skip(t, "CPU lacks AVX-512F (CPUID 7.0:EBX[16] clear)");
		return;
	}
	check(t, (simd.xcr0 & XCR0_AVX512) == XCR0_AVX512,
	      "XCR0 %#llx lacks opmask/ZMM state", (unsigned long long)simd.xcr0);
	check(t, trap_try(run_avx512, NULL, &ti) == 0, "AVX-512 instruction "
	      "raised vector %llu", (unsigned long long)ti.vector);
}

static void xsave_area(struct tctx *t)
{
	if (!cpu_info.has_xsave) {
		skip(t, "CPU lacks XSAVE (CPUID 1:ECX[26] clear)");
		return;
	}
	check(t, simd.xsave_size >= 576, "XSAVE area %u bytes",
	      simd.xsave_size);
	check(t, simd.xcr0 == xgetbv(0), "XCR0 changed under us");
	note(t, "XCR0 %#llx, XSAVE area %u bytes",
	     (unsigned long long)simd.xcr0, simd.xsave_size);
}

SUITE(suite_simd, "simd",
	{ "sse_enabled", sse_enabled },
	{ "avx_enabled", avx_enabled },
	{ "avx512_enabled", avx512_enabled },
	{ "xsave_area", xsave_area },
);

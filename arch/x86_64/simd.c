// SPDX-License-Identifier: GPL-2.0-only
/*
 * Enable SSE (CR4.OSFXSR/OSXMMEXCPT) and, through XSAVE, AVX and AVX-512
 * (CR4.OSXSAVE, XCR0), each only where CPUID says both the instructions
 * and their state component exist.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/simd.h"

struct simd_state simd;

void simd_init(void)
{
	u64 cr0 = read_cr0(), cr4 = read_cr4(), supported, xcr0;

	cr0 &= ~(CR0_EM | CR0_TS);
	cr0 |= CR0_MP | CR0_NE;
	write_cr0(cr0);
	if (!cpu_info.has_sse2)
		return;
	cr4 |= CR4_OSFXSR | CR4_OSXMMEXCPT;
	write_cr4(cr4);
	__asm__ volatile("fninit");
	simd.sse = true;
	if (!cpu_info.has_xsave)
		return;
	write_cr4(cr4 | CR4_OSXSAVE);
	{
		struct cpuid_regs r = cpuid_checked(0xd, 0);

		supported = ((u64)r.edx << 32) | r.eax;
	}
	xcr0 = XCR0_X87 | XCR0_SSE;
	if (cpu_info.has_avx && (supported & XCR0_AVX))
		xcr0 |= XCR0_AVX;
	if (cpu_info.has_avx512f && (xcr0 & XCR0_AVX) &&
	    (supported & XCR0_AVX512) == XCR0_AVX512)
		xcr0 |= XCR0_AVX512;
	xsetbv(0, xcr0);
	simd.xcr0 = xgetbv(0);
	simd.avx = simd.xcr0 & XCR0_AVX;
	simd.avx512 = (simd.xcr0 & XCR0_AVX512) == XCR0_AVX512;
	/* EBX of leaf 0xd: size for the components now enabled in XCR0. */
	simd.xsave_size = cpuid_checked(0xd, 0).ebx;
}

/* An AP: the boot CPU's choice (CR4 already has its bits), in XCR0. */
void simd_init_cpu(void)
{
	if (simd.sse)
		__asm__ volatile("fninit");
	if (simd.xcr0)
		xsetbv(0, simd.xcr0);
}

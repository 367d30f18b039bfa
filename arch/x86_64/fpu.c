// SPDX-License-Identifier: GPL-2.0-only
/*
 * Extended state save/restore (see fpu.h).  The kernel is built without
 * SSE, so nothing but the SIMD primitives and these touch the state.
 * Which CPUID bits: XSAVEOPT is CPUID 0Dh.1:EAX[0], XSAVES EAX[3]; the
 * compacted size for XCR0 | IA32_XSS is 0Dh.1:EBX, the standard one for
 * XCR0 is 0Dh.0:EBX (SDM vol. 1, 13.2 and 13.11).
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/fpu.h"
#include "arch/x86_64/simd.h"

#define MSR_IA32_XSS 0xda0

const char *const fpu_insn_names[] = {
	"none", "fxsave", "xsave", "xsaveopt", "xsaves", NULL,
};

static enum fpu_insn insn;
static u32 area_size;
static u64 mask;		/* the components saved: XCR0 */

enum fpu_insn fpu_init(void)
{
	struct cpuid_regs r = cpuid_checked(0xd, 1);

	insn = FPU_NONE;
	area_size = 0;
	if (!simd.sse)
		return insn;
	insn = FPU_FXSAVE;
	area_size = 512;
	if (!simd.xcr0)
		return insn;
	mask = simd.xcr0;
	insn = FPU_XSAVE;
	area_size = simd.xsave_size;
	if (r.eax & (1u << 3)) {
		wrmsr(MSR_IA32_XSS, 0);	/* no supervisor state of ours */
		insn = FPU_XSAVES;
		area_size = r.ebx;
	} else if (r.eax & 1u) {
		insn = FPU_XSAVEOPT;
	}
	return insn;
}

void fpu_init_cpu(void)
{
	if (insn == FPU_XSAVES)
		wrmsr(MSR_IA32_XSS, 0);
}

enum fpu_insn fpu_current(void)
{
	return insn;
}

u32 fpu_area_size(void)
{
	return area_size;
}

void fpu_save(void *area)
{
	u32 lo = (u32)mask, hi = (u32)(mask >> 32);

	switch (insn) {
	case FPU_XSAVES:
		__asm__ volatile("xsaves64 (%0)" : : "r"(area), "a"(lo), "d"(hi)
				 : "memory");
		break;
	case FPU_XSAVEOPT:
		__asm__ volatile("xsaveopt64 (%0)" : : "r"(area), "a"(lo), "d"(hi)
				 : "memory");
		break;
	case FPU_XSAVE:
		__asm__ volatile("xsave64 (%0)" : : "r"(area), "a"(lo), "d"(hi)
				 : "memory");
		break;
	case FPU_FXSAVE:
		__asm__ volatile("fxsave64 (%0)" : : "r"(area) : "memory");
		break;
	case FPU_NONE:
		break;
	}
}

void fpu_restore(const void *area)
{
	u32 lo = (u32)mask, hi = (u32)(mask >> 32);

	switch (insn) {
	case FPU_XSAVES:
		__asm__ volatile("xrstors64 (%0)" : : "r"(area), "a"(lo), "d"(hi)
				 : "memory");
		break;
	case FPU_XSAVEOPT:
	case FPU_XSAVE:
		__asm__ volatile("xrstor64 (%0)" : : "r"(area), "a"(lo), "d"(hi)
				 : "memory");
		break;
	case FPU_FXSAVE:
		__asm__ volatile("fxrstor64 (%0)" : : "r"(area) : "memory");
		break;
	case FPU_NONE:
		break;
	}
}

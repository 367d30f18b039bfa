// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which clearing primitives this CPU can run.  Shared by the kernel and
 * the Linux companion: it asks cpuid.c (cpuid_init() first), whose CPUID
 * and XGETBV reads work in user mode too.
 */
#include "arch/x86_64/clear.h"
#include "arch/x86_64/cpuid.h"
#include "lib/format.h"

void clear_orig(void *, u64);
void clear_rep(void *, u64);
void clear_erms(void *, u64);
void clear_movnti(void *, u64);
void clear_movntdq(void *, u64);
void clear_avx2(void *, u64);
void clear_avx2_nt(void *, u64);
void clear_avx512(void *, u64);
void clear_avx512_nt(void *, u64);
void clear_clzero(void *, u64);

const prim_fn prim_fns[PRIM_COUNT] = {
	clear_orig, clear_rep, clear_erms, clear_movnti, clear_movntdq,
	clear_avx2, clear_avx2_nt, clear_avx512, clear_avx512_nt, clear_clzero,
};

static bool need(bool ok, char *why, size_t n, const char *msg)
{
	if (!ok)
		ksnprintf(why, n, "%s", msg);
	return ok;
}

bool prim_supported(enum prim_id p, char *why, size_t n)
{
	const struct cpu_info *c = &cpu_info;
	u64 xcr0 = cpu_xcr0();
	bool avx2 = c->has_avx2 && (xcr0 & 0x6) == 0x6;
	bool avx512 = c->has_avx512f && (xcr0 & 0xe6) == 0xe6;

	switch (p) {
	case PRIM_ORIG:
	case PRIM_REP:
		return true;
	case PRIM_ERMS:
		return need(c->has_erms, why, n,
			    "CPU lacks ERMS (CPUID 7.0:EBX[9] clear)");
	case PRIM_MOVNTI:
	case PRIM_MOVNTDQ:
		return need(c->has_sse2, why, n, "CPU lacks SSE2 (CPUID 1:EDX[26] clear)");
	case PRIM_AVX2:
	case PRIM_AVX2_NT:
		return need(avx2, why, n, "CPU lacks AVX2 (CPUID 7.0:EBX[5]) or "
			    "the OS has not enabled YMM state in XCR0");
	case PRIM_AVX512:
	case PRIM_AVX512_NT:
		return need(avx512, why, n, "CPU lacks AVX-512F (CPUID "
			    "7.0:EBX[16]) or the OS has not enabled ZMM state "
			    "in XCR0");
	case PRIM_CLZERO:
		return need(c->has_clzero, why, n,
			    "CPU lacks CLZERO (CPUID 80000008h:EBX[0] clear)");
	case PRIM_COUNT:
		break;
	}
	return need(false, why, n, "unknown primitive");
}

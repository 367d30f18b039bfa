// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which clearing primitives this CPU can run.  Shared by the kernel and
 * the Linux companion: it reads CPUID and XCR0 directly (both allowed in
 * user mode once the OS has set CR4.OSXSAVE).
 */
#include "arch/x86_64/clear.h"
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

struct regs4 {
	u32 a, b, c, d;
};

static struct regs4 id(u32 leaf, u32 sub)
{
	struct regs4 r;

	__asm__ volatile("cpuid" : "=a"(r.a), "=b"(r.b), "=c"(r.c), "=d"(r.d)
			 : "a"(leaf), "c"(sub));
	return r;
}

/* CPUID leaf, or zeros above the maximum (QEMU TCG echoes leaf 0xd). */
static struct regs4 leaf(u32 l, u32 sub)
{
	struct regs4 zero = { 0, 0, 0, 0 };
	u32 max = id(l & 0x80000000, 0).a;

	return l > max ? zero : id(l, sub);
}

static u64 xcr0(void)
{
	u32 lo, hi;

	if (!(leaf(1, 0).c & (1u << 27)))	/* OSXSAVE */
		return 0;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((u64)hi << 32) | lo;
}

static bool need(bool ok, char *why, size_t n, const char *msg)
{
	if (!ok)
		ksnprintf(why, n, "%s", msg);
	return ok;
}

bool prim_supported(enum prim_id p, char *why, size_t n)
{
	struct regs4 l1 = leaf(1, 0), l7 = leaf(7, 0);
	bool sse2 = l1.d & (1u << 26);
	bool avx2 = (l7.b & (1u << 5)) && (xcr0() & 0x6) == 0x6;
	bool avx512 = (l7.b & (1u << 16)) && (xcr0() & 0xe6) == 0xe6;

	switch (p) {
	case PRIM_ORIG:
	case PRIM_REP:
		return true;
	case PRIM_ERMS:
		return need(l7.b & (1u << 9), why, n,
			    "CPU lacks ERMS (CPUID 7.0:EBX[9] clear)");
	case PRIM_MOVNTI:
	case PRIM_MOVNTDQ:
		return need(sse2, why, n, "CPU lacks SSE2 (CPUID 1:EDX[26] clear)");
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
		return need(leaf(0x80000008, 0).b & 1u, why, n,
			    "CPU lacks CLZERO (CPUID 80000008h:EBX[0] clear)");
	case PRIM_COUNT:
		break;
	}
	return need(false, why, n, "unknown primitive");
}

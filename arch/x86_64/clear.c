// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which clearing primitives this CPU can run.  Shared by the kernel and
 * the Linux companion: it asks cpuid.c (cpuid_init() first), whose CPUID
 * and XGETBV reads work in user mode too.
 */
#include "arch/x86_64/clear.h"
#include "arch/x86_64/cpuid.h"
#include "lib/format.h"
#include "lib/rethunk.h"

#define DECLARE(id, name, fn, simd, feat, linux) void fn(void *, u64);
PRIMS(DECLARE)

#define ROUTINE(id, name, fn, simd, feat, linux) [PRIM_##id] = fn,
const prim_fn prim_fns[PRIM_COUNT] = { PRIMS(ROUTINE) };

/*
 * clear.asm's copies of each routine that return through a thunk, plain
 * (_rt_) and counted (_rtc_), and make LINUX='s copies of a tree's
 * wrappers and routines (the Makefile's RT_COPIES).  Weak: a routine
 * with no copy is NULL here, and prim_thunked() says so.  Copies are never patched: each is its own
 * routine, picked by configuration (Linux patches its one copy instead).
 */
#define RT_COPIES(X, fn)						\
	X(fn, _rt_retbleed) X(fn, _rt_srso) X(fn, _rt_srso_alias)	\
	X(fn, _rt_depth) X(fn, _rtc_retbleed) X(fn, _rtc_srso)		\
	X(fn, _rtc_srso_alias) X(fn, _rtc_depth)
#define RT_DECLARE(fn, suffix) \
	void fn##suffix(void *, u64) __attribute__((weak));
#define DECLARE_COPIES(id, name, fn, simd, feat, linux) RT_COPIES(RT_DECLARE, fn)
PRIMS(DECLARE_COPIES)

#define RT_ROW(id, fn, k)						\
	[RETHUNK_##k][0][PRIM_##id] = fn##_rt_##k,			\
	[RETHUNK_##k][1][PRIM_##id] = fn##_rtc_##k,
#define RT_ROWS(id, name, fn, simd, feat, linux)			\
	RT_ROW(id, fn, retbleed) RT_ROW(id, fn, srso)			\
	RT_ROW(id, fn, srso_alias) RT_ROW(id, fn, depth)
#define RETHUNK_retbleed RETHUNK_RETBLEED
#define RETHUNK_srso RETHUNK_SRSO
#define RETHUNK_srso_alias RETHUNK_SRSO_ALIAS
#define RETHUNK_depth RETHUNK_CALL_DEPTH
static const prim_fn thunked[RETHUNK_KIND_COUNT][2][PRIM_COUNT] = {
	PRIMS(RT_ROWS)
};

prim_fn prim_thunked(enum prim_id p, u32 kind, bool count, char *why,
		     size_t n)
{
	prim_fn fn;

	if (p >= PRIM_COUNT || kind >= RETHUNK_KIND_COUNT) {
		if (why)
			ksnprintf(why, n, "unknown primitive or return thunk");
		return NULL;
	}
	if (kind == RETHUNK_NONE)
		return prim_fns[p];
	fn = thunked[kind][count][p];
	if (!fn && why)
		ksnprintf(why, n, "rethunk=on: %s has no copy returning through "
			  "%s", prim_names[p], rethunk_names[kind]);
	return fn;
}

static bool need(bool ok, char *why, size_t n, const char *msg)
{
	if (!ok)
		ksnprintf(why, n, "%s", msg);
	return ok;
}

/* Whether this CPU, with this OS's XSAVE setup, has @f; if not, why. */
static bool feature_ok(enum prim_feature f, char *why, size_t n)
{
	const struct cpu_info *c = &cpu_info;
	u64 xcr0 = cpu_xcr0();

	switch (f) {
	case PRIM_FEAT_NONE:
		return true;
	case PRIM_FEAT_ERMS:
		return need(c->has_erms, why, n,
			    "CPU lacks ERMS (CPUID 7.0:EBX[9] clear)");
	case PRIM_FEAT_SSE2:
		return need(c->has_sse2, why, n, "CPU lacks SSE2 (CPUID 1:EDX[26] clear)");
	case PRIM_FEAT_AVX2:
		return need(c->has_avx2 && (xcr0 & 0x6) == 0x6, why, n,
			    "CPU lacks AVX2 (CPUID 7.0:EBX[5]) or the OS has "
			    "not enabled YMM state in XCR0");
	case PRIM_FEAT_AVX512F:
		return need(c->has_avx512f && (xcr0 & 0xe6) == 0xe6, why, n,
			    "CPU lacks AVX-512F (CPUID 7.0:EBX[16]) or the OS "
			    "has not enabled ZMM state in XCR0");
	case PRIM_FEAT_CLZERO:
		return need(c->has_clzero, why, n,
			    "CPU lacks CLZERO (CPUID 80000008h:EBX[0] clear)");
	}
	return need(false, why, n, "unknown CPU feature");
}

enum prim_id prim_linux(char *why, size_t n)
{
	if (cpu_info.has_erms) {
		ksnprintf(why, n, "ERMS in CPUID: clear_page_erms");
		return PRIM_ERMS;
	}
	ksnprintf(why, n, "no ERMS in CPUID: clear_page_rep, if the kernel "
		  "set REP_GOOD, which it does from its own CPU tables, "
		  "invisible from CPUID (without it, clear_page_orig)");
	return PRIM_REP;
}

bool prim_supported(enum prim_id p, char *why, size_t n)
{
	if (p >= PRIM_COUNT)
		return need(false, why, n, "unknown primitive");
	return feature_ok(prim_descs[p].feature, why, n);
}

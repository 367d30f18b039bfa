// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which clearing primitives this CPU can run.  Shared by the kernel and
 * the Linux companion: it asks cpuid.c (cpuid_init() first), whose CPUID
 * and XGETBV reads work in user mode too.
 */
#include "arch/x86_64/clear.h"
#include "arch/x86_64/cpuid.h"
#include "lib/format.h"
#include "lib/prims_tree.h"
#include "lib/rethunk.h"
#include "lib/string.h"

#define DECLARE(id, name, fn, simd, feat, linux) void fn(void *, u64);
PRIMS(DECLARE)
PRIMS_TREE(DECLARE)

#define ROUTINE(id, name, fn, simd, feat, linux) [PRIM_##id] = fn,
#define TREE_ROUTINE(id, name, fn, simd, feat, linux) [TREE_AT(id)] = fn,
const prim_fn prim_fns[PRIM_COUNT] = {
	PRIMS(ROUTINE) PRIMS_TREE(TREE_ROUTINE)
};

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
PRIMS_TREE(DECLARE_COPIES)

#define RT_ROW(at, fn, k)						\
	[RETHUNK_##k][0][at] = fn##_rt_##k,				\
	[RETHUNK_##k][1][at] = fn##_rtc_##k,
#define RT_ROWS_AT(at, fn)						\
	RT_ROW(at, fn, retbleed) RT_ROW(at, fn, srso)			\
	RT_ROW(at, fn, srso_alias) RT_ROW(at, fn, depth)
#define RT_ROWS(id, name, fn, simd, feat, linux) RT_ROWS_AT(PRIM_##id, fn)
#define TREE_RT_ROWS(id, name, fn, simd, feat, linux) RT_ROWS_AT(TREE_AT(id), fn)
#define RETHUNK_retbleed RETHUNK_RETBLEED
#define RETHUNK_srso RETHUNK_SRSO
#define RETHUNK_srso_alias RETHUNK_SRSO_ALIAS
#define RETHUNK_depth RETHUNK_CALL_DEPTH
static const prim_fn thunked[RETHUNK_KIND_COUNT][2][PRIM_COUNT] = {
	PRIMS(RT_ROWS) PRIMS_TREE(TREE_RT_ROWS)
};

prim_fn prim_thunked(enum prim_id p, u32 kind, bool count, char *why,
		     size_t n)
{
	prim_fn fn;

	if (!prim_present(p) || kind >= RETHUNK_KIND_COUNT) {
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

const char *const fast_strings_names[] = {
	[FAST_STRINGS_NA] = "n/a", [FAST_STRINGS_ON] = "on",
	[FAST_STRINGS_OFF] = "off", [FAST_STRINGS_UNKNOWN] = "unknown",
};

static misc_enable_fn misc_enable_reader;

void prim_linux_reader(misc_enable_fn fn)
{
	misc_enable_reader = fn;
}

/* The Intel CPUs whose IA32_MISC_ENABLE early_init_intel() reads. */
static bool intel_has_misc_enable(const struct cpu_info *c)
{
	return c->family > 6 || (c->family == 6 && c->model >= 0xd);
}

/*
 * early_init_intel(): fast strings off in IA32_MISC_ENABLE[0] clears
 * X86_FEATURE_REP_GOOD and X86_FEATURE_ERMS for good (setup_clear_cpu_cap()).
 * @what says what was read, or why nothing was.
 */
static u32 fast_strings(char *what, size_t n)
{
	char err[96] = "no reader registered";
	bool on;
	u64 v;

	if (strcmp(cpu_info.vendor, "GenuineIntel") != 0) {
		ksnprintf(what, n, "IA32_MISC_ENABLE not read (not Intel)");
		return FAST_STRINGS_NA;
	}
	if (!intel_has_misc_enable(&cpu_info)) {
		ksnprintf(what, n, "IA32_MISC_ENABLE not read (Intel before "
			  "family 6 model 0xd)");
		return FAST_STRINGS_NA;
	}
	if (!misc_enable_reader || !misc_enable_reader(&v, err, sizeof(err))) {
		ksnprintf(what, n, "IA32_MISC_ENABLE could not be read (%s): "
			  "fast strings taken as on, as firmware leaves them",
			  err);
		return FAST_STRINGS_UNKNOWN;
	}
	on = v & MISC_ENABLE_FAST_STRING;
	ksnprintf(what, n, "IA32_MISC_ENABLE=%#llx, fast strings (bit 0) %s",
		  (unsigned long long)v, on ? "on" : "off");
	return on ? FAST_STRINGS_ON : FAST_STRINGS_OFF;
}

/*
 * Whether Linux sets X86_FEATURE_REP_GOOD on this 64-bit CPU: init_intel()
 * on family 6; init_amd() from family 10h, init_amd_k8() on rev C+ K8
 * (CPUID 1 EAX 0xf48..0xf4f, >= 0xf58); init_hygon() always.  Other
 * vendors have tables of their own, not mirrored: taken as set.
 */
static bool rep_good(const struct cpu_info *c, const char **who)
{
	u32 sig = c->signature;	/* cpuid_eax(1), whole, as Linux compares it */

	if (!strcmp(c->vendor, "GenuineIntel")) {
		*who = "init_intel(): family 6";
		return c->family == 6;
	}
	if (!strcmp(c->vendor, "AuthenticAMD")) {
		*who = c->family >= 0x10 ? "init_amd(): family >= 10h" :
		       "init_amd_k8(): K8 rev C+";
		return c->family >= 0x10 || (sig >= 0x0f48 && sig < 0x0f50) ||
		       sig >= 0x0f58;
	}
	if (!strcmp(c->vendor, "HygonGenuine")) {
		*who = "init_hygon()";
		return true;
	}
	*who = "another vendor's table, taken as set";
	return true;
}

enum prim_id prim_linux_read(char *why, size_t n, u32 *fs)
{
	const char *who = "";
	char what[160];
	u32 f = fast_strings(what, sizeof(what));
	bool good = rep_good(&cpu_info, &who);
	bool erms = cpu_info.has_erms;

	if (fs)
		*fs = f;
	if (f == FAST_STRINGS_OFF)
		erms = good = false;	/* setup_clear_cpu_cap() of both */
	if (erms) {
		ksnprintf(why, n, "ERMS in CPUID; %s: clear_page_erms", what);
		return PRIM_ERMS;
	}
	if (good) {	/* no ERMS: fast strings on, or not read */
		ksnprintf(why, n, "no ERMS in CPUID; REP_GOOD from %s; %s: "
			  "clear_page_rep", who, what);
		return PRIM_REP;
	}
	ksnprintf(why, n, "%s; no REP_GOOD (%s%s); %s: clear_page_orig",
		  cpu_info.has_erms ? "ERMS cleared" : "no ERMS in CPUID",
		  f == FAST_STRINGS_OFF ? "cleared with fast strings off, "
		  "not set by " : "not set by ", who, what);
	return PRIM_ORIG;
}

enum prim_id prim_linux(char *why, size_t n)
{
	return prim_linux_read(why, n, NULL);
}

bool prim_supported(enum prim_id p, char *why, size_t n)
{
	if (!prim_present(p))
		return need(false, why, n, "unknown primitive");
	return feature_ok(prim_descs[p].feature, why, n);
}

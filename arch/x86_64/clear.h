/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_CLEAR_H
#define ARCH_CLEAR_H

#include "lib/prims.h"
#include "lib/types.h"

typedef void (*prim_fn)(void *dst, u64 len);

/* By enum prim_id.  dst 64-byte aligned, len a multiple of 64. */
extern const prim_fn prim_fns[PRIM_COUNT];

/*
 * Primitive @p returning through return thunk @kind (enum rethunk_kind,
 * lib/rethunk.h; RETHUNK_NONE: prim_fns[@p]), each return counted in
 * the CPU's count when @count (rethunk_returns_take()).  NULL, and @why
 * (if not NULL) says so, where the build has no such copy.
 */
prim_fn prim_thunked(enum prim_id p, u32 kind, bool count, char *why,
		     size_t whylen);
/*
 * Per CPU, from GS base (the kernel's struct percpu, the companion's
 * hosted/gs.c): call_depth_return_thunk's depth at +8, set first as
 * Linux's RESET_CALL_DEPTH leaves it on kernel entry; the returns the
 * counted copies made at +16 (clear.asm RT_DEPTH_OFF, RT_COUNT_OFF).
 */
#define CALL_DEPTH_RESET (1ULL << 63)
#define GS_CALL_DEPTH 8
#define GS_RETHUNK_RETURNS 16

/* This CPU's count of returns through a counted copy since the last
 * take, and zero from now. */
static inline u64 rethunk_returns_take(void)
{
	u64 n = 0;

	__asm__ volatile("xchg %%gs:16, %0" : "+r"(n) : : "memory");
	return n;
}

/*
 * The pattern fill before every run, the same on both sides: 8 x movq per
 * 64 bytes, plain temporal stores whatever the size, so cache=warm leaves
 * the fill's lines in the cache (glibc's memset and a long REP STOS may
 * switch to non-temporal stores by size).  dst 64-byte aligned, len a
 * multiple of 64.
 */
void fill_movq(void *dst, u64 len, u64 pattern);

/*
 * Can this CPU, with this OS's XSAVE setup, run primitive @p?  If not,
 * @why says which CPUID bit (or XCR0 state) is missing.  Uses only CPUID
 * and XGETBV, so it answers the same in the kernel and in user space.
 */
bool prim_supported(enum prim_id p, char *why, size_t whylen);

/*
 * Linux's clear_page() on this CPU, as alternative_call_2() in
 * arch/x86/include/asm/page_64.h picks it: clear_page_erms with
 * X86_FEATURE_ERMS, else clear_page_rep with X86_FEATURE_REP_GOOD
 * (which the vendor's init sets from its own tables), else
 * clear_page_orig.  On Intel it first reads IA32_MISC_ENABLE's
 * fast-strings bit as early_init_intel() does, and with it clear takes
 * both away.  @why says what was read and why; @fs (or NULL) gets the
 * enum fast_strings read.  The one place that decides: the kernel's and
 * the companion's records carry the answer.
 */
enum prim_id prim_linux_read(char *why, size_t whylen, u32 *fs);
enum prim_id prim_linux(char *why, size_t whylen);

/* IA32_MISC_ENABLE[0]: fast-string operation enabled (SDM vol. 4). */
#define MISC_ENABLE_MSR		0x1a0
#define MISC_ENABLE_FAST_STRING	(1ULL << 0)
enum fast_strings { FAST_STRINGS_NA, FAST_STRINGS_ON, FAST_STRINGS_OFF,
		    FAST_STRINGS_UNKNOWN };
extern const char *const fast_strings_names[];

/*
 * How prim_linux() reads IA32_MISC_ENABLE, registered from above (arch/
 * calls nothing above it): the kernel's guarded RDMSR, the companion's
 * /dev/cpu/0/msr, a host test's fake.  True with *@val; else false and
 * @err says why.  None registered: it is not read, and said so.
 */
typedef bool (*misc_enable_fn)(u64 *val, char *err, size_t n);
void prim_linux_reader(misc_enable_fn fn);

#endif

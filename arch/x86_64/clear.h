/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_CLEAR_H
#define ARCH_CLEAR_H

#include "lib/prims.h"
#include "lib/types.h"

typedef void (*prim_fn)(void *dst, u64 len);

/* By enum prim_id.  dst 64-byte aligned, len a multiple of 64. */
extern const prim_fn prim_fns[PRIM_COUNT];

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
 * arch/x86/include/asm/page_64.h picks it: clear_page_erms with ERMS,
 * else clear_page_rep (X86_FEATURE_REP_GOOD, which Linux sets on every
 * 64-bit CPU it would run this on); @why says so.  The one place that
 * decides: the kernel's and the companion's records carry the answer.
 */
enum prim_id prim_linux(char *why, size_t whylen);

#endif

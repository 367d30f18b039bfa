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

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_MEMOPS_H
#define ARCH_MEMOPS_H

#include "lib/types.h"

/*
 * Bulk helpers for the benchmark's untimed work: filling folios with a
 * pattern, checking they are zero, and putting caches in a known state.
 */
static inline void fill_qwords(void *p, u64 v, u64 bytes)
{
	u64 n = bytes / 8;

	__asm__ volatile("rep stosq" : "+D"(p), "+c"(n) : "a"(v) : "memory");
}

/* Byte offset of the first qword in [p, p+bytes) that is not @v, or ~0. */
static inline u64 find_not_qword(const void *p, u64 v, u64 bytes)
{
	const u64 *q = p;
	u64 n = bytes / 8;
	u8 ne;

	if (!n)
		return ~0ULL;
	__asm__ volatile("repe scasq; setne %2"
			 : "+D"(q), "+c"(n), "=r"(ne) : "a"(v) : "memory", "cc");
	return ne ? (u64)((const u8 *)(q - 1) - (const u8 *)p) : ~0ULL;
}

static inline void wbinvd(void)
{
	__asm__ volatile("wbinvd" ::: "memory");
}

static inline void clflush_range(const void *p, u64 bytes)
{
	const u8 *c = p;

	for (u64 i = 0; i < bytes; i += 64)
		__asm__ volatile("clflush (%0)" : : "r"(c + i) : "memory");
	__asm__ volatile("mfence" ::: "memory");
}

#endif

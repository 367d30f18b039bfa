/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_MEMOPS_H
#define ARCH_MEMOPS_H

#include "lib/types.h"

/*
 * Bulk helpers for the benchmark's untimed work: checking folios are
 * zero, and putting caches in a known state.  (The fill is fill_movq in
 * clear.asm, shared with the companion.)
 */
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

/* The verifier's scanner (lib/verify.h's scan_fn): first nonzero qword. */
static inline u64 find_nonzero(const void *p, u64 bytes)
{
	return find_not_qword(p, 0, bytes);
}

static inline void wbinvd(void)
{
	__asm__ volatile("wbinvd" ::: "memory");
}

/*
 * cache=cold: write back and invalidate every line of [p, p+bytes), then
 * MFENCE, which CLFLUSHOPT needs to be ordered (SDM vol. 2A CLFLUSHOPT)
 * and which keeps the flushes from overlapping what is timed next.
 * CLFLUSHOPT where the CPU has it: CLFLUSHes are ordered among themselves
 * and flushing a large pool with them takes much longer.
 */
static inline void flush_range(const void *p, u64 bytes, bool clflushopt)
{
	const u8 *c = p;

	if (clflushopt)
		for (u64 i = 0; i < bytes; i += 64)
			__asm__ volatile("clflushopt (%0)" : : "r"(c + i) : "memory");
	else
		for (u64 i = 0; i < bytes; i += 64)
			__asm__ volatile("clflush (%0)" : : "r"(c + i) : "memory");
	__asm__ volatile("mfence" ::: "memory");
}

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_CACHE_H
#define ARCH_CACHE_H

/*
 * Keeping a hot variable off other data's cache line, as Linux's
 * include/linux/cache.h: ____cacheline_aligned for a member (it starts a
 * line), __cacheline_aligned for a variable (it starts a line in a
 * section whose every entry does, and linker.ld pads the section's end,
 * so nothing else shares its lines -- Linux's .data..cacheline_aligned).
 */
#define SMP_CACHE_BYTES 64

#define ____cacheline_aligned __attribute__((aligned(SMP_CACHE_BYTES)))
#define __cacheline_aligned						\
	__attribute__((aligned(SMP_CACHE_BYTES),			\
		       section(".data..cacheline_aligned")))

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_FPU_H
#define ARCH_FPU_H

#include "lib/types.h"

/*
 * Saving and restoring a task's extended (x87/SSE/AVX/AVX-512) state, as
 * Linux's kernel_fpu_begin() does before kernel SIMD: XSAVES where the CPU
 * has it (compacted, supervisor: IA32_XSS left 0), else XSAVEOPT, else
 * XSAVE, else FXSAVE; the matching restore.  An area is FPU_ALIGN-aligned,
 * fpu_area_size() bytes, zeroed before its first save; restore only an
 * area that was saved (XRSTORS needs the compacted header XSAVES writes).
 * The kernel is built without SSE, so no compiler-made code holds state
 * in these registers; callers' inline asm need not (cannot) clobber them.
 */
#define FPU_ALIGN 64

enum fpu_insn { FPU_NONE, FPU_FXSAVE, FPU_XSAVE, FPU_XSAVEOPT, FPU_XSAVES };

extern const char *const fpu_insn_names[];

/* After simd_init(): pick the instruction; returns it. */
enum fpu_insn fpu_init(void);
/* On an AP after fpu_init() on the boot CPU: the same supervisor state. */
void fpu_init_cpu(void);
enum fpu_insn fpu_current(void);
u32 fpu_area_size(void);
void fpu_save(void *area);
void fpu_restore(const void *area);

/* MXCSR as reset leaves it and Linux's kernel SIMD wants it: every
 * exception masked, round to nearest, no FTZ/DAZ. */
#define MXCSR_DEFAULT 0x1f80

/* Only with SSE (fpu_current() != FPU_NONE). */
static inline void fpu_ldmxcsr(u32 v)
{
	__asm__ volatile("ldmxcsr %0" : : "m"(v));
}

static inline u32 fpu_stmxcsr(void)
{
	u32 v;

	__asm__ volatile("stmxcsr %0" : "=m"(v));
	return v;
}

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_MM_KSTACK_H
#define KERNEL_MM_KSTACK_H

#include "lib/types.h"

/*
 * Kernel stacks for tasks: 4K frames mapped into the kernel window with
 * an unmapped guard page below, so running off the bottom is a #PF (a
 * #DF, on its own stack, once the CPU cannot push the #PF frame) and not
 * a write into whatever lies below -- Linux's vmapped stacks.
 * @bytes is a multiple of 4K; the lowest mapped address is returned.
 */
void *kstack_alloc(u64 bytes);
void kstack_free(void *base, u64 bytes);
/* An AP's struct cpu_stacks, each stack below an unmapped guard page. */
struct cpu_stacks;
struct cpu_stacks *cpu_stacks_alloc(void);

#endif

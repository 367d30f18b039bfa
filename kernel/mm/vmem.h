/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_MM_VMEM_H
#define KERNEL_MM_VMEM_H

#include "lib/types.h"

/*
 * Virtually contiguous kernel memory from 2M frames mapped into the
 * kernel window, zeroed: for arrays larger than one frame (a folio pool's
 * descriptors, a CPU's benchmark state), one instance per CPU.
 */
void *vmem_alloc(u64 bytes);
void vmem_free(void *p);

#endif

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
/*
 * Zeroed memory for a table kept for the whole boot, never freed (the
 * firmware's processors, the ACPI root's tables): one physically
 * contiguous run of 4K frames seen through the direct map, sized by the
 * count found rather than a 2M frame each; vmem_alloc() when no run that
 * long is free.  NULL without memory.
 */
void *boot_table_alloc(u64 bytes);

#endif

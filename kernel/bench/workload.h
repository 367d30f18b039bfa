/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_WORKLOAD_H
#define KERNEL_WORKLOAD_H

#include "arch/x86_64/workload.h"
#include "lib/types.h"

/*
 * The workload's own address space: the kernel's upper half shared, and
 * in the lower half its code (from .utext), a stack, its arguments, its
 * sample arrays and the regions it faults in, one per folio size so that
 * a 2M leaf never meets a 4K table left by an earlier configuration.
 */
#define USER_CODE_VA	0x0000000000400000ULL
#define USER_STACK_VA	0x0000000000800000ULL
#define USER_ARGS_VA	0x0000000000a00000ULL
#define USER_DATA_VA	0x0000000040000000ULL
#define REGION_VA(kind)	((u64)((kind) + 1) << 40)	/* 1 TiB apart */
#define REGION_MAX	(1ULL << 40)
#define WL_MAX_FAULTS	(SZ_2M / 8)	/* one 2M frame of u64 per array */

struct workload {
	u64 *pml4;
	struct wl_args *args;		/* kernel views of the user pages */
	u64 *addrs, *fault_ticks, *access_ticks;
	u64 *clear_ticks, *fault_page;	/* kernel-only */
	u64 frames[8], frame_bytes[8];
	u32 nframes;
};

/*
 * Its address space, with sample arrays for @nfaults faults (at most
 * WL_MAX_FAULTS: one 2M frame each, mapped by a 2M leaf; up to 256 KiB
 * of them take 4K frames, mapped by 4K leaves), from NUMA node @node
 * where it has the memory (FRAME_ANY_NODE: anywhere).  False without memory: whatever it
 * made is then given back by workload_destroy().
 */
bool workload_create(struct workload *w, u32 nfaults, u32 node);
void workload_destroy(struct workload *w);
/* Switch to the workload's address space (and back to the kernel's). */
void workload_enter_space(struct workload *w);
void workload_leave_space(void);
/* Run the touch loop at CPL 3 or CPL 0, with interrupts on only under a
 * scheduling model; it returns with them off. */
void workload_run(struct workload *w, bool ring3, bool irqs_on);

#endif

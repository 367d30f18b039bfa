/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_WORKLOAD_H
#define ARCH_WORKLOAD_H

#include "lib/types.h"

/*
 * The arguments of the workload's touch loop (arch/x86_64/workload.asm,
 * which reads them by offset: asserted in asm-offsets.c).  kernel/bench
 * fills them in the workload's argument page.
 */
struct wl_args {
	u64 count;
	u64 addrs;		/* u64 touch addresses, in touch order */
	u64 fault_ticks;	/* out: touch-to-return, per fault */
	u64 access_ticks;	/* out: post-fault access, per fault */
	u64 folio_bytes;
	u64 access;		/* enum access_mode */
	u64 use_rdtscp;
	u64 user;		/* 1: ring 3, leave by int 0x81 */
};

void workload_main(struct wl_args *a);

#endif

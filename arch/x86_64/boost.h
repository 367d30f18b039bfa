/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_BOOST_H
#define ARCH_BOOST_H

#include "lib/boost.h"
#include "lib/msrtrace.h"

/*
 * Turbo / Core Performance Boost on this CPU (lib/boost.c's paths):
 * CPUID read here, every MSR access through the guarded accessors
 * (msr.h), so a #GP is a path that faulted, said in @b, never fatal.
 * Call on each CPU to set; @mode BOOST_FIRMWARE only reads.  @assume
 * (test-only, boost_assume=): CPUID's boost bit taken as set, so that
 * QEMU's TCG, which reports none, runs the writes.  @t: where each
 * access and its outcome go (the boot CPU's "msr: boost:" line), or NULL.
 */
void boost_this_cpu(struct boost_cpu *b, u32 mode, bool assume,
		    struct msr_trace *t);

#endif

// SPDX-License-Identifier: GPL-2.0-only
#include "arch/x86_64/cpu.h"
#include "kernel/sched/sched.h"

/* noinline: the call itself is part of what a resched point costs. */
__attribute__((noinline)) void cond_resched(void)
{
	barrier();
}

// SPDX-License-Identifier: GPL-2.0-only
#include "arch/x86_64/fpu.h"
#include "kernel/sched/fpu.h"
#include "kernel/sched/sched.h"

void kernel_fpu_begin(void *area)
{
	preempt_disable();
	fpu_save(area);
}

void kernel_fpu_end(void *area)
{
	fpu_restore(area);
	preempt_enable();
}

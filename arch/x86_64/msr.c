// SPDX-License-Identifier: GPL-2.0-only
/* Guarded MSR accesses (arch/x86_64/msr.h), one place for every caller. */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/msr.h"
#include "arch/x86_64/traps.h"

struct msr_op {
	u32 msr;
	u64 val;
};

static void do_rdmsr(void *arg)
{
	struct msr_op *m = arg;

	m->val = rdmsr(m->msr);
}

static void do_wrmsr(void *arg)
{
	struct msr_op *m = arg;

	wrmsr(m->msr, m->val);
}

u64 rdmsrq_safe(u32 msr, u64 *val)
{
	struct msr_op m = { msr, 0 };
	struct trap_info ti;
	u64 err = trap_try(do_rdmsr, &m, &ti);

	if (!err)
		*val = m.val;
	return err;
}

u64 wrmsrq_safe(u32 msr, u64 val)
{
	struct msr_op m = { msr, val };
	struct trap_info ti;

	return trap_try(do_wrmsr, &m, &ti);
}

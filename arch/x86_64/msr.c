// SPDX-License-Identifier: GPL-2.0-only
/* Guarded MSR accesses (arch/x86_64/msr.h), one place for every caller. */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/msr.h"
#include "arch/x86_64/traps.h"

struct msr_op {
	u32 msr;
	u64 val;
};

static u32 gp_msrs[MSR_GP_MAX];
static u32 gp_n;

void msr_gp_inject(const u64 *msrs, u32 n)
{
	gp_n = 0;
	for (u32 i = 0; i < n && i < MSR_GP_MAX; i++)
		gp_msrs[gp_n++] = (u32)msrs[i];
}

static bool injected(u32 msr)
{
	for (u32 i = 0; i < gp_n; i++)
		if (gp_msrs[i] == msr)
			return true;
	return false;
}

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

/* A load from a non-canonical address: #GP(0), as a refused MSR gives. */
static void do_gp(void *arg)
{
	(void)arg;
	(void)*(volatile u64 *)0x8000000000000000ULL;
}

u64 rdmsrq_traced(struct msr_trace *t, u32 msr, u64 *val)
{
	struct msr_op m = { msr, 0 };
	struct trap_info ti;
	u64 err = trap_try(injected(msr) ? do_gp : do_rdmsr, &m, &ti);

	if (!err)
		*val = m.val;
	msr_trace_add(t, msr, false, err);
	return err;
}

u64 wrmsrq_traced(struct msr_trace *t, u32 msr, u64 val)
{
	struct msr_op m = { msr, val };
	struct trap_info ti;
	u64 err = trap_try(injected(msr) ? do_gp : do_wrmsr, &m, &ti);

	msr_trace_add(t, msr, true, err);
	return err;
}

u64 rdmsrq_safe(u32 msr, u64 *val)
{
	return rdmsrq_traced(NULL, msr, val);
}

u64 wrmsrq_safe(u32 msr, u64 val)
{
	return wrmsrq_traced(NULL, msr, val);
}

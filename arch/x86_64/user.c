// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ring 3 for the workload: enter with iretq, come back on int 0x81.
 */
#include <stddef.h>
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/traps.h"
#include "arch/x86_64/user.h"

/* tss_rsp0 may be unaligned (the TSS is packed); x86 stores don't mind. */
void user_enter(u64 rip, u64 rsp, u64 arg, void *tss_rsp0, u64 *saved_rsp,
		u64 rflags);
void user_return(void);

static bool user_exit(struct regs *r)
{
	struct percpu *pc = this_cpu();

	if (!(r->cs & 3) || !pc->user_saved_rsp)
		return false;
	r->rip = (u64)user_return;
	r->cs = SEL_KCODE;
	r->ss = SEL_KDATA;
	r->rsp = pc->user_saved_rsp;
	r->rflags = 0x2;
	pc->user_saved_rsp = 0;
	return true;
}

extern char __utext_start[], __utext_end[];

bool user_code(const struct regs *r)
{
	return (r->cs & 3) || (r->rip >= (u64)__utext_start &&
			       r->rip < (u64)__utext_end);
}

void user_init(void)
{
	trap_set_handler(VEC_USER_EXIT, user_exit);
}

void user_run_flags(u64 rip, u64 rsp, u64 arg, u64 rflags)
{
	struct percpu *pc = this_cpu();
	u64 old_rsp0 = pc->tss.rsp0;

	user_enter(rip, rsp, arg, (u8 *)&pc->tss + offsetof(struct tss, rsp0),
		   &pc->user_saved_rsp, rflags);
	pc->tss.rsp0 = old_rsp0;
}

/* Interrupts off, as for every timed region. */
void user_run(u64 rip, u64 rsp, u64 arg)
{
	user_run_flags(rip, rsp, arg, USER_RFLAGS);
}

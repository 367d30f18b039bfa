// SPDX-License-Identifier: GPL-2.0-only
/*
 * rethunk=: Linux's default return thunk for this CPU (lib/rethunk.c
 * decides; this file reads the CPU), or for the one rethunk_assume=
 * names.  Shared by the kernel and the companion (CPUID only).
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/rethunk.h"
#include "lib/format.h"

struct rethunk_choice rethunk_choice;
static char why_buf[200];

static void this_cpu_of(struct rethunk_cpu *out)
{
	/* CPUID 80000021h:EAX: SRSO_NO [29], SRSO_USER_KERNEL_NO [30] */
	u32 eax = cpuid_checked(0x80000021, 0).eax;	/* 0 if absent */

	*out = (struct rethunk_cpu){
		.vendor = rethunk_vendor_of(cpu_info.vendor),
		.family = cpu_info.family,
		.model = cpu_info.model,
		.srso_no = eax >> 29 & 1,
		.srso_user_kernel_no = eax >> 30 & 1,
	};
}

void rethunk_setup(struct hz_config *c)
{
	struct rethunk_cpu cpu;
	bool assumed = rethunk_assumed(c->rethunk_assume, &cpu);

	if (!assumed)
		this_cpu_of(&cpu);
	rethunk_choose(&cpu, &rethunk_choice);
	if (assumed) {
		ksnprintf(why_buf, sizeof(why_buf), "rethunk_assume=%s "
			  "(family %xh model %xh): %s",
			  rethunk_assume_names[c->rethunk_assume], cpu.family,
			  cpu.model, rethunk_choice.why);
		rethunk_choice.why = why_buf;
	}
	c->rethunk_default = rethunk_choice.linux_kind != RETHUNK_NONE ?
			     RETHUNK_ON : RETHUNK_OFF;
	c->rethunk_on_kind = rethunk_choice.on_kind;
}

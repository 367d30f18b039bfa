// SPDX-License-Identifier: GPL-2.0-only
/* Boost on this CPU (arch/x86_64/boost.h): CPUID and guarded MSRs. */
#include "arch/x86_64/boost.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/msr.h"

/* @ctx: the struct msr_trace the accesses go to, or NULL */
static bool guarded_rdmsr(void *ctx, u32 msr, u64 *val)
{
	return rdmsrq_traced(ctx, msr, val) == 0;
}

static bool guarded_wrmsr(void *ctx, u32 msr, u64 val)
{
	return wrmsrq_traced(ctx, msr, val) == 0;
}

void boost_this_cpu(struct boost_cpu *b, u32 mode, bool assume,
		    struct msr_trace *t)
{
	struct boost_caps c;

	/* this CPU's own CPUID: IDA reads clear where MISC_ENABLE[38] is set */
	boost_caps_decode(&c, cpu_info.vendor, cpuid_checked(6, 0).eax,
			  cpuid_checked(0x80000007, 0).edx);
	if (assume) {
		c.assumed = true;
		c.cpb = c.vendor == BOOST_VENDOR_AMD;
		c.ida = c.vendor == BOOST_VENDOR_INTEL;
	}
	boost_set(b, mode, &c, guarded_rdmsr, guarded_wrmsr, t);
}

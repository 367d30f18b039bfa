// SPDX-License-Identifier: GPL-2.0-only
/*
 * The microcode revision, for the machine record.  Ring 0 only (an MSR),
 * and guarded: on a CPU or hypervisor without the MSR the #GP is caught.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/traps.h"
#include "lib/string.h"

static void read_msr_microcode(void *arg)
{
	/* Intel: write 0, CPUID(1), read IA32_BIOS_SIGN_ID[63:32].
	 * AMD: MSR 0x8b is the patch level directly. */
	u64 *out = arg;

	wrmsr(0x8b, 0);
	(void)cpuid(1, 0);
	*out = rdmsr(0x8b);
}

void cpuid_read_microcode(void)
{
	u64 v = 0;
	struct trap_info ti;

	cpu_info.microcode = ~0ULL;
	if (cpu_info.has_hypervisor)
		return;	/* hypervisors fake or fault on it; not meaningful */
	if (trap_try(read_msr_microcode, &v, &ti))
		return;
	cpu_info.microcode = strcmp(cpu_info.vendor, "GenuineIntel") == 0
			     ? v >> 32 : (u32)v;
}

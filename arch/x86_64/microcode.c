// SPDX-License-Identifier: GPL-2.0-only
/*
 * The microcode revision, for the machine record.  Ring 0 only (an MSR),
 * and guarded: on a CPU or hypervisor without the MSR the #GP is caught.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/msr.h"
#include "lib/string.h"

#define MSR_IA32_UCODE_REV	0x8b	/* AMD: MSR_AMD64_PATCH_LEVEL */

/*
 * Intel: write 0, CPUID(1), read IA32_BIOS_SIGN_ID[63:32], as Linux's
 * intel_get_microcode_revision().  AMD: the patch level is read directly
 * (Linux's amd reads MSR_AMD64_PATCH_LEVEL, never writing it).
 */
static bool read_revision(bool intel, u64 *v)
{
	if (intel) {
		if (wrmsrq_safe(MSR_IA32_UCODE_REV, 0))
			return false;
		(void)cpuid(1, 0);
	}
	return rdmsrq_safe(MSR_IA32_UCODE_REV, v) == 0;
}

void cpuid_read_microcode(void)
{
	bool intel = strcmp(cpu_info.vendor, "GenuineIntel") == 0;
	bool amd = strcmp(cpu_info.vendor, "AuthenticAMD") == 0 ||
		   strcmp(cpu_info.vendor, "HygonGenuine") == 0;
	u64 v = 0;

	cpu_info.microcode = ~0ULL;
	if (cpu_info.has_hypervisor)
		return;	/* hypervisors fake or fault on it; not meaningful */
	if (!intel && !amd)
		return;	/* another vendor's scheme: unknown */
	if (!read_revision(intel, &v))
		return;
	cpu_info.microcode = intel ? v >> 32 : (u32)v;
}

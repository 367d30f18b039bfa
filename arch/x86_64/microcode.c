// SPDX-License-Identifier: GPL-2.0-only
/*
 * The microcode revision, for the machine record.  Ring 0 only (an MSR),
 * and guarded: on a CPU or hypervisor without the MSR the #GP is caught.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/msr.h"
#include "lib/format.h"
#include "lib/string.h"

#define MSR_IA32_UCODE_REV	0x8b	/* AMD: MSR_AMD64_PATCH_LEVEL */

/*
 * Intel: write 0, CPUID(1), read IA32_BIOS_SIGN_ID[63:32], as Linux's
 * intel_get_microcode_revision().  AMD: the patch level is read directly
 * (Linux's amd reads MSR_AMD64_PATCH_LEVEL, never writing it).
 */
static bool read_revision(bool intel, struct msr_trace *t, u64 *v)
{
	if (intel) {
		if (wrmsrq_traced(t, MSR_IA32_UCODE_REV, 0))
			return false;
		(void)cpuid(1, 0);
	}
	return rdmsrq_traced(t, MSR_IA32_UCODE_REV, v) == 0;
}

/*
 * Read under a hypervisor too, as Linux does (the accesses are the same
 * path, and a refusal must be survived), but not recorded there: the
 * hypervisor's number says nothing about the host's microcode.
 */
void cpuid_read_microcode(struct msr_trace *t, char *what, size_t n)
{
	bool intel = strcmp(cpu_info.vendor, "GenuineIntel") == 0;
	bool amd = strcmp(cpu_info.vendor, "AuthenticAMD") == 0 ||
		   strcmp(cpu_info.vendor, "HygonGenuine") == 0;
	u64 v = 0;

	cpu_info.microcode = ~0ULL;
	if (!intel && !amd) {
		/* another vendor's scheme: unknown */
		ksnprintf(what, n, "not read: vendor '%s' is not Intel, AMD or "
			  "Hygon", cpu_info.vendor);
		return;
	}
	if (!read_revision(intel, t, &v)) {
		ksnprintf(what, n, "unreadable: recorded n/a");
		return;
	}
	v = intel ? v >> 32 : (u32)v;
	if (cpu_info.has_hypervisor) {
		ksnprintf(what, n, "revision %#llx, recorded n/a: "
			  "a hypervisor's", (unsigned long long)v);
		return;
	}
	cpu_info.microcode = v;
	ksnprintf(what, n, "revision %#llx", (unsigned long long)v);
}

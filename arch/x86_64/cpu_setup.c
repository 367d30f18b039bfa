// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every timed region relies on and firmware may not have set up:
 * LFENCE serializing dispatch (the TSC reads' fences), and PAT entry 0
 * write-back (every folio mapping uses it).  Ring 0; MSRs guarded, since a
 * hypervisor may fault on them.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpu_setup.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/msr.h"
#include "lib/format.h"
#include "lib/string.h"

#define MSR_IA32_PAT		0x277
#define MSR_AMD64_DE_CFG	0xc0011029
#define DE_CFG_LFENCE_SERIALIZE	(1ULL << 1)
#define PAT_WB			6
#define PAT_UC			0

/* Set @bits in @msr (Linux's msr_set_bit()) and say whether they read
 * back set: false when any access faults or the write did not take. */
static bool msr_set_bits(u32 msr, u64 bits)
{
	u64 v;

	if (rdmsrq_safe(msr, &v))
		return false;
	if ((v & bits) != bits && wrmsrq_safe(msr, v | bits))
		return false;
	return rdmsrq_safe(msr, &v) == 0 && (v & bits) == bits;
}

/*
 * AMD families 10h..17h: LFENCE serializes only with DE_CFG[1] set; Linux
 * sets it (init_amd(), msr_set_bit(MSR_AMD64_DE_CFG, ...LFENCE_SERIALIZE)).
 * From 19h it is architectural.  Intel: always serializing.
 */
static void lfence_setup(struct cpu_setup *s)
{
	strlcpy(s->lfence, "serializing (architectural)", sizeof(s->lfence));
	if (strcmp(cpu_info.vendor, "AuthenticAMD") != 0 &&
	    strcmp(cpu_info.vendor, "HygonGenuine") != 0)
		return;
	if (cpu_info.family < 0x10 || cpu_info.family > 0x17)
		return;
	if (!msr_set_bits(MSR_AMD64_DE_CFG, DE_CFG_LFENCE_SERIALIZE))
		ksnprintf(s->lfence, sizeof(s->lfence), "NOT serializing: "
			  "DE_CFG[1] could not be set (family %#x)",
			  cpu_info.family);
	else
		strlcpy(s->lfence, "serializing (DE_CFG[1] set)",
			sizeof(s->lfence));
}

/* Mappings use PAT index 0 (write-back) and 3 (PCD|PWT: uncached MMIO),
 * which the power-on PAT and Linux's both define so; firmware could not. */
static void pat_check(struct cpu_setup *s)
{
	u64 pat = 0;

	if (rdmsrq_safe(MSR_IA32_PAT, &pat)) {
		strlcpy(s->pat, "unreadable (power-on default assumed)",
			sizeof(s->pat));
		s->pat_ok = true;
		return;
	}
	s->pat_ok = (pat & 7) == PAT_WB && ((pat >> 24) & 7) == PAT_UC;
	ksnprintf(s->pat, sizeof(s->pat), "%#llx%s", (unsigned long long)pat,
		  s->pat_ok ? "" : ": entry 0 not write-back or entry 3 not "
		  "uncached");
}

void cpu_setup(struct cpu_setup *s)
{
	memset(s, 0, sizeof(*s));
	lfence_setup(s);
	pat_check(s);
}

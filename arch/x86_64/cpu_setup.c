// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every timed region relies on and firmware may not have set up:
 * LFENCE serializing dispatch (the TSC reads' fences), PAT entry 0
 * write-back (every folio mapping uses it), and Intel's fast strings (REP
 * STOS's speed).  Ring 0; MSRs guarded, since a hypervisor may fault on
 * them, and traced for the boot's "msr:" lines.
 */
#include "arch/x86_64/clear.h"
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

enum set_bits { BITS_WERE_SET, BITS_SET, BITS_NOT_KEPT, BITS_FAULTED };

/* Set @bits in @msr (Linux's msr_set_bit(), the safe accessors), each
 * access traced in @t: were they set already, set now, or not? */
static enum set_bits msr_set_bits(struct msr_trace *t, u32 msr, u64 bits)
{
	u64 v;

	if (rdmsrq_traced(t, msr, &v))
		return BITS_FAULTED;
	if ((v & bits) == bits)
		return BITS_WERE_SET;
	if (wrmsrq_traced(t, msr, v | bits) || rdmsrq_traced(t, msr, &v))
		return BITS_FAULTED;
	return (v & bits) == bits ? BITS_SET : BITS_NOT_KEPT;
}

static bool is_amd(void)
{
	return strcmp(cpu_info.vendor, "AuthenticAMD") == 0 ||
	       strcmp(cpu_info.vendor, "HygonGenuine") == 0;
}

/*
 * LFENCE must serialize dispatch: the TSC reads' fences rely on it.  As
 * Linux 7.0's init_amd() (arch/x86/kernel/cpu/amd.c; init_hygon() the
 * same): on AMD and Hygon with SSE2, unless CPUID 80000021h:EAX[2] says
 * LFENCE always serializes, DE_CFG[1] is set through the safe accessors.
 * Before family 10h there is no DE_CFG and LFENCE serializes anyway
 * (Linux touches it all the same; what comes of that does not matter).
 * Intel: always serializing.
 */
static void lfence_setup(struct cpu_setup *s)
{
	const char *how = "serializing (architectural)";
	enum set_bits r;

	strlcpy(s->lfence, how, sizeof(s->lfence));
	if (!is_amd() || !cpu_info.has_sse2)
		return;
	if (cpuid_checked(0x80000021, 0).eax & (1u << 2)) {
		strlcpy(s->lfence, "serializing (CPUID 80000021h:EAX[2])",
			sizeof(s->lfence));
		return;
	}
	r = msr_set_bits(&s->lfence_msrs, MSR_AMD64_DE_CFG,
			 DE_CFG_LFENCE_SERIALIZE);
	if (cpu_info.family < 0x10)
		how = "serializing (before family 10h, which has no DE_CFG)";
	else if (r == BITS_WERE_SET)
		how = "serializing (DE_CFG[1] was set)";
	else if (r == BITS_SET)
		how = "serializing (DE_CFG[1] set)";
	else if (r == BITS_NOT_KEPT)
		how = "NOT serializing: DE_CFG[1] did not stay set";
	else
		how = "NOT serializing: a DE_CFG access faulted";
	strlcpy(s->lfence, how, sizeof(s->lfence));
}

/*
 * Whether the firmware left fast strings on (IA32_MISC_ENABLE[0]): with
 * it off, REP STOS runs without its fast microcode and Linux 7.0's
 * early_init_intel() (arch/x86/kernel/cpu/intel.c) drops ERMS and
 * REP_GOOD, so clear_pages() is its unrolled loop.  Intel from the
 * Pentium M (Dothan, family 6 model 0xd) on, as Linux reads it.
 */
static void misc_enable_check(struct cpu_setup *s)
{
	u64 v;

	if (strcmp(cpu_info.vendor, "GenuineIntel") != 0) {
		strlcpy(s->misc_enable, "not read: not Intel",
			sizeof(s->misc_enable));
		return;
	}
	if (cpu_info.family < 6 ||
	    (cpu_info.family == 6 && cpu_info.model < 0xd)) {
		strlcpy(s->misc_enable, "not read: before the Pentium M",
			sizeof(s->misc_enable));
		return;
	}
	if (rdmsrq_traced(&s->misc_enable_msrs, MISC_ENABLE_MSR, &v)) {
		strlcpy(s->misc_enable, "unreadable: fast strings unknown",
			sizeof(s->misc_enable));
		return;
	}
	ksnprintf(s->misc_enable, sizeof(s->misc_enable), "%#llx: %s",
		  (unsigned long long)v, v & MISC_ENABLE_FAST_STRING ?
		  "fast strings on" : "fast strings OFF (Linux then drops "
		  "ERMS and REP_GOOD: its unrolled clear)");
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

bool cpu_misc_enable_read(u64 *val, char *err, size_t n)
{
	u64 e = rdmsrq_safe(MISC_ENABLE_MSR, val);

	if (e)
		ksnprintf(err, n, "RDMSR 0x1a0 raised vector %llu",
			  (unsigned long long)(e - 1));
	return !e;
}

void cpu_setup(struct cpu_setup *s)
{
	memset(s, 0, sizeof(*s));
	lfence_setup(s);
	misc_enable_check(s);
	pat_check(s);
}

// SPDX-License-Identifier: GPL-2.0-only
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/freq.h"
#include "arch/x86_64/msr.h"
#include "lib/string.h"

#define MSR_IA32_MPERF	0xe7
#define MSR_IA32_APERF	0xe8
#define MSR_SMI_COUNT	0x34

void freq_caps_read(struct freq_caps *c)
{
	u64 v;

	memset(c, 0, sizeof(*c));
	c->aperfmperf = cpuid_checked(6, 0).ecx & 1;
	if (!c->aperfmperf)
		c->why_not_freq = "no APERF/MPERF (CPUID 06H:ECX[0] clear)";
	else if (rdmsrq_safe(MSR_IA32_APERF, &v) ||
		 rdmsrq_safe(MSR_IA32_MPERF, &v)) {
		c->aperfmperf = false;
		c->why_not_freq = "APERF/MPERF listed but reading them faults";
	}
	if (strcmp(cpu_info.vendor, "GenuineIntel") != 0)
		c->why_not_smi = "MSR_SMI_COUNT is Intel's";
	else if (rdmsrq_safe(MSR_SMI_COUNT, &v))
		c->why_not_smi = "MSR_SMI_COUNT (0x34) faults on this CPU";
	else
		c->smi_count = true;
}

void freq_snap(const struct freq_caps *c, struct freq_snap *s)
{
	memset(s, 0, sizeof(*s));
	if (c->aperfmperf) {
		rdmsrq_safe(MSR_IA32_MPERF, &s->mperf);
		rdmsrq_safe(MSR_IA32_APERF, &s->aperf);
	}
	if (c->smi_count)
		rdmsrq_safe(MSR_SMI_COUNT, &s->smi);
}

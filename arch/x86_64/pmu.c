// SPDX-License-Identifier: GPL-2.0-only
/*
 * The performance counters (arch/x86_64/pmu.h).  Every MSR access is
 * guarded (msr.h): a hypervisor may fault on any of them.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/pmu.h"
#include "arch/x86_64/msr.h"
#include "arch/x86_64/percpu.h"
#include "lib/format.h"
#include "lib/string.h"

/* @ctx: the struct msr_trace the accesses go to, or NULL */
static bool guarded_wrmsr(void *ctx, u32 msr, u64 val)
{
	return wrmsrq_traced(ctx, msr, val) == 0;
}

static bool guarded_rdmsr(void *ctx, u32 msr, u64 *val)
{
	return rdmsrq_traced(ctx, msr, val) == 0;
}

/*
 * CPUID's word, then the counters' own (lib/pmu.c pmu_caps_check()).
 * @why: this CPU's buffer for a reason that names the vendor; @t: where
 * the MSR accesses are traced, or NULL.
 */
static void caps_probe(struct pmu_caps *c, char *why, size_t len,
		       struct msr_trace *t)
{
	const char *v = cpu_info.vendor;

	if (strcmp(v, "GenuineIntel") == 0) {
		struct cpuid_regs r = cpuid_checked(0xa, 0);

		pmu_caps_intel(c, cpu_info.family, r.eax, r.ebx, r.ecx, r.edx);
	} else if (strcmp(v, "AuthenticAMD") == 0 ||
		   strcmp(v, "HygonGenuine") == 0) {
		struct cpuid_regs e1 = cpuid_checked(0x80000001, 0);
		struct cpuid_regs e22 = cpuid_checked(0x80000022, 0);

		pmu_caps_amd(c, cpu_info.family, e1.ecx, e22.eax, e22.ebx);
	} else {
		ksnprintf(why, len, "no PMU: vendor '%s' is not Intel, AMD or "
			  "Hygon", v);
		pmu_caps_none(c, why);
	}
	pmu_caps_check(c, cpu_info.has_hypervisor, guarded_rdmsr, guarded_wrmsr,
		       t);
}

/*
 * Probed once per CPU, before any plan of ours touches the counters:
 * later, pmu_stop()'s zeroed selects would hide what the firmware had
 * left enabled.
 */
bool pmu_caps_read_traced(struct pmu_caps *c, struct msr_trace *t)
{
	struct percpu *pc = this_cpu();
	bool probed = !pc->pmu_caps_valid;

	if (probed) {
		caps_probe(&pc->pmu_caps, pc->pmu_why, sizeof(pc->pmu_why), t);
		pc->pmu_caps_valid = true;
	}
	*c = pc->pmu_caps;
	return probed;
}

void pmu_caps_read(struct pmu_caps *c)
{
	pmu_caps_read_traced(c, NULL);
}

void pmu_stop(const struct pmu_plan *p)
{
	/* each write on its own: one refused must not keep the rest */
	for (u32 i = 0; i < p->noff; i++)
		guarded_wrmsr(NULL, p->off[i].msr, p->off[i].val);
}

bool pmu_start(struct pmu_plan *p)
{
	if (pmu_apply(p->writes, p->nwrites, guarded_wrmsr, NULL) == p->nwrites)
		return true;
	pmu_stop(p);
	for (u32 i = 0; i < p->nslots; i++)
		if (!p->slots[i].skip)
			p->slots[i].skip = "an MSR write faulted (a hypervisor "
					   "refusing the counters)";
	p->ncounted = 0;
	return false;
}

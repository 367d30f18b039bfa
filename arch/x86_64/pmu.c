// SPDX-License-Identifier: GPL-2.0-only
/*
 * The performance counters (arch/x86_64/pmu.h).  MSRs are guarded as in
 * cpu_setup.c: a hypervisor may fault on any of them.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/pmu.h"
#include "arch/x86_64/traps.h"
#include "lib/format.h"
#include "lib/string.h"

struct msr_write {
	u32 msr;
	u64 val;
};

static void do_wrmsr(void *arg)
{
	struct msr_write *w = arg;

	wrmsr(w->msr, w->val);
}

static bool guarded_wrmsr(void *ctx, u32 msr, u64 val)
{
	struct msr_write w = { msr, val };
	struct trap_info ti;

	(void)ctx;
	return !trap_try(do_wrmsr, &w, &ti);
}

struct probe {
	u32 msr;
	u64 got;
};

static void do_probe(void *arg)
{
	struct probe *p = arg;
	u64 old = rdmsr(p->msr);

	wrmsr(p->msr, 0xabcd);
	p->got = rdmsr(p->msr);
	wrmsr(p->msr, old);
}

/*
 * Whether an AMD counter keeps what is written to it, as Linux's
 * check_hw_exists() asks (arch/x86/events/core.c): there is no CPUID bit
 * for the four legacy counters, and QEMU's TCG ignores the writes and
 * reads 0.  A counter firmware left running may have moved on a little.
 */
static bool amd_counters_answer(bool ext)
{
	struct probe p = { ext ? MSR_F15H_PERF_CTR0 : MSR_K7_PERFCTR0, 0 };
	struct trap_info ti;

	if (trap_try(do_probe, &p, &ti))
		return false;
	return ((p.got - 0xabcd) & ((1ULL << 48) - 1)) < 0x100000;
}

void pmu_caps_read(struct pmu_caps *c)
{
	static char other[64];
	const char *v = cpu_info.vendor;

	if (strcmp(v, "GenuineIntel") == 0) {
		struct cpuid_regs r = cpuid_checked(0xa, 0);

		pmu_caps_intel(c, cpu_info.family, r.eax, r.ebx, r.ecx, r.edx);
	} else if (strcmp(v, "AuthenticAMD") == 0 ||
		   strcmp(v, "HygonGenuine") == 0) {
		struct cpuid_regs e1 = cpuid_checked(0x80000001, 0);
		struct cpuid_regs e22 = cpuid_checked(0x80000022, 0);
		bool ext = e1.ecx & (1u << 23);

		pmu_caps_amd(c, cpu_info.family, e1.ecx, e22.eax, e22.ebx,
			     amd_counters_answer(ext));
	} else {
		ksnprintf(other, sizeof(other), "no PMU: vendor '%s' is not "
			  "Intel, AMD or Hygon", v);
		pmu_caps_none(c, other);
	}
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

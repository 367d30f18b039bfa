// SPDX-License-Identifier: GPL-2.0-only
/*
 * The NMI watchdog's cycle counter on this CPU (lib/pmu_nmi.h plans it):
 * its overflow raised through LVT PC as an NMI, as Linux's
 * perf_events_lapic_init() sets APIC_LVTPC to APIC_DM_NMI.  Every MSR
 * access is guarded: a hypervisor may refuse any of them.
 */
#include "arch/x86_64/apic_regs.h"
#include "arch/x86_64/msr.h"
#include "arch/x86_64/nmi_timer.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/pmu.h"
#include "lib/format.h"

static bool guarded_wrmsr(void *ctx, u32 msr, u64 val)
{
	(void)ctx;
	return wrmsrq_safe(msr, val) == 0;
}

bool pmu_nmi_start(struct pmu_nmi *w, u64 period, char *why, size_t n)
{
	struct pmu_caps c;

	pmu_caps_read(&c);
	if (!pmu_nmi_plan(&c, period, w, why, n))
		return false;
	if (pmu_apply(w->start, w->nstart, guarded_wrmsr, NULL) != w->nstart) {
		pmu_apply(w->off, w->noff, guarded_wrmsr, NULL);
		ksnprintf(why, n, "an MSR write to counter %u faulted",
			  w->counter);
		return false;
	}
	pmu_nmi_reserve(&this_cpu()->pmu_caps, w);
	apic_write(APIC_LVT_PERF, APIC_LVT_DM_NMI);
	return true;
}

bool pmu_nmi_ours(const struct pmu_nmi *w)
{
	u64 raw;
	bool ours = rdmsrq_safe(w->ctr_msr, &raw) == 0 &&
		    pmu_nmi_overflowed(w, raw);

	if (ours)
		pmu_apply(w->rearm, w->nrearm, guarded_wrmsr, NULL);
	/* Intel masks LVT PC as it delivers; Linux unmasks it from every
	 * PMI (intel_pmu_handle_irq(), x86_pmu_handle_irq()) */
	apic_write(APIC_LVT_PERF, APIC_LVT_DM_NMI);
	return ours;
}

bool pmu_nmi_counts(const struct pmu_nmi *w)
{
	u64 a, b;

	return rdmsrq_safe(w->ctr_msr, &a) == 0 &&
	       rdmsrq_safe(w->ctr_msr, &b) == 0 && a != b;
}

void pmu_nmi_stop(struct pmu_nmi *w)
{
	apic_write(APIC_LVT_PERF, APIC_LVT_MASKED);
	pmu_apply(w->off, w->noff, guarded_wrmsr, NULL);
	this_cpu()->pmu_caps.reserved &= ~(1u << w->counter);
}

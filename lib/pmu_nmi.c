// SPDX-License-Identifier: GPL-2.0-only
/* The NMI watchdog's cycle counter, planned (lib/pmu_nmi.h). */
#include "lib/format.h"
#include "lib/pmu_nmi.h"
#include "lib/string.h"

/* Unhalted core cycles: Intel's architectural event 0 (3CH, umask 0),
 * AMD's "cycles not in halt" (76H) on every family. */
#define INTEL_CYCLES_SEL	0x3c
#define AMD_CYCLES_SEL		0x76

static void put(struct pmu_write *w, u32 *n, u32 msr, u64 val)
{
	if (*n < PMU_NMI_MAX_WRITES) {
		w[*n].msr = msr;
		w[*n].val = val;
		(*n)++;
	}
}

/* The last general counter no firmware and no other user holds, or -1. */
static int free_counter(const struct pmu_caps *c)
{
	for (int n = (int)MIN(c->ngeneral, 32u) - 1; n >= 0; n--)
		if (!(c->fw.mask & (1ULL << n)) && !(c->reserved & (1u << n)))
			return n;
	return -1;
}

static bool refuse(char *why, size_t n, const char *what)
{
	ksnprintf(why, n, "%s", what);
	return false;
}

bool pmu_nmi_plan(const struct pmu_caps *c, u64 period, struct pmu_nmi *w,
		  char *why, size_t n)
{
	bool intel = c->vendor == PMU_VENDOR_INTEL;
	u64 mask, sel;
	int k;

	memset(w, 0, sizeof(*w));
	if (c->none)
		return refuse(why, n, c->none);
	if (c->vendor == PMU_VENDOR_NONE)
		return refuse(why, n, "no PMU hugezero knows");
	if (intel && (!c->arch_len || (c->arch_unavail & 1)))
		return refuse(why, n, "Intel: CPUID 0AH EBX says this CPU "
			      "lacks the core-cycles event");
	k = free_counter(c);
	if (k < 0)
		return refuse(why, n, "no general counter free of the "
			      "firmware's");
	if (c->general_width < 32 || c->general_width > 64)
		return refuse(why, n, "a general counter width outside 32-64 "
			      "bits");
	w->counter = (u32)k;
	w->width = c->general_width;
	mask = w->width == 64 ? ~0ULL : (1ULL << w->width) - 1;
	/* loaded negative: at most half the counter, and Intel's 32-bit
	 * sign-extended writes */
	w->period = MIN(MAX(period, 1ULL), mask >> 1);
	if (intel)
		w->period = MIN(w->period, PMU_NMI_INTEL_MAX_PERIOD);
	w->reload = (0 - w->period) & mask;
	w->ctr_msr = pmu_ctr_msr(c, w->counter);
	sel = (intel ? INTEL_CYCLES_SEL : AMD_CYCLES_SEL) | PMU_SEL_USR |
	      PMU_SEL_OS | PMU_SEL_INT | PMU_SEL_EN;
	/* Intel takes the low 32 bits and sign-extends them */
	put(w->start, &w->nstart, pmu_sel_msr(c, w->counter), 0);
	put(w->start, &w->nstart, w->ctr_msr,
	    intel ? w->reload & 0xffffffffULL : w->reload);
	put(w->start, &w->nstart, pmu_sel_msr(c, w->counter), sel);
	put(w->rearm, &w->nrearm, w->ctr_msr,
	    intel ? w->reload & 0xffffffffULL : w->reload);
	if (c->global_ctrl) {
		put(w->start, &w->nstart, pmu_global_msr(c),
		    pmu_global_kept(c) | 1ULL << w->counter);
		put(w->rearm, &w->nrearm, intel ? MSR_CORE_PERF_GLOBAL_OVF_CTRL :
		    MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR, 1ULL << w->counter);
		put(w->off, &w->noff, pmu_global_msr(c), pmu_global_kept(c));
	}
	put(w->off, &w->noff, pmu_sel_msr(c, w->counter), 0);
	return true;
}

bool pmu_nmi_overflowed(const struct pmu_nmi *w, u64 raw)
{
	return !(raw & (1ULL << (w->width - 1)));
}

void pmu_nmi_reserve(struct pmu_caps *c, const struct pmu_nmi *w)
{
	c->reserved |= 1u << w->counter;
}

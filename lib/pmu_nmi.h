/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_PMU_NMI_H
#define LIB_PMU_NMI_H

#include "lib/pmu.h"

/*
 * The watchdog's counter: one general counter of the boot CPU counting
 * unhalted core cycles, loaded with minus a period so that it overflows
 * after it, its overflow raising the local APIC's performance-counter
 * interrupt (LVT PC, set to NMI delivery by the caller).  Linux's
 * hard-lockup detector asks perf for the same (kernel/watchdog_perf.c,
 * hardlockup_detector_event_create(): PERF_COUNT_HW_CPU_CYCLES, pinned,
 * sample_period = hw_nmi_get_sample_period()), and perf programs it as
 * x86_perf_event_set_period() does, re-armed from its NMI handler
 * (x86_pmu_handle_irq(), intel_pmu_handle_irq()).  Only the MSR writes
 * are planned here; arch/x86_64/pmu_nmi.c makes them.
 */
#define PMU_SEL_INT	(1ULL << 20)	/* APIC interrupt on overflow */
#define MSR_CORE_PERF_GLOBAL_OVF_CTRL	0x390	/* Intel v2+: status clear */
#define MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR	0xc0000302	/* PerfMonV2 */
/* Intel: writes to IA32_PMCx are 32 bits sign-extended (no full-width
 * writes asked for), so a period is at most Linux's max_period there. */
#define PMU_NMI_INTEL_MAX_PERIOD	((1ULL << 31) - 1)

#define PMU_NMI_MAX_WRITES	6

struct pmu_nmi {
	u32 counter;		/* the general counter taken */
	u32 ctr_msr;		/* its counter MSR (RDMSR'd from the NMI) */
	u32 width;		/* its bits */
	u64 period;		/* cycles from one NMI to the next */
	u64 reload;		/* the counter's value after a (re)load */
	u32 nstart;
	struct pmu_write start[PMU_NMI_MAX_WRITES];
	u32 nrearm;		/* from each NMI: reload, clear the status */
	struct pmu_write rearm[PMU_NMI_MAX_WRITES];
	u32 noff;		/* give the counter back */
	struct pmu_write off[PMU_NMI_MAX_WRITES];
};

/*
 * Plan @w on @c: the last general counter the firmware left alone (the
 * one pmu_caps_check() probed), overflowing every @period cycles, the
 * period cut to what the counter's writes can load.  False, with @why,
 * when @c has no PMU, no free counter or no cycles event.
 */
bool pmu_nmi_plan(const struct pmu_caps *c, u64 period, struct pmu_nmi *w,
		  char *why, size_t n);
/*
 * Whether the counter, read as @raw, overflowed since it was loaded:
 * loaded negative, it has wrapped once its top bit is clear (Linux's
 * x86_pmu_handle_irq() test).
 */
bool pmu_nmi_overflowed(const struct pmu_nmi *w, u64 raw);

/*
 * Reserve @w's counter in @c: plans made from @c (pmu_plan_make()) never
 * place an event on it, and their global enables keep it counting, as
 * perf's events share the PMU with Linux's watchdog event.
 */
void pmu_nmi_reserve(struct pmu_caps *c, const struct pmu_nmi *w);

#endif

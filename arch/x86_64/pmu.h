/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_PMU_H
#define ARCH_PMU_H

#include "lib/msrtrace.h"
#include "lib/pmu.h"

/*
 * The performance counters on this CPU: capabilities from CPUID, a
 * lib/pmu.c plan applied with guarded WRMSRs, counters read with RDPMC
 * (ring 0 needs no CR4.PCE).  Per CPU: call on each CPU that counts.
 */

/*
 * Fill @c from CPUID and the counters themselves (pmu_caps_check(): what
 * the firmware left enabled, whether a counter keeps a value); probed on
 * this CPU's first call, the same answer after.
 */
void pmu_caps_read(struct pmu_caps *c);
/* The same, the probe's MSR accesses traced in @t (the boot's "msr: pmu"
 * line); false, @t untouched, when this CPU had probed already. */
bool pmu_caps_read_traced(struct pmu_caps *c, struct msr_trace *t);
/*
 * Program and start @p.  Every WRMSR runs under trap_try(): if one
 * faults, what was written is undone as far as it goes, every counted
 * slot is skipped with the reason, and false is returned.
 */
bool pmu_start(struct pmu_plan *p);
/* Stop the counters @p started (its off writes, guarded). */
void pmu_stop(const struct pmu_plan *p);

static inline u64 rdpmc(u32 idx)
{
	u32 lo, hi;

	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(idx));
	return lo | (u64)hi << 32;
}

/* A counted slot's value now (never call on a skipped slot: #GP). */
static inline u64 pmu_read(const struct pmu_slot *s)
{
	return pmu_value(s, rdpmc(s->rdpmc));
}

#endif

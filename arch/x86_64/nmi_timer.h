/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_NMI_TIMER_H
#define ARCH_NMI_TIMER_H

#include "lib/pmu_nmi.h"
#include "lib/types.h"

/*
 * A timer whose interrupt line the watchdog routes through an I/O APIC
 * as an NMI (kernel/time/watchdog.c): an HPET comparator on a line of
 * its own, or the 8254 PIT's channel 0 on ISA IRQ0.  Each runs by
 * itself once started: it needs no CPU to serve it, as Linux's old
 * nmi_watchdog=1 (the I/O APIC's timer NMI) and the HPET hard-lockup
 * detector proposals (arch/x86/kernel/watchdog_hld_hpet.c, never
 * merged) did.  The caller routes the line before starting the timer.
 */
struct hpet_nmi {
	volatile u8 *base;
	u32 timer;		/* the comparator used */
	u32 pin;		/* the I/O APIC input it drives */
	bool periodic;		/* else re-armed from each NMI */
	u64 hz, period;		/* period in HPET ticks */
};

/*
 * Choose a comparator of the HPET at @base_pa that can drive an I/O APIC
 * input in [16, @max_gsi) -- a PCI line no ISA device shares -- one with
 * periodic mode first.  False, with @why, when none can.
 */
bool hpet_nmi_pick(struct hpet_nmi *h, u64 base_pa, u32 max_gsi, char *why,
		   size_t n);
/* Start it firing every @period_ms (@tsc_hz times the microsecond
 * between the periodic mode's two comparator writes). */
void hpet_nmi_start(struct hpet_nmi *h, u64 period_ms, u64 tsc_hz);
/*
 * Whether it is armed as programmed: comparator on, main counter
 * running, the next match @cmp within a period ahead of the counter
 * @now (lib/watchdog.h, wd_hpet_armed()); both read into the pointers.
 */
bool hpet_nmi_armed(struct hpet_nmi *h, u32 *cmp, u32 *now);
/* From the NMI: a one-shot comparator is set again (periodic: nothing). */
void hpet_nmi_rearm(struct hpet_nmi *h);
/* The comparator stops firing. */
void hpet_nmi_stop(struct hpet_nmi *h);
/*
 * The HPET at @base_pa (0: none) in legacy replacement mode (LEG_RT_CNF)
 * if @on, else out of it: while in it, the HPET takes over IRQ0 and IRQ8
 * and the PIT's interrupt never reaches the I/O APIC.  Whether it was in
 * it (false without an HPET).
 */
bool hpet_legacy(u64 base_pa, bool on);

/* PIT channel 0 as a rate generator, every @period_us rounded to its
 * ticks (PIT_NMI_SLOWEST: 65536 of them, about 18.2 Hz): the period in
 * microseconds it was set to. */
#define PIT_NMI_SLOWEST 0xffffffffu
u64 pit_nmi_start(u32 period_us);
/* Channel 0 stops: one-shot mode, no count loaded. */
void pit_nmi_stop(void);
/* Whether channel 0 counts: a latched read differs from the first
 * within a millisecond (@tsc_hz's). */
bool pit_nmi_counts(u64 tsc_hz);

/*
 * The boot CPU's own cycle counter (lib/pmu_nmi.h): an NMI every @period
 * unhalted cycles through LVT PC, the counter reserved from this CPU's
 * counter plans.  False, with @why, when the PMU cannot.
 */
bool pmu_nmi_start(struct pmu_nmi *w, u64 period, char *why, size_t n);
/* From the NMI: whether the counter overflowed (then re-armed); LVT PC
 * unmasked again either way. */
bool pmu_nmi_ours(const struct pmu_nmi *w);
/* Whether the counter counts: two reads of it differ. */
bool pmu_nmi_counts(const struct pmu_nmi *w);
/* Stop it and give the counter back. */
void pmu_nmi_stop(struct pmu_nmi *w);

#endif

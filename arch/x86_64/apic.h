/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_APIC_H
#define ARCH_APIC_H

#include "lib/types.h"

/*
 * The local APIC of the calling CPU: x2APIC (MSRs) where the CPU has it,
 * accepting firmware that already switched it on, else xAPIC through the
 * kernel window (uncached).  The 8259s are remapped out of the exception
 * vectors and masked.  One timer, one-shot at an absolute TSC time:
 * TSC-deadline mode where CPUID 1:ECX[24] says so, else the LAPIC timer's
 * one-shot count, calibrated against the TSC.  Linux's vectors.
 */
#define VEC_LOCAL_TIMER	0xec	/* LOCAL_TIMER_VECTOR */
#define VEC_RESCHEDULE	0xfd	/* RESCHEDULE_VECTOR: reserved, unused (wake_up() is own-CPU) */
#define VEC_CALL_FUNCTION 0xfb	/* CALL_FUNCTION_SINGLE_VECTOR: on_cpu() */
#define VEC_SPURIOUS	0xff	/* SPURIOUS_APIC_VECTOR */

struct lapic_info {
	bool x2apic;		/* MSR access; else MMIO */
	bool x2apic_by_firmware;
	bool tsc_deadline;	/* timer in TSC-deadline mode */
	u32 id;			/* APIC ID */
	u64 timer_hz;		/* what the timer counts at: the TSC's rate
				 * in TSC-deadline mode, else the LAPIC
				 * timer's after its divide-by-16 */
	char mode[48];		/* "x2apic, tsc-deadline", "xapic, one-shot" */
};

/*
 * Bring up this CPU's local APIC and timer (interrupts stay disabled):
 * software-enabled with VEC_SPURIOUS, TPR 0, every LVT masked, the timer
 * disarmed.  @tsc_hz calibrates the one-shot count.  False, with @why, on
 * a CPU or machine without a usable APIC.  On CPU 0 the 8259s are
 * remapped and masked first, APIC or not.
 */
bool lapic_init(struct lapic_info *out, u64 tsc_hz, char *why, size_t n);

/* ICR low words, as Linux's APIC_DM_INIT etc. (SDM vol. 3, 10.6.1). */
#define ICR_DM_FIXED	0x000
#define ICR_DM_NMI	0x400
#define ICR_DM_INIT	0x500
#define ICR_DM_STARTUP	0x600
#define ICR_ASSERT	0x4000
#define ICR_LEVEL	0x8000
/*
 * Send an IPI to the CPU with APIC ID @dest, waiting up to @wait_tsc
 * ticks for an xAPIC to take it (x2APIC writes are not observable).
 * Call after lapic_init() on this CPU has chosen the mode.
 * False when it stayed pending, or @dest does not fit xAPIC's 8 bits.
 */
bool apic_send_ipi(u32 dest, u32 icr, u64 wait_tsc);
/* Clear the error status and read it again: Linux's ESR dance around
 * each STARTUP IPI (any bit but 4, "redirectable IPI", says it failed:
 * Linux masks 0xef). */
u32 apic_esr(void);
/* Whether every CPU's APIC runs in x2APIC mode (one mode for all). */
bool apic_x2apic_mode(void);
/* Whether the calling CPU's APIC is in x2APIC mode now: its own
 * IA32_APIC_BASE.EXTD, as the hardware says, not the mode chosen. */
bool apic_cpu_x2apic(void);
void lapic_eoi(void);
/* Is @vector in service (its ISR bit set): taken and not yet EOIed? */
bool lapic_in_service(u8 vector);
/*
 * Fire VEC_LOCAL_TIMER once at TSC time @deadline (at once if it is past);
 * 0 disarms.  The first arm unmasks the timer's LVT.  In one-shot mode
 * the interrupt may come early -- the count is clamped to 32 bits and
 * calibrated, not exact -- so a handler checks the time and arms again
 * for what remains.  Call with interrupts disabled.
 */
void lapic_timer_arm(u64 deadline);
/*
 * For self-tests: clamp the one-shot count at @max instead of 32 bits, so
 * that interrupts coming early and arming again for the rest show in a
 * short test; returns the clamp it replaces (0 in TSC-deadline mode,
 * which has no count and ignores this).
 */
u32 lapic_timer_clamp(u32 max);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_APIC_REGS_H
#define ARCH_APIC_REGS_H

#include "lib/types.h"

/*
 * Local APIC registers by their xAPIC offset; in x2APIC mode the MSR is
 * 0x800 + offset / 16 (SDM vol. 3, table 10-6).  Private to apic*.c.
 */
#define APIC_ID		0x020
#define APIC_VERSION	0x030
#define APIC_TPR	0x080
#define APIC_EOI	0x0b0
#define APIC_SVR	0x0f0
#define APIC_ISR	0x100	/* 8 registers, 16 bytes apart */
#define APIC_ESR	0x280
#define APIC_ICR	0x300	/* x2APIC: one 64-bit MSR, 0x830 */
#define APIC_ICR_HIGH	0x310
#define APIC_LVT_CMCI	0x2f0
#define APIC_LVT_TIMER	0x320
#define APIC_LVT_THERM	0x330
#define APIC_LVT_PERF	0x340
#define APIC_LVT_LINT0	0x350
#define APIC_LVT_LINT1	0x360
#define APIC_LVT_ERROR	0x370
#define APIC_TIMER_INIT	0x380
#define APIC_TIMER_CUR	0x390
#define APIC_TIMER_DIV	0x3e0

#define APIC_SVR_ENABLE		(1u << 8)
#define APIC_ICR_BUSY		(1u << 12)	/* xAPIC delivery status */
#define APIC_LVT_MASKED		(1u << 16)
#define APIC_LVT_DM_NMI		(4u << 8)	/* delivery mode 100b */
#define APIC_LVT_TSC_DEADLINE	(2u << 17)	/* timer mode 10b */
#define APIC_TIMER_DIV_16	0x3

#define MSR_APIC_BASE		0x1b
#define APIC_BASE_BSP		(1ULL << 8)
#define APIC_BASE_EXTD		(1ULL << 10)
#define APIC_BASE_EN		(1ULL << 11)
#define MSR_TSC_DEADLINE	0x6e0

u32 apic_read(u32 reg);
void apic_write(u32 reg, u32 v);

struct lapic_info;
/* apic_timer.c: the timer's mode and, for the one-shot count, its rate. */
bool lapic_timer_init(struct lapic_info *out, u64 tsc_hz, char *why,
		      size_t n);

#endif

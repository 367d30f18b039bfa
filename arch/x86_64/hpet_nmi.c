// SPDX-License-Identifier: GPL-2.0-only
/*
 * An HPET comparator as the watchdog's NMI source (IA-PC HPET 1.0a,
 * 2.3.8): Tn configuration at 0x100 + 0x20 * N, its comparator 8 above.
 * Programmed as Linux's hpet_clkevt_set_state_periodic() does (arch/
 * x86/kernel/hpet.c; hpet_set_periodic() before 5.6): 32-bit mode, and
 * in periodic mode, with the main counter stopped, the first comparator
 * value written with Tn_VAL_SET_CNF, a microsecond, then the period.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/nmi_timer.h"
#include "arch/x86_64/paging.h"
#include "arch/x86_64/tsc.h"
#include "lib/format.h"
#include "lib/watchdog.h"

#define HPET_CAP	0x00
#define HPET_CONF	0x10
#define HPET_COUNTER	0xf0
#define TN_CFG(n)	(0x100 + 0x20 * (n))
#define TN_CMP(n)	(0x108 + 0x20 * (n))

#define CONF_ENABLE	(1ull << 0)
#define CONF_LEGACY	(1ull << 1)
#define TN_LEVEL	(1ull << 1)
#define TN_ENABLE	(1ull << 2)
#define TN_PERIODIC	(1ull << 3)
#define TN_PER_CAP	(1ull << 4)
#define TN_SETVAL	(1ull << 6)
#define TN_32BIT	(1ull << 8)
#define TN_ROUTE_SHIFT	9
#define TN_ROUTE_MASK	(0x1full << TN_ROUTE_SHIFT)
#define TN_FSB		(1ull << 14)

static u64 rd64(struct hpet_nmi *h, u32 off)
{
	return *(volatile u64 *)(h->base + off);
}

static u32 rd32(struct hpet_nmi *h, u32 off)
{
	return *(volatile u32 *)(h->base + off);
}

static void wr32(struct hpet_nmi *h, u32 off, u32 v)
{
	*(volatile u32 *)(h->base + off) = v;
}

/* The highest input of @cap in [16, @max_gsi), or 32. */
static u32 best_pin(u32 cap, u32 max_gsi)
{
	for (u32 pin = MIN(max_gsi, 32u); pin-- > 16;)
		if (cap & (1u << pin))
			return pin;
	return 32;
}

bool hpet_nmi_pick(struct hpet_nmi *h, u64 base_pa, u32 max_gsi, char *why,
		   size_t n)
{
	u64 cap, period_fs;
	u32 ntimers, found = 0;

	h->base = base_pa ? ioremap(base_pa, 1024, true) : NULL;
	if (!h->base) {
		ksnprintf(why, n, base_pa ? "cannot map the HPET" :
			  "no HPET table in ACPI");
		return false;
	}
	cap = rd64(h, HPET_CAP);
	period_fs = cap >> 32;
	if (cap == ~0ull || !period_fs || period_fs > 100000000ull) {
		ksnprintf(why, n, "the HPET reads as absent");
		return false;
	}
	h->hz = 1000000000000000ull / period_fs;
	ntimers = ((cap >> 8) & 0x1f) + 1;
	h->pin = 32;
	for (u32 t = 0; t < ntimers; t++) {
		u64 cfg = rd64(h, TN_CFG(t));
		u32 pin = best_pin((u32)(cfg >> 32), max_gsi);

		if (pin == 32)
			continue;
		found++;
		/* A periodic one, else the first that can reach a line. */
		if (h->pin == 32 || ((cfg & TN_PER_CAP) && !h->periodic)) {
			h->timer = t;
			h->pin = pin;
			h->periodic = cfg & TN_PER_CAP;
		}
	}
	if (!found)
		ksnprintf(why, n, "none of the HPET's %u comparators can "
			  "drive an I/O APIC input from 16 to %u", ntimers,
			  max_gsi - 1);
	return found != 0;
}

void hpet_nmi_rearm(struct hpet_nmi *h)
{
	if (!h->periodic)
		wr32(h, TN_CMP(h->timer),
		     rd32(h, HPET_COUNTER) + (u32)h->period);
}

/* Linux's hpet_stop_counter() and hpet_start_counter(): the main counter
 * stops and goes on from where it stood (not reset), legacy replacement
 * off, as it would take the PIT's and RTC's lines. */
static void counter_run(struct hpet_nmi *h, bool run)
{
	u32 conf = rd32(h, HPET_CONF) & ~(u32)CONF_LEGACY;

	wr32(h, HPET_CONF, run ? conf | (u32)CONF_ENABLE :
	     conf & ~(u32)CONF_ENABLE);
}

/* Linux's udelay(1) between the two comparator writes. */
static void delay_1us(u64 tsc_hz)
{
	u64 end = rdtsc() + tsc_hz / 1000000 + 1;

	while (rdtsc() < end)
		cpu_relax();
}

/*
 * Periodic: Linux's hpet_clkevt_set_state_periodic() step by step.  With
 * the main counter stopped, the first match (now + period) is written
 * with Tn_VAL_SET_CNF, which the HPET clears; after a microsecond the
 * period, which the AMD-8111's HPET needs as a second write; then the
 * counter runs again.  One-shot: the match, then the comparator on.
 */
void hpet_nmi_start(struct hpet_nmi *h, u64 period_ms, u64 tsc_hz)
{
	u64 cfg = rd64(h, TN_CFG(h->timer));

	h->period = h->hz * period_ms / 1000;
	if (h->period > 0x7fffffffull)
		h->period = 0x7fffffffull;
	cfg &= ~(TN_LEVEL | TN_PERIODIC | TN_ROUTE_MASK | TN_FSB | TN_ENABLE);
	cfg |= TN_32BIT | ((u64)h->pin << TN_ROUTE_SHIFT);
	wr32(h, TN_CFG(h->timer), (u32)cfg);
	if (h->periodic) {
		counter_run(h, false);
		wr32(h, TN_CFG(h->timer),
		     (u32)(cfg | TN_ENABLE | TN_PERIODIC | TN_SETVAL));
		wr32(h, TN_CMP(h->timer),
		     rd32(h, HPET_COUNTER) + (u32)h->period);
		delay_1us(tsc_hz);
		wr32(h, TN_CMP(h->timer), (u32)h->period);
		counter_run(h, true);
	} else {
		counter_run(h, true);
		wr32(h, TN_CMP(h->timer),
		     rd32(h, HPET_COUNTER) + (u32)h->period);
		wr32(h, TN_CFG(h->timer), (u32)(cfg | TN_ENABLE));
	}
}

bool hpet_nmi_armed(struct hpet_nmi *h, u32 *cmp, u32 *now)
{
	*cmp = rd32(h, TN_CMP(h->timer));
	*now = rd32(h, HPET_COUNTER);
	return (rd32(h, TN_CFG(h->timer)) & TN_ENABLE) &&
	       (rd32(h, HPET_CONF) & CONF_ENABLE) &&
	       wd_hpet_armed(*cmp, *now, (u32)h->period);
}

void hpet_nmi_stop(struct hpet_nmi *h)
{
	u32 cfg = rd32(h, TN_CFG(h->timer));

	wr32(h, TN_CFG(h->timer), cfg & ~(u32)(TN_ENABLE | TN_PERIODIC));
}

bool hpet_legacy(u64 base_pa, bool on)
{
	static volatile u8 *base;
	static u64 mapped;
	u32 conf;

	if (!base_pa)
		return false;
	if (mapped != base_pa) {
		base = ioremap(base_pa, 1024, true);
		mapped = base ? base_pa : 0;
	}
	if (!base || *(volatile u64 *)(base + HPET_CAP) == ~0ull)
		return false;
	conf = *(volatile u32 *)(base + HPET_CONF);
	if (on)
		*(volatile u32 *)(base + HPET_CONF) = conf | (u32)CONF_LEGACY;
	else if (conf & CONF_LEGACY)
		*(volatile u32 *)(base + HPET_CONF) = conf & ~(u32)CONF_LEGACY;
	return conf & CONF_LEGACY;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * HPET main counter as a reference clock (IA-PC HPET spec 1.0a):
 * capabilities at 0x0 (period in femtoseconds in bits 63:32, 64-bit
 * counter in bit 13), configuration at 0x10, main counter at 0xf0.
 */
#include "arch/x86_64/paging.h"
#include "arch/x86_64/refclock.h"
#include "lib/format.h"

#define HPET_CAP 0x00
#define HPET_CONF 0x10
#define HPET_COUNTER 0xf0
#define HPET_MAX_PERIOD_FS 100000000ULL	/* the spec's 100 ns */

static volatile u8 *hpet;

static u64 hpet_read(void)
{
	return *(volatile u64 *)(hpet + HPET_COUNTER);
}

void hpet_probe(struct refclock *c, u64 base_pa)
{
	u64 cap, period;

	c->name = "hpet";
	c->read = hpet_read;
	c->usable = false;
	if (!base_pa) {
		ksnprintf(c->why, sizeof(c->why), "no HPET table in ACPI");
		return;
	}
	hpet = ioremap(base_pa, 1024, true);
	if (!hpet) {
		ksnprintf(c->why, sizeof(c->why), "cannot map HPET at %#llx",
			  (unsigned long long)base_pa);
		return;
	}
	cap = *(volatile u64 *)(hpet + HPET_CAP);
	period = cap >> 32;
	if (period == 0 || period > HPET_MAX_PERIOD_FS || cap == ~0ULL) {
		ksnprintf(c->why, sizeof(c->why), "HPET period %llu fs is "
			  "invalid", (unsigned long long)period);
		return;
	}
	c->hz = 1000000000000000ULL / period;
	c->mask = (cap & (1u << 13)) ? ~0ULL : 0xffffffffULL;
	*(volatile u64 *)(hpet + HPET_CONF) |= 1;	/* ENABLE_CNF */
	if (!refclock_advances(c)) {
		ksnprintf(c->why, sizeof(c->why), "HPET counter does not "
			  "advance");
		return;
	}
	c->usable = true;
}

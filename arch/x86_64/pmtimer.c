// SPDX-License-Identifier: GPL-2.0-only
/*
 * ACPI power-management timer: 3.579545 MHz, 24 or 32 bits, at the I/O
 * port the FADT names.  Some chipsets return a glitched value now and
 * then; the calibration's medians absorb a single bad read.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/refclock.h"
#include "lib/format.h"

#define PMTIMER_HZ 3579545

static u16 pm_port;
static u64 pm_mask;

static u64 pm_read(void)
{
	return inl(pm_port) & pm_mask;
}

void pmtimer_probe(struct refclock *c, u16 port, bool is_32bit)
{
	c->name = "pmtimer";
	c->read = pm_read;
	c->hz = PMTIMER_HZ;
	c->usable = false;
	if (!port) {
		ksnprintf(c->why, sizeof(c->why), "FADT names no PM timer");
		return;
	}
	pm_port = port;
	pm_mask = c->mask = is_32bit ? 0xffffffffULL : 0xffffffULL;
	if (!refclock_advances(c)) {
		ksnprintf(c->why, sizeof(c->why), "PM timer at port %#x does "
			  "not advance", port);
		return;
	}
	c->usable = true;
}

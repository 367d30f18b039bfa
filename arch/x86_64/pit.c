// SPDX-License-Identifier: GPL-2.0-only
/*
 * 8254 PIT channel 2 as a free-running reference: mode 2 (rate
 * generator) with reload 0 counts down through 65536 values at
 * 1.193182 MHz.  The gate is port 0x61 bit 0; the speaker (bit 1) stays
 * off.  Latched reads make it an up-counter of 16 bits for the caller.
 * Absent or broken on some modern machines: probed, never trusted.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/nmi_timer.h"
#include "arch/x86_64/refclock.h"
#include "arch/x86_64/tsc.h"
#include "lib/format.h"

#define PIT_HZ 1193182
#define PIT_CH2 0x42
#define PIT_CMD 0x43
#define PIT_GATE 0x61

static u64 pit_read(void)
{
	u8 lo, hi;

	outb(PIT_CMD, 0x80);		/* latch channel 2 */
	lo = inb(PIT_CH2);
	hi = inb(PIT_CH2);
	return (0x10000 - (((u32)hi << 8) | lo)) & 0xffff;
}

void pit_probe(struct refclock *c)
{
	c->name = "pit";
	c->read = pit_read;
	c->hz = PIT_HZ;
	c->mask = 0xffff;
	c->usable = false;
	outb(PIT_GATE, (inb(PIT_GATE) & ~0x02) | 0x01);
	outb(PIT_CMD, 0xb4);		/* channel 2, lo/hi, mode 2, binary */
	outb(PIT_CH2, 0);
	outb(PIT_CH2, 0);
	if (!refclock_advances(c)) {
		ksnprintf(c->why, sizeof(c->why), "PIT channel 2 does not "
			  "count");
		return;
	}
	c->usable = true;
}

bool refclock_advances(const struct refclock *c)
{
	u64 first = c->read();

	/* A working clock moves within microseconds; 1e6 reads is plenty. */
	for (u32 i = 0; i < 1000000; i++)
		if (c->read() != first)
			return true;
	return false;
}

/*
 * Channel 0 as the watchdog's NMI source (arch/x86_64/nmi_timer.h): mode
 * 2, at its slowest the largest reload, 65536, so the fewest NMIs (18.2
 * a second) land in timed regions.
 */
u64 pit_nmi_start(u32 period_us)
{
	u64 reload = (u64)period_us * PIT_HZ / 1000000;

	reload = MIN(MAX(reload, 2ull), 65536ull);	/* mode 2 takes 2+ */
	outb(PIT_CMD, 0x34);		/* channel 0, lo/hi, mode 2, binary */
	outb(0x40, (u8)reload);		/* 65536 is written as 0 */
	outb(0x40, (u8)(reload >> 8));
	return reload * 1000000 / PIT_HZ;
}

/* As Linux's pit_shutdown(): mode 0 without a count, so no period. */
void pit_nmi_stop(void)
{
	outb(PIT_CMD, 0x30);		/* channel 0, lo/hi, mode 0, binary */
	outb(0x40, 0);
	outb(0x40, 0);
}

/* Channel 0's count, latched (counter latch command, channel 0). */
static u16 ch0_read(void)
{
	u8 lo, hi;

	outb(PIT_CMD, 0x00);
	lo = inb(0x40);
	hi = inb(0x40);
	return (u16)(((u16)hi << 8) | lo);
}

bool pit_nmi_counts(u64 tsc_hz)
{
	u16 first = ch0_read();
	u64 end = rdtsc() + tsc_hz / 1000;

	while (rdtsc() < end)
		if (ch0_read() != first)
			return true;
	return false;
}

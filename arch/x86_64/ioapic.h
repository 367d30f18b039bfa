/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_IOAPIC_H
#define ARCH_IOAPIC_H

#include "lib/types.h"

/*
 * An I/O APIC (82093AA datasheet; Linux's arch/x86/kernel/apic/io_apic.c):
 * IOREGSEL at +0, IOWIN at +0x10; register 1 holds the number of
 * redirection entries less one in bits 23:16; entry N is registers
 * 0x10 + 2N (low) and 0x11 + 2N (high, destination in bits 63:56).
 * hugezero drives no device interrupt: the one entry it writes routes a
 * timer to a CPU as an NMI, for the watchdog (kernel/time/watchdog.c).
 */
struct ioapic {
	volatile u32 *base;
	u32 pins;
};

/* Map the I/O APIC at @pa; false (with @why) when it reads as absent. */
bool ioapic_map(struct ioapic *a, u64 pa, char *why, size_t n);

/*
 * Route @pin as an edge-triggered NMI, in physical destination mode, to
 * the local APIC @dest (8 bits: an ID above 255 needs interrupt remapping,
 * which hugezero does not set up; false then).  The entry is written
 * masked, then unmasked, as Linux's ioapic_write_entry() orders it.
 */
bool ioapic_route_nmi(struct ioapic *a, u32 pin, u32 dest, bool active_low);
void ioapic_mask(struct ioapic *a, u32 pin);

#endif

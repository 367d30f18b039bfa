// SPDX-License-Identifier: GPL-2.0-only
#include "arch/x86_64/ioapic.h"
#include "arch/x86_64/paging.h"
#include "lib/format.h"

#define IOREGSEL	0
#define IOWIN		4	/* in u32s: byte offset 0x10 */
#define IOAPIC_VER	1
#define REDIR(pin)	(0x10 + 2 * (pin))

#define RTE_DM_NMI	(4u << 8)
#define RTE_LOW		(1u << 13)
#define RTE_MASKED	(1u << 16)

static u32 ioapic_read(struct ioapic *a, u32 reg)
{
	a->base[IOREGSEL] = reg;
	return a->base[IOWIN];
}

static void ioapic_write(struct ioapic *a, u32 reg, u32 val)
{
	a->base[IOREGSEL] = reg;
	a->base[IOWIN] = val;
}

bool ioapic_map(struct ioapic *a, u64 pa, char *why, size_t n)
{
	u32 ver;

	a->pins = 0;
	a->base = ioremap(pa, 0x20, true);
	if (!a->base) {
		ksnprintf(why, n, "cannot map the I/O APIC at %#llx",
			  (unsigned long long)pa);
		return false;
	}
	ver = ioapic_read(a, IOAPIC_VER);
	if (ver == ~0u) {
		ksnprintf(why, n, "no I/O APIC answers at %#llx",
			  (unsigned long long)pa);
		return false;
	}
	a->pins = ((ver >> 16) & 0xff) + 1;
	return true;
}

void ioapic_mask(struct ioapic *a, u32 pin)
{
	if (pin < a->pins)
		ioapic_write(a, REDIR(pin), RTE_MASKED);
}

bool ioapic_route_nmi(struct ioapic *a, u32 pin, u32 dest, bool active_low)
{
	/* The vector is ignored for NMI delivery; edge is the only
	 * trigger NMI delivery takes. */
	u32 low = RTE_DM_NMI | (active_low ? RTE_LOW : 0);

	if (pin >= a->pins || dest > 0xff)
		return false;
	ioapic_write(a, REDIR(pin), low | RTE_MASKED);
	ioapic_write(a, REDIR(pin) + 1, dest << 24);
	ioapic_write(a, REDIR(pin), low);
	return true;
}

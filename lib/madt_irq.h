/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_MADT_IRQ_H
#define LIB_MADT_IRQ_H

#include "lib/types.h"

/*
 * The MADT's interrupt routing (ACPI 6.5, 5.2.12.3 and 5.2.12.5): the I/O
 * APICs (type 1) with their first GSI, and the ISA interrupt source
 * overrides (type 2) that say which GSI and polarity an ISA IRQ arrives
 * on -- what Linux's acpi_parse_ioapic() and acpi_parse_int_src_ovr()
 * (arch/x86/kernel/acpi/boot.c) take for mp_ioapics[] and
 * mp_irqs[].  Only the watchdog's NMI routing needs it, so it keeps few;
 * more are counted, never written past.
 */
#define MADT_MAX_IOAPICS 16
#define MADT_MAX_ISOS 24	/* one per ISA IRQ, with room */

struct madt_ioapic {
	u8 id;
	u64 address;
	u32 gsi_base;
};

struct madt_iso {
	u8 source;		/* the ISA IRQ */
	u32 gsi;
	u16 flags;		/* MPS INTI flags: polarity 1:0, trigger 3:2 */
};

struct madt_irq {
	u32 nioapics, nisos;
	u32 dropped;		/* entries past the arrays above */
	struct madt_ioapic ioapic[MADT_MAX_IOAPICS];
	struct madt_iso iso[MADT_MAX_ISOS];
};

/* False when @table is not a MADT of at least its fixed part. */
bool madt_irq_parse(const void *table, u32 len, struct madt_irq *out);

/*
 * ISA IRQ @irq's GSI and whether it is active low, as Linux's
 * mp_override_legacy_irq() leaves them: identity and active high unless
 * overridden.  An override's "conforms" (0) polarity is the bus's: ISA
 * is active high.
 */
u32 madt_irq_isa_gsi(const struct madt_irq *m, u8 irq, bool *active_low);

/* The I/O APIC holding @gsi (its index), or -1; @pins: how many that
 * one has, which only the I/O APIC itself can say, so the caller passes
 * a reader of it. */
int madt_irq_ioapic_of(const struct madt_irq *m, u32 gsi,
		       u32 (*pins)(const struct madt_ioapic *a, void *ctx),
		       void *ctx);

#endif

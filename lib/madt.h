/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_MADT_H
#define LIB_MADT_H

#include "lib/types.h"

/*
 * The ACPI MADT ("APIC"), parsed from its bytes (ACPI 6.5, 5.2.12): the
 * processors (local APIC entries, type 0, and local x2APIC entries, type
 * 9, whose IDs may be non-consecutive and above 255) with their enabled
 * and online-capable flags, and the local APIC address (with a type 5
 * override).  Pure: the kernel hands it a mapped, checksummed table; host
 * tests hand it synthetic ones.
 *
 * No fixed limit: the caller sizes the processor array by
 * madt_processor_entries() (the kernel from its allocator) and hands it
 * to madt_parse().
 */
struct madt_cpu {
	u32 apic_id;
	u32 uid;		/* ACPI processor UID */
	bool enabled;		/* flags bit 0: usable now */
	bool online_capable;	/* flags bit 1: may be enabled later */
	bool x2apic;		/* from a type 9 entry */
};

struct madt {
	u64 lapic_base;
	bool pcat_compat;	/* 8259s present (flags bit 0) */
	u32 ncpus;		/* processors kept in cpu[] */
	u32 nenabled;
	u32 dropped;		/* beyond the room the caller gave (none when
				 * sized by madt_processor_entries()) */
	u32 bad;		/* entries whose length is wrong (skipped) */
	u32 invalid_id;		/* APIC ID 0xff / 0xffffffff: ignored, as Linux */
	u32 x2apic_low;		/* x2APIC IDs below 0xff beside LAPIC ones:
				 * ignored, as Linux's acpi_parse_x2apic() */
	bool has_lapic_cpus;	/* a usable type 0 entry with a valid ID */
	u8 revision;		/* the table's: online-capable from 5 on */
	u32 cap;		/* room in cpu[] */
	struct madt_cpu *cpu;
};

/*
 * How many processor entries (types 0 and 9) the @len bytes at @table
 * hold, up to the first malformed one: room enough for madt_parse().
 * 0 when it is not a MADT.
 */
u32 madt_processor_entries(const void *table, u32 len);

/*
 * Parse the @len bytes of a MADT at @table (header included) into @m,
 * its processors into @cpu (room for @cap).  False when it is too short
 * to be one; a malformed entry ends the walk, counted in @m->bad.  A
 * processor listed twice (type 0 and 9, as firmware may for IDs below
 * 255) is kept once.  As Linux's acpi_parse_madt_lapic_entries(), a first
 * walk looks for usable local APIC entries (acpi_check_lapic()); where
 * there are some, x2APIC entries with IDs below 0xff are ignored
 * (acpi_parse_x2apic(): ACPI 6.5 5.2.12.12 gives those to type 0).
 */
bool madt_parse(const void *table, u32 len, struct madt *m,
		struct madt_cpu *cpu, u32 cap);

#endif

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
 */
#define MADT_MAX_CPUS 1024

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
	u32 ncpus;		/* entries kept, at most MADT_MAX_CPUS */
	u32 nenabled;
	u32 dropped;		/* entries beyond MADT_MAX_CPUS */
	u32 bad;		/* entries whose length is wrong (skipped) */
	u32 invalid_id;		/* APIC ID 0xff / 0xffffffff: ignored, as Linux */
	struct madt_cpu cpu[MADT_MAX_CPUS];
};

/*
 * Parse the @len bytes of a MADT at @table (header included).  False when
 * it is too short to be one; a malformed entry ends the walk, counted in
 * @m->bad.  A processor listed twice (type 0 and 9, as firmware may for
 * IDs below 255) is kept once.
 */
bool madt_parse(const void *table, u32 len, struct madt *m);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_ACPI_H
#define KERNEL_ACPI_H

#include "arch/x86_64/reset.h"
#include "lib/madt.h"
#include "lib/spcr.h"
#include "lib/srat.h"
#include "lib/types.h"

/* One table the root (XSDT or RSDT) lists, checksum verified. */
struct acpi_table {
	char sig[5];
	u64 pa;
	const void *map;
};

struct acpi_info {
	bool present;
	u8 revision;
	char oem[7];
	/* As many as the root lists (no limit: a server may have hundreds
	 * of SSDTs), in memory from boot_table_alloc() sized by that count. */
	u32 nroot;		/* entries in the root table */
	u32 ntables;		/* of them, usable */
	struct acpi_table *tables;
	u32 bad_checksums;
	/* From the FADT */
	u16 pm_timer_port;
	bool pm_timer_32bit;
	bool has_reset;
	struct acpi_gas reset_reg;
	u8 reset_value;
	/* From the HPET table */
	u64 hpet_base;
	/* From the MADT: every processor, enabled or not (its cpu[] sized
	 * by the table's processor entries, from boot_table_alloc()) */
	bool has_madt;
	struct madt madt;
	/*
	 * From the SRAT, with the SLIT's distances in it: the NUMA nodes.
	 * Without an SRAT with memory in it (as Linux), one node, 0.
	 */
	bool has_srat;
	struct srat srat;
	/* From the SPCR: the firmware's serial console, for console=auto */
	bool has_spcr;
	struct spcr spcr;
	char spcr_absent[128];	/* without has_spcr: why ("there is no ...") */
};

extern struct acpi_info acpi;

/* Find the RSDP (loader tag, else the BIOS area), walk the XSDT/RSDT. */
void acpi_init(void);
/* A mapped copy-free view of table @sig, or NULL. */
const void *acpi_find(const char *sig);

#endif

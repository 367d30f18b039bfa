// SPDX-License-Identifier: GPL-2.0-only
/* Self-tests: what the boot loader handed over, and where we landed. */
#include "kernel/acpi.h"
#include "kernel/bootinfo.h"
#include "kernel/console.h"
#include "kernel/main.h"
#include "kernel/mm/memory.h"
#include "kernel/selftest/selftest.h"

#define LOAD_PHYS 0x1000000ULL	/* boot/layout.inc */

static void bootinfo_valid(struct tctx *t)
{
	const struct boot_info *b = &boot_info;

	check(t, b->nerrors == 0, "%u errors in the boot information",
	      b->nerrors);
	check(t, b->tags_seen & (1u << 1), "no command-line tag");
	check(t, b->nbios || b->nefi, "no memory map tag (6 or 17)");
	check(t, !b->map_overflow, "memory map longer than %u entries",
	      MEMMAP_MAX_INPUT);
	note(t, "tags seen %#x, %u BIOS and %u EFI map entries, %u modules",
	     b->tags_seen, b->nbios, b->nefi, b->nmodules);
}

static void load_address(struct tctx *t)
{
	const struct boot_info *b = &boot_info;

	check(t, memory.kernel_start == LOAD_PHYS + load_delta,
	      "image at %#llx, expected %#llx",
	      (unsigned long long)memory.kernel_start,
	      (unsigned long long)(LOAD_PHYS + load_delta));
	check(t, IS_ALIGNED(load_delta, SZ_2M), "displacement %#llx not 2M "
	      "aligned", (unsigned long long)load_delta);
	if (b->has_load_base)
		check(t, b->load_base == memory.kernel_start,
		      "loader says base %#llx, we computed %#llx",
		      (unsigned long long)b->load_base,
		      (unsigned long long)memory.kernel_start);
}

static void acpi_tables(struct tctx *t)
{
	if (!acpi.present) {
		skip(t, "no ACPI RSDP on this machine");
		return;
	}
	check(t, acpi.ntables > 0, "RSDT/XSDT lists no valid table");
	check(t, acpi_find("FACP") != NULL, "no FADT");
	check(t, acpi.bad_checksums == 0, "%u tables with bad checksums",
	      acpi.bad_checksums);
	note(t, "ACPI revision %u, OEM '%s', %u tables", acpi.revision,
	     acpi.oem, acpi.ntables);
}

static void console_present(struct tctx *t)
{
	/* Without any UART nobody reads this; the run must still end. */
	if (console_port() < 0) {
		skip(t, "no 16550 UART answered at ttyS0..ttyS3");
		return;
	}
	if (config.console.autosel)
		note(t, "console=auto: using %s", console_info()->name);
	else if (console_port() != (int)config.console.port)
		note(t, "asked for ttyS%u, using ttyS%d", config.console.port,
		     console_port());
}

SUITE(suite_boot, "boot",
	{ "bootinfo_valid", bootinfo_valid },
	{ "load_address", load_address },
	{ "acpi_tables", acpi_tables },
	{ "console_present", console_present },
);

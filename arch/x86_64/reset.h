/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_RESET_H
#define ARCH_RESET_H

#include "lib/types.h"

/* Generic Address Structure (ACPI 5.2.3.2): how the FADT names the reset
 * register.  Here, with its only arch user; kernel/acpi.h reads it. */
struct acpi_gas {
	u8 space;	/* 0 memory, 1 I/O */
	u8 bit_width, bit_offset, access_size;
	u64 address;
} __packed;

/* QEMU's isa-debug-exit at port 0xf4: QEMU exits with (code << 1) | 1. */
void qemu_debug_exit(u8 code);
/* Is this a hypervisor known to be QEMU-based (TCG or KVM)? */
bool running_under_qemu(void);
__noreturn void machine_halt(void);
/* ACPI reset register if given, then 0xcf9, the keyboard controller, a triple fault. */
__noreturn void machine_reboot(const struct acpi_gas *reset, u8 value);

#endif

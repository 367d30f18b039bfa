// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ways to end a run: QEMU's debug-exit port, halting for an operator to
 * read the console, or rebooting so a lab loops through configurations.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/reset.h"
#include "lib/string.h"

void qemu_debug_exit(u8 code)
{
	outb(0xf4, code);
}

bool running_under_qemu(void)
{
	return strcmp(cpu_info.hypervisor, "TCGTCGTCGTCG") == 0 ||
	       memcmp(cpu_info.hypervisor, "KVMKVMKVM", 9) == 0;
}

void machine_halt(void)
{
	irq_disable();
	for (;;)
		halt();
}

static void kbc_reset(void)
{
	for (u32 i = 0; i < 100000 && (inb(0x64) & 0x02); i++)
		cpu_relax();
	outb(0x64, 0xfe);
}

void machine_reboot(const struct acpi_gas *reset, u8 value)
{
	struct {
		u16 limit;
		u64 base;
	} __packed null_idt = { 0, 0 };

	irq_disable();
	if (reset && reset->space == 1 && reset->address < 0x10000)
		outb((u16)reset->address, value);
	for (volatile u32 i = 0; i < 10000000; i++)
		;
	outb(0xcf9, 0x02);
	outb(0xcf9, 0x06);
	for (volatile u32 i = 0; i < 10000000; i++)
		;
	kbc_reset();
	for (volatile u32 i = 0; i < 10000000; i++)
		;
	/* Last resort: any exception now is a triple fault. */
	__asm__ volatile("lidt %0; int3" : : "m"(null_idt));
	machine_halt();
}

// SPDX-License-Identifier: GPL-2.0-only
/* The raw CPUID leaves and the vendor paths' MSR lines (kernel/cpulog.h). */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "kernel/cpulog.h"
#include "lib/printk.h"

/*
 * Every leaf a primitive, the XSAVE state or a vendor path is chosen by:
 * the identity and feature words, 06H (Intel's turbo and HWP), 0AH
 * (Intel's PMU), 0DH (XCR0's components), 80000007h (AMD's boost), AMD's
 * 80000021h (LFENCE), each as cpuid_checked() gives
 * it (zero above the CPU's maximum leaf, which leaves 0 and 80000000h say).
 */
static const struct { u32 leaf, sub; } leaves[] = {
	{ 0, 0 }, { 1, 0 }, { 6, 0 }, { 7, 0 }, { 0xa, 0 }, { 0xd, 0 },
	{ 0x80000000, 0 }, { 0x80000001, 0 }, { 0x80000007, 0 },
	{ 0x80000008, 0 }, { 0x80000021, 0 },
};

void cpulog_cpuid(void)
{
	for (u32 i = 0; i < ARRAY_SIZE(leaves); i++) {
		struct cpuid_regs r = cpuid_checked(leaves[i].leaf,
						    leaves[i].sub);

		printk("cpuid: %08x.%x: eax %08x ebx %08x ecx %08x edx %08x\n",
		       leaves[i].leaf, leaves[i].sub, r.eax, r.ebx, r.ecx,
		       r.edx);
	}
}

void cpulog_msr(const char *path, const struct msr_trace *t, const char *what)
{
	char acc[192];

	msr_trace_format(t, acc, sizeof(acc));
	printk("msr: %s: %s; %s\n", path, acc, what);
}

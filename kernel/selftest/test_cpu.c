// SPDX-License-Identifier: GPL-2.0-only
/* Self-tests: the CPU state the boot path and percpu_init_bsp() set up. */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/percpu.h"
#include "kernel/selftest/selftest.h"

struct desc_ptr {
	u16 limit;
	u64 base;
} __packed;

static void long_mode(struct tctx *t)
{
	u64 efer = rdmsr(MSR_EFER), cr0 = read_cr0(), cr4 = read_cr4();

	check(t, efer & (1ULL << 10), "EFER.LMA clear");
	check(t, efer & EFER_NXE, "EFER.NXE clear");
	check(t, (cr0 & (CR0_PG | CR0_PE | CR0_WP)) == (CR0_PG | CR0_PE | CR0_WP),
	      "CR0 %#llx lacks PG/PE/WP", (unsigned long long)cr0);
	check(t, cr4 & CR4_PAE, "CR4.PAE clear");
}

static void gdt_tss(struct tctx *t)
{
	struct percpu *pc = this_cpu();
	struct desc_ptr g;
	u16 tr, cs;

	__asm__ volatile("sgdt %0" : "=m"(g));
	__asm__ volatile("str %0" : "=r"(tr));
	__asm__ volatile("mov %%cs, %0" : "=r"(cs));
	check(t, g.base == (u64)pc->gdt, "GDT at %#llx, not ours",
	      (unsigned long long)g.base);
	check(t, tr == SEL_TSS, "TR %#x", tr);
	check(t, cs == SEL_KCODE, "CS %#x", cs);
	check(t, pc->tss.ist[IST_DF - 1] && pc->tss.ist[IST_NMI - 1] &&
	      pc->tss.ist[IST_MC - 1], "IST stacks not set");
}

static void idt_loaded(struct tctx *t)
{
	struct desc_ptr i;
	const u8 *e;

	__asm__ volatile("sidt %0" : "=m"(i));
	check(t, i.limit == 256 * 16 - 1, "IDT limit %u", i.limit);
	e = (const u8 *)i.base;
	for (u32 v = 0; v < 256; v++)
		if (!check(t, e[v * 16 + 5] & 0x80, "vector %u not present", v))
			break;
	check(t, (e[X86_DF * 16 + 4] & 7) == IST_DF, "#DF not on its IST");
	check(t, (e[X86_NMI * 16 + 4] & 7) == IST_NMI, "NMI not on its IST");
	check(t, (e[X86_MC * 16 + 4] & 7) == IST_MC, "#MC not on its IST");
}

static void percpu_gs(struct tctx *t)
{
	check(t, this_cpu() == &percpu_bsp, "GS base does not reach percpu");
	check(t, rdmsr(MSR_GS_BASE) == (u64)&percpu_bsp, "GS base MSR %#llx",
	      (unsigned long long)rdmsr(MSR_GS_BASE));
	check(t, this_cpu()->cpu == 0, "BSP is cpu %u", this_cpu()->cpu);
}

static void cpuid_sane(struct tctx *t)
{
	const struct cpu_info *c = &cpu_info;

	check(t, c->vendor[0], "empty vendor");
	check(t, c->max_leaf >= 1, "max leaf %u", c->max_leaf);
	check(t, c->family > 0, "family 0");
	check(t, c->phys_bits >= 32 && c->phys_bits <= 52, "phys_bits %u",
	      c->phys_bits);
	check(t, c->has_tsc, "no TSC");
	check(t, c->has_nx, "no NX, yet the boot path required it");
}

SUITE(suite_cpu, "cpu",
	{ "long_mode", long_mode },
	{ "gdt_tss", gdt_tss },
	{ "idt_loaded", idt_loaded },
	{ "percpu_gs", percpu_gs },
	{ "cpuid_sane", cpuid_sane },
);

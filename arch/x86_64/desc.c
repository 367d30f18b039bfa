// SPDX-License-Identifier: GPL-2.0-only
/*
 * Descriptor tables: the kernel's own GDT with a TSS (per CPU) and the
 * IDT (shared), replacing the loader's and the boot path's.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/percpu.h"
#include "lib/string.h"

struct idt_entry {
	u16 off0;
	u16 sel;
	u8 ist;
	u8 type;
	u16 off1;
	u32 off2;
	u32 reserved;
} __packed;

struct desc_ptr {
	u16 limit;
	u64 base;
} __packed;

extern const u64 isr_table[256];	/* isr.asm */

static struct idt_entry idt[256] __aligned(16);
struct percpu percpu_bsp;
struct cpu_stacks bsp_stacks __attribute__((section(".bss.page_aligned")));

static void set_tss_desc(u64 *gdt, struct tss *tss)
{
	u64 base = (u64)tss, limit = sizeof(*tss) - 1;

	gdt[0] = (limit & 0xffff) | ((base & 0xffffff) << 16) |
		 (0x89ULL << 40) | (((limit >> 16) & 0xf) << 48) |
		 (((base >> 24) & 0xff) << 56);
	gdt[1] = base >> 32;
}

static void load_gdt(struct percpu *pc)
{
	struct desc_ptr p = { sizeof(pc->gdt) - 1, (u64)pc->gdt };

	__asm__ volatile(
		"lgdt %0\n\t"
		"mov %1, %%ds\n\t"
		"mov %1, %%es\n\t"
		"mov %1, %%ss\n\t"
		"pushq %2\n\t"
		"leaq 1f(%%rip), %%rax\n\t"
		"pushq %%rax\n\t"
		"lretq\n"
		"1:\n\t"
		"ltr %w3"
		: : "m"(p), "r"((u64)SEL_KDATA), "i"(SEL_KCODE), "r"(SEL_TSS)
		: "rax", "memory");
}

static void gdt_init(struct percpu *pc)
{
	struct cpu_stacks *s = pc->stacks;

	memset(pc->gdt, 0, sizeof(pc->gdt));
	/* Long mode ignores base and limit; L=1 marks 64-bit code. */
	pc->gdt[1] = 0x00af9a000000ffffULL;	/* kernel code */
	pc->gdt[2] = 0x00cf92000000ffffULL;	/* kernel data */
	pc->gdt[3] = 0x00cffa000000ffffULL;	/* user code 32 (SYSRET layout) */
	pc->gdt[4] = 0x00cff2000000ffffULL;	/* user data */
	pc->gdt[5] = 0x00affa000000ffffULL;	/* user code 64 */
	memset(&pc->tss, 0, sizeof(pc->tss));
	/*
	 * rsp0 is where a user-mode trap lands.  Whoever enters user mode
	 * must move it below its own live frames first (the benchmark's
	 * workload entry does); the top of the stack is a safe default only
	 * while nothing runs in ring 3.
	 */
	pc->tss.rsp0 = (u64)s->kernel + sizeof(s->kernel);
	pc->tss.ist[IST_DF - 1] = (u64)s->df + sizeof(s->df);
	pc->tss.ist[IST_NMI - 1] = (u64)s->nmi + sizeof(s->nmi);
	pc->tss.ist[IST_MC - 1] = (u64)s->mc + sizeof(s->mc);
	pc->tss.iomap_base = sizeof(pc->tss);	/* no I/O bitmap */
	set_tss_desc(&pc->gdt[6], &pc->tss);
	load_gdt(pc);
}

static void idt_set(u32 v, u64 handler, u8 ist, u8 dpl)
{
	idt[v].off0 = handler & 0xffff;
	idt[v].sel = SEL_KCODE;
	idt[v].ist = ist;
	idt[v].type = 0x8e | (dpl << 5);	/* present, interrupt gate */
	idt[v].off1 = (handler >> 16) & 0xffff;
	idt[v].off2 = handler >> 32;
	idt[v].reserved = 0;
}

static void load_idt(void);

static void idt_init(void)
{
	for (u32 v = 0; v < 256; v++)
		idt_set(v, isr_table[v], 0, 0);
	idt_set(X86_DF, isr_table[X86_DF], IST_DF, 0);
	idt_set(X86_NMI, isr_table[X86_NMI], IST_NMI, 0);
	idt_set(X86_MC, isr_table[X86_MC], IST_MC, 0);
	/* int3 from user mode is allowed, as on Linux. */
	idt_set(X86_BP, isr_table[X86_BP], 0, 3);
	/* The workload's way back from ring 3. */
	idt_set(VEC_USER_EXIT, isr_table[VEC_USER_EXIT], 0, 3);
	load_idt();
}

static void load_idt(void)
{
	struct desc_ptr p = { sizeof(idt) - 1, (u64)idt };

	__asm__ volatile("lidt %0" : : "m"(p));
}

/* An AP: its own GDT and TSS (IST stacks of its own), the shared IDT. */
void percpu_init_ap(struct percpu *pc)
{
	pc->self = pc;
	pc->call_depth = CALL_DEPTH_RESET;
	gdt_init(pc);
	load_idt();
	wrmsr(MSR_GS_BASE, (u64)pc);
	/* The same in both: an NMI or #MC landing between a ring change and
	 * its SWAPGS still finds this CPU's data (Linux's paranoid_entry
	 * checks instead); ring 3 never uses GS. */
	wrmsr(MSR_KERNEL_GS_BASE, (u64)pc);
}

void percpu_init_bsp(void)
{
	struct percpu *pc = &percpu_bsp;

	pc->self = pc;
	pc->call_depth = CALL_DEPTH_RESET;
	pc->cpu = 0;
	pc->apic_id = cpuid(1, 0).ebx >> 24;
	pc->stacks = &bsp_stacks;
	gdt_init(pc);
	idt_init();
	/* Segment loads above cleared GS base's meaning; set it last. */
	wrmsr(MSR_GS_BASE, (u64)pc);
	/* The same in both: an NMI or #MC landing between a ring change and
	 * its SWAPGS still finds this CPU's data (Linux's paranoid_entry
	 * checks instead); ring 3 never uses GS. */
	wrmsr(MSR_KERNEL_GS_BASE, (u64)pc);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * INIT-SIPI-SIPI and the AP's first steps in long mode.  The sequence and
 * its waits are Linux's (arch/x86/kernel/smpboot.c: send_init_sequence(),
 * wakeup_secondary_cpu_via_init(), smp_quirk_init_udelay()); the AP's
 * state follows the boot CPU's (CR0, CR4, XCR0, XSS), as
 * start_secondary() -> cpu_init() makes it on Linux.
 */
#include "arch/x86_64/apic.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/fpu.h"
#include "arch/x86_64/paging.h"
#include "arch/x86_64/simd.h"
#include "arch/x86_64/smpboot.h"
#include "arch/x86_64/tsc.h"
#include "lib/format.h"
#include "lib/string.h"

extern const u8 trampoline_start[], trampoline_end[];
extern const u32 trampoline_off32;

_Static_assert(sizeof(struct trampoline_data) == 88, "trampoline.asm TD_SIZE");
_Static_assert(offsetof(struct trampoline_data, gdt_limit) == 6, "TD_GDTR");
_Static_assert(offsetof(struct trampoline_data, cr3) == 12, "TD_CR3");
_Static_assert(offsetof(struct trampoline_data, entry) == 16, "TD_ENTRY");
_Static_assert(offsetof(struct trampoline_data, kcr3) == 40, "TD_KCR3");
_Static_assert(offsetof(struct trampoline_data, alive) == 48, "TD_ALIVE");

static struct {
	u64 page_pa;
	u8 *page;
	u32 cr3;
	u64 tsc_hz;
	bool legacy_delay;
	ap_main_fn main;
	u64 cr0, cr4;		/* the boot CPU's, for every AP */
} sb;

static void udelay(u64 us)
{
	u64 end = rdtsc() + sb.tsc_hz / 1000000 * us;

	while (rdtsc() < end)
		cpu_relax();
}

static struct trampoline_data *td(void)
{
	return (struct trampoline_data *)(sb.page + TRAMPOLINE_DATA);
}

/* Identity-map the first 2 MiB (this page runs there while paging comes
 * on) beside the kernel's own top-level entries (the kernel half). */
static bool build_tables(u64 (*alloc)(u64 limit))
{
	u64 pa[3];
	u64 *pml4, *pdpt, *pd;

	for (int i = 0; i < 3; i++)
		if ((pa[i] = alloc(4 * GiB)) == PT_ALLOC_NONE)
			return false;
	pml4 = phys_to_virt(pa[0]);
	pdpt = phys_to_virt(pa[1]);
	pd = phys_to_virt(pa[2]);
	memset(pml4, 0, SZ_4K);
	memset(pdpt, 0, SZ_4K);
	memset(pd, 0, SZ_4K);
	pd[0] = 0 | PTE_P | PTE_W | PTE_PS;
	pdpt[0] = pa[2] | PTE_P | PTE_W;
	pml4[0] = pa[1] | PTE_P | PTE_W;
	for (int i = 256; i < 512; i++)
		pml4[i] = kernel_pml4[i];
	sb.cr3 = (u32)pa[0];
	return true;
}

/* The AP, on its stack in the kernel window, still on the trampoline's
 * tables: from here on it is the boot CPU's twin. */
static __noreturn void ap_entry(struct percpu *pc, u64 kcr3)
{
	write_cr3(kcr3);
	write_cr0(sb.cr0);
	write_cr4(sb.cr4);
	percpu_init_ap(pc);
	simd_init_cpu();
	fpu_init_cpu();
	sb.main(pc);
	for (;;) {
		irq_disable();
		halt();
	}
}

bool smpboot_init(u64 page_pa, u64 (*alloc)(u64 limit), u64 tsc_hz,
		  bool legacy_init_delay, ap_main_fn main, char *why, size_t n)
{
	u64 len = (u64)(trampoline_end - trampoline_start);
	struct trampoline_data *t;

	if (!IS_ALIGNED(page_pa, SZ_4K) || !page_pa || page_pa >= MiB) {
		ksnprintf(why, n, "no page below 1 MiB for the trampoline");
		return false;
	}
	sb.page_pa = page_pa;
	sb.page = phys_to_virt(page_pa);
	sb.tsc_hz = tsc_hz;
	sb.legacy_delay = legacy_init_delay;
	sb.main = main;
	sb.cr0 = read_cr0();
	sb.cr4 = read_cr4();
	if (!build_tables(alloc)) {
		ksnprintf(why, n, "no memory below 4 GiB for the trampoline's "
			  "page tables");
		return false;
	}
	memcpy(sb.page, trampoline_start, len);
	t = td();
	t->ptr32_off = (u32)page_pa + trampoline_off32;
	t->ptr32_sel = 0x08;
	t->gdt_limit = sizeof(t->gdt) - 1;
	t->gdt_base = (u32)page_pa + TRAMPOLINE_DATA +
		      offsetof(struct trampoline_data, gdt);
	t->cr3 = sb.cr3;
	t->entry = (u64)ap_entry;
	t->kcr3 = read_cr3();
	t->gdt[0] = 0;
	t->gdt[1] = 0x00cf9a000000ffffULL;	/* 32-bit code, flat */
	t->gdt[2] = 0x00cf92000000ffffULL;	/* data, flat */
	t->gdt[3] = 0x00af9a000000ffffULL;	/* 64-bit code */
	return true;
}

/* Linux's send_init_sequence() and the STARTUP loop after it. */
static bool wake(u32 apic_id, char *why, size_t n)
{
	u64 wait = sb.tsc_hz / 10;	/* 100 ms for the ICR to go idle */
	u32 esr = 0;

	apic_esr();
	if (!apic_send_ipi(apic_id, ICR_LEVEL | ICR_ASSERT | ICR_DM_INIT, wait))
		goto busy;
	udelay(sb.legacy_delay ? 10000 : 0);
	if (!apic_send_ipi(apic_id, ICR_LEVEL | ICR_DM_INIT, wait))
		goto busy;
	for (int j = 0; j < 2; j++) {
		apic_esr();
		if (!apic_send_ipi(apic_id, ICR_DM_STARTUP |
				   (u32)(sb.page_pa >> 12), wait))
			goto busy;
		udelay(sb.legacy_delay ? 300 : 10);
		udelay(sb.legacy_delay ? 200 : 10);
		esr = apic_esr() & 0xef;
		if (esr)
			break;
	}
	if (!esr)
		return true;
	ksnprintf(why, n, "the local APIC reported error %#x sending the "
		  "STARTUP IPI", esr);
	return false;
busy:
	ksnprintf(why, n, apic_id > 0xff && !apic_x2apic_mode() ?
		  "APIC ID above 255 needs x2APIC, which this CPU lacks" :
		  "the IPI stayed pending in the ICR for 100 ms");
	return false;
}

bool smpboot_start(struct percpu *pc, volatile u32 *callin, u32 timeout_ms,
		   char *why, size_t n)
{
	struct trampoline_data *t = td();
	struct cpu_stacks *s = pc->stacks;
	u64 end;

	t->stack = (u64)s->kernel + sizeof(s->kernel) - 8;
	t->arg = (u64)pc;
	t->alive = 0;
	*callin = 0;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (wake(pc->apic_id, why, n)) {
		end = rdtsc() + sb.tsc_hz / 1000 * timeout_ms;
		while (!*callin && rdtsc() < end)
			cpu_relax();
		if (*callin)
			return true;
		ksnprintf(why, n, t->alive ? "reached real mode but not the "
			  "kernel within %u ms" : "no answer to the STARTUP IPIs "
			  "within %u ms", timeout_ms);
	}
	/* Back to wait-for-SIPI, whatever failed: a CPU that did take a
	 * STARTUP IPI must not run on as a later CPU's page is rewritten. */
	apic_send_ipi(pc->apic_id, ICR_LEVEL | ICR_ASSERT | ICR_DM_INIT,
		      sb.tsc_hz / 10);
	return false;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The local APIC of the calling CPU: x2APIC through MSRs where the CPU
 * has it, else xAPIC through an uncached window.  Bring-up leaves every
 * local interrupt source masked; only the timer (apic_timer.c) is ever
 * unmasked, and only once something arms it.
 */
#include "arch/x86_64/apic.h"
#include "arch/x86_64/apic_regs.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/paging.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/pic.h"
#include "arch/x86_64/tsc.h"
#include "lib/format.h"
#include "lib/string.h"

/*
 * One access mode for the machine, as Linux's x2apic_mode: every CPU is
 * brought up the same way, and firmware puts every CPU's xAPIC page at
 * the same physical address.
 */
static bool x2apic_mode;
static volatile u32 *mmio;

u32 apic_read(u32 reg)
{
	if (x2apic_mode)
		return (u32)rdmsr(0x800 + (reg >> 4));
	return mmio[reg / 4];
}

void apic_write(u32 reg, u32 v)
{
	if (x2apic_mode)
		wrmsr(0x800 + (reg >> 4), v);
	else
		mmio[reg / 4] = v;
}

void lapic_eoi(void)
{
	apic_write(APIC_EOI, 0);
}

bool lapic_in_service(u8 vector)
{
	u32 isr = apic_read(APIC_ISR + (vector / 32) * 0x10);

	return isr & (1u << (vector % 32));
}

/* EXTD may only be set from the enabled state (SDM vol. 3, 10.12.5). */
static void enter_x2apic(u64 base)
{
	if (!(base & APIC_BASE_EN))
		wrmsr(MSR_APIC_BASE, base | APIC_BASE_EN);
	wrmsr(MSR_APIC_BASE, base | APIC_BASE_EN | APIC_BASE_EXTD);
}

static bool map_xapic(u64 base, char *why, size_t n)
{
	u64 pa = base & PTE_ADDR & ((1ULL << cpu_info.phys_bits) - 1);

	if (!(base & APIC_BASE_EN))
		wrmsr(MSR_APIC_BASE, base | APIC_BASE_EN);
	if (!mmio)
		mmio = ioremap(pa, SZ_4K, true);
	if (!mmio)
		ksnprintf(why, n, "cannot map the xAPIC page at %#llx",
			  (unsigned long long)pa);
	return mmio;
}

static bool choose_mode(struct lapic_info *out, char *why, size_t n)
{
	u64 base = rdmsr(MSR_APIC_BASE);

	out->x2apic_by_firmware = base & APIC_BASE_EXTD;
	x2apic_mode = cpu_info.has_x2apic || out->x2apic_by_firmware;
	out->x2apic = x2apic_mode;
	if (!x2apic_mode)
		return map_xapic(base, why, n);
	if (!out->x2apic_by_firmware)
		enter_x2apic(base);
	return true;
}

/* Which LVT entries exist follows from the version register (as Linux's
 * clear_local_APIC); an absent one is a #GP in x2APIC mode. */
static void mask_lvts(void)
{
	u32 max_lvt = (apic_read(APIC_VERSION) >> 16) & 0xff;

	apic_write(APIC_LVT_TIMER, APIC_LVT_MASKED);
	apic_write(APIC_LVT_LINT0, APIC_LVT_MASKED);
	apic_write(APIC_LVT_LINT1, APIC_LVT_MASKED);
	if (max_lvt >= 3)
		apic_write(APIC_LVT_ERROR, APIC_LVT_MASKED);
	if (max_lvt >= 4)
		apic_write(APIC_LVT_PERF, APIC_LVT_MASKED);
	if (max_lvt >= 5)
		apic_write(APIC_LVT_THERM, APIC_LVT_MASKED);
	if (max_lvt >= 6)
		apic_write(APIC_LVT_CMCI, APIC_LVT_MASKED);
}

/* Whatever firmware left in service would block our vectors of equal or
 * lower priority: end it (Linux's setup_local_APIC does the same). */
static void drain_isr(void)
{
	for (u32 i = 0; i < 256; i++) {
		bool busy = false;

		for (u32 r = 0; r < 8; r++)
			busy |= apic_read(APIC_ISR + r * 0x10) != 0;
		if (!busy)
			return;
		lapic_eoi();
	}
}

/*
 * Mask before enabling: firmware may have left LINT0 in virtual-wire
 * mode.  A software-disabled APIC holds every mask bit set already and
 * enabling it clears none (SDM vol. 3, 10.4.7.2).
 */
static void software_enable(void)
{
	mask_lvts();
	apic_write(APIC_TPR, 0);
	apic_write(APIC_SVR, APIC_SVR_ENABLE | VEC_SPURIOUS);
	/* Back-to-back writes clear the error status (10.5.3). */
	apic_write(APIC_ESR, 0);
	apic_write(APIC_ESR, 0);
	drain_isr();
}

bool lapic_init(struct lapic_info *out, u64 tsc_hz, char *why, size_t n)
{
	memset(out, 0, sizeof(*out));
	if (this_cpu()->cpu == 0)
		pic_init();
	if (!cpu_info.has_apic) {
		ksnprintf(why, n, "no local APIC (CPUID 1:EDX[9] clear)");
		return false;
	}
	if (!choose_mode(out, why, n))
		return false;
	software_enable();
	out->id = apic_read(APIC_ID);
	if (!x2apic_mode)
		out->id >>= 24;
	this_cpu()->apic_id = out->id;
	if (!lapic_timer_init(out, tsc_hz, why, n))
		return false;
	ksnprintf(out->mode, sizeof(out->mode), "%s, %s",
		  x2apic_mode ? "x2apic" : "xapic",
		  out->tsc_deadline ? "tsc-deadline" : "one-shot");
	return true;
}

bool apic_x2apic_mode(void)
{
	return x2apic_mode;
}

bool apic_cpu_x2apic(void)
{
	return cpu_info.has_apic && (rdmsr(MSR_APIC_BASE) & APIC_BASE_EXTD);
}

u32 apic_esr(void)
{
	apic_write(APIC_ESR, 0);
	return apic_read(APIC_ESR);
}

bool apic_send_ipi(u32 dest, u32 icr, u64 wait_tsc)
{
	u64 end;

	if (x2apic_mode) {
		/* An x2APIC ICR write is not serializing: without this the
		 * IPI may overtake the stores it announces (Linux's
		 * weak_wrmsr_fence() before x2apic_send_IPI()). */
		__asm__ volatile("mfence; lfence" ::: "memory");
		wrmsr(0x800 + (APIC_ICR >> 4), (u64)dest << 32 | icr);
		return true;
	}
	if (!mmio || dest > 0xff)
		return false;
	mmio[APIC_ICR_HIGH / 4] = dest << 24;
	mmio[APIC_ICR / 4] = icr;
	/* As Linux's native_safe_apic_wait_icr_idle(): bounded. */
	end = rdtsc() + wait_tsc;
	while (mmio[APIC_ICR / 4] & APIC_ICR_BUSY)
		if (rdtsc() > end)
			return false;
		else
			cpu_relax();
	return true;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The NMI watchdog.  Linux's hard-lockup detector (kernel/watchdog.c,
 * watchdog_hardlockup_check()) takes a PMU overflow NMI on each CPU; its
 * older nmi_watchdog=1 routed the timer through the I/O APIC as an NMI.
 * hugezero takes the first where the boot CPU has a PMU, else the
 * second, to the boot CPU alone: one CPU that takes an NMI whatever it
 * is doing is enough to end a hang of every CPU, since the ending stops
 * the others with NMIs of its own (kernel/smp/stop.c).
 * It ends a hang from NMI context, as Linux's hard-lockup panic does:
 * the ending waits on no lock (kernel/main.c, take_over()).
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/ioapic.h"
#include "arch/x86_64/nmi_timer.h"
#include "arch/x86_64/traps.h"
#include "arch/x86_64/tsc.h"
#include "kernel/acpi.h"
#include "kernel/smp/smp.h"
#include "kernel/time/deadline.h"
#include "kernel/time/watchdog.h"
#include "lib/format.h"
#include "lib/madt_irq.h"
#include "lib/params.h"
#include "lib/printk.h"
#include "lib/string.h"

static struct wd_state wd;
static struct wd_source src = { .name = "none" };
static struct hpet_nmi hpet;
static struct pmu_nmi pmu;
static struct ioapic ioapics[MADT_MAX_IOAPICS];
static u64 grace;		/* past the deadline, the waiters' turn first */
static volatile u64 ticks;

static bool watchdog_nmi(struct regs *r)
{
	enum wd_verdict v;
	char how[96];

	if (smp_stop_nmi(r))
		return true;
	if (!strcmp(src.name, "pmu")) {
		ticks += pmu_nmi_ours(&pmu);
	} else {
		ticks++;
		if (!strcmp(src.name, "hpet"))
			hpet_nmi_rearm(&hpet);
	}
	v = wd_check(&wd, rdtsc());
	if (v == WD_FINE)
		return true;
	if (v == WD_STALLED)
		ksnprintf(how, sizeof(how), "the %s NMI watchdog: no progress "
			  "in %s for %u s", src.name, wd_phase_names[wd.phase],
			  WD_STALL_S);
	else
		ksnprintf(how, sizeof(how), "the %s NMI watchdog", src.name);
	deadline_hung(how, v == WD_STALLED ? wd.waiting_on : ~0u,
		      v == WD_STALLED);
	return true;		/* another CPU was already ending it */
}

static u32 ioapic_pins(const struct madt_ioapic *a, void *ctx)
{
	struct ioapic *io = &ioapics[a - ((struct madt_irq *)ctx)->ioapic];

	if (!io->base) {
		char why[64];

		if (!ioapic_map(io, a->address, why, sizeof(why)))
			return 0;
	}
	return io->pins;
}

/* The highest GSI any I/O APIC takes, mapping each. */
static u32 gsi_limit(struct madt_irq *m)
{
	u32 top = 0;

	for (u32 i = 0; i < m->nioapics; i++)
		top = MAX(top, m->ioapic[i].gsi_base + ioapic_pins(&m->ioapic[i], m));
	return top;
}

static bool route(struct madt_irq *m, u32 gsi, bool low, u32 dest)
{
	int i = madt_irq_ioapic_of(m, gsi, ioapic_pins, m);

	if (i < 0) {
		ksnprintf(src.why, sizeof(src.why), "no I/O APIC takes GSI %u",
			  gsi);
		return false;
	}
	if (!ioapic_route_nmi(&ioapics[i], gsi - m->ioapic[i].gsi_base, dest,
			      low)) {
		ksnprintf(src.why, sizeof(src.why), "the boot CPU's APIC ID %u "
			  "does not fit an I/O APIC destination", dest);
		return false;
	}
	src.pin = gsi;
	return true;
}

static bool try_hpet(struct madt_irq *m, u32 dest, u64 hpet_pa)
{
	if (!hpet_nmi_pick(&hpet, hpet_pa, gsi_limit(m), src.why,
			   sizeof(src.why)) ||
	    !route(m, hpet.pin, false, dest))
		return false;
	src.name = "hpet";
	hpet_nmi_start(&hpet, 1000);
	src.period_us = 1000000;
	ksnprintf(src.why, sizeof(src.why), "HPET comparator %u%s on GSI %u, "
		  "an NMI to APIC ID %u", hpet.timer,
		  hpet.periodic ? " (periodic)" : "", hpet.pin, dest);
	return true;
}

static bool try_pit(struct madt_irq *m, u32 dest)
{
	bool low;
	u32 gsi = madt_irq_isa_gsi(m, 0, &low);

	if (!route(m, gsi, low, dest))
		return false;
	src.name = "pit";
	src.period_us = pit_nmi_start();
	ksnprintf(src.why, sizeof(src.why), "PIT channel 0 (ISA IRQ0) on GSI "
		  "%u, an NMI to APIC ID %u", gsi, dest);
	return true;
}

/* Whether the NMI arrives within @ms: the counter counts, LVT PC
 * delivers, no hypervisor swallows it. */
static bool heard(u64 tsc_hz, u32 ms)
{
	u64 end = rdtsc() + tsc_hz / 1000 * ms;

	while (!ticks && rdtsc() < end)
		cpu_relax();
	return ticks != 0;
}

/*
 * The boot CPU's cycle counter: first at a millisecond's cycles, to hear
 * that its NMI comes at all, then every second's (the TSC's rate, as
 * Linux's hw_nmi_get_sample_period() takes cpu_khz).
 */
static bool try_pmu(u64 tsc_hz)
{
	char why[96];

	src.name = "pmu";
	trap_set_handler(X86_NMI, watchdog_nmi);
	if (!pmu_nmi_start(&pmu, tsc_hz / 1000, why, sizeof(why))) {
		ksnprintf(src.why, sizeof(src.why), "PMU: %s", why);
		return false;
	}
	if (!heard(tsc_hz, 50)) {
		pmu_nmi_stop(&pmu);
		ksnprintf(src.why, sizeof(src.why), "PMU: counter %u's "
			  "overflow NMI did not come within 50 ms", pmu.counter);
		return false;
	}
	pmu_nmi_stop(&pmu);
	if (!pmu_nmi_start(&pmu, tsc_hz, why, sizeof(why))) {
		ksnprintf(src.why, sizeof(src.why), "PMU: %s", why);
		return false;
	}
	src.period_us = pmu.period * 1000000 / tsc_hz;
	src.pin = WD_NO_PIN;
	ksnprintf(src.why, sizeof(src.why), "general counter %u of the boot "
		  "CPU, unhalted cycles, its overflow an NMI through LVT PC",
		  pmu.counter);
	return true;
}

static bool choose(u32 mode, u32 dest, u64 hpet_pa, u64 tsc_hz)
{
	static struct madt_irq m;
	const void *t;
	char hpet_why[120];

	if (mode == WATCHDOG_AUTO || mode == WATCHDOG_PMU) {
		if (try_pmu(tsc_hz))
			return true;
		strlcpy(src.pmu_why, src.why, sizeof(src.pmu_why));
		if (mode == WATCHDOG_PMU)
			return false;
	}
	t = acpi_find("APIC");

	if (!t || !madt_irq_parse(t, *(const u32 *)((const u8 *)t + 4), &m) ||
	    !m.nioapics) {
		ksnprintf(src.why, sizeof(src.why), "no I/O APIC in the MADT");
		return false;
	}
	if (mode != WATCHDOG_PIT && try_hpet(&m, dest, hpet_pa))
		return true;
	if (mode == WATCHDOG_HPET)
		return false;
	strlcpy(hpet_why, src.why, sizeof(hpet_why));
	if (try_pit(&m, dest))
		return true;
	if (mode == WATCHDOG_AUTO) {
		char pit_why[120];

		strlcpy(pit_why, src.why, sizeof(pit_why));
		ksnprintf(src.why, sizeof(src.why), "HPET: %s; PIT: %s",
			  hpet_why, pit_why);
	}
	return false;
}

void watchdog_start(u32 mode, u64 tsc_hz, u32 bsp_apic_id, u64 hpet_pa)
{
	wd_init(&wd, tsc_hz, rdtsc());
	grace = tsc_hz / 5;
	if (mode == WATCHDOG_OFF) {
		strlcpy(src.why, "watchdog=off", sizeof(src.why));
	} else if (!choose(mode, bsp_apic_id, hpet_pa, tsc_hz)) {
		src.name = "none";
		trap_set_handler(X86_NMI, NULL);
	} else {
		smp_stop_chained = true;
		trap_set_handler(X86_NMI, watchdog_nmi);
	}
	if (src.pmu_why[0] && strcmp(src.pmu_why, src.why))
		printk("watchdog: not the PMU: %s\n", src.pmu_why);
	printk("watchdog: %s: %s\n", src.name, src.why);
	if (!strcmp(src.name, "none") && mode != WATCHDOG_OFF)
		printk("hugezero: WARNING: no NMI watchdog: a hang of every CPU "
		       "with interrupts masked is not ended\n");
}

void watchdog_phase(enum wd_phase phase)
{
	wd_enter(&wd, phase, rdtsc());
}

const char *watchdog_phase_name(void)
{
	return wd_phase_names[wd.phase];
}

void watchdog_touch(u32 waiting_on)
{
	wd_touch(&wd, waiting_on, rdtsc());
}

void watchdog_deadline(u64 at)
{
	wd.deadline = at ? at + grace : 0;
}

void watchdog_record(struct rec_writer *w)
{
	wd_rec_source(w, &src);
}

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
#include "arch/x86_64/apic.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/ioapic.h"
#include "arch/x86_64/nmi_timer.h"
#include "arch/x86_64/traps.h"
#include "arch/x86_64/tsc.h"
#include "kernel/acpi.h"
#include "kernel/main.h"
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
			  wd.stall_s);
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

static void unroute(struct madt_irq *m, u32 gsi)
{
	int i = madt_irq_ioapic_of(m, gsi, ioapic_pins, m);

	if (i >= 0)
		ioapic_mask(&ioapics[i], gsi - m->ioapic[i].gsi_base);
}

/* watchdog_fault=deaf-*: the timer fires, its NMI never comes
 * (stray-nmi: the HPET's, as deaf-hpet). */
static void deafen(struct madt_irq *m, u32 gsi, u32 fault)
{
	u32 f = config.watchdog_fault;

	if (f == fault || f == WD_FAULT_DEAF_ALL ||
	    (f == WD_FAULT_STRAY_NMI && fault == WD_FAULT_DEAF_HPET))
		unroute(m, gsi);
}

/* watchdog_fault=stray-nmi: one NMI from elsewhere as the HPET is heard,
 * sent by the boot CPU to itself (@dest). */
static void stray_nmi(u32 dest)
{
	if (config.watchdog_fault == WD_FAULT_STRAY_NMI)
		apic_send_ipi(dest, ICR_DM_NMI, 0);
}

/*
 * Whether the source's NMIs come, WD_HEAR_TICKS of them at its 1 ms test
 * period (lib/watchdog.h, wd_hear()): the source counts, its line (or
 * LVT PC) delivers, no hypervisor or firmware swallows them.  One NMI
 * from anywhere is not enough.  Not heard, src.why says so, @what the
 * NMI.
 */
static bool heard(u64 tsc_hz, const char *what)
{
	u64 start = rdtsc();
	enum wd_hearing h;
	u64 n;

	while ((h = wd_hear(ticks, rdtsc(), start, tsc_hz)) == WD_HEARING)
		cpu_relax();
	if (h == WD_HEARD)
		return true;
	n = ticks;
	if (!n)
		ksnprintf(src.why, sizeof(src.why), "%s did not come within "
			  "%u ms", what, WD_HEAR_MS);
	else
		ksnprintf(src.why, sizeof(src.why), "%s came %llu time%s "
			  "within %u ms at 1 ms, not %u", what,
			  (unsigned long long)n,
			  n == 1 ? "" : "s", WD_HEAR_SLOW_MS, WD_HEAR_TICKS);
	return false;
}

/*
 * An HPET comparator: first every millisecond, to hear that its NMIs
 * come, then every second, and seen armed so (its next match within a
 * period ahead of the main counter).  Not heard or not armed, it is
 * stopped and its line masked, and the next source is taken.
 */
static bool try_hpet(struct madt_irq *m, u32 dest, u64 hpet_pa, u64 tsc_hz)
{
	char what[64];
	u32 cmp, now;

	if (!hpet_nmi_pick(&hpet, hpet_pa, gsi_limit(m), src.why,
			   sizeof(src.why)) ||
	    !route(m, hpet.pin, false, dest))
		return false;
	src.name = "hpet";
	deafen(m, hpet.pin, WD_FAULT_DEAF_HPET);
	ticks = 0;
	hpet_nmi_start(&hpet, 1, tsc_hz);
	stray_nmi(dest);
	ksnprintf(what, sizeof(what), "HPET comparator %u's NMI on GSI %u",
		  hpet.timer, hpet.pin);
	if (!heard(tsc_hz, what))
		goto off;
	hpet_nmi_stop(&hpet);
	hpet_nmi_start(&hpet, 1000, tsc_hz);
	if (config.watchdog_fault == WD_FAULT_UNARMED_HPET)
		hpet_nmi_stop(&hpet);
	if (!hpet_nmi_armed(&hpet, &cmp, &now)) {
		ksnprintf(src.why, sizeof(src.why), "HPET comparator %u not "
			  "armed at 1 s: match %#x, main counter %#x",
			  hpet.timer, cmp, now);
		goto off;
	}
	src.period_us = 1000000;
	ksnprintf(src.why, sizeof(src.why), "HPET comparator %u%s on GSI %u, "
		  "an NMI to APIC ID %u", hpet.timer,
		  hpet.periodic ? " (periodic)" : "", hpet.pin, dest);
	return true;
off:
	hpet_nmi_stop(&hpet);
	unroute(m, hpet.pin);
	return false;
}

/*
 * The PIT's channel 0, heard first at a millisecond as the others.  An
 * HPET in legacy replacement mode holds IRQ0 (firmware may leave it so;
 * Linux's hpet_disable() turns it off too): turned off first.
 */
static bool try_pit(struct madt_irq *m, u32 dest, u64 hpet_pa, u64 tsc_hz)
{
	char what[48];
	bool low;
	u32 gsi = madt_irq_isa_gsi(m, 0, &low);

	if (config.watchdog_fault == WD_FAULT_HPET_LEGACY)
		hpet_legacy(hpet_pa, true);
	if (hpet_legacy(hpet_pa, false))
		printk("watchdog: the HPET was in legacy replacement mode, "
		       "which takes IRQ0 from the PIT: turned off\n");
	if (!route(m, gsi, low, dest))
		return false;
	src.name = "pit";
	deafen(m, gsi, WD_FAULT_DEAF_PIT);
	ticks = 0;
	pit_nmi_start(1000);
	ksnprintf(what, sizeof(what), "PIT channel 0's NMI on GSI %u (ISA "
		  "IRQ0)", gsi);
	if (!heard(tsc_hz, what))
		goto off;
	src.period_us = pit_nmi_start(PIT_NMI_SLOWEST);
	/* Armed at its slowest: its count moves. */
	if (!pit_nmi_counts(tsc_hz)) {
		ksnprintf(src.why, sizeof(src.why), "PIT channel 0 does not "
			  "count at its %llu us period",
			  (unsigned long long)src.period_us);
		src.period_us = 0;
		goto off;
	}
	ksnprintf(src.why, sizeof(src.why), "PIT channel 0 (ISA IRQ0) on GSI "
		  "%u, an NMI to APIC ID %u", gsi, dest);
	return true;
off:
	pit_nmi_stop();
	unroute(m, gsi);
	return false;
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
	ticks = 0;
	if (!pmu_nmi_start(&pmu, tsc_hz / 1000, why, sizeof(why))) {
		ksnprintf(src.why, sizeof(src.why), "PMU: %s", why);
		return false;
	}
	ksnprintf(why, sizeof(why), "PMU: counter %u's overflow NMI",
		  pmu.counter);
	if (!heard(tsc_hz, why)) {
		pmu_nmi_stop(&pmu);
		return false;
	}
	pmu_nmi_stop(&pmu);
	if (!pmu_nmi_start(&pmu, tsc_hz, why, sizeof(why))) {
		ksnprintf(src.why, sizeof(src.why), "PMU: %s", why);
		return false;
	}
	if (!pmu_nmi_counts(&pmu)) {
		pmu_nmi_stop(&pmu);
		ksnprintf(src.why, sizeof(src.why), "PMU: counter %u does not "
			  "count at its 1 s period", pmu.counter);
		return false;
	}
	src.period_us = pmu.period * 1000000 / tsc_hz;
	src.pin = WD_NO_PIN;
	ksnprintf(src.why, sizeof(src.why), "general counter %u of the boot "
		  "CPU, unhalted cycles, its overflow an NMI through LVT PC",
		  pmu.counter);
	return true;
}

/* The first source of @mode whose NMI is heard; each one tried and not
 * taken says why in its own field, the last in src.why. */
static bool choose(u32 mode, u32 dest, u64 hpet_pa, u64 tsc_hz)
{
	static struct madt_irq m;
	const void *t;

	/* Each source is heard before it is taken. */
	trap_set_handler(X86_NMI, watchdog_nmi);
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
	if (mode != WATCHDOG_PIT) {
		if (try_hpet(&m, dest, hpet_pa, tsc_hz))
			return true;
		strlcpy(src.hpet_why, src.why, sizeof(src.hpet_why));
		if (mode == WATCHDOG_HPET)
			return false;
	}
	return try_pit(&m, dest, hpet_pa, tsc_hz);
}

void watchdog_start(u32 mode, u64 tsc_hz, u32 bsp_apic_id, u64 hpet_pa,
		    u32 stall_s)
{
	wd_init(&wd, tsc_hz, rdtsc(), stall_s);
	src.stall_s = stall_s;
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
	if (src.hpet_why[0] && strcmp(src.hpet_why, src.why))
		printk("watchdog: not the HPET: %s\n", src.hpet_why);
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

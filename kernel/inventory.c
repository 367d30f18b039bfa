// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench=info: what a lab operator checks before trusting a machine, as
 * records (docs/hardware.md).  The boot, machine, timebase, cpu and smp
 * records every boot writes say the CPU, its features, caches, TSC
 * references, APIC mode and CPUs; these add the memory map with each
 * range's node, the counters, the frequency and SMI sources, and the
 * console and how it was chosen.
 */
#include "arch/x86_64/freq.h"
#include "arch/x86_64/pmu.h"
#include "kernel/acpi.h"
#include "kernel/console.h"
#include "kernel/inventory.h"
#include "kernel/mm/memory.h"
#include "lib/benchrec.h"
#include "lib/format.h"

/* The SRAT node of [start, end), or -1 for none (no SRAT, or a hole). */
static s64 node_of(u64 start)
{
	for (u32 i = 0; acpi.has_srat && i < acpi.srat.nmem; i++)
		if (start >= acpi.srat.mem[i].start && start < acpi.srat.mem[i].end)
			return acpi.srat.mem[i].node;
	return -1;
}

static void memranges(struct rec_writer *w)
{
	for (u32 i = 0; i < memory.nmap; i++) {
		const struct mem_range *m = &memory.map[i];
		s64 node = node_of(m->start);
		struct rec r;

		rec_begin(w, &r, "memrange");
		rec_hex(&r, "start", m->start);
		rec_hex(&r, "end", m->end);
		rec_str(&r, "type", mem_type_name(m->type));
		if (node >= 0)
			rec_u64(&r, "node", (u64)node);
		rec_end(w, &r);
	}
}

/* CPUID 0AH beyond the general counters: what a plan can use. */
static void intel_fields(struct rec *r, const struct pmu_caps *c)
{
	/* version 1 has no fixed counters (EDX is reserved) */
	rec_u64(r, "pmu_fixed", c->nfixed);
	if (c->nfixed)
		rec_u64(r, "pmu_fixed_width", c->fixed_width);
	rec_u64(r, "pmu_arch_events", c->arch_len);
	/* EBX: bit set, that architectural event is absent */
	rec_hex(r, "pmu_arch_unavail", c->arch_unavail);
}

/* Which counter MSRs and whether there is a global enable. */
static void amd_fields(struct rec *r, const struct pmu_caps *c)
{
	rec_str(r, "pmu_ext_core", c->amd_ext ? "yes" : "no");
	rec_str(r, "pmu_perfmon_v2", c->version >= 2 ? "yes" : "no");
}

static void counters(struct rec_writer *w)
{
	struct pmu_caps c;
	struct freq_caps f;
	struct rec r;

	pmu_caps_read(&c);
	freq_caps_read(&f);
	rec_begin(w, &r, "counters");
	if (c.none) {
		rec_str(&r, "pmu", "none");
		rec_str(&r, "pmu_reason", c.none);
	} else {
		rec_str(&r, "pmu", c.vendor == PMU_VENDOR_INTEL ? "intel" : "amd");
		rec_u64(&r, "pmu_version", c.version);
		rec_u64(&r, "pmu_general", c.ngeneral);
		rec_u64(&r, "pmu_width", c.general_width);
		rec_pmu_firmware(&r, &c.fw);
		if (c.vendor == PMU_VENDOR_INTEL)
			intel_fields(&r, &c);
		else
			amd_fields(&r, &c);
	}
	rec_str(&r, "freq", f.aperfmperf ? "aperf/mperf" : f.why_not_freq);
	rec_str(&r, "smi", f.smi_count ? "msr_smi_count" : f.why_not_smi);
	rec_end(w, &r);
}

static void console(struct rec_writer *w)
{
	const struct console_info *c = console_info();
	struct rec r;

	rec_begin(w, &r, "console");
	rec_hex(&r, "io", c->io);
	if (c->mmio) {
		rec_hex(&r, "mmio", c->mmio);
		rec_u64(&r, "reg_bits", 8u * c->width);
	}
	if (c->as_is)
		rec_str(&r, "baud", "as-is");
	else
		rec_u64(&r, "baud", c->baud);
	rec_u64(&r, "divisor", c->divisor);
	rec_u64(&r, "clock", c->clock);
	rec_str(&r, "source", c->source);
	if (c->reason[0])
		rec_str(&r, "reason", c->reason);
	if (c->note[0])
		rec_str(&r, "note", c->note);
	rec_end(w, &r);
}

void inventory_report(struct rec_writer *w)
{
	memranges(w);
	counters(w);
	console(w);
}

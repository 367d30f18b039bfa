// SPDX-License-Identifier: GPL-2.0-only
/* The cpu and smp records (docs/smp.md), once per boot after timebase. */
#include "kernel/smp/smp.h"
#include "kernel/time/watchdog.h"

static void cpu_record(struct rec_writer *w, const struct smp_cpu *c)
{
	struct rec r;

	rec_begin(w, &r, "cpu");
	if (c->cpu != ~0u)
		rec_u64(&r, "cpu", c->cpu);
	rec_u64(&r, "apic_id", c->apic_id);
	rec_u64(&r, "uid", c->uid);
	rec_u64(&r, "node", c->node);
	rec_str(&r, "state", smp_state_names[c->state]);
	if (c->state != SMP_UP || c->reason[0])
		rec_str(&r, "reason", c->reason[0] ? c->reason : "-");
	if (c->state == SMP_UP) {
		rec_u64(&r, "x2apic", c->x2apic);
		rec_s64(&r, "tsc_offset_ticks", c->tsc_offset);
		rec_u64(&r, "tsc_offset_err_ticks", c->tsc_err);
		rec_u64(&r, "tsc_warps", c->tsc_warps);
	}
	rec_end(w, &r);
}

void smp_report(struct rec_writer *w, u32 nodes, bool slit)
{
	struct rec r;

	for (u32 i = 0; i < smp.nentries; i++) {
		cpu_record(w, &smp.entry[i]);
		watchdog_touch(~0u);	/* progress: a slow console's */
	}
	rec_begin(w, &r, "smp");
	rec_u64(&r, "present", smp.present);
	rec_u64(&r, "up", smp.nup);
	rec_u64(&r, "nodes", nodes);
	rec_u64(&r, "slit", slit);
	rec_u64(&r, "tsc_skew_ticks", smp.skew_max);
	rec_u64(&r, "tsc_skew_bound_ticks", smp.skew_bound);
	rec_str(&r, "tsc_sync", smp.tsc_ok ? "ok" : "bad");
	rec_end(w, &r);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench=fault's per-CPU set-up (its state is state.c's, made by the boot
 * CPU beforehand): what is measured and started on the CPU itself before
 * its first configuration; the scheduling model each configuration asks
 * for.
 */
#include "arch/x86_64/fpu.h"
#include "arch/x86_64/freq.h"
#include "arch/x86_64/irqflags.h"
#include "arch/x86_64/pmu.h"
#include "arch/x86_64/tsc.h"
#include "kernel/bench/bench_cpu.h"
#include "kernel/sched/fpu.h"
#include "kernel/sched/sched.h"
#include "lib/format.h"
#include "lib/stats.h"
#include "lib/string.h"

/*
 * A fault window holds two timer pairs: the workload's around the touch,
 * and the handler's around the clear.  Their cost together, measured the
 * same way, is what a fault sample's figures are net of.
 */
static u64 fault_timer_cost(struct bench_cpu *bc)
{
	for (u32 i = 0; i < ARRAY_SIZE(bc->cal); i++) {
		u64 a = tsc_begin(), b, c, e;

		b = tsc_begin();
		c = tsc_end();
		e = tsc_end();
		bc->cal[i] = e - a;
		(void)b, (void)c;
	}
	return median_u64(bc->cal, ARRAY_SIZE(bc->cal));
}

/*
 * What a SIMD clear under a model pays around itself, in two parts
 * measured alone (docs/sched.md, "Kernel SIMD").  Once per fault: the
 * workload's registers saved by the first kernel_fpu_begin() and loaded
 * on the way back to it, here back to back.
 */
static u64 fpu_save_cost(struct bench_cpu *bc)
{
	u32 n = 256;

	memset(bc->fpu_area, 0, fpu_area_size());
	for (u32 i = 0; i < n; i++) {
		u64 a = tsc_begin();

		fpu_save(bc->fpu_area);
		fpu_restore(bc->fpu_area);
		bc->cal[i] = tsc_end() - a;
	}
	return median_u64(bc->cal, n);
}

/*
 * Per primitive call: a kernel_fpu_begin()/kernel_fpu_end() pair that
 * saves nothing (the caller holds no user registers yet), with the model
 * up and interrupts on, as in the fault path, so fpregs_lock() is taken
 * as there.
 */
static u64 kernel_fpu_call_cost(struct bench_cpu *bc)
{
	u64 flags = irq_save();
	u32 n = 256;

	irq_enable();
	for (u32 i = 0; i < n; i++) {
		u64 a = tsc_begin();

		kernel_fpu_begin();
		kernel_fpu_end();
		bc->cal[i] = tsc_end() - a;
	}
	irq_disable();
	irq_restore(flags);
	return median_u64(bc->cal, n);
}

/*
 * pmu=: this CPU's counters, programmed and started before any
 * configuration (no MSR is written inside a timed region), the first
 * FAULT_PMU_MAX counted ones sampled per fault.  An event the CPU cannot
 * count is skipped with the reason, in every config record.
 */
static void pmu_up(struct bench_cpu *bc, const struct hz_config *c)
{
	const char *names[PMU_MAX_EVENTS];
	struct pmu_caps caps;

	bc->npmu = 0;
	if (!c->npmu)
		return;
	for (u32 i = 0; i < c->npmu; i++)
		names[i] = pmu_events[c->pmu[i]].name;
	pmu_caps_read(&caps);
	pmu_plan_make_sampled(&caps, names, c->npmu, &bc->pmu);
	if (bc->pmu.ncounted && !pmu_start(&bc->pmu))
		return;
	for (u32 i = 0; i < bc->pmu.nslots && bc->npmu < FAULT_PMU_MAX; i++) {
		const struct pmu_slot *s = &bc->pmu.slots[i];

		if (s->skip)
			continue;
		if (!bc->pmu_v[bc->npmu])
			bc->pmu_v[bc->npmu] = bench_cpu_array(bc, sizeof(u64));
		if (!bc->pmu_v[bc->npmu])
			break;
		bc->pmu_slot[bc->npmu++] = s;
	}
}

/*
 * What a configuration would otherwise make on first use and keep for
 * the boot, made before any pool: the idle task of a CPU that runs
 * models, prezero_pool=apart's descriptors.  Made inside a group, the
 * frames check would count them lost.  A failure here is a
 * configuration's skip later, with its reason.
 */
static void keep_up(struct bench_cpu *bc, const struct hz_config *c)
{
	char why[96];

	if (c->preempts)
		sched_init_cpu(bc->cpu, why, sizeof(why));
	if ((c->prezeros >> PREZERO_DEDICATED & 1) &&
	    c->prezero_pool == PREZERO_POOL_APART && !bc->apart_slots)
		bc->apart_slots = bench_cpu_array(bc, sizeof(struct folio));
}

/*
 * On CPU @cpu itself, before its first configuration: what its samples
 * are net of, its counters, how it can read its frequency, and what it
 * keeps for the boot.
 */
struct bench_cpu *bench_cpu_start(u32 cpu, const struct hz_config *c)
{
	struct bench_cpu *bc = bench_cpu_of(cpu);

	bc->fault_timer = fault_timer_cost(bc);
	bc->fpu_save_pair = fpu_area_size() ? fpu_save_cost(bc) : 0;
	pmu_up(bc, c);
	freq_caps_read(&bc->freq);
	keep_up(bc, c);
	return bc;
}

/* After its last: its counters stopped. */
void bench_cpu_stop(struct bench_cpu *bc)
{
	if (bc->pmu.ncounted)
		pmu_stop(&bc->pmu);
}

/* A scheduling model for this configuration, or why it cannot have one. */
bool model_up(struct bench_cfg *b, char *why, size_t n)
{
	enum preempt_model m = b->d.at.v[AXIS_PREEMPT];
	u32 cpu = b->bc->cpu;

	b->model_on = m != PREEMPT_MODEL_OFF;
	if (!b->model_on)
		return true;
	if (fpu_area_size() > sizeof(b->bc->fpu_area)) {
		ksnprintf(why, n, "extended state of %u bytes exceeds the %zu "
			  "the workload's FPU area keeps", fpu_area_size(),
			  sizeof(b->bc->fpu_area));
		b->model_on = false;
		return false;
	}
	if (!sched_init_cpu(cpu, why, n))
		return false;
	if (sched_set_model(cpu, m, (u32)b->c->hz)) {
		if (fpu_area_size() && prim_is_simd(b->d.at.v[AXIS_PRIM])) {
			b->d.kernel_fpu_save_ticks = b->bc->fpu_save_pair;
			b->d.kernel_fpu_call_ticks = kernel_fpu_call_cost(b->bc);
		}
		return true;
	}
	sched_set_model(cpu, PREEMPT_MODEL_OFF, 0);
	ksnprintf(why, n, "preempt=%s needs a tick: %s", b->d.preempt,
		  "this CPU's local APIC timer is unusable (see the apic: line)");
	return false;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench=fault: the demand-fault benchmark.  For every folio size and
 * point of the configuration matrix, lib/benchrun.c's skeleton runs the
 * passes; this file is what a pass means here: fill the pool with a
 * pattern, set the cache state, run the workload over a region of
 * not-present folios, check every folio through the workload's own
 * mapping, unmap.  Nothing is printed while the workload runs.
 *
 * Everything a run touches is one CPU's (struct bench_cpu), reached from
 * the CPU number the entry point is given.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/fpu.h"
#include "arch/x86_64/freq.h"
#include "arch/x86_64/memops.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/pmu.h"
#include "arch/x86_64/tsc.h"
#include "arch/x86_64/user.h"
#include "kernel/bench/bench.h"
#include "kernel/bench/bench_cpu.h"
#include "kernel/bench/fault.h"
#include "kernel/bench/group.h"
#include "kernel/bench/prezero.h"
#include "kernel/bench/probe.h"
#include "kernel/bench/workload.h"
#include "kernel/acpi.h"
#include "kernel/console.h"
#include "kernel/mm/memory.h"
#include "kernel/mm/vmem.h"
#include "kernel/report.h"
#include "kernel/sched/fpu.h"
#include "kernel/sched/sched.h"
#include "kernel/smp/smp.h"
#include "kernel/time/timer.h"
#include "kernel/time/deadline.h"
#include "kernel/timebase.h"
#include "lib/benchrun.h"
#include "lib/calib.h"
#include "lib/format.h"
#include "lib/string.h"
#include "lib/stats.h"
#include "lib/touch.h"

u32 bench_count(const struct hz_config *c)
{
	return matrix_count(c);
}

static void op_fill(void *ctx)
{
	struct bench_cfg *b = ctx;
	struct pool *pool = &b->bc->pool;

	/* A folio zeroed ahead keeps its zeros: that is what it is for. */
	for (u32 i = 0; i < pool->n; i++)
		if (!pool->f[i].zeroed)
			fill_movq(phys_to_virt(pool->f[i].pa), pool->bytes,
				  FILL_PATTERN);
	for (u32 i = 0; i < pool->nguards; i++)
		fill_movq(phys_to_virt(pool->guard[i].pa), SZ_4K, FILL_PATTERN);
	/* inject=mark-zeroed: the middle folio marked zeroed, not zeroed. */
	if (b->c->inject == INJECT_MARK_ZEROED && pool->n) {
		pool->f[pool->n / 2].zeroed = FOLIO_ZEROED;
		pool_reset(pool);
	}
}

static void op_cache(void *ctx, u32 mode)
{
	struct bench_cfg *b = ctx;
	struct pool *pool = &b->bc->pool;

	if (mode == CACHE_WBINVD) {
		wbinvd();
	} else if (mode == CACHE_COLD) {
		for (u32 i = 0; i < pool->n; i++)
			flush_range(phys_to_virt(pool->f[i].pa), pool->bytes,
				    cpu_info.has_clflushopt);
		for (u32 i = 0; i < pool->nguards; i++)
			flush_range(phys_to_virt(pool->guard[i].pa), SZ_4K,
				    cpu_info.has_clflushopt);
	}
}

/*
 * inject=overrun: the fault that clears the folio before the pool's first
 * guard that follows one writes a line of zeros into that guard, as a
 * clear that ran past its folio would (with only guards before folios,
 * the line goes just before one).
 */
static void overrun_plan(const struct bench_cfg *b, struct fault_ctx *fc)
{
	const struct pool *pool = &b->bc->pool;
	const struct pool_guard *g = &pool->guard[0];

	fc->overrun_pa = 0;
	if (b->c->inject != INJECT_OVERRUN || !pool->nguards)
		return;
	for (u32 i = pool->nguards; i-- > 0;)
		if (pool->guard[i].after)
			g = &pool->guard[i];
	fc->overrun_folio = g->folio;
	fc->overrun_pa = g->after ? g->pa : g->pa + SZ_4K - LINE;
}

static void arm(struct bench_cfg *b)
{
	const struct hz_config *c = b->c;
	struct bench_cpu *bc = b->bc;
	struct fault_ctx *fc = &bc->fault;

	memset(fc, 0, sizeof(*fc));
	fc->pml4 = bc->wl.pml4;
	fc->region = b->region;
	fc->region_end = b->region + (u64)b->count * b->bytes;
	fc->leaf = leaf_of(b->folio);
	fc->pool = &bc->pool;
	fc->prim = prim_fns[b->d.at.v[AXIS_PRIM]];
	fc->plan = b->d.plan;
	fc->pte_linux = c->pte == PTE_MODE_LINUX;
	fc->wrong_pa_fault = c->inject == INJECT_WRONG_PA ? b->count / 2 : ~0u;
	overrun_plan(b, fc);
	if (c->inject == INJECT_SKIP_LINE) {
		fc->lines = bc->lines;
		fc->nlines = inject_plan(c->seed, b->count, b->bytes, bc->lines,
					 (u32)c->inject_lines);
	}
	fc->max = b->count;
	fc->clear_ticks = bc->wl.clear_ticks;
	fc->fault_page = bc->wl.fault_page;
	fc->taken = bc->taken;
	fc->npmu = bc->npmu;
	for (u32 i = 0; i < bc->npmu; i++) {
		fc->pmu[i] = bc->pmu_slot[i];
		fc->pmu_v[i] = bc->pmu_v[i];
	}
	fc->current = ~0ULL;
	fc->model_on = b->d.at.v[AXIS_PREEMPT] != PREEMPT_MODEL_OFF;
	if (fc->model_on && prim_is_simd(b->d.at.v[AXIS_PRIM]))
		fc->fpu_area = bc->fpu_area;	/* size checked in model_up() */
	fault_arm(bc->cpu, fc);
}

/* What interrupted a pass: counters the handlers keep, before and after. */
struct noise {
	u64 irqs, irq_ticks, switches, preemptions;
};

static void noise_now(u32 cpu, struct noise *n)
{
	const struct irq_stats *i = irq_stats(cpu);
	const struct sched_stats *s = sched_stats(cpu);

	*n = (struct noise){ i->irqs, i->handler_tsc, s->switches,
			     s->preemptions };
}

static void noise_since(u32 cpu, const struct noise *a, struct bench_pass *p)
{
	struct noise b;

	noise_now(cpu, &b);
	p->counted = true;
	p->irqs = b.irqs - a->irqs;
	p->irq_ticks = b.irq_ticks - a->irq_ticks;
	p->switches = b.switches - a->switches;
	p->preemptions = b.preemptions - a->preemptions;
}

/* The pass's effective frequency (APERF over MPERF, against the TSC)
 * and the SMIs in it, from reads outside the timed part. */
static void freq_account(const struct bench_cpu *bc, const struct freq_snap *a,
			 const struct freq_snap *z, struct bench_pass *p)
{
	u64 da = z->aperf - a->aperf, dm = z->mperf - a->mperf;

	p->has_freq = bc->freq.aperfmperf && dm;
	if (p->has_freq)
		p->eff_khz = mul_div_u64(timebase.tsc_hz / 1000, da, dm);
	p->has_smi = bc->freq.smi_count;
	p->smis = z->smi - a->smi;
}

/* hang_cpu= (test-only): this CPU stops inside the timed part with
 * interrupts masked, as a hung one would; only the others can say so. */
static __noreturn void hang_here(void)
{
	irq_disable();
	for (;;)
		cpu_relax();
}

static void op_timed(void *ctx, u32 access, struct bench_pass *p,
		     struct bench_outcome *o)
{
	struct bench_cfg *b = ctx;
	struct bench_cpu *bc = b->bc;
	struct workload *wl = &bc->wl;
	struct fault_ctx *fc = &bc->fault;
	bool probe = b->c->probe == PROBE_LATENCY && b->model_on;
	struct agg_cpu member = { 0 };
	struct freq_snap f0, f1;
	struct noise before;

	touch_plan(b->c, b->count, b->bytes, b->region, wl->addrs);
	memset(wl->access_ticks, 0, (u64)b->count * 8);
	arm(b);
	wl->args->count = b->count;
	wl->args->folio_bytes = b->bytes;
	wl->args->access = access;
	wl->args->use_rdtscp = cpu_info.has_rdtscp;
	prezero_before(b, o);
	freq_snap(&bc->freq, &f0);
	noise_now(bc->cpu, &before);
	if (probe && !bench_probe_start(&bc->probe, bc->cpu, b->c, &fc->current))
		bench_fail(o, "%s: no memory for the probe task", b->d.name);
	if (group_start(b->g, b->idx)) {
		if (b->c->hang_cpu == bc->cpu)
			hang_here();
		workload_run(wl, b->c->cpl == 3, b->model_on);
	} else {
		bench_fail(o, "%s: the run was aborted on another CPU before "
			   "the timed part", b->d.name);
	}
	member.end = tsc_end();
	if (b->prezero == PREZERO_DEDICATED)
		prezero_dedicated_stop(&bc->prezero);
	member.stime = sum_u64(wl->fault_ticks, b->count);
	member.utime = access == ACCESS_NONE ? 0 :
		       sum_u64(wl->access_ticks, b->count);
	member.bytes = (u64)b->count * b->bytes;
	member.finished = fc->nfaults == b->count;
	group_end(b->g, b->idx, &member, p->run, p->pass);
	freq_snap(&bc->freq, &f1);
	freq_account(bc, &f0, &f1, p);
	if (probe && bc->probe.task) {
		struct probe_take t;

		bench_probe_stop(&bc->probe);
		t = (struct probe_take){ bc->probe.late, bc->probe.fault,
					 bc->probe.n, PROBE_MAX,
					 bc->probe.expected, bc->probe.truncated };
		bench_take_probe(p, o, b->d.name, &t);
	}
	noise_since(bc->cpu, &before, p);
	fault_disarm(bc->cpu);
	if (fc->nfaults != b->count)
		bench_fail(o, "%s: %u of %u folios faulted", b->d.name,
			   fc->nfaults, b->count);
	p->faults = fc->nfaults;
	p->resched = fc->resched;
	p->fault = wl->fault_ticks;
	p->clear = wl->clear_ticks;
	p->access_t = wl->access_ticks;
	p->page = wl->fault_page;
	p->injected = fc->planted;
	p->npmu = bc->npmu;
	for (u32 i = 0; i < bc->npmu; i++) {
		p->pmu_name[i] = bc->pmu_slot[i]->name;
		p->pmu_v[i] = bc->pmu_v[i];
	}
	prezero_account(b, p);
}

/* The entry the fault installed must be the folio's, as the user sees it. */
/* The folio fault @k took (FIFO and zeroed-first: not always folio k). */
static u32 folio_of(const struct bench_cfg *b, u32 k)
{
	return b->bc->taken[k] & ~TAKEN_ZEROED;
}

static bool check_leaf(struct bench_cfg *b, u32 k, u64 va,
		       struct bench_outcome *o)
{
	u64 want_pa = b->bc->pool.f[folio_of(b, k)].pa;
	struct pt_walk w;
	const char *bad;

	bad = !pt_walk(b->bc->wl.pml4, va, &w) ? "not mapped" :
	      pt_leaf_mismatch(w.entry, w.level, leaf_of(b->folio), want_pa);
	if (bad)
		bench_fail(o, "%s: folio %u (user va %#llx, pa %#llx): the "
			   "workload's mapping has %s (entry %#llx)", b->d.name,
			   folio_of(b, k), (unsigned long long)va,
			   (unsigned long long)want_pa, bad,
			   (unsigned long long)w.entry);
	return !bad;
}

/* Each guard of this CPU's pool still holds the pattern; one that does
 * not is named with the folio it lies beside. */
static void check_guards(struct bench_cfg *b, struct bench_outcome *o)
{
	struct pool *pool = &b->bc->pool;

	/* Nowhere to write: the injection did not happen, and says so. */
	if (b->c->inject == INJECT_OVERRUN && !pool->nguards)
		bench_fail(o, "%s: inject=overrun: cpu %u's pool has no guard "
			   "frame (1G runs with no free 4K frame beside them)",
			   b->d.name, pool->cpu);
	for (u32 i = 0; i < pool->nguards; i++) {
		const struct pool_guard *g = &pool->guard[i];
		u64 at = find_not_qword(phys_to_virt(g->pa), FILL_PATTERN, SZ_4K);

		if (at != ~0ULL)
			bench_fail(o, "%s: cpu %u's guard frame %#llx, just %s "
				   "cpu %u's folio %u (pa %#llx), was written at "
				   "offset 0x%llx", b->d.name, pool->cpu,
				   (unsigned long long)g->pa,
				   g->after ? "past" : "before", pool->cpu,
				   g->folio,
				   (unsigned long long)pool->f[g->folio].pa,
				   (unsigned long long)at);
	}
}

/*
 * Through the workload's own mapping (its page tables, its user virtual
 * addresses, in its address space): a wrong frame, leaf size or cache
 * attribute fails here, not only a missed line.
 */
static void op_verify(void *ctx, struct bench_pass *p, struct bench_outcome *o)
{
	struct bench_cfg *b = ctx;
	struct fault_ctx *fc = &b->bc->fault;
	const struct hz_config *c = b->c;

	for (u32 k = 0; k < fc->nfaults; k++) {
		u64 va = ALIGN_DOWN(b->bc->wl.addrs[k], b->bytes), first, n;

		if (!check_leaf(b, k, va, o))
			continue;
		n = verify_count_dirty(c->verify, (const u8 *)va, b->bytes,
				       find_nonzero, &first);
		p->detected += (u32)n;
		if (n)
			bench_fail(o, "%s: folio %u (user va %#llx, pa %#llx, "
				   "fault page %llu%s) not zero at offset %#llx",
				   b->d.name, folio_of(b, k),
				   (unsigned long long)va,
				   (unsigned long long)b->bc->pool.f[folio_of(b, k)].pa,
				   (unsigned long long)b->bc->wl.fault_page[k],
				   b->bc->taken[k] & TAKEN_ZEROED ?
				   ", taken as zeroed in advance" : "",
				   (unsigned long long)first);
	}
	/* Lines of a fault served zeroed were never planted. */
	for (u32 i = 0; i < fc->nlines; i++)
		if (fc->lines[i].fault < fc->nfaults &&
		    !(b->bc->taken[fc->lines[i].fault] & TAKEN_ZEROED))
			p->injected_seen += verify_covers(c->verify, b->bytes,
							  (u64)fc->lines[i].line *
							  LINE);
	check_guards(b, o);
}

static void op_reset(void *ctx)
{
	struct bench_cfg *b = ctx;

	for (u32 i = 0; i < b->count; i++)
		pt_unmap(b->bc->wl.pml4, b->region + (u64)i * b->bytes,
			 leaf_of(b->folio), NULL);
	pool_reset(&b->bc->pool);
	write_cr3(read_cr3());	/* and anything the walk cached */
	deadline_poll();	/* between passes: nothing is timed */
}

/* prezero=on-free: the workload frees its folios, each zeroed as it is
 * unmapped (init_on_free): the cost moves to here, recorded as such. */
static void op_release(void *ctx, struct bench_pass *p,
		       struct bench_outcome *o)
{
	struct bench_cfg *b = ctx;
	struct bench_cpu *bc = b->bc;
	struct prezero *z = &bc->prezero;

	if (b->prezero != PREZERO_ON_FREE)
		return;
	for (u32 k = 0; k < bc->fault.nfaults; k++) {
		struct folio *f = &bc->pool.f[folio_of(b, k)];
		u64 first;

		pt_unmap(bc->wl.pml4, ALIGN_DOWN(bc->wl.addrs[k], b->bytes),
			 leaf_of(b->folio), NULL);
		prezero_on_free(z, f);
		f->mapped = 0;		/* free again, and zeroed */
		/* Checked where it was zeroed: a later fault maps it as is,
		 * and after access=write nothing else would see it. */
		if (verify_count_dirty(b->c->verify, phys_to_virt(f->pa),
				       b->bytes, find_nonzero, &first))
			bench_fail(o, "%s: folio %u (pa %#llx) zeroed at free but "
				   "not zero at offset %#llx", b->d.name,
				   folio_of(b, k), (unsigned long long)f->pa,
				   (unsigned long long)first);
	}
	write_cr3(read_cr3());
	check_guards(b, o);
	p->prezero_ticks = z->ticks;
	p->prezero_folios = z->folios;
}

static const struct bench_ops fault_ops = {
	op_fill, op_cache, op_timed, op_verify, op_reset, NULL, op_release,
};

static void run_config(struct bench_cfg *b)
{
	struct bench_job j = {
		&records, &b->d, &fault_ops, b, &b->bc->out, timebase.tsc_hz,
		timebase.overhead_median, b->bc->fault_timer, NULL, NULL,
	};
	char why[160] = "";
	const char *skip;

	prezero_config(b);
	deadline_doing(b->d.name, b->bc->cpu, &b->bc->fault.nfaults);
	if (b->count == 0 && !b->clamp_fail)
		strlcpy(why, b->no_folio ? b->no_folio : "", sizeof(why));
	else if (prim_supported(b->d.at.v[AXIS_PRIM], why, sizeof(why)) &&
		 prezero_can(b, why, sizeof(why)) &&
		 model_up(b, why, sizeof(why)))
		why[0] = '\0';
	/* Any member's reason is the group's: they run it together or not. */
	skip = group_agree(b->g, b->idx, b->smp.group, why);
	/* The page array is printed before it is reused as scratch. */
	j.scratch = b->bc->wl.fault_page;
	j.fail = skip[0] ? NULL : b->clamp_fail;
	bench_run_config(&j, skip[0] ? skip : NULL);
	count_bad_frees(pool_destroy(&b->bc->apart));	/* none: nothing */
	if (b->model_on)
		sched_set_model(b->bc->cpu, PREEMPT_MODEL_OFF, 0);
	b->model_on = false;
	group_config_end(b->g, b->idx, b->d.name, &b->bc->out, !skip[0]);
}

static void run_folio(struct bench_cfg *proto, u32 f, u32 *local)
{
	const struct hz_config *c = proto->c;
	struct bench_cpu *bc = proto->bc;
	struct bench_group *g = proto->g;
	struct matrix_iter it = { { { 0 } }, false };
	struct bench_cfg b = *proto;
	const char *placed;
	char mem_node[16];

	b.d.smp = g->says_cpus ? &b.smp : NULL;
	b.folio = f;
	b.bytes = folio_bytes[f];
	b.region = REGION_VA(f);
	b.d.folio = folio_names[f];
	placed = place(&b, mem_node, sizeof(mem_node));
	b.no_folio = NULL;
	if (placed)
		b.no_folio = placed;
	else if (f == FOLIO_1G && !cpu_info.has_pdpe1gb)
		/* A PS bit in a PDPTE is reserved without it: mapping one would #PF. */
		b.no_folio = "CPU lacks 1 GiB pages (CPUID 80000001h:EDX[26] clear)";
	/* Every member, placed or not, meets the others in there. */
	make_pool(&b, f);
	b.d.folios = b.count;
	b.d.size = (u64)b.count * b.bytes;
	pool_span(&bc->pool, b.count, &b.d.pa_min, &b.d.pa_max);
	while (bench_matrix_next(c, f, "", &it, &b.d, local)) {
		/* Numbered as if each CPU's configurations were interleaved. */
		b.d.id = g->cfg_base + (*local - 1) * g->n + b.idx + 1;
		b.smp.group = g->group_base + *local;
		b.d.kernel_fpu_ticks = b.d.at.v[AXIS_PREEMPT] != PREEMPT_MODEL_OFF &&
				       prim_is_simd(b.d.at.v[AXIS_PRIM]) ?
				       bc->kernel_fpu : 0;
		run_config(&b);
	}
	drop_pool(&b);
}

/* Each member of the group, on its own CPU, at once. */
static void bench_worker(void *arg)
{
	struct bench_group *g = arg;
	u32 cpu = this_cpu()->cpu, local = 0;
	struct bench_cfg proto;

	memset(&proto, 0, sizeof(proto));
	proto.g = g;
	proto.idx = group_index(g, cpu);
	proto.bc = bench_cpu_start(cpu, g->c);
	proto.c = proto.d.c = g->c;
	proto.d.bench = "fault";
	proto.d.llc = cpu_info.l3;
	proto.smp.cpus = g->cpus;
	proto.smp.ncpus = g->n;
	proto.smp.cpu = cpu;
	proto.smp.has_apic_id = true;
	proto.smp.apic_id = this_cpu()->apic_id;
	proto.d.freq_src = proto.bc->freq.aperfmperf ? "aperf/mperf" :
			   proto.bc->freq.why_not_freq;
	proto.d.smi_src = proto.bc->freq.smi_count ? "msr_smi_count" :
			  proto.bc->freq.why_not_smi;
	proto.d.pmu = g->c->npmu ? &proto.bc->pmu : NULL;
	workload_enter_space(&proto.bc->wl);
	for (u32 f = 0; f < FOLIO_COUNT; f++)
		if (g->c->folios >> f & 1)
			run_folio(&proto, f, &local);
	workload_leave_space();
	bench_cpu_stop(proto.bc);
	deadline_doing(NULL, cpu, NULL);
}

static struct bench_group group;

/* The members: the first @want CPUs of @s with their state made. */
static u32 make_group(struct bench_group *g, const struct cpu_set *s, u32 want)
{
	struct cpu_set set;

	memset(&set, 0, sizeof(set));
	g->n = 0;
	for (u32 k = 0; g->n < want; k++) {
		u32 cpu = cpu_set_nth(s, k, smp.ncpus);

		if (cpu == ~0u)
			break;
		if (!bench_cpu_get(cpu)) {
			printk("hugezero: bench: cpu %u left out: no memory for "
			       "its benchmark state, workload tables and sample "
			       "arrays\n", cpu);
			continue;
		}
		g->cpu[g->n++] = cpu;
		cpu_set_add(&set, cpu);
	}
	/* A list that does not fit a record would be cut into another. */
	if ((size_t)cpulist_format(&set, g->cpus, sizeof(g->cpus)) >=
	    sizeof(g->cpus))
		return 0;
	smp_barrier_init(&g->bar, g->n, g->bar_slot, g->cpu);
	return g->n;
}

/* The CPUs cpus= names that are up; says which are left out. */
static void usable_cpus(const struct hz_config *c, struct cpu_set *out)
{
	memset(out, 0, sizeof(*out));
	for (u32 cpu = 0; cpu < CPUSET_MAX; cpu++) {
		if (!cpu_set_has(&c->cpus, cpu) || (c->cpus.all && cpu >= smp.ncpus))
			continue;
		if (smp_is_up(cpu))
			cpu_set_add(out, cpu);
		else
			printk("hugezero: bench: cpus=: cpu %u left out: %s\n", cpu,
			       cpu >= smp.ncpus ? "this machine has no such CPU" :
			       smp.by_cpu[cpu]->reason);
	}
}

/* A step that cannot run: each of its configurations skipped, named. */
static void skip_step(struct ktap *k, const struct hz_config *c, u32 want,
		      const char *why)
{
	struct bench_desc d;
	u32 id = 0;

	memset(&d, 0, sizeof(d));
	d.c = c;
	for (u32 f = 0; f < FOLIO_COUNT; f++) {
		struct matrix_iter it = { { { 0 } }, false };
		char name[96];

		if (!(c->folios >> f & 1))
			continue;
		while (bench_matrix_next(c, f, "", &it, &d, &id)) {
			ksnprintf(name, sizeof(name), "x%u.%s", want, d.name);
			ktap_result(k, KTAP_SKIP, name, why);
		}
	}
}

void bench_run(struct ktap *k, const struct hz_config *c)
{
	u32 steps = c->nscale ? c->nscale : 1, fails = k->fail, have, n;
	struct bench_group *g = &group;
	struct cpu_set usable;

	ktap_subtest_start(k, "fault", bench_count(c) * steps);
	usable_cpus(c, &usable);
	have = cpu_set_count(&usable, CPUSET_MAX);
	if (!have) {
		printk("hugezero: bench: cpus= leaves no CPU that is up\n");
		ktap_subtest_end(k, "fault", KTAP_FAIL);
		k->fail++;
		return;
	}
	/* The fault path finds its context by the CPU it runs on. */
	fault_init();
	user_init();
	memset(g, 0, sizeof(*g));
	for (u32 s = 0; s < steps; s++) {
		u32 want = !c->nscale || c->scale[s] == SCALE_ALL ? have :
			   c->scale[s];

		char why[200];

		if (want > have) {
			ksnprintf(why, sizeof(why), "scale= step of %u CPUs: "
				  "cpus= has %u up", want, have);
			skip_step(k, c, want, why);
			continue;
		}
		g->c = c;
		g->k = k;
		n = make_group(g, &usable, want);
		if (!n) {
			ksnprintf(why, sizeof(why), "its CPUs have no memory for "
				  "their state, or their list is longer than the "
				  "%zu characters records keep: give it as ranges",
				  sizeof(g->cpus) - 1);
			printk("hugezero: bench: step of %u CPUs not run: %s\n",
			       want, why);
			skip_step(k, c, want, why);
			continue;
		}
		/* Names stay as before SMP for the boot CPU alone. */
		g->says_cpus = c->nscale || n != 1 || g->cpu[0] != 0;
		{
			struct cpu_set members;

			memset(&members, 0, sizeof(members));
			for (u32 i = 0; i < n; i++)
				cpu_set_add(&members, g->cpu[i]);
			if (!smp_run(&members, bench_worker, g)) {
				ktap_diag(k, "step of %u CPUs: a CPU would not "
					  "take its work; the run is aborted", n);
				k->fail++;
				break;
			}
		}
		g->cfg_base += bench_count(c) * n;
		g->group_base += bench_count(c);
	}
	ktap_subtest_end(k, "fault", k->fail > fails ? KTAP_FAIL : KTAP_OK);
}

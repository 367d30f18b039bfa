// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench=fault's run: what each step of lib/benchrun.c's skeleton means
 * here (struct bench_ops): fill the pool with a pattern, set the cache
 * state, run the workload over a region of not-present folios, check
 * every folio through the workload's own mapping, unmap.  Nothing is
 * printed while the workload runs.
 *
 * Everything a run touches is one CPU's (struct bench_cpu), reached from
 * the CPU number the entry point is given.
 */
#include "arch/x86_64/clear.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/freq.h"
#include "arch/x86_64/memops.h"
#include "arch/x86_64/paging.h"
#include "arch/x86_64/tsc.h"
#include "kernel/bench/bench_cpu.h"
#include "kernel/mm/memory.h"
#include "kernel/sched/fpu.h"
#include "kernel/sched/sched.h"
#include "kernel/time/deadline.h"
#include "kernel/time/timer.h"
#include "kernel/timebase.h"
#include "lib/benchrun.h"
#include "lib/calib.h"
#include "lib/string.h"
#include "lib/touch.h"
#include "lib/verify.h"

/* inject=, where inject_cpu= leaves it to this CPU (test-only). */
static u32 inject_of(const struct bench_cfg *b)
{
	const struct cpu_set *on = &b->c->inject_cpu;

	return !cpu_set_count(on, CPUSET_MAX) || cpu_set_has(on, b->bc->cpu) ?
	       b->c->inject : INJECT_NONE;
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
	if (inject_of(b) == INJECT_MARK_ZEROED && pool->n) {
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
	if (inject_of(b) != INJECT_OVERRUN || !pool->nguards)
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
	/* member_up() skipped the point where there is no such copy */
	fc->prim = prim_thunked(b->d.at.v[AXIS_PRIM],
				matrix_rethunk_kind(c, &b->d.at),
				c->rethunk_count, NULL, 0);
	fc->plan = b->d.plan;
	fc->pte_linux = c->pte == PTE_MODE_LINUX;
	fc->wrong_pa_fault = inject_of(b) == INJECT_WRONG_PA ? b->count / 2 :
			     ~0u;
	overrun_plan(b, fc);
	if (inject_of(b) == INJECT_SKIP_LINE) {
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
	fc->simd = prim_is_simd(b->d.at.v[AXIS_PRIM]);
	fault_arm(bc->cpu, fc);
}

/* What interrupted a pass: counters the handlers keep, before and after. */
struct noise {
	u64 irqs, irq_ticks, switches, preemptions, lazy_ticks;
	u64 fpu_saves, fpu_restores;
};

static void noise_now(u32 cpu, struct noise *n)
{
	const struct irq_stats *i = irq_stats(cpu);
	const struct sched_stats *s = sched_stats(cpu);

	*n = (struct noise){ i->irqs, i->handler_tsc, s->switches,
			     s->preemptions, s->lazy_ticks, s->fpu_saves,
			     s->fpu_restores };
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
	p->has_lazy = true;
	p->lazy_ticks = b.lazy_ticks - a->lazy_ticks;
	p->fpu_saves = b.fpu_saves - a->fpu_saves;
	p->fpu_restores = b.fpu_restores - a->fpu_restores;
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
	(void)rethunk_returns_take();	/* this CPU's, from zero */
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
		if (b->c->hang_at == HANG_AT_BENCH &&
		    cpu_set_has(&b->c->hang_cpu, bc->cpu))
			hang_here();
		/* Under a model the workload is a user task for the FPU
		 * while it runs: its registers saved by the first SIMD call
		 * of a fault or a switch away, loaded on its way back. */
		if (b->model_on)
			fpu_user_attach(bc->fpu_area);
		workload_run(wl, b->c->cpl == 3, b->model_on);
		if (b->model_on)
			fpu_user_detach();
	} else {
		bench_fail(o, "%s: the run was aborted on another CPU before "
			   "the timed part", b->d.name);
	}
	member.end = tsc_end();
	/* A zeroer that never took its work: the pass had none. */
	if (b->prezero == PREZERO_DEDICATED &&
	    !prezero_dedicated_stop(&bc->prezero))
		prezero_lost(b, o);
	member.stime = sum_u64(wl->fault_ticks, b->count);
	member.utime = access == ACCESS_NONE ? 0 :
		       sum_u64(wl->access_ticks, b->count);
	member.bytes = (u64)b->count * b->bytes;
	member.finished = fc->nfaults == b->count;
	group_end(b->g, b->idx, b->member, &member, p->run, p->pass);
	freq_snap(&bc->freq, &f1);
	freq_account(bc, &f0, &f1, p);
	if (probe && bc->probe.task) {
		struct probe_take t;

		bench_probe_stop(&bc->probe);
		t = (struct probe_take){ bc->probe.late, bc->probe.fault,
					 bc->probe.n, bc->probe.cap,
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
	p->has_calls = true;
	p->prim_calls = fc->prim_calls;
	p->prim_calls_max = fc->prim_calls_max;
	p->has_rethunk_returns = b->c->rethunk_count;
	p->rethunk_returns = rethunk_returns_take();
	p->has_fpu_pairs = true;
	p->fpu_pairs = fc->fpu_pairs;
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

/* The folio fault @k took (FIFO and zeroed-first: not always folio k). */
static u32 folio_of(const struct bench_cfg *b, u32 k)
{
	return b->bc->taken[k] & ~TAKEN_ZEROED;
}

/* The entry the fault installed must be the folio's, as the user sees it. */
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
	if (inject_of(b) == INJECT_OVERRUN && !pool->nguards)
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
	prezero_free_end(z);
	write_cr3(read_cr3());
	check_guards(b, o);
	p->prezero_ticks = z->ticks;
	p->prezero_folios = z->folios;
	p->prezero_resched = z->resched;
}

/*
 * Interleaved with other members on this CPU: the pool's zeroed marks
 * and the zeroer are this point's again (a no-op for the prezero=none
 * points that share a round group, kept so a pass never depends on what
 * ran before it), and the deadline names what runs now.
 */
static void op_enter(void *ctx)
{
	struct bench_cfg *b = ctx;

	prezero_config(b);
	deadline_doing(b->d.name, b->bc->cpu, &b->bc->fault.nfaults);
}

const struct bench_ops bench_fault_ops = {
	.enter = op_enter,
	.fill = op_fill,
	.cache = op_cache,
	.timed = op_timed,
	.verify = op_verify,
	.reset = op_reset,
	.release = op_release,
};

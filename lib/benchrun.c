// SPDX-License-Identifier: GPL-2.0-only
#include "lib/autorun.h"
#include "lib/benchrun.h"
#include "lib/format.h"
#include "lib/string.h"

static const char *const pass_names[] = { "verify", "warmup", "measure" };

static void write_samples(const struct bench_job *j, const struct bench_pass *p)
{
	const struct hz_config *c = j->d->c;
	u32 id = j->d->id, n = p->faults;

	if (c->samples != SAMPLES_ALL)
		return;
	if (p->fault)
		bench_rec_samples(j->w, id, p->run, "fault", p->fault, n);
	if (p->clear)
		bench_rec_samples(j->w, id, p->run, "clear", p->clear, n);
	if (p->access != ACCESS_NONE && p->access_t)
		bench_rec_samples(j->w, id, p->run, "access", p->access_t, n);
	if (c->offset == OFFSET_RANDOM && p->page)
		bench_rec_samples(j->w, id, p->run, "page", p->page, n);
	for (u32 i = 0; i < p->npmu; i++) {
		char kind[32];

		ksnprintf(kind, sizeof(kind), "pmu.%s", p->pmu_name[i]);
		bench_rec_samples(j->w, id, p->run, kind, p->pmu_v[i], n);
	}
	if (p->probe) {
		bench_rec_samples(j->w, id, p->run, "probe", p->probe, p->nprobe);
		bench_rec_samples(j->w, id, p->run, "probe_fault", p->probe_fault,
				  p->nprobe);
	}
}

static void one_pass(const struct bench_job *j, u32 run, enum pass_kind k)
{
	const struct hz_config *c = j->d->c;
	u32 access = k == PASS_VERIFY ? ACCESS_NONE : c->access;
	u32 before = j->o->failures;
	struct bench_pass p;

	memset(&p, 0, sizeof(p));
	p.run = run;
	p.pass = pass_names[k];
	p.access = access;
	j->ops->fill(j->ctx);
	j->ops->cache(j->ctx, c->cache);
	j->ops->timed(j->ctx, access, &p, j->o);
	p.verified = access != ACCESS_WRITE;
	if (p.verified)
		j->ops->verify(j->ctx, &p, j->o);
	if (j->ops->release)
		j->ops->release(j->ctx, &p, j->o);
	p.verify = access == ACCESS_WRITE ? "n/a" :
		   j->o->failures > before ? "fail" : "ok";
	bench_rec_run(j->w, j->d, &p);
	/* perf bench counts every loop, the first too: warm-ups in. */
	if (p.has_wall)
		perfbench_add(&j->o->perfbench, j->d->size, p.wall_ns);
	if (k == PASS_MEASURE) {
		u32 n = j->o->nruns;

		write_samples(j, &p);
		bench_keep_run(j->o, &p, j->scratch);
		if (j->o->nruns > n)
			j->o->gibps[n] = bench_run_gibps_micro(j->o, n,
							       j->d->size,
							       j->tsc_hz);
	}
	j->ops->reset(j->ctx);
}

void bench_take_probe(struct bench_pass *p, struct bench_outcome *o,
		      const char *name, const struct probe_take *t)
{
	if (t->truncated)
		bench_fail(o, "%s: the probe filled its %u samples before the "
			   "pass ended: raise probe_us", name, t->cap);
	p->probe = t->late;
	p->probe_fault = t->fault;
	p->nprobe = t->n;
	p->probe_expected = t->expected;
}

/*
 * runs=auto: measured passes until the rule stops them.  A round is a
 * pass, timed from its fill to its records: what the user waits for.
 * A failed pass ends them; its summary says fail and no stop.
 */
static void measure_auto(const struct bench_job *j, u32 *run)
{
	const struct hz_config *c = j->d->c;
	struct bench_outcome *o = j->o;
	u64 budget = c->budget_s * j->tsc_hz, elapsed = 0;
	u32 n = 0;

	while (!o->auto_stop && !o->failures && n < BENCH_MAX_RUNS) {
		u64 t0 = j->clock ? j->clock() : 0;

		one_pass(j, (*run)++, PASS_MEASURE);
		elapsed += j->clock ? j->clock() - t0 : 0;
		n = o->nruns;
		o->auto_stop = auto_decide(n, auto_within(o->gibps, n,
							  c->precision_x100),
					   c->max_runs, budget, elapsed);
	}
	o->has_ci = auto_ci_pct_x100(o->gibps, n, &o->ci_pct_x100);
}

bool bench_run_config(const struct bench_job *j, const char *skip)
{
	const struct hz_config *c = j->d->c;
	struct bench_outcome *o = j->o;
	char note[200] = "";
	u32 run = 0;

	memset(o, 0, sizeof(*o));
	o->net_of = j->net_of;
	o->fault_net_of = j->fault_net_of;
	bench_rec_config(j->w, j->d);
	if (skip) {
		bench_rec_summary(j->w, j->d, o, "skip", skip, j->tsc_hz);
		return false;
	}
	/* It cannot be what was asked for (clamp=off): failed, not run. */
	if (j->fail) {
		bench_fail(o, "%s", j->fail);
		bench_rec_summary(j->w, j->d, o, "fail", o->first, j->tsc_hz);
		return false;
	}
	/* With a write access the folios end up written: check zeroing on a
	 * pass of its own first. */
	if (c->access == ACCESS_WRITE)
		one_pass(j, run++, PASS_VERIFY);
	for (u64 i = 0; i < c->warmups; i++)
		one_pass(j, run++, PASS_WARMUP);
	if (c->runs_auto)
		measure_auto(j, &run);
	else
		for (u64 i = 0; i < c->runs; i++)
			one_pass(j, run++, PASS_MEASURE);
	if (j->ops->note)
		j->ops->note(j->ctx, o, note, sizeof(note));
	bench_rec_summary(j->w, j->d, o, o->failures ? "fail" : "ok",
			  o->failures ? o->first : note[0] ? note : NULL,
			  j->tsc_hz);
	return !o->failures;
}

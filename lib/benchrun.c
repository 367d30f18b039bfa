// SPDX-License-Identifier: GPL-2.0-only
#include "lib/autorun.h"
#include "lib/benchrun.h"
#include "lib/format.h"
#include "lib/string.h"
#include "lib/touch.h"

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

/* Where a measured pass of an interleaved round group ran; NULL: blocked. */
struct pass_at {
	u32 round, slot;
	bool shared;	/* other members share the side's state */
};

static void one_pass(const struct bench_job *j, u32 run, enum pass_kind k,
		     const struct pass_at *at)
{
	const struct hz_config *c = j->d->c;
	u32 access = k == PASS_VERIFY ? ACCESS_NONE : c->access;
	u32 before = j->o->failures;
	struct bench_outcome *o = j->o;
	struct bench_pass p;

	memset(&p, 0, sizeof(p));
	p.run = run;
	p.pass = pass_names[k];
	p.access = access;
	if (at && k == PASS_MEASURE) {
		p.has_round = true;
		p.round = at->round;
		p.slot = at->slot;
	}
	if (at && at->shared && j->ops->enter)
		j->ops->enter(j->ctx);
	j->ops->fill(j->ctx);
	j->ops->cache(j->ctx, c->cache);
	j->ops->timed(j->ctx, access, &p, o);
	p.verified = access != ACCESS_WRITE;
	if (p.verified)
		j->ops->verify(j->ctx, &p, o);
	if (j->ops->release)
		j->ops->release(j->ctx, &p, o);
	p.verify = access == ACCESS_WRITE ? "n/a" :
		   o->failures > before ? "fail" : "ok";
	bench_rec_run(j->w, j->d, &p);
	/* perf bench counts every loop, the first too: warm-ups in. */
	if (p.has_wall)
		perfbench_add(&o->perfbench, j->d->size, p.wall_ns);
	if (k == PASS_MEASURE) {
		u32 n = o->nruns;

		write_samples(j, &p);
		bench_keep_run(o, &p, j->scratch);
		if (o->nruns > n)
			o->gibps[n] = bench_run_gibps_micro(o, n, j->d->size,
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
 * runs=auto, after @n measured rounds: whether to go on, and in *@stop
 * the rule that stopped them.  In a group (j->agree) the group's view
 * decides, so that every member answers alike; a view with no series
 * left, or a group that cannot agree, stops with no rule.
 */
static bool auto_go_on(const struct bench_job *j, struct auto_view *v, u32 n,
		       enum auto_stop *stop)
{
	const struct hz_config *c = j->d->c;

	*stop = AUTO_GO;
	if (j->agree && !j->agree->fn(j->agree->arg, v))
		return false;
	if (!v->live)
		return false;
	*stop = auto_decide(n, v->within, c->max_runs, c->budget_s * j->tsc_hz,
			    v->elapsed);
	return *stop == AUTO_GO && n < BENCH_MAX_RUNS;
}

/*
 * runs=auto: measured passes until the rule stops them.  A round is a
 * pass, timed from its fill to its records: what the user waits for.
 * A failed pass ends them alone; in a group it goes on in step, out of
 * the rule.  Either way its summary says fail and no stop.
 */
static void measure_auto(const struct bench_job *j, u32 *run)
{
	const struct hz_config *c = j->d->c;
	struct bench_outcome *o = j->o;
	enum auto_stop stop;
	u64 elapsed = 0;
	u32 n = 0;

	for (;;) {
		u64 t0 = j->clock ? j->clock() : 0;
		struct auto_view v;

		one_pass(j, (*run)++, PASS_MEASURE, NULL);
		elapsed += j->clock ? j->clock() - t0 : 0;
		n++;
		v = (struct auto_view){ !o->failures, true, elapsed };
		if (!o->failures)
			v.within = auto_within(o->gibps, o->nruns,
					       c->precision_x100);
		if (!auto_go_on(j, &v, n, &stop))
			break;
	}
	if (!o->failures)
		o->auto_stop = stop;
	o->has_ci = auto_ci_pct_x100(o->gibps, o->nruns, &o->ci_pct_x100);
}

/* A member that runs no pass: its summary now, among the config records. */
static bool member_start(const struct bench_job *j, const char *skip)
{
	struct bench_outcome *o = j->o;

	memset(o, 0, sizeof(*o));
	o->net_of = j->net_of;
	o->fault_net_of = j->fault_net_of;
	bench_rec_config(j->w, j->d);
	if (skip) {
		bench_rec_summary(j->w, j->d, o, "skip", skip, j->tsc_hz);
		return false;
	}
	if (j->fail) {
		bench_fail(o, "%s", j->fail);
		bench_rec_summary(j->w, j->d, o, "fail", o->first, j->tsc_hz);
		return false;
	}
	return true;
}

static bool member_end(const struct bench_job *j)
{
	struct bench_outcome *o = j->o;
	char note[200] = "";

	if (j->ops->note)
		j->ops->note(j->ctx, o, note, sizeof(note));
	bench_rec_summary(j->w, j->d, o, o->failures ? "fail" : "ok",
			  o->failures ? o->first : note[0] ? note : NULL,
			  j->tsc_hz);
	return !o->failures;
}

/*
 * Round @round's order of the @n members: a seeded Fisher-Yates shuffle
 * of seed=, the group and the round.  The group is the first member's
 * configuration group where CPUs run it together (each CPU numbers its
 * configurations apart), so that every CPU runs the same order.
 */
static void round_order(const struct bench_rounds *r, u32 round,
			enum pass_kind kind, u32 *order)
{
	const struct bench_desc *d = r->job[0].d;
	u64 key = d->smp ? d->smp->group : d->id;
	/* Warm-up rounds draw apart from the measured rounds. */
	u64 nth = (u64)round + 1 + (kind == PASS_WARMUP ? 1ULL << 40 : 0);
	u64 state = d->c->seed ^ key << 32 ^ nth * 0x9e3779b97f4a7c15ULL;

	/* xorshift64* stays at 0 from 0 */
	if (!state)
		state = 0x9e3779b97f4a7c15ULL;
	for (u32 i = 0; i < r->n; i++)
		order[i] = i;
	for (u32 i = r->n; i > 1; i--) {
		u32 k = (u32)(bench_random(&state) % i), t = order[i - 1];

		order[i - 1] = order[k];
		order[k] = t;
	}
}

/*
 * One round: every live member one pass of @kind, in the round's order;
 * the round's time on the first member's clock (0 without one).
 */
static u64 one_round(const struct bench_rounds *r, const bool *live, u32 *run,
		     enum pass_kind kind, u32 round)
{
	const struct bench_job *j0 = &r->job[0];
	u64 t0 = j0->clock ? j0->clock() : 0;
	u32 order[ROUND_GROUP_MAX], slot = 0;

	round_order(r, round, kind, order);
	for (u32 s = 0; s < r->n; s++) {
		u32 i = order[s];
		struct pass_at at = { round, slot, r->n > 1 };

		if (!live[i])
			continue;
		one_pass(&r->job[i], run[i]++, kind, &at);
		slot++;
	}
	return j0->clock ? j0->clock() - t0 : 0;
}

/*
 * runs=auto: after @n rounds of @elapsed ticks, this side's view of the
 * rule over its members.  Alone, a member that failed stops here; in a
 * group it runs on in step, out of the rule (struct bench_job's agree).
 */
static struct auto_view rounds_view(const struct bench_rounds *r, bool *live,
				    u32 n, u64 elapsed)
{
	const struct hz_config *c = r->job[0].d->c;
	struct auto_view v = { 0, true, elapsed };

	for (u32 i = 0; i < r->n; i++) {
		struct bench_outcome *o = r->job[i].o;

		if (!live[i])
			continue;
		if (o->failures) {
			live[i] = r->job[0].agree != NULL;
			continue;
		}
		v.live++;
		v.within &= auto_within(o->gibps, n, c->precision_x100);
	}
	return v;
}

static void measure_rounds(const struct bench_rounds *r, bool *live, u32 *run)
{
	const struct hz_config *c = r->job[0].d->c;
	enum auto_stop stop;
	u64 elapsed = 0;

	if (!c->runs_auto) {
		u64 runs = r->runs ? r->runs : c->runs;

		for (u32 round = 0; round < runs; round++) {
			one_round(r, live, run, PASS_MEASURE, round);
			if (r->round_end)
				r->round_end(r->arg, round);
		}
		return;
	}
	for (u32 n = 1;; n++) {
		struct auto_view v;

		elapsed += one_round(r, live, run, PASS_MEASURE, n - 1);
		if (r->round_end)
			r->round_end(r->arg, n - 1);
		v = rounds_view(r, live, n, elapsed);
		if (!auto_go_on(&r->job[0], &v, n, &stop))
			break;
	}
	for (u32 i = 0; i < r->n; i++) {
		struct bench_outcome *o = r->job[i].o;

		if (!live[i] || o->failures)
			continue;
		o->auto_stop = stop;
		o->has_ci = auto_ci_pct_x100(o->gibps, o->nruns,
					     &o->ci_pct_x100);
	}
}

void bench_run_rounds(const struct bench_rounds *r)
{
	bool live[ROUND_GROUP_MAX];
	u32 run[ROUND_GROUP_MAX];
	const struct hz_config *c = r->job[0].d->c;
	struct pass_at at = { 0, 0, r->n > 1 };

	for (u32 i = 0; i < r->n; i++) {
		r->job[i].d->round_group = r->job[0].d->id;
		r->job[i].d->runs = r->runs;
		run[i] = 0;
		live[i] = member_start(&r->job[i], r->skip[i]);
	}
	/* With a write access, each member's zeroing checked first, as
	 * when it runs alone. */
	for (u32 i = 0; i < r->n; i++)
		if (live[i] && c->access == ACCESS_WRITE)
			one_pass(&r->job[i], run[i]++, PASS_VERIFY, &at);
	for (u32 w = 0; w < c->warmups; w++)
		one_round(r, live, run, PASS_WARMUP, (u32)w);
	measure_rounds(r, live, run);
	for (u32 i = 0; i < r->n; i++)
		r->ok[i] = r->skip[i] || r->job[i].fail ? false :
			   member_end(&r->job[i]);
}

bool bench_run_config(const struct bench_job *j, const char *skip)
{
	const struct hz_config *c = j->d->c;
	u32 run = 0;

	j->d->round_group = 0;
	j->d->runs = 0;
	if (!member_start(j, skip))
		return false;
	/* With a write access the folios end up written: check zeroing on a
	 * pass of its own first. */
	if (c->access == ACCESS_WRITE)
		one_pass(j, run++, PASS_VERIFY, NULL);
	for (u64 i = 0; i < c->warmups; i++)
		one_pass(j, run++, PASS_WARMUP, NULL);
	if (c->runs_auto)
		measure_auto(j, &run);
	else
		for (u64 i = 0; i < c->runs; i++)
			one_pass(j, run++, PASS_MEASURE, NULL);
	return member_end(j);
}

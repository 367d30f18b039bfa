// SPDX-License-Identifier: GPL-2.0-only
#include "arch/x86_64/tsc.h"
#include "kernel/bench/group.h"
#include "kernel/report.h"
#include "kernel/timebase.h"
#include "lib/autorun.h"
#include "lib/format.h"
#include "lib/string.h"

u32 group_index(const struct bench_group *g, u32 cpu)
{
	for (u32 i = 0; i < g->n; i++)
		if (g->cpu[i] == cpu)
			return i;
	return ~0u;
}

const char *group_agree(struct bench_group *g, u32 idx, u32 member, u32 group,
			const char *mine)
{
	strlcpy(g->m[idx].skip, mine, sizeof(g->m[idx].skip));
	if (!smp_barrier_wait(&g->bar))
		return "the run was aborted on another CPU";
	/* The leader decides between the barriers; every member reads the
	 * answer after the second, before any posts the next. */
	if (idx)
		goto read;
	g->skip[0] = '\0';
	for (u32 i = 0; i < g->n && !g->skip[0]; i++)
		if (g->m[i].skip[0] && g->n == 1)
			strlcpy(g->skip, g->m[i].skip, sizeof(g->skip));
		else if (g->m[i].skip[0])
			ksnprintf(g->skip, sizeof(g->skip), "cpu %u: %s",
				  g->cpu[i], g->m[i].skip);
	agg_group_init(&g->agg[member], group, g->cpus, g->n, AGG_TICKS,
		       timebase.tsc_hz);
read:
	if (!smp_barrier_wait(&g->bar))
		return "the run was aborted on another CPU";
	return g->skip;
}

u64 group_min(struct bench_group *g, u32 idx, u64 v)
{
	u64 least = v;

	g->m[idx].value = v;
	if (!smp_barrier_wait(&g->bar))
		return 0;
	for (u32 i = 0; i < g->n; i++)
		least = MIN(least, g->m[i].value);
	/* Nobody posts again before everyone has read. */
	if (!smp_barrier_wait(&g->bar))
		return 0;
	return least;
}

/*
 * Every member's view of runs=auto's rule in, the group's out: series
 * left summed, within all of them, the longest elapsed.  Each member
 * reads every view and so decides alike (lib/benchrun.c).
 */
static bool group_auto(void *arg, struct auto_view *v)
{
	struct group_member *me = arg;
	struct bench_group *g = me->g;
	struct auto_view all = { 0, true, 0 };

	me->view = *v;
	if (!smp_barrier_wait(&g->bar))
		return false;
	for (u32 i = 0; i < g->n; i++) {
		const struct auto_view *m = &g->m[i].view;

		all.live += m->live;
		all.within &= m->within;
		all.elapsed = MAX(all.elapsed, m->elapsed);
	}
	*v = all;
	/* Nobody posts again before everyone has read. */
	return smp_barrier_wait(&g->bar);
}

const struct bench_agree *group_agreement(struct bench_group *g, u32 idx)
{
	struct group_member *m = &g->m[idx];

	if (!g->c->runs_auto || g->n < 2)
		return NULL;
	m->g = g;
	m->idx = idx;
	m->agree = (struct bench_agree){ group_auto, m };
	return &m->agree;
}

bool group_start(struct bench_group *g, u32 idx)
{
	if (!smp_barrier_wait(&g->bar))
		return false;
	g->am[idx].start = tsc_begin();
	return true;
}

/*
 * Whether this group's start and finish times compare across its CPUs:
 * the widest its members' TSCs can be apart (each offset from CPU 0's
 * known to +- its error, so any two differ by at most the spread of
 * offset +- error) within the bound, and no member warped.
 */
static const char *refusal(const struct bench_group *g, char *buf, size_t n)
{
	s64 hi = 0, lo = 0;
	u64 warps = 0;

	for (u32 i = 0; i < g->n; i++) {
		const struct smp_cpu *c = smp.by_cpu[g->cpu[i]];
		s64 e = (s64)c->tsc_err;

		hi = i ? MAX(hi, c->tsc_offset + e) : c->tsc_offset + e;
		lo = i ? MIN(lo, c->tsc_offset - e) : c->tsc_offset - e;
		warps += c->tsc_warps;
	}
	if (g->n < 2 || (!warps && (u64)(hi - lo) <= smp.skew_bound))
		return NULL;
	if (warps)
		ksnprintf(buf, n, "a CPU's TSC went backwards against CPU 0's "
			  "(%llu warps)", (unsigned long long)warps);
	else
		ksnprintf(buf, n, "TSC skew of up to %llu ticks among these "
			  "CPUs exceeds the bound of %llu (tsc_skew_ns=%llu)",
			  (unsigned long long)(hi - lo),
			  (unsigned long long)smp.skew_bound,
			  (unsigned long long)g->c->tsc_skew_ns);
	return buf;
}

_Static_assert(_Alignof(struct agg_cpu) >= 64,
	       "each member's am[] entry on a cache line of its own");

void group_end(struct bench_group *g, u32 idx, u32 member,
	       const struct agg_cpu *a, u32 run, const char *pass)
{
	const struct smp_cpu *c = smp.by_cpu[g->cpu[idx]];
	u64 start = g->am[idx].start;
	char why[120];

	g->am[idx] = *a;
	g->am[idx].start = start;
	g->am[idx].cpu = g->cpu[idx];
	/* Starts compare in CPU 0's time, to +- the ping-pong's error. */
	g->am[idx].offset = c->tsc_offset;
	g->am[idx].offset_err = c->tsc_err;
	if (!smp_barrier_wait(&g->bar) || idx || !g->says_cpus)
		return;
	agg_rec_pass(&records, &g->agg[member], &(struct agg_pass){
		.run = run, .pass = pass, .measured = !strcmp(pass, "measure"),
		.refused = refusal(g, why, sizeof(why)), .cpu = g->am,
		.n = g->n, .offsets = true,
	});
}

static void ktap_line(struct bench_group *g, const char *name,
		      const char *skip, bool ran)
{
	char full[192];
	u32 bad = 0;

	if (g->says_cpus)
		ksnprintf(full, sizeof(full), "cpus%s.%s", g->cpus, name);
	else
		strlcpy(full, name, sizeof(full));
	if (!ran) {
		ktap_result(g->k, KTAP_SKIP, full, skip);
		return;
	}
	for (u32 i = 0; i < g->n; i++) {
		const struct group_member *m = &g->m[i];

		if (m->ok)
			continue;
		bad++;
		if (g->n > 1)
			ktap_diag(g->k, "cpu %u: %s", g->cpu[i], m->first);
		else
			ktap_diag(g->k, "%s", m->first);
		if (m->failures > 1)
			ktap_diag(g->k, "%s: %u more failures", name,
				  m->failures - 1);
	}
	ktap_result(g->k, bad ? KTAP_FAIL : KTAP_OK, full, NULL);
}

void group_config_end(struct bench_group *g, u32 idx, u32 member,
		      const char *name, const char *skip,
		      const struct bench_outcome *o, bool ran)
{
	struct group_member *m = &g->m[idx];
	bool ok;

	m->ok = !o->failures;
	m->failures = o->failures;
	m->auto_stop = o->auto_stop;
	strlcpy(m->first, o->first, sizeof(m->first));
	if (!smp_barrier_wait(&g->bar) || idx)
		return;
	ok = true;
	for (u32 i = 0; i < g->n; i++)
		ok &= g->m[i].ok;
	ktap_line(g, name, skip, ran);
	/* runs=auto: every member that did not fail stopped by one rule. */
	for (u32 i = 0; i < g->n; i++)
		if (g->m[i].auto_stop)
			g->agg[member].stopped_by =
				auto_stop_names[g->m[i].auto_stop];
	if (g->says_cpus)
		agg_rec_summary(&records, &g->agg[member],
				!ran ? "skip" : ok ? "ok" : "fail",
				!ran ? skip : ok ? NULL :
				"a CPU's configuration failed");
}

bool group_lead(struct bench_group *g, u32 idx, void (*fn)(void *), void *arg)
{
	if (!smp_barrier_wait(&g->bar))
		return false;
	/* Alone between the barriers: every member waits in the second. */
	if (!idx)
		fn(arg);
	return smp_barrier_wait(&g->bar);
}

// SPDX-License-Identifier: GPL-2.0-only
#include "arch/x86_64/tsc.h"
#include "kernel/bench/group.h"
#include "kernel/report.h"
#include "kernel/timebase.h"
#include "lib/format.h"
#include "lib/string.h"

u32 group_index(const struct bench_group *g, u32 cpu)
{
	for (u32 i = 0; i < g->n; i++)
		if (g->cpu[i] == cpu)
			return i;
	return ~0u;
}

const char *group_agree(struct bench_group *g, u32 idx, u32 group,
			const char *mine)
{
	strlcpy(g->m[idx].skip, mine, sizeof(g->m[idx].skip));
	if (!smp_barrier_wait(&g->bar))
		return "the run was aborted on another CPU";
	/* Every member reads the same answer before any posts the next. */
	g->skip[0] = '\0';
	for (u32 i = 0; i < g->n && !g->skip[0]; i++)
		if (g->m[i].skip[0] && g->n == 1)
			strlcpy(g->skip, g->m[i].skip, sizeof(g->skip));
		else if (g->m[i].skip[0])
			ksnprintf(g->skip, sizeof(g->skip), "cpu %u: %s",
				  g->cpu[i], g->m[i].skip);
	if (!idx)
		agg_group_init(&g->agg, group, g->cpus, g->n, AGG_TICKS,
			       timebase.tsc_hz);
	if (!smp_barrier_wait(&g->bar))
		return "the run was aborted on another CPU";
	return g->skip;
}

void group_start(struct bench_group *g, u32 idx)
{
	smp_barrier_wait(&g->bar);
	g->am[idx].start = tsc_begin();
}

static const char *refusal(const struct bench_group *g, char *buf, size_t n)
{
	if (g->n < 2 || smp.tsc_ok)
		return NULL;
	ksnprintf(buf, n, "TSC skew of %llu ticks across CPUs exceeds the "
		  "bound of %llu (tsc_skew_ns=%llu)",
		  (unsigned long long)smp.skew_max,
		  (unsigned long long)smp.skew_bound,
		  (unsigned long long)g->c->tsc_skew_ns);
	return buf;
}

void group_end(struct bench_group *g, u32 idx, const struct agg_cpu *a,
	       u32 run, const char *pass)
{
	u64 start = g->am[idx].start;
	char why[120];

	g->am[idx] = *a;
	g->am[idx].start = start;
	g->am[idx].cpu = g->cpu[idx];
	if (!smp_barrier_wait(&g->bar) || idx || !g->says_cpus)
		return;
	agg_rec_pass(&records, &g->agg, &(struct agg_pass){
		run, pass, !strcmp(pass, "measure"),
		refusal(g, why, sizeof(why)), g->am, g->n,
	});
}

static void ktap_line(struct bench_group *g, const char *name, bool ran)
{
	char full[128];
	u32 bad = 0;

	if (g->says_cpus)
		ksnprintf(full, sizeof(full), "cpus%s.%s", g->cpus, name);
	else
		strlcpy(full, name, sizeof(full));
	if (!ran) {
		ktap_result(g->k, KTAP_SKIP, full, g->skip);
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

void group_config_end(struct bench_group *g, u32 idx, const char *name,
		      const struct bench_outcome *o, bool ran)
{
	struct group_member *m = &g->m[idx];
	bool ok;

	m->ok = !o->failures;
	m->failures = o->failures;
	strlcpy(m->first, o->first, sizeof(m->first));
	if (!smp_barrier_wait(&g->bar) || idx)
		return;
	ok = true;
	for (u32 i = 0; i < g->n; i++)
		ok &= g->m[i].ok;
	ktap_line(g, name, ran);
	if (g->says_cpus)
		agg_rec_summary(&records, &g->agg, !ran ? "skip" : ok ? "ok" : "fail",
			!ran ? g->skip : ok ? NULL : "a CPU's configuration failed");
}

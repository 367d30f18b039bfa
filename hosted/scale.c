// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpus= and scale=: the steps of CPUs the whole matrix runs on, one
 * process per CPU (docs/smp.md).  Each step is the first N of the usable
 * CPUs; a step asking for more than there are is skipped, saying so.
 */

#include <stdio.h>
#include "hosted/group.h"
#include "lib/format.h"

/* What the records call the NUMA policy, and why it cannot run. */
static void numa_choice(const struct hz_config *c, struct group_cpus *g)
{
	bool one = numa_nodes() == 1;

	g->numa = one ? "none" : numa_names[c->numa];
	g->numa_skip[0] = '\0';
	if (c->numa == NUMA_LOCAL)
		return;
	if (one)
		ksnprintf(g->numa_skip, sizeof(g->numa_skip), "numa=%s: this "
			  "machine has one NUMA node", numa_names[c->numa]);
	else
		ksnprintf(g->numa_skip, sizeof(g->numa_skip), "numa=%s: the "
			  "companion binds no memory to other nodes yet; "
			  "numa=local runs", numa_names[c->numa]);
}

static u32 run_step(const struct hz_config *c, struct group_cpus *g, u32 *id)
{
	u32 failed = 0;

	cpulist_format(&g->set, g->list, sizeof(g->list));
	numa_choice(c, g);
	fprintf(stderr, "hugezero-linux: %u process%s on cpus %s\n", g->n,
		g->n == 1 ? "" : "es", g->list);
	if (bench_kinds[c->bench].linux_fault)
		failed += run_linux_fault(c, id, g);
	if (bench_kinds[c->bench].bare)
		failed += run_bare(c, id, g);
	return failed;
}

u32 run_scaled(const struct hz_config *c, const struct cpu_set *usable, u32 *id)
{
	static struct group_cpus g;
	u32 have = cpu_set_count(usable, CPUSET_MAX), failed = 0;

	for (u32 k = 0; k < MAX(c->nscale, 1u); k++) {
		u32 n = c->nscale && c->scale[k] != SCALE_ALL ? c->scale[k] : have;

		if (n > have) {
			fprintf(stderr, "hugezero-linux: scale=%u: cpus= has %u "
				"CPUs that can run: step skipped\n", n, have);
			continue;
		}
		cpu_set_first(usable, n, CPUSET_MAX, &g.set);
		g.n = n;
		failed += run_step(c, &g, id);
	}
	return failed;
}

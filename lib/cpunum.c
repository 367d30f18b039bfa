// SPDX-License-Identifier: GPL-2.0-only
#include "lib/cpunum.h"

static const struct madt_cpu *find(const struct madt *m, u32 apic_id)
{
	for (u32 i = 0; m && i < m->ncpus; i++)
		if (m->cpu[i].apic_id == apic_id)
			return &m->cpu[i];
	return NULL;
}

u32 cpunum_walk(const struct madt *m, u32 bsp, u32 max_cpus,
		void (*emit)(void *ctx, const struct cpunum *n), void *ctx,
		u32 *ncpus)
{
	const struct madt_cpu *b = find(m, bsp);
	struct cpunum n = { .cpu = 0, .apic_id = bsp, .uid = b ? b->uid : 0,
			    .kind = CPUNUM_BOOT, .listed = b != NULL };
	u32 count = 1;

	*ncpus = 1;
	emit(ctx, &n);
	for (u32 i = 0; m && i < m->ncpus; i++) {
		const struct madt_cpu *e = &m->cpu[i];

		if (e->apic_id == bsp)
			continue;
		n = (struct cpunum){ .cpu = ~0u, .apic_id = e->apic_id,
				     .uid = e->uid,
				     .online_capable = e->online_capable };
		if (!e->enabled)
			n.kind = CPUNUM_DISABLED;
		else if (*ncpus >= max_cpus)
			n.kind = CPUNUM_OVER_MAX;
		else {
			n.kind = CPUNUM_CPU;
			n.cpu = (*ncpus)++;
		}
		emit(ctx, &n);
		count++;
	}
	return count;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's side of preset= (lib/preset.c): what this machine has,
 * read once every CPU is up and before the first folio is allocated.
 */
#include "arch/x86_64/clear.h"
#include "arch/x86_64/cpuid.h"
#include "kernel/bench/preset.h"
#include "kernel/mm/memory.h"
#include "kernel/report.h"
#include "kernel/smp/smp.h"
#include "lib/benchrec.h"
#include "lib/preset.h"
#include "lib/printk.h"
#include "lib/prims.h"

static u32 workload_cpus(const struct hz_config *c)
{
	u32 n = 0;

	for (u32 cpu = 0; cpu < smp.ncpus && cpu < CPUSET_MAX; cpu++)
		n += cpu_set_has(&c->cpus, cpu) && smp_is_up(cpu);
	return n;
}

bool preset_apply(struct hz_config *c, const struct cmdline_result *user)
{
	char why[160];
	struct preset_machine m = {
		.mem = frame_count_free_blocks(SZ_2M) * SZ_2M,
		.free_1g = frame_count_free_blocks(GiB),
		.ncpus = workload_cpus(c),
		.has_1g = cpu_info.has_pdpe1gb,
		.linux_prim = prim_tree_twin(prim_linux(why, sizeof(why))),
	};
	struct preset_sizing z;
	bool ok;

	if (c->preset == PRESET_NONE)
		return true;
	ok = preset_size(c->preset, &m, user, c, &z);
	printk("hugezero: preset %s: %s\n", preset_names[c->preset],
	       preset_keys(c->preset, false));
	if (ok)
		printk("hugezero: preset %s: sized %s (%s); scaled down from "
		       "the seed: %s\n", preset_names[c->preset], z.chose,
		       z.why, z.scaled);
	else
		printk("hugezero: preset %s not run: %s\n",
		       preset_names[c->preset], z.why);
	bench_rec_preset(&records, c->preset, false, ok, &z,
			 prim_names[m.linux_prim]);
	return ok;
}

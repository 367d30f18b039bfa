// SPDX-License-Identifier: GPL-2.0-only
/*
 * The companion's side of preset= (lib/preset.c): the host's memory,
 * hugetlb pools and CPUs, read after the host record and before the
 * first region is mapped.
 */
#include <stdio.h>
#include "arch/x86_64/clear.h"
#include "arch/x86_64/cpuid.h"
#include "hosted/companion.h"
#include "hosted/preset.h"
#include "lib/benchrec.h"
#include "lib/preset.h"
#include "lib/prims.h"

bool companion_preset(struct hz_config *c, const struct cmdline_result *res,
		      u32 ncpus)
{
	/* 1G pages: the kernel has a 1G pool, and the companion can take
	 * pages from it, or (as root) grow it (hugetlb_ensure()). */
	bool pool = host.hugetlb_total[1] || host.hugetlb_free[1] || host.root;
	char why[160];
	struct preset_machine m = {
		.mem = host.mem_available,
		.free_1g = host.root ? host.mem_available / SZ_1G :
				       host.hugetlb_free[1],
		.ncpus = ncpus,
		.has_1g = cpu_info.has_pdpe1gb && pool,
		.linux_prim = prim_tree_twin(prim_linux(why, sizeof(why))),
		.companion = true,
	};
	struct preset_sizing z;
	bool ok;

	if (c->preset == PRESET_NONE)
		return true;
	m.has_1g = m.has_1g && m.free_1g;
	ok = preset_size(c->preset, &m, res, c, &z);
	fprintf(stderr, "hugezero-linux: preset %s: %s\n",
		preset_names[c->preset], preset_keys(c->preset, true));
	if (ok)
		fprintf(stderr, "hugezero-linux: preset %s: sized %s (%s); "
			"scaled down from the seed: %s\n",
			preset_names[c->preset], z.chose, z.why, z.scaled);
	else
		fprintf(stderr, "hugezero-linux: preset %s not run: %s\n",
			preset_names[c->preset], z.why);
	bench_rec_preset(&records, c->preset, true, ok, &z,
			 prim_names[m.linux_prim]);
	return ok;
}

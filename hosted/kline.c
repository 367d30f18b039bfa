// SPDX-License-Identifier: GPL-2.0-only
/*
 * hugezero-linux --kernel-line KEY=VALUE...: the kernel's boot line
 * checked by the kernel's own parser (lib/params.c, the kernel's side of
 * preset=), on the host, before a lab boots it.  Errors go to standard
 * error as the kernel would print them; on success one line of KEY=VALUE
 * words on standard output says what the line makes the kernel do, for
 * the host tools to size a job by (scripts/hzlib/lava.py).
 */
#include <stdio.h>
#include "hosted/kline.h"
#include "lib/matrix.h"
#include "lib/params.h"
#include "lib/preset.h"

/* The smallest folio size the line names: its configurations have the
 * most folios, so print the most samples. */
static u64 min_folio(u64 mask)
{
	for (u32 f = 0; f < FOLIO_COUNT; f++)
		if (mask & (1ULL << f))
			return folio_bytes[f];
	return SZ_2M;
}

int kline_main(const char *line)
{
	static struct hz_config c;
	static struct cmdline_result res;
	char cpus[256];
	bool ok;

	config_defaults(&c);
	ok = config_parse_target(line, &c, &res, false);
	ok &= config_check_target(&c, &res, false);
	for (u32 i = 0; i < MIN(res.nerrors, (u32)CMDLINE_MAX_ERRORS); i++)
		fprintf(stderr, "hugezero-linux: cmdline error: %s\n", res.errors[i]);
	if (!ok)
		return 2;
	cpulist_format(&c.cpus, cpus, sizeof(cpus));
	/* configs: the benchmark's KTAP plan, every folio size's matrix;
	 * min_folio and samples: how much the console prints a pass. */
	printf("bench=%s selftest=%d crash=%s preset=%s deadline_s=%llu "
	       "cpus=%s steps=%u size=%llu runs=%llu warmups=%llu configs=%u "
	       "min_folio=%llu samples=%s access=%s\n",
	       bench_names[c.bench], c.selftest, crash_names[c.crash],
	       preset_names[c.preset], (unsigned long long)c.deadline_s, cpus,
	       c.nscale ? c.nscale : 1, (unsigned long long)c.size,
	       /* runs=auto: the most it may run, what a timeout must allow */
	       (unsigned long long)(c.runs_auto ? c.max_runs : c.runs),
	       (unsigned long long)c.warmups,
	       c.bench == BENCH_FAULT ? matrix_count(&c) : 0,
	       (unsigned long long)min_folio(c.folios),
	       c.samples == SAMPLES_ALL ? "all" : "none",
	       c.access == ACCESS_NONE ? "none" : "some");
	return 0;
}

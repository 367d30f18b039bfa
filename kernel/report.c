// SPDX-License-Identifier: GPL-2.0-only
/*
 * The records that describe the machine and the boot, written once per
 * boot before any result, and the closing count.
 */
#include "arch/x86_64/cpuid.h"
#include "kernel/bootinfo.h"
#include "kernel/console.h"
#include "kernel/main.h"
#include "kernel/mm/memory.h"
#include "kernel/report.h"
#include "kernel/timebase.h"
#include "lib/benchrec.h"
#include "lib/format.h"
#include "lib/string.h"

struct rec_writer records;

static void emit(void *ctx, const char *line)
{
	(void)ctx;
	console_write(line, strlen(line));
}

void report_init(void)
{
	rec_writer_init(&records, emit, NULL);
}

void report_context(void)
{
	const struct cpu_info *c = &cpu_info;
	const struct timebase *t = &timebase;
	char feat[160], refs[200];
	struct machine_id m = {
		c->vendor, c->brand, c->hypervisor, feat, c->family, c->model,
		c->stepping, c->phys_bits, c->cache_line, c->microcode, c->l1d,
		c->l2, c->l3, memory.ram_bytes,
	};
	struct timebase_id tb = {
		t->tsc_hz, t->source, refs, t->invariant,
		t->max_disagreement_ppm, t->overhead_min, t->overhead_median,
	};
	size_t pos = 0;

	bench_rec_boot(&records, boot_info.loader,
		       boot_info.efi64 ? "uefi" : "bios", boot_info.cmdline);
	cpuid_features(feat, sizeof(feat));
	bench_rec_machine(&records, &m);
	refs[0] = '\0';
	for (u32 i = 0; i < t->nest; i++)
		if (t->est[i].usable && pos < sizeof(refs))
			pos += (size_t)ksnprintf(refs + pos, sizeof(refs) - pos,
						 "%s%s:%llu", pos ? "," : "",
						 t->est[i].name,
						 (unsigned long long)t->est[i].tsc_hz);
	bench_rec_timebase(&records, &tb);
}

void report_end(void)
{
	bench_rec_end(&records);
}

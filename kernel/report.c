// SPDX-License-Identifier: GPL-2.0-only
/*
 * The records that describe the machine and the boot, written once per
 * boot before any result, and the closing count.
 */
#include "arch/x86_64/cpuid.h"
#include "kernel/bootinfo.h"
#include "kernel/console.h"
#include "kernel/main.h"
#include "kernel/memory.h"
#include "kernel/report.h"
#include "kernel/timebase.h"
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

static void features(char *buf, size_t n)
{
	const struct cpu_info *c = &cpu_info;
	const struct { bool on; const char *name; } f[] = {
		{ c->has_pdpe1gb, "pdpe1gb" }, { c->has_erms, "erms" },
		{ c->has_fsrm, "fsrm" }, { c->has_sse2, "sse2" },
		{ c->has_avx, "avx" }, { c->has_avx2, "avx2" },
		{ c->has_avx512f, "avx512f" }, { c->has_clzero, "clzero" },
		{ c->has_invariant_tsc, "invariant_tsc" },
		{ c->has_rdtscp, "rdtscp" }, { c->has_x2apic, "x2apic" },
	};
	size_t pos = 0;

	buf[0] = '\0';
	for (u32 i = 0; i < ARRAY_SIZE(f); i++)
		if (f[i].on && pos < n)
			pos += (size_t)ksnprintf(buf + pos, n - pos, "%s%s",
						 pos ? "," : "", f[i].name);
}

void report_context(void)
{
	const struct cpu_info *c = &cpu_info;
	const struct timebase *t = &timebase;
	char feat[160], refs[200];
	size_t pos = 0;
	struct rec r;

	rec_begin(&records, &r, "boot");
	rec_str(&r, "version", HUGEZERO_VERSION);
	rec_str(&r, "loader", boot_info.loader);
	rec_str(&r, "firmware", boot_info.efi64 ? "uefi" : "bios");
	rec_str(&r, "cmdline", boot_info.cmdline);
	rec_end(&records, &r);

	features(feat, sizeof(feat));
	rec_begin(&records, &r, "machine");
	rec_str(&r, "vendor", c->vendor);
	rec_hex(&r, "family", c->family);
	rec_hex(&r, "model", c->model);
	rec_u64(&r, "stepping", c->stepping);
	rec_str(&r, "brand", c->brand);
	if (c->microcode != ~0ULL)
		rec_hex(&r, "microcode", c->microcode);
	else
		rec_str(&r, "microcode", "n/a");
	rec_str(&r, "hypervisor", c->hypervisor[0] ? c->hypervisor : "none");
	rec_u64(&r, "l1d", c->l1d);
	rec_u64(&r, "l2", c->l2);
	rec_u64(&r, "l3", c->l3);
	rec_u64(&r, "line", c->cache_line);
	rec_u64(&r, "mem", memory.ram_bytes);
	rec_u64(&r, "phys_bits", c->phys_bits);
	rec_str(&r, "features", feat);
	rec_end(&records, &r);

	refs[0] = '\0';
	for (u32 i = 0; i < t->nest; i++)
		if (t->est[i].usable && pos < sizeof(refs))
			pos += (size_t)ksnprintf(refs + pos, sizeof(refs) - pos,
						 "%s%s:%llu", pos ? "," : "",
						 t->est[i].name,
						 (unsigned long long)t->est[i].tsc_hz);
	rec_begin(&records, &r, "timebase");
	rec_u64(&r, "tsc_hz", t->tsc_hz);
	rec_str(&r, "source", t->source);
	rec_u64(&r, "invariant", t->invariant);
	rec_u64(&r, "disagreement_ppm", t->max_disagreement_ppm);
	rec_str(&r, "references", refs);
	rec_u64(&r, "overhead_min", t->overhead_min);
	rec_u64(&r, "overhead_median", t->overhead_median);
	rec_end(&records, &r);
}

void report_end(void)
{
	struct rec r;

	rec_begin(&records, &r, "end");
	rec_u64(&r, "records", records.seq);
	rec_end(&records, &r);
}

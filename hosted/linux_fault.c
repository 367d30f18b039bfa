// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench=linux-fault: Linux's own demand-fault zeroing, measured as perf
 * bench mem mmap -f demand and vm-scalability's anon-w-seq-hugetlb do.
 * Map anonymous memory (hugetlb 2M or 1G, THP, or base 4K pages), touch
 * each page once with a one-byte write (timed: the whole fault as this
 * process sees it), then optionally write or read the page (timed on its
 * own), and unmap.  The kernel chooses its own primitive and order; the
 * records call both "linux".
 */

#include <stdio.h>
#include <string.h>
#include "arch/x86_64/memops.h"
#include "arch/x86_64/tsc.h"
#include "hosted/companion.h"
#include "lib/calib.h"
#include "lib/format.h"

struct lf_cfg {
	struct bench_desc d;
	enum backing backing;
	u64 bytes;
	u32 count;
};

static bool applies(u32 folio, enum backing b)
{
	if (folio == FOLIO_4K)
		return b == BACKING_BASE;
	if (folio == FOLIO_2M)
		return b == BACKING_HUGETLB || b == BACKING_THP;
	return b == BACKING_HUGETLB;
}

static void touch_list(const struct hz_config *c, struct lf_cfg *l, u8 *base,
		       u64 *addr)
{
	u64 rng = c->seed;

	touch_permutation(c, l->count, addr, &rng);
	for (u32 k = 0; k < l->count; k++)
		addr[k] = (u64)base + addr[k] * l->bytes +
			  (u64)touch_page(c, l->bytes, &rng) * SZ_4K;
}

static bool one_pass(struct lf_cfg *l, struct samples *s,
		     struct bench_outcome *o, u32 run, const char *pass,
		     u32 *huge_pct)
{
	const struct hz_config *c = l->d.c;
	u32 before = o->failures;
	struct bench_pass p;
	struct region r;
	char why[200];

	if (!region_map(&r, l->d.size, l->backing, l->bytes, why, sizeof(why))) {
		bench_fail(o, "%s: %s", l->d.name, why);
		return false;
	}
	touch_list(c, l, r.base, s->page);
	for (u32 k = 0; k < l->count; k++) {
		u8 *a = (u8 *)s->page[k];
		u64 t0 = tsc_begin(), t1;

		*(volatile u8 *)a = 0;
		t1 = tsc_end();
		s->fault[k] = t1 - t0;
		s->access[k] = timed_access(a, l->bytes, c->access);
	}
	if (l->backing == BACKING_THP)
		*huge_pct = MIN(*huge_pct, region_huge_pct(&r));
	if (c->access != ACCESS_WRITE) {
		u64 off = find_not_qword(r.base, 0, l->d.size);

		if (off != ~0ULL)
			bench_fail(o, "%s: Linux gave memory not zero at offset "
				   "%#llx", l->d.name, (unsigned long long)off);
	}
	region_unmap(&r);
	p = (struct bench_pass){ run, pass, c->access, l->count, 0, s->fault,
				 NULL, s->access, c->access == ACCESS_WRITE ?
				 "n/a" : o->failures > before ? "fail" : "ok" };
	bench_rec_run(&records, &l->d, &p);
	if (strcmp(pass, "measure") == 0) {
		if (c->samples == SAMPLES_ALL) {
			bench_rec_samples(&records, l->d.id, run, "fault",
					  s->fault, l->count);
			if (c->access != ACCESS_NONE)
				bench_rec_samples(&records, l->d.id, run,
						  "access", s->access, l->count);
		}
		bench_keep_run(o, &p, s->scratch);
	}
	return true;
}

/* On a VM the first touch of guest memory is the hypervisor's fault too:
 * runs that disagree say so rather than average it in. */
static void agreement(const struct bench_outcome *o, char *note, size_t n)
{
	u64 lo = ~0ULL, hi = 0;

	for (u32 i = 0; i < o->nruns; i++) {
		lo = MIN(lo, o->fault_total[i]);
		hi = MAX(hi, o->fault_total[i]);
	}
	if (o->nruns > 1 && hi > lo + lo / 4)
		ksnprintf(note, n, "runs disagree: slowest %llu%% of fastest%s",
			  (unsigned long long)(hi * 100 / lo), host.vm ?
			  " (a VM: first touch of guest memory is the "
			  "hypervisor's fault; raise warmups=)" : "");
}

static u32 run_cfg(struct lf_cfg *l, struct samples *s)
{
	static struct bench_outcome o;
	const struct hz_config *c = l->d.c;
	char why[240] = "", note[200] = "";
	u32 run = 0, huge = 100;
	bool ok = true;

	memset(&o, 0, sizeof(o));
	bench_rec_config(&records, &l->d);
	if (l->backing == BACKING_THP && (!host.thp_enabled[0] ||
					   strcmp(host.thp_enabled, "never") == 0))
		ksnprintf(why, sizeof(why), "transparent huge pages are off or "
			  "absent (/sys/kernel/mm/transparent_hugepage/enabled: "
			  "'%s')", host.thp_enabled);
	if (why[0] || (l->backing == BACKING_HUGETLB &&
		       !hugetlb_ensure(l->bytes, l->count, why, sizeof(why)))) {
		bench_rec_summary(&records, &l->d, &o, "skip", why, tsc_hz);
		fprintf(stderr, "skip %s: %s\n", l->d.name, why);
		return 0;
	}
	for (u64 i = 0; ok && i < c->warmups; i++)
		ok = one_pass(l, s, &o, run++, "warmup", &huge);
	for (u64 i = 0; ok && i < c->runs; i++)
		ok = one_pass(l, s, &o, run++, "measure", &huge);
	agreement(&o, note, sizeof(note));
	if (l->backing == BACKING_THP && huge < 90)
		ksnprintf(note + strlen(note), sizeof(note) - strlen(note),
			  "%sonly %u%% of the region got huge pages (THP %s, "
			  "defrag %s)", note[0] ? "; " : "", huge,
			  host.thp_enabled, host.thp_defrag);
	bench_rec_summary(&records, &l->d, &o, o.failures ? "fail" : "ok",
			  o.failures ? o.first : note[0] ? note : NULL, tsc_hz);
	fprintf(stderr, "%s %s%s%s\n", o.failures ? "FAIL" : "ok  ", l->d.name,
		note[0] ? ": " : "", note);
	return o.failures ? 1 : 0;
}

u32 run_linux_fault(const struct hz_config *c, u32 *id)
{
	u32 failed = 0;

	for (u32 f = 0; f < FOLIO_COUNT; f++)
		for (u32 b = 0; b < BACKING_COUNT; b++) {
			struct lf_cfg l;
			struct samples s;

			if (!(c->folios >> f & 1) || !(c->backings >> b & 1) ||
			    !applies(f, b))
				continue;
			memset(&l, 0, sizeof(l));
			l.backing = b;
			l.bytes = folio_bytes[f];
			l.count = (u32)MIN(c->size / l.bytes, (u64)(1u << 20));
			if (b != BACKING_HUGETLB && host.mem_available &&
			    (u64)l.count * l.bytes > host.mem_available / 2) {
				l.count = (u32)(host.mem_available / 2 / l.bytes);
				fprintf(stderr, "hugezero-linux: size clamped to "
					"%llu MiB: half of MemAvailable\n",
					(unsigned long long)((u64)l.count * l.bytes >> 20));
			}
			l.d.c = c;
			l.d.id = ++*id;
			l.d.bench = "linux-fault";
			l.d.folio = folio_names[f];
			l.d.clear = "linux";
			l.d.order = "linux";
			l.d.backing = backing_names[b];
			l.d.size = (u64)l.count * l.bytes;
			l.d.folios = l.count;
			ksnprintf(l.d.name, sizeof(l.d.name), "linux.%s.%s",
				  folio_names[f], backing_names[b]);
			if (!l.count || !samples_alloc(&s, l.count)) {
				fprintf(stderr, "hugezero-linux: %s: no memory\n",
					l.d.name);
				failed++;
				continue;
			}
			failed += run_cfg(&l, &s);
			samples_free(&s);
		}
	return failed;
}

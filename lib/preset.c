// SPDX-License-Identifier: GPL-2.0-only
/*
 * The seeds' experiments as presets (docs/reproducing.md): the keys each
 * expands to, and how each fits itself to a machine smaller than the
 * seed's.  Everything here is a pure function of its arguments, so the
 * host tests give it any machine.
 */
#include "lib/preset.h"
#include "lib/format.h"
#include "lib/matrix.h"
#include "lib/prims.h"
#include "lib/string.h"

const char *const preset_names[] = { "none", "seed-000", "seed-001",
				     "seed-002", NULL };

/*
 * The kernel runs hugezero's side, the companion Linux's.  size= is a
 * placeholder the sizing replaces unless the line gives it; it must be
 * a whole number of every folio the keys name, as config_check wants.
 */
const struct preset presets[PRESET_COUNT] = {
	[PRESET_NONE] = { "none", "", "", "" },
	/* vm-scalability case-anon-w-seq-hugetlb: usemem -n NCPU, each
	 * process writing its hugetlb region sequentially; patch 8/8. */
	[PRESET_SEED_000] = {
		"seed-000",
		"000: Ankur Arora, [PATCH v11 8/8] mm: folio_zero_user: clear "
		"page ranges (neighbourhood-last, vm-scalability on Genoa)",
		"bench=fault cpus=all folio=2M order=discontiguous-page,"
		"contiguous-page,batched-pages,neighbourhood-last access=write "
		"touch=seq runs=5 warmups=1 size=2G",
		"bench=linux-fault cpus=all folio=2M backing=hugetlb,thp "
		"access=write touch=seq runs=5 warmups=1 size=2G",
	},
	/* v3's tables name no workload (not perf's: its mmap bench came
	 * with v4, which measures perf bench mem mmap -p 2MB|1GB -f demand
	 * -s 64GB -l 5): Linux's side is linux-fault, with perf's figure
	 * beside its own (docs/companion.md).  The seed ran with boost=0
	 * (Milan) and no_turbo=1 (Icelake-X): boost=off. */
	[PRESET_SEED_001] = {
		"seed-001",
		"001: Ankur Arora, [PATCH v3 0/4] mm/folio_zero_user: add "
		"multi-page clearing (Milan, Icelake-X)",
		"bench=fault folio=2M,1G order=converging-page,contiguous-page "
		"preempt=none,full access=none runs=5 warmups=1 boost=off "
		"size=16G",
		"bench=split folio=2M,1G order=converging-page,contiguous-page "
		"backing=hugetlb access=none runs=5 warmups=1 boost=off "
		"size=16G",
	},
	/* Li Zhe's reply: 64 x 1 GiB faulted, total and per page. */
	[PRESET_SEED_002] = {
		"seed-002",
		"002: Li Zhe, Re: [PATCH 0/8] Introduce a huge-page pre-zeroing "
		"mechanism (Skylake, 64 x 1G)",
		"bench=fault folio=1G order=linux prezero=none,request,idle,"
		"dedicated preempt=full prezero_high=90 prezero_low=60 "
		"access=none runs=3 warmups=1 size=64G",
		"bench=linux-fault folio=1G backing=hugetlb prezero=none,request "
		"access=none runs=3 warmups=1 size=64G",
	},
};

const char *preset_keys(u32 id, bool companion)
{
	if (id >= PRESET_COUNT)
		return "";
	return companion ? presets[id].companion : presets[id].kernel;
}

bool preset_sets(u32 id, bool companion, const char *key)
{
	const char *s = preset_keys(id, companion);
	size_t n = strlen(key);

	for (; *s; s++)
		if ((s == preset_keys(id, companion) || s[-1] == ' ') &&
		    strncmp(s, key, n) == 0 && s[n] == '=')
			return true;
	return false;
}

/* Append to one of the sizing's texts, "; " between parts. */
static void say(char *buf, const char *fmt, ...) __printf(2, 3);

static void say(char *buf, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	if (len && len + 2 < PRESET_TEXT) {
		memcpy(buf + len, "; ", 3);
		len += 2;
	}
	va_start(ap, fmt);
	kvsnprintf(buf + len, PRESET_TEXT - len, fmt, ap);
	va_end(ap);
}

static void say_size(char *buf, const char *key, u64 bytes)
{
	char s[24];

	say(buf, "%s=%s", key, size_name(bytes, s, sizeof(s)));
}

/* Round @bytes down to whole @unit, at least one. */
static u64 fit(u64 bytes, u64 unit)
{
	return MAX(bytes / unit, 1ULL) * unit;
}

/*
 * clear=: Linux's own primitive for this CPU and, where the preset
 * compares primitives, every other one the CPU has (the best of them is
 * found by measuring: scripts/hugezero table names it).
 */
static void size_clear(u32 id, const struct preset_machine *m,
		       const struct cmdline_result *user, struct hz_config *c,
		       struct preset_sizing *out)
{
	if (config_given(user, "clear"))
		return;
	if (id == PRESET_SEED_001 && !m->companion) {
		c->prims = prims_all();
		say(out->chose, "clear=all");
		say(out->why, "clear: Linux's %s against every other primitive "
		    "this CPU has, for the best", prim_names[m->linux_prim]);
		return;
	}
	if (m->companion)
		return;		/* Linux's own, or bare's clear= as given */
	c->prims = 1ULL << m->linux_prim;
	say(out->chose, "clear=%s", prim_names[m->linux_prim]);
	say(out->why, "clear: %s is what Linux's clear_page() uses on this CPU",
	    prim_names[m->linux_prim]);
}

/* Half the free memory: the rest is the region's tables, the samples,
 * and (companion) everything else the host runs. */
static u64 budget(const struct preset_machine *m)
{
	return m->mem / 2;
}

/* Why a preset cannot run: not one @unit folio (each of @n CPUs) in
 * the budget. */
static bool refuse(const struct preset_machine *m, u64 unit, u32 n,
		   struct preset_sizing *out)
{
	char s[24];

	memset(out, 0, sizeof(*out));
	ksnprintf(out->why, PRESET_TEXT, "half the free memory (%llu of %llu "
		  "MiB) holds not one %s folio%s", (unsigned long long)
		  (budget(m) >> 20), (unsigned long long)(m->mem >> 20),
		  size_name(unit, s, sizeof(s)), n > 1 ? " per CPU" : "");
	return false;
}

static bool size_000(const struct preset_machine *m,
		     const struct cmdline_result *user, struct hz_config *c,
		     struct preset_sizing *out)
{
	u32 n = MAX(m->ncpus, 1u);

	if (!config_given(user, "size")) {
		u64 per = MIN(fit(budget(m) / n, SZ_2M), 4 * GiB);

		if (budget(m) / n < SZ_2M)
			return refuse(m, SZ_2M, n, out);
		c->size = per;
		say_size(out->chose, "size", per);
		say(out->why, "size: half the free memory over %u CPUs, at most "
		    "4G each", n);
	}
	say(out->scaled, "%u CPUs, not the seed's 384", n);
	say(out->scaled, "memory: the seed's Genoa had 2.2 TB");
	return true;
}

/* No 1G row where 1G pages are missing or one does not fit the budget. */
static void size_001_folio(const struct preset_machine *m,
			   struct hz_config *c, struct preset_sizing *out)
{
	bool fits = budget(m) >= GiB && (!m->companion || m->free_1g);

	if (m->has_1g && fits)
		return;
	c->folios &= ~(1ULL << FOLIO_1G);
	say(out->chose, "folio=2M");
	say(out->why, "folio: %s", !m->has_1g ? (m->companion ?
	    "no 1G hugetlb pages here" : "CPUID lacks pdpe1gb") :
	    "one 1G folio does not fit half the free memory");
	say(out->scaled, "no 1G row");
}

static bool size_001(const struct preset_machine *m,
		     const struct cmdline_result *user, struct hz_config *c,
		     struct preset_sizing *out)
{
	u64 unit = SZ_2M;

	if (!config_given(user, "folio"))
		size_001_folio(m, c, out);
	else if (!(c->folios & (1ULL << FOLIO_1G)))
		say(out->scaled, "no 1G row (folio= on the line)");
	if (c->folios & (1ULL << FOLIO_1G))
		unit = GiB;
	if (!config_given(user, "size")) {
		u64 want = 16 * GiB, have = budget(m);

		if (m->companion && (c->folios & (1ULL << FOLIO_1G)))
			have = MIN(have, m->free_1g * GiB);
		if (have < unit)
			return refuse(m, unit, 1, out);
		c->size = MIN(fit(have, unit), want);
		say_size(out->chose, "size", c->size);
		say(out->why, "size: at most 16G per configuration (%s), and "
		    "half the free memory", m->companion ?
		    "Linux's fault, then every primitive x 2 orders, 6 passes "
		    "each" : "every primitive x 2 orders x 2 models x 6 passes");
	}
	if (c->size < 64 * GiB)
		say(out->scaled, "size %llu MiB per configuration, not the "
		    "seed's 64 GiB", (unsigned long long)(c->size >> 20));
	return true;
}

static bool size_002(const struct preset_machine *m,
		     const struct cmdline_result *user, struct hz_config *c,
		     struct preset_sizing *out)
{
	u64 k = MIN(MIN(budget(m) / GiB, m->free_1g), 64ULL);
	bool one_g = m->has_1g && k >= 2;

	if (!config_given(user, "folio") && !one_g) {
		c->folios = 1ULL << FOLIO_2M;
		say(out->chose, "folio=2M");
		say(out->why, "folio: 2M, because %s", !m->has_1g ?
		    (m->companion ? "there are no free 1G hugetlb pages" :
		     "CPUID lacks pdpe1gb") : "fewer than two 1G folios fit");
		say(out->scaled, "2M folios, not the seed's 1G");
	}
	if (!config_given(user, "size")) {
		if (c->folios & (1ULL << FOLIO_1G)) {
			if (!k)
				return refuse(m, GiB, 1, out);
			c->size = k * GiB;
			say(out->why, "size: %llu x 1G, the seed's 64 or what "
			    "half the free memory holds",
			    (unsigned long long)k);
		} else {
			if (budget(m) < SZ_2M)
				return refuse(m, SZ_2M, 1, out);
			c->size = MIN(fit(budget(m), SZ_2M), 64 * GiB);
			say(out->why, "size: the seed's 64G or half the free "
			    "memory");
		}
		say_size(out->chose, "size", c->size);
	}
	if (c->size < 64 * GiB)
		say(out->scaled, "%llu MiB faulted, not the seed's 64 GiB",
		    (unsigned long long)(c->size >> 20));
	if (!m->companion && m->ncpus < 2)
		say(out->scaled, "one CPU: prezero=dedicated is skipped");
	return true;
}

bool preset_size(u32 id, const struct preset_machine *m,
		 const struct cmdline_result *user, struct hz_config *c,
		 struct preset_sizing *out)
{
	bool ok = true;

	memset(out, 0, sizeof(*out));
	if (id == PRESET_NONE || id >= PRESET_COUNT)
		return true;
	if (id == PRESET_SEED_000)
		ok = size_000(m, user, c, out);
	else if (id == PRESET_SEED_001)
		ok = size_001(m, user, c, out);
	else
		ok = size_002(m, user, c, out);
	if (!ok)
		return false;	/* refuse() said why */
	size_clear(id, m, user, c, out);
	if (!out->chose[0]) {
		say(out->chose, "nothing: the line gave it all");
		say(out->why, "the line's own keys");
	}
	if (!out->scaled[0])
		say(out->scaled, "nothing");
	return true;
}

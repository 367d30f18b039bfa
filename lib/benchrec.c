// SPDX-License-Identifier: GPL-2.0-only
/*
 * The benchmark's records (docs/records.md), written alike by the kernel
 * and the companion: boot, machine, timebase, preset, config, run,
 * samples, end.  The summary record is lib/outcome.c's, with the
 * arithmetic behind it.
 */
#include "lib/benchrec.h"
#include "lib/cpulist.h"
#include "lib/format.h"
#include "lib/order.h"
#include "lib/outcome.h"
#include "lib/preset.h"
#include "lib/prims.h"
#include "lib/string.h"
#include "lib/tree.h"
#include "lib/verify.h"
#include "lib/version.h"

void bench_rec_preset(struct rec_writer *w, u32 id, bool companion, bool ok,
		      const struct preset_sizing *z, const char *linux_clear)
{
	struct rec r;

	rec_begin(w, &r, "preset");
	rec_str(&r, "name", preset_names[id]);
	rec_str(&r, "seed", presets[id].seed);
	rec_str(&r, "side", companion ? "linux" : "hugezero");
	rec_str(&r, "keys", preset_keys(id, companion));
	rec_str(&r, "status", ok ? "ok" : "not-run");
	rec_str(&r, "chose", z->chose);
	rec_str(&r, "why", z->why);
	rec_str(&r, "scaled", z->scaled);
	rec_str(&r, "linux_clear", linux_clear);
	rec_end(w, &r);
}

void bench_rec_boot(struct rec_writer *w, const char *loader,
		    const char *firmware, const char *cmdline)
{
	struct rec r;

	rec_begin(w, &r, "boot");
	rec_str(&r, "version", HUGEZERO_VERSION);
	rec_u64(&r, "format", RECORD_FORMAT);
	/* Which source: compare knows two builds of one (the Makefile). */
	rec_str(&r, "hugezero_git", HZ_GIT);
	rec_str(&r, "loader", loader);
	rec_str(&r, "firmware", firmware);
	rec_str(&r, "cmdline", cmdline);
	/* make LINUX=DIR: the image carries the tree's routines */
	if (linux_tree) {
		rec_str(&r, "linux_tree", linux_tree->version);
		if (linux_tree->describe)
			rec_str(&r, "linux_tree_git", linux_tree->describe);
		rec_str(&r, "linux_tree_sha256", linux_tree->sha256);
	}
	/* ... and its mm/memory.c's zeroing, order=tree (lib/tree.h) */
	if (tree_zero) {
		rec_str(&r, "linux_tree_entry", tree_zero->entry);
		rec_str(&r, "linux_tree_entry_sha256", tree_zero->sha256);
	}
	rec_end(w, &r);
}

void bench_rec_end(struct rec_writer *w)
{
	struct rec r;

	rec_begin(w, &r, "end");
	/* Itself included: its number is taken as it ends, and nothing
	 * else writes once the run is over. */
	rec_u64(&r, "records", w->seq + 1);
	rec_end(w, &r);
}

void bench_rec_machine(struct rec_writer *w, const struct machine_id *m)
{
	struct rec r;

	rec_begin(w, &r, "machine");
	rec_str(&r, "vendor", m->vendor);
	rec_hex(&r, "family", m->family);
	rec_hex(&r, "model", m->model);
	rec_u64(&r, "stepping", m->stepping);
	rec_str(&r, "brand", m->brand);
	if (m->microcode != ~0ULL)
		rec_hex(&r, "microcode", m->microcode);
	else
		rec_str(&r, "microcode", "n/a");
	rec_str(&r, "hypervisor", m->hypervisor[0] ? m->hypervisor : "none");
	rec_u64(&r, "l1d", m->l1d);
	rec_u64(&r, "l2", m->l2);
	rec_u64(&r, "l3", m->l3);
	rec_u64(&r, "line", m->line);
	rec_u64(&r, "mem", m->mem);
	rec_u64(&r, "phys_bits", m->phys_bits);
	rec_str(&r, "features", m->features);
	if (m->rethunk_linux) {
		rec_str(&r, "rethunk_linux", m->rethunk_linux);
		rec_str(&r, "rethunk_why", m->rethunk_why);
	}
	if (m->fast_strings)
		rec_str(&r, "fast_strings", m->fast_strings);
	if (m->linux_clear) {
		rec_str(&r, "linux_clear", m->linux_clear);
		rec_str(&r, "linux_clear_why", m->linux_clear_why);
	}
	rec_end(w, &r);
}

void bench_rec_timebase(struct rec_writer *w, const struct timebase_id *t)
{
	struct rec r;

	rec_begin(w, &r, "timebase");
	rec_u64(&r, "tsc_hz", t->tsc_hz);
	rec_str(&r, "source", t->source);
	rec_u64(&r, "invariant", t->invariant);
	rec_u64(&r, "disagreement_ppm", t->disagreement_ppm);
	rec_str(&r, "references", t->references);
	rec_u64(&r, "overhead_min", t->overhead_min);
	rec_u64(&r, "overhead_median", t->overhead_median);
	if (t->retries) {
		rec_str(&r, "retries", t->retries);
		rec_str(&r, "outliers", t->outliers[0] ? t->outliers : "none");
		rec_u64(&r, "consensus_ppm", t->consensus_ppm);
	}
	rec_end(w, &r);
}

static void rec_prezero(struct rec *r, const struct bench_desc *d)
{
	const struct hz_config *c = d->c;

	rec_str(r, "prezero", d->prezero);
	if (!strcmp(d->prezero, "none"))
		return;
	/* Linux's zeroable_hugepages clears as Linux does. */
	rec_str(r, "prezero_clear", d->linux_folios ? "linux" :
		c->prezero_clear == PREZERO_SAME ? d->clear :
		prim_names[c->prezero_clear]);
	rec_str(r, "prezero_order", d->linux_folios ? "linux" :
		c->prezero_order == PREZERO_SAME ? d->order :
		order_choice_names[c->prezero_order]);
	if (!strcmp(d->prezero, "request")) {
		if (c->prezero_n == PREZERO_ALL)
			rec_str(r, "prezero_n", "all");
		else
			rec_u64(r, "prezero_n", c->prezero_n);
	}
	if (!strcmp(d->prezero, "dedicated")) {
		rec_u64(r, "prezero_cpu", d->prezero_cpu);
		rec_str(r, "prezero_pool", prezero_pool_names[c->prezero_pool]);
	}
	if (!strcmp(d->prezero, "dedicated") || !strcmp(d->prezero, "idle")) {
		rec_u64(r, "prezero_low", c->prezero_low);
		rec_u64(r, "prezero_high", c->prezero_high);
		rec_u64(r, "prezero_idle_ms", c->prezero_idle_ms);
	}
}

/*
 * Counters the firmware had left enabled (pmu_caps_check(), Linux's
 * "Broken BIOS detected"): hugezero counts over them as Linux does, and
 * says so, since the firmware may count on them too (SMM).
 */
void rec_pmu_firmware(struct rec *r, const struct pmu_firmware *fw)
{
	if (!fw->mask)
		return;
	rec_hex(r, "pmu_firmware", fw->mask);
	rec_hex(r, "pmu_firmware_msr", fw->msr);
	rec_hex(r, "pmu_firmware_val", fw->val);
}

/* Whether an earlier skipped slot than @i gave the same reason. */
static bool reason_said(const struct pmu_plan *p, u32 i)
{
	for (u32 j = 0; j < i; j++)
		if (p->slots[j].skip && !strcmp(p->slots[j].skip, p->slots[i].skip))
			return true;
	return false;
}

/*
 * pmu_skip: "EVENT[,EVENT...]: reason; ...", the events that share a
 * reason named together, so that a PMU-wide reason (no PMU at all) is
 * written once, not once per event, and the record stays within
 * RECORD_MAX.
 */
static size_t skip_list(const struct pmu_plan *p, char *buf, size_t size)
{
	size_t k = 0;

	for (u32 i = 0; i < p->nslots; i++) {
		const struct pmu_slot *s = &p->slots[i];

		if (!s->skip || reason_said(p, i))
			continue;
		k += (size_t)ksnprintf(buf + k, size - MIN(k, size), "%s%s",
				       k ? "; " : "", s->name);
		for (u32 j = i + 1; j < p->nslots; j++)
			if (p->slots[j].skip && !strcmp(p->slots[j].skip, s->skip))
				k += (size_t)ksnprintf(buf + k, size - MIN(k, size),
						       ",%s", p->slots[j].name);
		k += (size_t)ksnprintf(buf + k, size - MIN(k, size), ": %s",
				       s->skip);
	}
	return k;
}

/*
 * The companion's pmu_bracket: "EVENT:N,...", what one read(2) pair with
 * nothing between counts, the least of eight, inside every sample.
 */
static void rec_pmu_bracket(struct rec *r, const struct pmu_plan *p)
{
	char buf[160] = "";
	size_t b = 0;

	if (!p->bracketed)
		return;
	for (u32 i = 0; i < p->nslots; i++)
		if (!p->slots[i].skip)
			b += (size_t)ksnprintf(buf + b, sizeof(buf) - MIN(b, sizeof(buf)),
					       "%s%s:%llu", b ? "," : "",
					       p->slots[i].name,
					       (unsigned long long)p->slots[i].bracket);
	rec_str(r, "pmu_bracket", buf);
}

/* pmu=: the events asked for, those counted, and why each other is not. */
static void rec_pmu(struct rec *r, const struct pmu_plan *p)
{
	char asked[160] = "", counted[160] = "", skip[400] = "";
	size_t a = 0, c = 0, k;

	for (u32 i = 0; i < p->nslots; i++) {
		const struct pmu_slot *s = &p->slots[i];

		a += (size_t)ksnprintf(asked + a, sizeof(asked) - MIN(a, sizeof(asked)),
				       "%s%s", a ? "," : "", s->name);
		if (!s->skip)
			c += (size_t)ksnprintf(counted + c, sizeof(counted) -
					       MIN(c, sizeof(counted)), "%s%s",
					       c ? "," : "", s->name);
	}
	k = skip_list(p, skip, sizeof(skip));
	rec_str(r, "pmu", asked);
	rec_str(r, "pmu_counted", c ? counted : "none");
	if (k)
		rec_str(r, "pmu_skip", skip);
	rec_pmu_bracket(r, p);
	rec_pmu_firmware(r, &p->fw);
}

static void rec_smp(struct rec *r, const struct bench_smp *s)
{
	rec_str(r, "cpus", s->cpus);
	rec_u64(r, "ncpus", s->ncpus);
	rec_u64(r, "cpu", s->cpu);
	if (s->has_apic_id)
		rec_u64(r, "apic_id", s->apic_id);
	rec_u64(r, "node", s->node);
	rec_str(r, "mem_node", s->mem_node);
	rec_str(r, "numa", s->numa);
	rec_u64(r, "group", s->group);
}

/* A tree primitive (make LINUX=): the tree's routine and its convention. */
static void rec_tree_prim(struct rec *r, const char *clear)
{
	enum prim_id p = prim_by_name(clear);
	const char *abi = prim_tree_abi(p);

	if (!abi)
		return;
	rec_str(r, "tree_routine", prim_descs[p].linux_fn);
	rec_str(r, "tree_abi", abi);
}

/* runs=auto and its limits as given (docs/statistics.md): precision in
 * percent as the line takes it (precision_format). */
/* inject_cpu=: the list as given ("all" stays "all"). */
static void rec_cpus(struct rec *r, const char *key, const struct cpu_set *s)
{
	char text[CPULIST_TEXT_MAX + 1];

	if (cpulist_format(s, text, sizeof(text)) < (int)sizeof(text))
		rec_str(r, key, text);
}

static void rec_auto(struct rec *r, const struct hz_config *c)
{
	char buf[24];

	rec_str(r, "runs", "auto");
	precision_format(c->precision_x100, buf, sizeof(buf));
	rec_str(r, "precision", buf);
	rec_u64(r, "max_runs", c->max_runs);
	rec_u64(r, "budget_s", c->budget_s);
}

void bench_rec_config(struct rec_writer *w, const struct bench_desc *d)
{
	const struct hz_config *c = d->c;
	struct rec r;

	rec_begin(w, &r, "config");
	rec_u64(&r, "cfg", d->id);
	rec_str(&r, "name", d->name);
	rec_str(&r, "bench", d->bench);
	rec_str(&r, "folio", d->folio);
	rec_str(&r, "clear", d->clear);
	rec_tree_prim(&r, d->clear);
	rec_str(&r, "order", d->order);
	if (d->plan.order == ORDER_TREE && tree_zero) {
		rec_str(&r, "tree_entry", tree_zero->entry);
		rec_str(&r, "tree_entry_sha256", tree_zero->sha256);
	}
	rec_u64(&r, "chunk", d->chunk);
	rec_u64(&r, "radius", d->radius);
	rec_u64(&r, "size", d->size);
	rec_u64(&r, "size_requested", c->size);
	rec_u64(&r, "folios", d->folios);
	if (d->clamped)
		rec_str(&r, "clamped", d->clamped);
	if (d->pa_max) {
		rec_u64(&r, "pa_min", d->pa_min);
		rec_u64(&r, "pa_max", d->pa_max);
	}
	if (d->backing)
		rec_str(&r, "backing", d->backing);
	rec_str(&r, "touch", touch_names[c->touch]);
	rec_str(&r, "offset", offset_names[c->offset]);
	rec_str(&r, "access", access_names[c->access]);
	/* Linux picks the folios of a demand fault: their cache state and
	 * contents are its own. */
	rec_str(&r, "cache", d->linux_folios ? "linux" : cache_names[c->cache]);
	rec_str(&r, "fill", d->linux_folios ? "none" : "movq");
	rec_u64(&r, "llc", d->llc);
	/* A warm run over less than 4 x LLC measures a cache, not memory:
	 * every region of the group on this LLC counts against it. */
	rec_u64(&r, "fits_llc", d->llc && d->size * MAX(d->llc_regions, 1u) <
		4 * d->llc);
	if (d->llc_regions > 1)
		rec_u64(&r, "llc_regions", d->llc_regions);
	rec_str(&r, "pte", pte_names[c->pte]);
	if (d->rethunk) {
		rec_str(&r, "rethunk", d->rethunk);
		rec_str(&r, "rethunk_thunk", d->rethunk_thunk);
	}
	if (d->preempt)
		rec_str(&r, "preempt", d->preempt);
	if (d->linux_offered)
		rec_str(&r, "linux_offered", d->linux_offered);
	if (d->kernel_fpu_save_ticks)
		rec_u64(&r, "kernel_fpu_save_ticks", d->kernel_fpu_save_ticks);
	if (d->kernel_fpu_call_ticks)
		rec_u64(&r, "kernel_fpu_call_ticks", d->kernel_fpu_call_ticks);
	if (c->preempts)
		rec_u64(&r, "hz", c->hz);
	/* The probe runs beside kernel models and Linux's demand faults,
	 * never beside bare clearing. */
	if (c->preempts || d->probe_policy)
		rec_str(&r, "probe", probe_names[c->probe]);
	if (c->probe != PROBE_NONE && (c->preempts || d->probe_policy)) {
		rec_u64(&r, "probe_us", c->probe_us);
		rec_str(&r, "probe_class", probe_class_names[c->probe_class]);
		if (d->probe_policy)
			rec_str(&r, "probe_policy", d->probe_policy);
	}
	rec_u64(&r, "cpl", c->cpl);
	rec_u64(&r, "warmups", c->warmups);
	if (c->runs_auto)
		rec_auto(&r, c);
	else
		rec_u64(&r, "runs", d->runs ? d->runs : c->runs);
	rec_str(&r, "interleave", d->round_group ? "on" : "off");
	if (d->round_group)
		rec_u64(&r, "round_group", d->round_group);
	rec_str(&r, "verify", verify_names[c->verify]);
	rec_u64(&r, "sample_lines_per_page", c->verify == VERIFY_FULL ?
		SZ_4K / LINE : SAMPLE_LINES_PER_PAGE);
	rec_u64(&r, "seed", c->seed);
	rec_str(&r, "inject", inject_names[c->inject]);
	if (c->inject == INJECT_SKIP_LINE)
		rec_u64(&r, "inject_lines", c->inject_lines);
	if (c->inject != INJECT_NONE &&
	    cpu_set_count(&c->inject_cpu, CPUSET_MAX))
		rec_cpus(&r, "inject_cpu", &c->inject_cpu);
	if (d->prezero)
		rec_prezero(&r, d);
	if (d->pmu)
		rec_pmu(&r, d->pmu);
	if (d->freq_src)
		rec_str(&r, "freq", d->freq_src);
	if (d->smi_src)
		rec_str(&r, "smi", d->smi_src);
	/* firmware, what every log before boost= ran, says nothing here */
	if (c->boost != BOOST_FIRMWARE)
		rec_str(&r, "boost", boost_names[c->boost]);
	if (d->boost)
		boost_rec_config(&r, d->boost);
	if (d->smp)
		rec_smp(&r, d->smp);
	rec_end(w, &r);
}

void bench_rec_run(struct rec_writer *w, const struct bench_desc *d,
		   const struct bench_pass *p)
{
	struct rec r;

	rec_begin(w, &r, "run");
	rec_u64(&r, "cfg", d->id);
	rec_u64(&r, "run", p->run);
	rec_str(&r, "pass", p->pass);
	if (p->has_round) {
		rec_u64(&r, "round", p->round);
		rec_u64(&r, "slot", p->slot);
	}
	rec_str(&r, "access", access_names[p->access]);
	rec_u64(&r, "faults", p->faults);
	rec_u64(&r, "resched", p->resched);
	if (p->has_calls) {
		rec_u64(&r, "prim_calls", p->prim_calls);
		rec_u64(&r, "prim_calls_max", p->prim_calls_max);
	}
	if (p->has_rethunk_returns)
		rec_u64(&r, "rethunk_returns", p->rethunk_returns);
	if (p->has_fpu_pairs)
		rec_u64(&r, "kernel_fpu_pairs", p->fpu_pairs);
	if (p->fault)
		rec_u64(&r, "fault_ticks", sum_u64(p->fault, p->faults));
	if (p->clear)
		rec_u64(&r, "clear_ticks", sum_u64(p->clear, p->faults));
	if (p->access != ACCESS_NONE && p->access_t)
		rec_u64(&r, "access_ticks", sum_u64(p->access_t, p->faults));
	rec_str(&r, "verify", p->verify);
	if (p->counted) {
		rec_u64(&r, "irqs", p->irqs);
		rec_u64(&r, "irq_ticks", p->irq_ticks);
		rec_u64(&r, "switches", p->switches);
		rec_u64(&r, "preemptions", p->preemptions);
		if (p->has_lazy)
			rec_u64(&r, "lazy_ticks", p->lazy_ticks);
		rec_u64(&r, "fpu_saves", p->fpu_saves);
		rec_u64(&r, "fpu_restores", p->fpu_restores);
	}
	if (p->prezero_by) {
		if (!p->prezeroed_unknown)
			rec_u64(&r, "prezeroed_faults", p->prezeroed);
		rec_str(&r, "prezero_by", p->prezero_by);
		rec_u64(&r, "prezero_ticks", p->prezero_ticks);
		rec_u64(&r, "prezero_folios", p->prezero_folios);
		if (p->zeroer_counted) {
			rec_u64(&r, "prezero_resched", p->prezero_resched);
			rec_u64(&r, "prezero_waits", p->prezero_waits);
			rec_u64(&r, "prezero_wait_ticks",
				p->prezero_wait_ticks);
		}
	}
	if (p->rusage) {
		rec_u64(&r, "stime_us", p->stime_us);
		rec_u64(&r, "utime_us", p->utime_us);
	}
	if (p->has_freq)
		rec_u64(&r, "eff_khz", p->eff_khz);
	if (p->has_smi)
		rec_u64(&r, "smis", p->smis);
	if (p->has_wall)
		rec_u64(&r, "wall_ns", p->wall_ns);
	if (p->probe) {
		rec_u64(&r, "probe_wakeups", p->nprobe);
		rec_u64(&r, "probe_expected", p->probe_expected);
	}
	if (d->c->inject == INJECT_SKIP_LINE && p->verified) {
		rec_u64(&r, "injected", p->injected);
		rec_u64(&r, "injected_seen", p->injected_seen);
		rec_u64(&r, "detected", p->detected);
	}
	rec_end(w, &r);
}

void bench_rec_samples(struct rec_writer *w, u32 cfg, u32 run, const char *kind,
		       const u64 *v, u32 n)
{
	char num[24];
	struct rec r;

	for (u32 k = 0; k < n;) {
		u32 first = k;

		rec_begin(w, &r, "samples");
		rec_u64(&r, "cfg", cfg);
		rec_u64(&r, "run", run);
		rec_str(&r, "kind", kind);
		rec_u64(&r, "first", first);
		rec_raw(&r, " v=");
		while (k < n) {
			int len = ksnprintf(num, sizeof(num), "%s%llu",
					    k > first ? "," : "",
					    (unsigned long long)v[k]);

			if ((size_t)len + 16 > rec_room(&r))
				break;
			rec_raw(&r, num);
			k++;
		}
		rec_u64(&r, "n", k - first);
		rec_end(w, &r);
	}
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench=fault: the demand-fault benchmark, step by step over the CPU
 * counts of scale=.  At each step a group of CPUs runs every folio size
 * and point of the configuration matrix at once, each configuration
 * through lib/benchrun.c's skeleton with the ops of run.c.  Each CPU is
 * set up by cpu.c, its folios come from pools.c, and prezero= is
 * prezero.c's; their state is in bench_cpu.h.
 */
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/tsc.h"
#include "arch/x86_64/user.h"
#include "kernel/bench/bench.h"
#include "kernel/bench/bench_cpu.h"
#include "kernel/bench/fault.h"
#include "kernel/bench/group.h"
#include "kernel/bench/workload.h"
#include "kernel/boost.h"
#include "kernel/mm/memory.h"
#include "kernel/report.h"
#include "kernel/sched/sched.h"
#include "kernel/smp/smp.h"
#include "kernel/time/deadline.h"
#include "kernel/timebase.h"
#include "lib/benchiter.h"
#include "lib/benchrun.h"
#include "lib/cpulist.h"
#include "lib/format.h"
#include "lib/llc.h"
#include "lib/printk.h"
#include "lib/string.h"

u32 bench_count(const struct hz_config *c)
{
	return matrix_count(c);
}

/*
 * A configuration's set-up before its first pass: its pre-zeroing, its
 * model, and whether it runs; the group's CPUs agree, each member's
 * reason being all of theirs.  The answer is copied into b->skip ("" to
 * run) before any member can post the next.
 */
static void member_up(struct bench_cfg *b)
{
	char why[160] = "";

	prezero_config(b);
	deadline_doing(b->d.name, b->bc->cpu, &b->bc->fault.nfaults);
	if (b->count == 0 && !b->clamp_fail)
		strlcpy(why, b->no_folio ? b->no_folio : "", sizeof(why));
	else if (prim_supported(b->d.at.v[AXIS_PRIM], why, sizeof(why)) &&
		 prim_thunked(b->d.at.v[AXIS_PRIM],
			      matrix_rethunk_kind(b->c, &b->d.at),
			      b->c->rethunk_count, why, sizeof(why)) &&
		 prezero_can(b, why, sizeof(why)) &&
		 model_up(b, why, sizeof(why)))
		why[0] = '\0';
	strlcpy(b->skip, group_agree(b->g, b->idx, b->member, b->smp.group,
				     why), sizeof(b->skip));
}

/* @model_off: the last member of a group in which a model came up. */
static void member_down(struct bench_cfg *b, bool model_off)
{
	count_bad_frees(pool_destroy(&b->bc->apart));	/* none: nothing */
	if (model_off)
		sched_set_model(b->bc->cpu, PREEMPT_MODEL_OFF, 0);
	b->model_on = false;
	group_config_end(b->g, b->idx, b->member, b->d.name, b->skip,
			 &b->bc->out[b->member], !b->skip[0]);
}

static struct bench_job member_job(struct bench_cfg *b)
{
	return (struct bench_job){
		.w = &records,
		.d = &b->d,
		.ops = &bench_fault_ops,
		.ctx = b,
		.o = &b->bc->out[b->member],
		.tsc_hz = timebase.tsc_hz,
		.net_of = timebase.overhead_median,
		.fault_net_of = b->bc->fault_timer,
		/* The page array is printed before it is reused as scratch. */
		.scratch = b->bc->wl.fault_page,
		.clock = rdtsc,
		.fail = b->skip[0] ? NULL : b->clamp_fail,
		.agree = group_agreement(b->g, b->idx),
	};
}

/* The @n members gathered in bc->members: interleaved, or the one alone. */
static void run_members(struct bench_cpu *bc, u32 n)
{
	struct bench_job jobs[ROUND_GROUP_MAX];
	const char *skip[ROUND_GROUP_MAX];
	bool ok[ROUND_GROUP_MAX], model = false;
	struct bench_rounds r = { .job = jobs, .skip = skip, .ok = ok, .n = n };

	for (u32 i = 0; i < n; i++) {
		member_up(&bc->members[i]);
		/* One model for all: each member sets it up again (and
		 * measures its SIMD costs under it), the last one's stays. */
		model |= bc->members[i].model_on;
		jobs[i] = member_job(&bc->members[i]);
		skip[i] = bc->members[i].skip[0] ? bc->members[i].skip : NULL;
	}
	if (bc->members[0].c->interleave)
		bench_run_rounds(&r);
	else
		for (u32 i = 0; i < n; i++)
			bench_run_config(&jobs[i], skip[i]);
	/* A member skipped after its model came up (model_up() failing)
	 * turned it off itself; any other leaves it on for the others. */
	for (u32 i = 0; i < n; i++)
		member_down(&bc->members[i], model && i + 1 == n);
}

/*
 * Whether the point @b joins the round group of @first (@n members so
 * far).  One CPU's pool is all of theirs already; they must also share
 * the scheduling model, set up once for the group, and none may
 * pre-zero: a folio zeroed ahead in one pass is kept for the next pass
 * of its configuration, which is what prezero= measures
 * (docs/statistics.md, "Round groups").
 */
static bool joins(const struct bench_cfg *first, const struct bench_cfg *b,
		  u32 n)
{
	return first->c->interleave && n < first->bc->nmembers &&
	       b->d.at.v[AXIS_PREEMPT] == first->d.at.v[AXIS_PREEMPT] &&
	       !matrix_prezero(&b->d.at) && !matrix_prezero(&first->d.at);
}

static void run_folio(struct bench_cfg *proto, u32 f, u32 *local)
{
	const struct hz_config *c = proto->c;
	struct bench_cpu *bc = proto->bc;
	struct bench_group *g = proto->g;
	struct matrix_iter it = { { { 0 } }, false };
	struct bench_cfg b = *proto;
	const char *placed;
	u32 n = 0;
	char mem_node[16];

	b.d.smp = g->says_cpus ? &b.smp : NULL;
	b.folio = f;
	b.bytes = folio_bytes[f];
	b.region = REGION_VA(f);
	b.d.folio = folio_names[f];
	placed = place(&b, mem_node, sizeof(mem_node));
	b.no_folio = NULL;
	if (placed)
		b.no_folio = placed;
	else if (f == FOLIO_1G && !cpu_info.has_pdpe1gb)
		/* A PS bit in a PDPTE is reserved without it: mapping one would #PF. */
		b.no_folio = "CPU lacks 1 GiB pages (CPUID 80000001h:EDX[26] clear)";
	/* Every member, placed or not, meets the others in there. */
	make_pool(&b, f);
	b.d.folios = b.count;
	b.d.size = (u64)b.count * b.bytes;
	pool_span(&bc->pool, b.count, &b.d.pa_min, &b.d.pa_max);
	while (bench_matrix_next(c, f, "", &it, &b.d, local)) {
		/* Numbered as if each CPU's configurations were interleaved. */
		b.d.id = g->cfg_base + (*local - 1) * g->n + b.idx + 1;
		b.smp.group = g->group_base + *local;
		/* model_up() measures them for a SIMD point under a model. */
		b.d.kernel_fpu_save_ticks = b.d.kernel_fpu_call_ticks = 0;
		if (n && !joins(&bc->members[0], &b, n)) {
			run_members(bc, n);
			n = 0;
		}
		b.member = n;
		bc->members[n] = b;
		/* Its records name its own group, not the next point's. */
		if (b.d.smp)
			bc->members[n].d.smp = &bc->members[n].smp;
		n++;
	}
	if (n)
		run_members(bc, n);
	drop_pool(&b);
}

/* The group's members on the LLC of the CPU with @apic_id: their regions
 * share it (lib/llc.h).  The boot CPU's CPUID speaks for every CPU. */
static u32 llc_regions(const struct bench_group *g, u32 apic_id)
{
	u32 ids[MAX_CPUS], n = 0;

	for (u32 i = 0; i < g->n; i++)
		if (smp.by_cpu[g->cpu[i]])
			ids[n++] = smp.by_cpu[g->cpu[i]]->apic_id;
	return llc_sharers(ids, n, apic_id, cpu_info.l3_sharing);
}

/* Each member of the group, on its own CPU, at once. */
static void bench_worker(void *arg)
{
	struct bench_group *g = arg;
	u32 cpu = this_cpu()->cpu, local = 0;
	struct bench_cfg proto;

	memset(&proto, 0, sizeof(proto));
	proto.g = g;
	proto.idx = group_index(g, cpu);
	proto.bc = bench_cpu_start(cpu, g->c);
	proto.c = proto.d.c = g->c;
	proto.d.bench = "fault";
	proto.d.llc = cpu_info.l3;
	proto.d.llc_regions = llc_regions(g, this_cpu()->apic_id);
	proto.smp.cpus = g->cpus;
	proto.smp.ncpus = g->n;
	proto.smp.cpu = cpu;
	proto.smp.has_apic_id = true;
	proto.smp.apic_id = this_cpu()->apic_id;
	proto.d.freq_src = proto.bc->freq.aperfmperf ? "aperf/mperf" :
			   proto.bc->freq.why_not_freq;
	proto.d.smi_src = proto.bc->freq.smi_count ? "msr_smi_count" :
			  proto.bc->freq.why_not_smi;
	proto.d.pmu = g->c->npmu ? &proto.bc->pmu : NULL;
	proto.d.boost = boost_of(cpu);
	workload_enter_space(&proto.bc->wl);
	for (u32 f = 0; f < FOLIO_COUNT; f++)
		if (g->c->folios >> f & 1)
			run_folio(&proto, f, &local);
	workload_leave_space();
	bench_cpu_stop(proto.bc);
	deadline_doing(NULL, cpu, NULL);
}

static struct bench_group group;
/* CPUs cpus= asks for that this machine has, left out (bench_verdict()). */
static struct cpu_set left_out;

/*
 * The members: the first @want CPUs of @s with their state made, each
 * sized by the configuration and its share of the memory free now
 * (state.c).  0 with *@long_list when their list would not fit a record.
 */
static u32 make_group(struct bench_group *g, const struct cpu_set *s, u32 want,
		      bool *long_list)
{
	u64 free = frame_free_bytes();
	struct cpu_set set;

	memset(&set, 0, sizeof(set));
	g->n = 0;
	for (u32 k = 0; g->n < want; k++) {
		u32 cpu = cpu_set_nth(s, k, smp.ncpus);

		if (cpu == ~0u)
			break;
		if (!bench_cpu_get(cpu, g->c, free, want)) {
			printk("hugezero: bench: cpu %u left out: no memory for "
			       "its benchmark state, workload tables and sample "
			       "arrays\n", cpu);
			cpu_set_add(&left_out, cpu);
			continue;
		}
		g->cpu[g->n++] = cpu;
		cpu_set_add(&set, cpu);
	}
	/* A list that does not fit a record would be cut into another. */
	*long_list = (size_t)cpulist_format(&set, g->cpus, sizeof(g->cpus)) >=
		     sizeof(g->cpus);
	if (*long_list)
		return 0;
	smp_barrier_init(&g->bar, g->n, g->bar_slot, g->cpu);
	return g->n;
}

static void say_left_out(u32 cpu)
{
	printk("hugezero: bench: cpus=: cpu %u left out: %s\n", cpu,
	       cpu >= smp.ncpus ? "this machine has no such CPU" :
	       smp.by_cpu[cpu]->reason);
}

/* The CPUs cpus= names that are up; says which are left out. */
static void usable_cpus(const struct hz_config *c, struct cpu_set *out)
{
	memset(out, 0, sizeof(*out));
	for (u32 cpu = 0; cpu < CPUSET_MAX; cpu++) {
		if (!cpu_set_has(&c->cpus, cpu) || (c->cpus.all && cpu >= smp.ncpus))
			continue;
		if (smp_is_up(cpu))
			cpu_set_add(out, cpu);
		else if (cpu < smp.ncpus)
			cpu_set_add(&left_out, cpu);
		if (!smp_is_up(cpu))
			say_left_out(cpu);
	}
}

/* The CPUs of @usable no longer up (a bounded wait left them out since):
 * said, and left out of the run.  How many. */
static u32 drop_left_out(struct cpu_set *usable)
{
	struct cpu_set still;
	u32 n = 0;

	memset(&still, 0, sizeof(still));
	for (u32 cpu = 0; cpu < smp.ncpus; cpu++) {
		if (!cpu_set_has(usable, cpu))
			continue;
		if (smp_is_up(cpu)) {
			cpu_set_add(&still, cpu);
			continue;
		}
		cpu_set_add(&left_out, cpu);
		say_left_out(cpu);
		n++;
	}
	*usable = still;
	return n;
}

/* A step that cannot run: each of its configurations skipped, named. */
static void skip_step(struct ktap *k, const struct hz_config *c, u32 want,
		      const char *why)
{
	struct bench_desc d;
	u32 id = 0;

	memset(&d, 0, sizeof(d));
	d.c = c;
	for (u32 f = 0; f < FOLIO_COUNT; f++) {
		struct matrix_iter it = { { { 0 } }, false };
		char name[96];

		if (!(c->folios >> f & 1))
			continue;
		while (bench_matrix_next(c, f, "", &it, &d, &id)) {
			ksnprintf(name, sizeof(name), "x%u.%s", want, d.name);
			ktap_result(k, KTAP_SKIP, name, why);
		}
	}
}

/*
 * A step without a group: its configurations skipped, named.  A list
 * too long for records (cpus= fit, but the CPUs up among them list
 * longer) fails the run: fewer CPUs than asked never ends rc 0.
 */
static void step_not_run(struct ktap *k, const struct hz_config *c, u32 want,
			 bool long_list)
{
	char why[200];

	if (long_list)
		ksnprintf(why, sizeof(why), "the list of its CPUs up is longer "
			  "than the %d characters records keep: give cpus= "
			  "as fewer CPUs or runs of consecutive ones (N-M)",
			  CPULIST_TEXT_MAX);
	else
		ksnprintf(why, sizeof(why), "its CPUs have no memory for their "
			  "state");
	printk("hugezero: bench: step of %u CPUs not run: %s\n", want, why);
	skip_step(k, c, want, why);
	if (long_list) {
		ktap_diag(k, "step of %u CPUs: %s", want, why);
		k->fail++;
	}
}

/*
 * Fewer CPUs than asked never ends rc 0: a CPU of cpus= that this
 * machine has (a logical number: enabled in the MADT, within MAX_CPUS)
 * and that did not run -- no answer at bring-up or in TSC sync, no
 * memory for its state -- fails the benchmark, named; so do enabled
 * processors beyond MAX_CPUS under cpus=all.  What cpus= allows: a
 * listed CPU the machine does not have (a list written for a larger
 * machine), and scale= steps larger than the CPUs up (skipped).
 */
static void bench_verdict(struct ktap *k, const struct hz_config *c)
{
	u32 n = cpu_set_count(&left_out, CPUSET_MAX);
	char list[CPULIST_TEXT_MAX + 1];

	if (n) {
		cpulist_format(&left_out, list, sizeof(list));
		ktap_diag(k, "%u CPU%s of cpus= that this machine has left out "
			  "(cpus %s): the run has fewer CPUs than asked", n,
			  n == 1 ? "" : "s", list);
		printk("hugezero: bench: verdict: %u CPU%s of cpus= left out "
		       "(cpus %s, each said above): the run fails\n", n,
		       n == 1 ? "" : "s", list);
		k->fail++;
	}
	n = prezero_lost_cpus(list, sizeof(list), false);
	if (n) {
		ktap_diag(k, "the pre-zeroing CPU%s of prezero=dedicated left "
			  "out (cpus %s): its configurations failed",
			  n == 1 ? "" : "s", list);
		printk("hugezero: bench: verdict: pre-zeroing cpus %s left "
		       "out (each said above): the run fails\n", list);
		k->fail++;
	}
	if (c->cpus.all && smp.over_max) {
		ktap_diag(k, "cpus=all: %u enabled processors beyond the %d "
			  "CPUs hugezero keeps did not run", smp.over_max,
			  MAX_CPUS);
		k->fail++;
	}
}

/*
 * Step @s over the CPUs of @usable.  A member that does not take its
 * work is left out by smp_run(), which then runs nothing: the step is
 * made again without it, the run goes on, and the verdict names it.
 */
static void run_step(struct ktap *k, const struct hz_config *c, u32 s,
		     struct cpu_set *usable)
{
	struct bench_group *g = &group;
	struct cpu_set members;
	bool long_list;
	char why[200];

	for (;;) {
		u32 have = cpu_set_count(usable, CPUSET_MAX);
		u32 want = !c->nscale || c->scale[s] == SCALE_ALL ? have :
			   c->scale[s];
		u32 n;

		if (want > have || !have) {
			ksnprintf(why, sizeof(why), "scale= step of %u CPUs: "
				  "cpus= has %u up", want, have);
			skip_step(k, c, want, why);
			return;
		}
		g->c = c;
		g->k = k;
		n = make_group(g, usable, want, &long_list);
		if (!n) {
			step_not_run(k, c, want, long_list);
			return;
		}
		/* Names stay as before SMP for the boot CPU alone. */
		g->says_cpus = c->nscale || n != 1 || g->cpu[0] != 0;
		memset(&members, 0, sizeof(members));
		for (u32 i = 0; i < n; i++)
			cpu_set_add(&members, g->cpu[i]);
		if (smp_run(&members, bench_worker, g))
			break;
		if (!drop_left_out(usable)) {
			ktap_diag(k, "step of %u CPUs: called off, no CPU left "
				  "out", n);
			k->fail++;
			return;
		}
		printk("hugezero: bench: step of %u CPUs made again without "
		       "the CPUs that did not take their work\n", n);
	}
	g->cfg_base += bench_count(c) * g->n;
	g->group_base += bench_count(c);
}

void bench_run(struct ktap *k, const struct hz_config *c)
{
	u32 steps = c->nscale ? c->nscale : 1, fails = k->fail;
	struct cpu_set usable;

	ktap_subtest_start(k, "fault", bench_count(c) * steps);
	memset(&left_out, 0, sizeof(left_out));
	(void)prezero_lost_cpus(NULL, 0, true);
	usable_cpus(c, &usable);
	if (!cpu_set_count(&usable, CPUSET_MAX)) {
		printk("hugezero: bench: cpus= leaves no CPU that is up\n");
		ktap_subtest_end(k, "fault", KTAP_FAIL);
		k->fail++;
		return;
	}
	/* The fault path finds its context by the CPU it runs on. */
	fault_init();
	user_init();
	memset(&group, 0, sizeof(group));
	for (u32 s = 0; s < steps; s++)
		run_step(k, c, s, &usable);
	bench_verdict(k, c);
	ktap_subtest_end(k, "fault", k->fail > fails ? KTAP_FAIL : KTAP_OK);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * boost= on every CPU (kernel/boost.h): arch/x86_64/boost.c on each, all
 * at once; then, one CPU at a time so that the others are halted as in a
 * one-CPU run (a lone busy core boosts highest), the effective frequency
 * over a busy loop from APERF/MPERF, against the nominal (the TSC's
 * rate, at which MPERF counts) or, with Intel's HWP, the guaranteed
 * performance where that is higher (boost_reference()).  The boot CPU's
 * MSR accesses are traced and said as the other vendor paths' are
 * (kernel/cpulog.h, "msr: boost:").
 */
#include "arch/x86_64/boost.h"
#include "arch/x86_64/freq.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/tsc.h"
#include "kernel/boost.h"
#include "kernel/cpulog.h"
#include "kernel/report.h"
#include "kernel/smp/smp.h"
#include "kernel/timebase.h"
#include "lib/calib.h"
#include "lib/cpulist.h"
#include "lib/format.h"
#include "lib/printk.h"
#include "lib/string.h"

#define WARM_MS		2	/* to reach the frequency it settles at */
#define MEASURE_MS	10

static struct boost_cpu boost_cpus[MAX_CPUS];
static bool boost_done[MAX_CPUS];
static u32 boost_mode;
static bool boost_assume;
/* The boot CPU's accesses, and its index (MAX_CPUS: not run there) */
static struct msr_trace boost_msrs;
static u32 boost_bsp = MAX_CPUS;

const struct boost_cpu *boost_of(u32 cpu)
{
	return cpu < MAX_CPUS && boost_done[cpu] ? &boost_cpus[cpu] : NULL;
}

static void set_here(void *arg)
{
	u32 cpu = this_cpu()->cpu;
	bool bsp = this_cpu() == &percpu_bsp;

	(void)arg;
	if (cpu >= MAX_CPUS)
		return;
	if (bsp)
		boost_bsp = cpu;
	boost_this_cpu(&boost_cpus[cpu], boost_mode, boost_assume,
		       bsp ? &boost_msrs : NULL);
	boost_done[cpu] = true;
}

static void measure_here(void *arg)
{
	struct boost_cpu *b = arg;
	u64 khz = timebase.tsc_hz / 1000, dm;
	struct freq_snap a, z;
	struct freq_caps f;

	freq_caps_read(&f);
	if (!f.aperfmperf) {
		boost_check(b, false, 0, khz, f.why_not_freq);
		return;
	}
	tsc_busy_until(rdtsc() + khz * WARM_MS);
	freq_snap(&f, &a);
	tsc_busy_until(rdtsc() + khz * MEASURE_MS);
	freq_snap(&f, &z);
	dm = z.mperf - a.mperf;
	if (!dm) {
		boost_check(b, false, 0, khz,
			    "MPERF did not count over the loop");
		return;
	}
	boost_check(b, true, mul_div_u64(khz, z.aperf - a.aperf, dm), khz,
		    NULL);
}

static void measure(const struct hz_config *c, u32 cpu)
{
	struct boost_cpu *b = &boost_cpus[cpu];

	if (!cpu_set_has(&c->cpus, cpu))
		return;
	if (cpu == this_cpu()->cpu)
		measure_here(b);
	else if (!on_cpu(cpu, measure_here, b))
		boost_check(b, false, 0, 0, "its IPI could not be sent");
	else if (!smp_wait(cpu))
		boost_check(b, false, 0, 0, "it did not take its work: left "
			    "out");
}

/* One line for each outcome, naming the CPUs that had it. */
static void print_outcomes(const struct cpu_set *up)
{
	struct cpu_set said, g;
	char list[128], text[320];

	memset(&said, 0, sizeof(said));
	for (u32 i = 0; i < smp.ncpus && i < MAX_CPUS; i++) {
		if (!cpu_set_has(up, i) || cpu_set_has(&said, i))
			continue;
		memset(&g, 0, sizeof(g));
		for (u32 j = i; j < smp.ncpus && j < MAX_CPUS; j++)
			if (cpu_set_has(up, j) && !cpu_set_has(&said, j) &&
			    boost_same(&boost_cpus[i], &boost_cpus[j])) {
				cpu_set_add(&g, j);
				cpu_set_add(&said, j);
			}
		cpulist_format(&g, list, sizeof(list));
		boost_describe(&boost_cpus[i], text, sizeof(text));
		printk("boost: cpus=%s %s\n", list, text);
	}
}

static void print_effect(u32 cpu, const struct boost_cpu *b)
{
	char check[32] = "", say[320];

	if (b->check != BOOST_CHECK_NONE)
		ksnprintf(check, sizeof(check), " check=%s",
			  boost_check_names[b->check]);
	if (!b->measured)
		printk("boost: cpu=%u eff_khz=unmeasured%s why=\"%s\"\n", cpu,
		       check, b->check_why);
	else
		printk("boost: cpu=%u eff_khz=%llu nominal_khz=%llu ref=%s "
		       "ref_khz=%llu%s\n", cpu, (unsigned long long)b->eff_khz,
		       (unsigned long long)b->nominal_khz,
		       boost_ref_names[b->ref], (unsigned long long)b->ref_khz,
		       check);
	if (boost_check_say(b, cpu, say, sizeof(say)) > 0)
		printk("boost: %s\n", say);
}

/* The boot CPU's accesses as a vendor path's line; its outcome's words. */
static void print_msrs(void)
{
	char text[320];

	if (boost_bsp >= MAX_CPUS || !boost_done[boost_bsp])
		return;
	boost_describe(&boost_cpus[boost_bsp], text, sizeof(text));
	cpulog_msr("boost", &boost_msrs, text);
}

void boost_apply(const struct hz_config *c)
{
	u32 n = 0, as_asked = 0;
	struct cpu_set up, done;

	boost_mode = c->boost;
	boost_assume = c->boost_assume;
	if (boost_assume)
		printk("boost: boost_assume=on (test-only): CPUID's boost bit "
		       "taken as set on every CPU\n");
	memset(&boost_msrs, 0, sizeof(boost_msrs));
	memset(boost_done, 0, sizeof(boost_done));
	boost_bsp = MAX_CPUS;
	/* A CPU that does not take its part is left out (said) and none
	 * runs it: again on the CPUs still up. */
	do {
		memset(&up, 0, sizeof(up));
		for (u32 cpu = 0; cpu < smp.ncpus && cpu < MAX_CPUS; cpu++)
			if (smp_is_up(cpu))
				cpu_set_add(&up, cpu);
	} while (!smp_run(&up, set_here, NULL));
	memset(&done, 0, sizeof(done));
	for (u32 cpu = 0; cpu < smp.ncpus && cpu < MAX_CPUS; cpu++)
		if (boost_done[cpu]) {
			cpu_set_add(&done, cpu);
			measure(c, cpu);
		}
	print_outcomes(&done);
	print_msrs();
	for (u32 cpu = 0; cpu < smp.ncpus && cpu < MAX_CPUS; cpu++) {
		const struct boost_cpu *b = boost_of(cpu);

		if (!b)
			continue;
		n++;
		as_asked += boost_as_asked(b);
		if (cpu_set_has(&c->cpus, cpu))
			print_effect(cpu, b);
		boost_rec(&records, cpu, b);
	}
	printk("boost: asked=%s cpus=%u as_asked=%u not_as_asked=%u\n",
	       boost_names[c->boost], n, as_asked, n - as_asked);
}

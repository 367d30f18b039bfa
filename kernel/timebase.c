// SPDX-License-Identifier: GPL-2.0-only
/*
 * TSC calibration against every independent reference the machine has:
 * CPUID 15h (crystal ratio), HPET, ACPI PM timer, PIT channel 2, and
 * CPUID 16h (nominal MHz, coarse).  Each reference is measured TB_RUNS
 * times over a window; the median is its estimate.  The first usable of
 * CPUID 15h, HPET, PM timer, PIT is used; all are printed with their
 * disagreement, so a bad reference shows instead of silently skewing
 * every number.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/tsc.h"
#include "kernel/acpi.h"
#include "kernel/console.h"
#include "kernel/timebase.h"
#include "lib/calib.h"
#include "lib/format.h"
#include "lib/stats.h"
#include "lib/string.h"

struct timebase timebase;
bool tsc_has_rdtscp;

#define MAX_READS 1000000000ULL
#define STUCK_READS 1000000ULL
#define OVERHEAD_SAMPLES 1024

struct bracket {
	u64 tsc;	/* midpoint */
	u64 width;	/* TSC ticks the reference read took */
	u64 ref;
};

/* Best of a few: the read with the narrowest TSC bracket. */
static struct bracket read_bracketed(const struct refclock *c)
{
	struct bracket best = { 0, ~0ULL, 0 };

	for (int i = 0; i < 5; i++) {
		u64 a = rdtsc(), r = c->read(), b = rdtsc();

		if (b - a < best.width) {
			best.tsc = a + (b - a) / 2;
			best.width = b - a;
			best.ref = r;
		}
	}
	return best;
}

static bool measure_once(const struct refclock *c, u64 window_ms, u64 *hz,
			 u64 *ppm, char *why, size_t whylen)
{
	u64 target = c->hz * window_ms / 1000, elapsed = 0, same = 0, reads = 0;
	struct bracket s = read_bracketed(c), e;
	u64 last = s.ref, dt;

	while (elapsed < target) {
		u64 now = c->read();

		if (now == last) {
			if (++same > STUCK_READS) {
				ksnprintf(why, whylen, "%s stopped counting",
					  c->name);
				return false;
			}
		} else {
			same = 0;
		}
		elapsed += (now - last) & c->mask;
		last = now;
		if (++reads > MAX_READS) {
			ksnprintf(why, whylen, "%s too slow", c->name);
			return false;
		}
	}
	e = read_bracketed(c);
	elapsed += (e.ref - last) & c->mask;
	dt = e.tsc - s.tsc;
	if (dt == 0) {
		ksnprintf(why, whylen, "TSC did not advance");
		return false;
	}
	*hz = calib_hz(dt, elapsed, c->hz);
	*ppm = (s.width + e.width) * 1000000ULL / 2 / dt;
	return true;
}

static void measure(const struct refclock *c, u64 window_ms,
		    struct tb_estimate *e)
{
	u64 v[TB_RUNS];

	e->name = c->name;
	e->ref_hz = c->hz;
	if (!c->usable) {
		strlcpy(e->why, c->why, sizeof(e->why));
		return;
	}
	for (int i = 0; i < TB_RUNS; i++) {
		u64 ppm = 0;

		if (!measure_once(c, window_ms, &e->runs[i], &ppm, e->why,
				  sizeof(e->why)))
			return;
		e->bracket_ppm = MAX(e->bracket_ppm, ppm);
		v[i] = e->runs[i];
	}
	e->tsc_hz = median_u64(v, TB_RUNS);
	e->usable = true;
}

static void cpuid15(struct tb_estimate *e)
{
	struct cpuid_regs r;

	e->name = "cpuid15";
	if (cpu_info.max_leaf < 0x15) {
		ksnprintf(e->why, sizeof(e->why), "max basic CPUID leaf %#x "
			  "is below 0x15", cpu_info.max_leaf);
		return;
	}
	r = cpuid(0x15, 0);
	if (!r.eax || !r.ebx || !r.ecx) {
		ksnprintf(e->why, sizeof(e->why), "CPUID 15h does not give "
			  "the crystal (eax=%u ebx=%u ecx=%u)", r.eax, r.ebx,
			  r.ecx);
		return;
	}
	e->ref_hz = r.ecx;
	e->tsc_hz = (u64)r.ecx * r.ebx / r.eax;
	e->usable = true;
}

static void cpuid16(struct tb_estimate *e)
{
	u32 mhz;

	e->name = "cpuid16";
	e->coarse = true;
	if (cpu_info.max_leaf < 0x16) {
		ksnprintf(e->why, sizeof(e->why), "max basic CPUID leaf %#x "
			  "is below 0x16", cpu_info.max_leaf);
		return;
	}
	mhz = cpuid(0x16, 0).eax & 0xffff;
	if (!mhz) {
		ksnprintf(e->why, sizeof(e->why), "CPUID 16h gives no base "
			  "frequency");
		return;
	}
	e->tsc_hz = (u64)mhz * 1000000;
	e->usable = true;
}

static void pick_and_compare(void)
{
	struct timebase *t = &timebase;

	for (u32 i = 0; i < t->nest && !t->source; i++)
		if (t->est[i].usable && !t->est[i].coarse) {
			t->tsc_hz = t->est[i].tsc_hz;
			t->source = t->est[i].name;
		}
	for (u32 i = 0; i < t->nest; i++) {
		if (!t->est[i].usable || t->est[i].coarse)
			continue;
		t->nprecise++;
		for (u32 j = 0; j < t->nest; j++) {
			s64 d;

			if (!t->est[j].usable || t->est[j].coarse)
				continue;
			d = ppm_diff(t->est[i].tsc_hz, t->est[j].tsc_hz);
			t->max_disagreement_ppm = MAX(t->max_disagreement_ppm,
						      (u64)(d < 0 ? -d : d));
		}
	}
	if (!t->source)
		t->source = "none";
}

static void measure_overhead(void)
{
	static u64 d[OVERHEAD_SAMPLES];

	for (u32 i = 0; i < OVERHEAD_SAMPLES; i++) {
		u64 a = tsc_begin(), b = tsc_end();

		d[i] = b - a;
	}
	timebase.overhead_median = median_u64(d, OVERHEAD_SAMPLES);
	timebase.overhead_min = d[0];
}

static void report(u64 window_ms)
{
	struct timebase *t = &timebase;

	for (u32 i = 0; i < t->nest; i++) {
		const struct tb_estimate *e = &t->est[i];

		if (!e->usable) {
			printk("tsc: %-8s unusable: %s\n", e->name, e->why);
			continue;
		}
		printk("tsc: %-8s ref %llu Hz -> TSC %llu Hz (%+lld ppm vs "
		       "%s)%s", e->name, (unsigned long long)e->ref_hz,
		       (unsigned long long)e->tsc_hz,
		       (long long)ppm_diff(e->tsc_hz, t->tsc_hz), t->source,
		       e->coarse ? " [whole MHz only]\n" : "");
		if (!e->coarse && e->runs[0])
			printk(" runs %llu %llu %llu, read bracket %llu ppm, "
			       "window %llu ms\n", (unsigned long long)e->runs[0],
			       (unsigned long long)e->runs[1],
			       (unsigned long long)e->runs[2],
			       (unsigned long long)e->bracket_ppm,
			       (unsigned long long)window_ms);
		else if (!e->coarse)
			printk("\n");
	}
	printk("tsc: frequency %llu Hz from %s; %u precise references "
	       "disagree by at most %llu ppm; invariant %s\n",
	       (unsigned long long)t->tsc_hz, t->source, t->nprecise,
	       (unsigned long long)t->max_disagreement_ppm,
	       t->invariant ? "yes" : "no (CPUID 80000007h:EDX[8] clear)");
	printk("tsc: read overhead (tsc_begin..tsc_end) min %llu median %llu "
	       "ticks; end read %s\n", (unsigned long long)t->overhead_min,
	       (unsigned long long)t->overhead_median,
	       tsc_has_rdtscp ? "rdtscp" : "lfence;rdtsc (no RDTSCP)");
}

void timebase_init(u64 window_ms)
{
	struct timebase *t = &timebase;
	struct refclock hpet, pm, pit;

	tsc_has_rdtscp = cpu_info.has_rdtscp;
	t->invariant = cpu_info.has_invariant_tsc;
	hpet_probe(&hpet, acpi.hpet_base);
	pmtimer_probe(&pm, acpi.pm_timer_port, acpi.pm_timer_32bit);
	pit_probe(&pit);
	cpuid15(&t->est[t->nest++]);
	measure(&hpet, window_ms, &t->est[t->nest++]);
	measure(&pm, window_ms, &t->est[t->nest++]);
	measure(&pit, window_ms, &t->est[t->nest++]);
	cpuid16(&t->est[t->nest++]);
	pick_and_compare();
	measure_overhead();
	report(window_ms);
}

u64 tsc_to_ns(u64 ticks)
{
	return ticks_to_ns(ticks, timebase.tsc_hz);
}

void udelay(u64 us)
{
	u64 hz = timebase.tsc_hz ? timebase.tsc_hz : 3000000000ULL;
	u64 end = rdtsc() + hz / 1000000 * us;

	while (rdtsc() < end)
		cpu_relax();
}

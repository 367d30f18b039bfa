// SPDX-License-Identifier: GPL-2.0-only
/*
 * TSC calibration against every independent reference the machine has:
 * CPUID 15h (crystal ratio), HPET, ACPI PM timer, PIT channel 2, and
 * CPUID 16h (nominal MHz, coarse).  Each reference is measured TB_RUNS
 * times over a window; the median is its estimate.  A window in which the
 * CPU stalled long enough to hide a wrap of the reference is measured
 * again, TB_RETRIES times per run at most.  The first usable of CPUID
 * 15h, HPET, PM timer, PIT that is not an outlier is used; all are
 * printed with their disagreement, so a bad reference shows instead of
 * silently skewing every number.
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

enum window { WINDOW_OK, WINDOW_DISCARDED, WINDOW_FAILED };

static struct calib_read read_once(const struct refclock *c)
{
	struct calib_read r;

	r.before = rdtsc();
	r.ref = c->read();
	r.after = rdtsc();
	return r;
}

static u64 width(const struct calib_read *r)
{
	return r->after - r->before;
}

/* Best of a few: the read with the narrowest TSC bracket. */
static struct calib_read read_bracketed(const struct refclock *c)
{
	struct calib_read best = read_once(c);

	for (int i = 1; i < 5; i++) {
		struct calib_read r = read_once(c);

		if (width(&r) < width(&best))
			best = r;
	}
	return best;
}

static u64 ticks_to_us(u64 ticks, u64 hz)
{
	return mul_div_u64(ticks, 1000000, hz);
}

static void why_discarded(const struct refclock *c,
			  const struct calib_window *w, enum calib_fault f,
			  char *why, size_t whylen)
{
	unsigned long long wrap_us = ticks_to_us(c->mask, c->hz);

	if (f == CALIB_GAP)
		ksnprintf(why, whylen, "a %llu us gap between two reads may "
			  "hide a %llu us wrap", (unsigned long long)
			  ticks_to_us(calib_window_gap(w), c->hz), wrap_us);
	else if (f == CALIB_SLOW_READS)
		ksnprintf(why, whylen, "%u reads take long enough to hide a "
			  "%llu us wrap", CALIB_STEADY_READS, wrap_us);
	else
		ksnprintf(why, whylen, "too little of the window read in a "
			  "steady loop");
}

/* One window; a stall that may have hidden a wrap discards it. */
static enum window measure_once(const struct refclock *c, u64 window_ms,
				u64 *hz, u64 *ppm, char *why, size_t whylen)
{
	u64 target = c->hz * window_ms / 1000, same = 0, reads = 0, dt;
	struct calib_read s = read_bracketed(c), e;
	struct calib_window w;
	enum calib_fault f;

	calib_window_start(&w, c->mask, &s);
	while (w.ref_ticks < target) {
		struct calib_read r = read_once(c);

		same = r.ref == w.ref ? same + 1 : 0;
		if (same > STUCK_READS) {
			ksnprintf(why, whylen, "%s stopped counting",
				  c->name);
			return WINDOW_FAILED;
		}
		if (++reads > MAX_READS) {
			ksnprintf(why, whylen, "%s too slow", c->name);
			return WINDOW_FAILED;
		}
		calib_window_read(&w, &r);
	}
	e = read_bracketed(c);
	calib_window_read(&w, &e);
	f = calib_window_check(&w);
	if (f != CALIB_OK) {
		why_discarded(c, &w, f, why, whylen);
		return WINDOW_DISCARDED;
	}
	dt = calib_window_tsc(&w);
	if (dt == 0) {
		ksnprintf(why, whylen, "TSC did not advance");
		return WINDOW_FAILED;
	}
	*hz = calib_hz(dt, w.ref_ticks, c->hz);
	*ppm = (width(&s) + width(&e)) * 1000000ULL / 2 / dt;
	return WINDOW_OK;
}

/* Run @i of @e: a window, measured again after a stall, a few times. */
static bool measure_run(const struct refclock *c, u64 window_ms,
			struct tb_estimate *e, int i)
{
	for (u32 discarded = 0;; discarded++) {
		char why[96];
		u64 ppm = 0;

		switch (measure_once(c, window_ms, &e->runs[i], &ppm, why,
				     sizeof(why))) {
		case WINDOW_OK:
			e->bracket_ppm = MAX(e->bracket_ppm, ppm);
			return true;
		case WINDOW_FAILED:
			strlcpy(e->why, why, sizeof(e->why));
			return false;
		case WINDOW_DISCARDED:
			break;
		}
		printk("tsc: %-8s run %d: window discarded: %s\n", c->name,
		       i + 1, why);
		if (discarded == TB_RETRIES) {
			ksnprintf(e->why, sizeof(e->why), "%u windows in a row "
				  "discarded, the last: %s", TB_RETRIES + 1,
				  why);
			return false;
		}
		e->retries++;
	}
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
		if (!measure_run(c, window_ms, e, i))
			return;
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

static bool precise(const struct tb_estimate *e)
{
	return e->usable && !e->coarse;
}

static void explain_no_consensus(struct timebase *t, const u32 *idx, u32 n,
				 u64 tol_ppm)
{
	if (n == 2)
		ksnprintf(t->no_consensus, sizeof(t->no_consensus), "%s and "
			  "%s disagree by %llu ppm (tolerance %llu); of two, "
			  "neither can be called the outlier",
			  t->est[idx[0]].name, t->est[idx[1]].name,
			  (unsigned long long)t->max_disagreement_ppm,
			  (unsigned long long)tol_ppm);
	else
		ksnprintf(t->no_consensus, sizeof(t->no_consensus), "no one "
			  "largest group of the %u agrees within %llu ppm "
			  "(spread %llu ppm)", n, (unsigned long long)tol_ppm,
			  (unsigned long long)t->max_disagreement_ppm);
}

/*
 * With three references or more, one that disagrees with the others while
 * they agree is an outlier: reported, and not used for the frequency.
 */
static void compare(struct timebase *t, u64 tol_ppm)
{
	u32 idx[TB_REFS], n = 0, set;
	u64 hz[TB_REFS] = { 0 };

	for (u32 i = 0; i < t->nest; i++)
		if (precise(&t->est[i])) {
			idx[n] = i;
			hz[n++] = t->est[i].tsc_hz;
		}
	t->nprecise = n;
	t->max_disagreement_ppm = calib_spread_ppm(hz, n, (1u << n) - 1);
	set = calib_consensus(hz, n, tol_ppm);
	t->consensus_ppm = calib_spread_ppm(hz, n, set);
	for (u32 k = 0; k < n && set; k++) {
		if (set >> k & 1) {
			t->nconsensus++;
		} else {
			t->est[idx[k]].outlier = true;
			t->noutliers++;
		}
	}
	if (n >= 2 && !set)
		explain_no_consensus(t, idx, n, tol_ppm);
}

static void pick(struct timebase *t)
{
	for (u32 i = 0; i < t->nest && !t->source; i++)
		if (precise(&t->est[i]) && !t->est[i].outlier) {
			t->tsc_hz = t->est[i].tsc_hz;
			t->source = t->est[i].name;
		}
	if (!t->source)
		t->source = "none";
}

void timebase_decide(struct timebase *t, u64 tolerance_ppm)
{
	compare(t, tolerance_ppm);
	pick(t);
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

static void report_estimate(const struct tb_estimate *e, u64 window_ms)
{
	const struct timebase *t = &timebase;

	if (!e->usable) {
		printk("tsc: %-8s unusable: %s\n", e->name, e->why);
		return;
	}
	printk("tsc: %-8s ref %llu Hz -> TSC %llu Hz (%+lld ppm vs %s)%s",
	       e->name, (unsigned long long)e->ref_hz,
	       (unsigned long long)e->tsc_hz,
	       (long long)ppm_diff(e->tsc_hz, t->tsc_hz), t->source,
	       e->coarse ? " [whole MHz only]\n" : "");
	if (!e->coarse && e->runs[0])
		printk(" runs %llu %llu %llu, read bracket %llu ppm, window "
		       "%llu ms, retries %u\n", (unsigned long long)e->runs[0],
		       (unsigned long long)e->runs[1],
		       (unsigned long long)e->runs[2],
		       (unsigned long long)e->bracket_ppm,
		       (unsigned long long)window_ms, e->retries);
	else if (!e->coarse)
		printk("\n");
	if (e->outlier)
		printk("tsc: %-8s is an outlier, beyond the tolerance of the "
		       "%u that agree: not used\n", e->name, t->nconsensus);
}

static void report_agreement(void)
{
	const struct timebase *t = &timebase;
	char a[160];

	if (t->nprecise < 2)
		ksnprintf(a, sizeof(a), "%u precise reference%s, nothing to "
			  "compare", t->nprecise, t->nprecise == 1 ? "" : "s");
	else if (!t->nconsensus)
		ksnprintf(a, sizeof(a), "%u precise references, no "
			  "consensus: %s", t->nprecise, t->no_consensus);
	else
		ksnprintf(a, sizeof(a), "%u precise references, %u agree "
			  "within %llu ppm, %u outlier%s", t->nprecise,
			  t->nconsensus,
			  (unsigned long long)t->consensus_ppm, t->noutliers,
			  t->noutliers == 1 ? "" : "s");
	printk("tsc: frequency %llu Hz from %s; %s; invariant %s\n",
	       (unsigned long long)t->tsc_hz, t->source, a,
	       t->invariant ? "yes" : "no (CPUID 80000007h:EDX[8] clear)");
}

static void report(u64 window_ms)
{
	const struct timebase *t = &timebase;

	for (u32 i = 0; i < t->nest; i++)
		report_estimate(&t->est[i], window_ms);
	report_agreement();
	printk("tsc: read overhead (tsc_begin..tsc_end) min %llu median %llu "
	       "ticks; end read %s\n", (unsigned long long)t->overhead_min,
	       (unsigned long long)t->overhead_median,
	       tsc_has_rdtscp ? "rdtscp" : "lfence;rdtsc (no RDTSCP)");
}

/* Printed first: a stall can then be aimed at a reference's windows. */
static void measure_ref(const struct refclock *c, u64 window_ms)
{
	struct timebase *t = &timebase;

	if (c->usable)
		printk("tsc: %-8s measuring: %u windows of %llu ms\n", c->name,
		       TB_RUNS, (unsigned long long)window_ms);
	measure(c, window_ms, &t->est[t->nest++]);
}

void timebase_init(u64 window_ms, u64 tolerance_ppm)
{
	struct timebase *t = &timebase;
	struct refclock hpet, pm, pit;

	tsc_has_rdtscp = cpu_info.has_rdtscp;
	t->invariant = cpu_info.has_invariant_tsc;
	hpet_probe(&hpet, acpi.hpet_base);
	pmtimer_probe(&pm, acpi.pm_timer_port, acpi.pm_timer_32bit);
	pit_probe(&pit);
	cpuid15(&t->est[t->nest++]);
	measure_ref(&hpet, window_ms);
	measure_ref(&pm, window_ms);
	measure_ref(&pit, window_ms);
	cpuid16(&t->est[t->nest++]);
	timebase_decide(t, tolerance_ppm);
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

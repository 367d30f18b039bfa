// SPDX-License-Identifier: GPL-2.0-only
/*
 * The local APIC timer as a one-shot event at an absolute TSC time, as
 * Linux's lapic clockevent: TSC-deadline mode where the CPU has it
 * (lapic_next_deadline()), else the one-shot count, calibrated against
 * the TSC here (Linux calibrates it against the PIT or the TSC too), the
 * deadline converted to a count and clamped to its 32 bits.
 */
#include "arch/x86_64/apic.h"
#include "arch/x86_64/apic_regs.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/percpu.h"
#include "arch/x86_64/tsc.h"
#include "lib/calib.h"
#include "lib/format.h"
#include "lib/stats.h"

#define CALIB_RUNS	3
#define CALIB_DIV	100	/* a 10 ms window */

struct lapic_timer {
	u64 tsc_hz;
	u64 hz;			/* count rate; 0: not brought up */
	u32 max_count;		/* 32 bits, but for self-tests */
	bool deadline_mode;
	bool unmasked;
};

static struct lapic_timer timers[MAX_CPUS];

/* Counts of the divided LAPIC clock over a TSC window, each read
 * bracketed by TSC reads; 0 if it did not count down. */
static u64 measure(u64 tsc_hz)
{
	u64 t0, t1, window = tsc_hz / CALIB_DIV;
	u32 c0, c1;

	apic_write(APIC_TIMER_INIT, ~0u);	/* masked: never fires */
	t0 = rdtsc();
	c0 = apic_read(APIC_TIMER_CUR);
	t0 = (t0 + rdtsc()) / 2;
	while (rdtsc() - t0 < window)
		cpu_relax();
	t1 = rdtsc();
	c1 = apic_read(APIC_TIMER_CUR);
	t1 = (t1 + rdtsc()) / 2;
	apic_write(APIC_TIMER_INIT, 0);
	if (c1 == 0 || c1 >= c0)
		return 0;
	return calib_hz(c0 - c1, t1 - t0, tsc_hz);
}

static u64 calibrate(u64 tsc_hz)
{
	u64 runs[CALIB_RUNS];

	apic_write(APIC_TIMER_DIV, APIC_TIMER_DIV_16);
	for (u32 i = 0; i < CALIB_RUNS; i++)
		runs[i] = measure(tsc_hz);
	return median_u64(runs, CALIB_RUNS);
}

bool lapic_timer_init(struct lapic_info *out, u64 tsc_hz, char *why,
		      size_t n)
{
	struct lapic_timer *lt = &timers[this_cpu()->cpu];

	*lt = (struct lapic_timer){ .tsc_hz = tsc_hz, .max_count = ~0u };
	if (!tsc_hz) {
		ksnprintf(why, n, "no TSC frequency to convert deadlines with");
		return false;
	}
	if (cpu_info.has_tsc_deadline) {
		wrmsr(MSR_TSC_DEADLINE, 0);
		apic_write(APIC_LVT_TIMER, APIC_LVT_MASKED |
			   APIC_LVT_TSC_DEADLINE | VEC_LOCAL_TIMER);
		lt->deadline_mode = true;
		lt->hz = tsc_hz;
	} else {
		lt->hz = calibrate(tsc_hz);
		if (!lt->hz) {
			ksnprintf(why, n, "the LAPIC timer does not count");
			return false;
		}
	}
	out->tsc_deadline = lt->deadline_mode;
	out->timer_hz = lt->hz;
	return true;
}

/*
 * The count that does not expire before @deadline: rounded up, and
 * clamped to its 32 bits -- the interrupt then comes early, and the caller
 * arms again for what remains, as Linux's clockevents core does past a
 * device's max_delta_ns.
 */
static u32 count_until(const struct lapic_timer *lt, u64 deadline)
{
	u64 now = rdtsc(), c;

	if (deadline <= now)
		return 1;
	c = mul_div_u64(deadline - now, lt->hz, lt->tsc_hz) + 1;
	return c > lt->max_count ? lt->max_count : (u32)c;
}

static void unmask(struct lapic_timer *lt)
{
	apic_write(APIC_LVT_TIMER, VEC_LOCAL_TIMER |
		   (lt->deadline_mode ? APIC_LVT_TSC_DEADLINE : 0));
	lt->unmasked = true;
}

/*
 * WRMSR to IA32_TSC_DEADLINE is not serializing, and MFENCE alone does
 * not order a WRMSR: MFENCE; LFENCE, as Linux's weak_wrmsr_fence().  It
 * is also the MFENCE the SDM (vol. 3, 10.5.4.1) asks for between the
 * xAPIC write of the LVT that selects TSC-deadline mode and the first
 * deadline write.
 */
static void write_deadline(u64 deadline)
{
	__asm__ volatile("mfence; lfence" ::: "memory");
	wrmsr(MSR_TSC_DEADLINE, deadline);
}

void lapic_timer_arm(u64 deadline)
{
	struct lapic_timer *lt = &timers[this_cpu()->cpu];

	if (!lt->hz)
		return;
	if (deadline && !lt->unmasked)
		unmask(lt);
	if (lt->deadline_mode)
		write_deadline(deadline);
	else
		apic_write(APIC_TIMER_INIT,
			   deadline ? count_until(lt, deadline) : 0);
}

u32 lapic_timer_clamp(u32 max)
{
	struct lapic_timer *lt = &timers[this_cpu()->cpu];
	u32 old = lt->max_count;

	if (lt->deadline_mode || !max)
		return 0;
	lt->max_count = max;
	return old;
}

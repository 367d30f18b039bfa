// SPDX-License-Identifier: GPL-2.0-only
/*
 * boost=off|on in the companion, checked (hosted/boost.h): what the
 * sysfs files say is what the driver was asked, not what the CPU does.
 * As the kernel's (kernel/boost.c), the CPU this process runs on spins
 * in a busy loop and APERF/MPERF, read through Linux's msr driver
 * (/dev/cpu/N/msr, as turbostat reads them), give its effective
 * frequency against the TSC's rate; lib/boost.c's boost_check() decides,
 * with IA32_PERF_CTL's ratio on Intel without HWP where APERF/MPERF
 * cannot be had.  Not timed: once, before the benchmark.
 */
#include <sched.h>
#include <stdio.h>
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/tsc.h"
#include "hosted/boost.h"
#include "hosted/msr.h"
#include "lib/boost.h"
#include "lib/calib.h"
#include "lib/format.h"
#include "lib/params.h"
#include "lib/string.h"

#define MSR_IA32_MPERF	0xe7
#define MSR_IA32_APERF	0xe8
#define WARM_MS		2	/* as the kernel's: to settle first */
#define MEASURE_MS	10

struct msr_ctx {
	u32 cpu;
	char err[160];
};

static bool rd(void *ctx, u32 msr, u64 *val)
{
	struct msr_ctx *m = ctx;

	return host_rdmsr(m->cpu, msr, val, m->err, sizeof(m->err));
}

static bool snap(struct msr_ctx *m, u64 *a, u64 *mp)
{
	return rd(m, MSR_IA32_APERF, a) && rd(m, MSR_IA32_MPERF, mp);
}

/* @khz busy on CPU @m->cpu; false with @why where it cannot say. */
static bool measure(struct msr_ctx *m, u64 khz, u64 *eff, char *why,
		    size_t n)
{
	u64 a0, m0, a1, m1;

	if (!(cpuid_checked(6, 0).ecx & 1)) {
		ksnprintf(why, n, "no APERF/MPERF (CPUID 06H:ECX[0] clear)");
		return false;
	}
	tsc_busy_until(rdtsc() + khz * WARM_MS);
	if (!snap(m, &a0, &m0)) {
		ksnprintf(why, n, "APERF/MPERF unreadable: %s", m->err);
		return false;
	}
	tsc_busy_until(rdtsc() + khz * MEASURE_MS);
	if (!snap(m, &a1, &m1)) {
		ksnprintf(why, n, "APERF/MPERF unreadable: %s", m->err);
		return false;
	}
	if (sched_getcpu() != (int)m->cpu) {
		ksnprintf(why, n, "the process moved off CPU %u in the loop",
			  m->cpu);
		return false;
	}
	if (m1 == m0) {
		ksnprintf(why, n, "MPERF did not count over the loop");
		return false;
	}
	*eff = mul_div_u64(khz, a1 - a0, m1 - m0);
	return true;
}

void boost_effect(struct rec *r, u32 mode, u64 hz)
{
	struct msr_ctx m = { .err = "" };
	struct boost_cpu b;
	char why[200], say[320];
	int cpu = sched_getcpu();
	u64 khz = hz / 1000, eff = 0;
	bool measured;

	if (mode == BOOST_FIRMWARE)
		return;
	memset(&b, 0, sizeof(b));
	b.mode = mode;
	boost_caps_decode(&b.caps, cpu_info.vendor, cpuid_checked(6, 0).eax,
			  cpuid_checked(0x80000007, 0).edx);
	m.cpu = cpu < 0 ? 0 : (u32)cpu;
	/* PERF_CTL and PM_ENABLE for boost_check()'s Intel fallback */
	boost_read(&b.caps, &b.after, rd, &m);
	measured = cpu >= 0 && khz && measure(&m, khz, &eff, why, sizeof(why));
	if (cpu < 0)
		ksnprintf(why, sizeof(why), "sched_getcpu() failed");
	else if (!khz)
		ksnprintf(why, sizeof(why), "no TSC rate");
	boost_check(&b, measured, eff, khz, measured ? NULL : why);
	boost_rec_check(r, &b);
	if (boost_check_say(&b, m.cpu, say, sizeof(say)) > 0)
		fprintf(stderr, "hugezero-linux: boost: %s\n", say);
}

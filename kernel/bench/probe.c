// SPDX-License-Identifier: GPL-2.0-only
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/tsc.h"
#include "kernel/bench/probe.h"
#include "kernel/timebase.h"
#include "lib/calib.h"

/* Every deadline up to the stop is owed a sample, however late: a probe
 * starved until after the stop still takes them all (as catch-up). */
static void probe_fn(void *arg)
{
	struct bench_probe *p = arg;

	for (u64 k = 1;; k++) {
		u64 deadline = p->start + k * p->period, now;

		if (p->stop && deadline > p->stop_at)
			break;
		if (p->n == p->cap) {
			p->truncated = true;
			break;
		}
		sleep_until(deadline);
		now = rdtsc();
		if (p->stop && deadline > p->stop_at)
			break;
		p->late[p->n] = now > deadline ? now - deadline : 0;
		p->fault[p->n] = *p->current;
		p->n++;
	}
}

bool bench_probe_start(struct bench_probe *p, u32 cpu,
		       const struct hz_config *c, const volatile u64 *current)
{
	p->stop = false;
	p->truncated = false;
	p->n = 0;
	p->expected = 0;
	p->current = current;
	p->period = mul_div_u64(c->probe_us, timebase.tsc_hz, 1000000ULL);
	p->start = rdtsc();
	p->task = NULL;
	if (!p->cap)
		return false;
	p->task = task_create(cpu, "probe", probe_fn, p, PRIO_PROBE,
			      c->probe_class == PROBE_RT);
	if (!p->task)
		return false;
	wake_up(p->task);	/* made asleep: it starts at a resched point */
	return true;
}

void bench_probe_stop(struct bench_probe *p)
{
	p->stop_at = rdtsc();
	barrier();		/* stop_at before stop, for the probe */
	p->stop = true;
	task_join(p->task);
	p->expected = (p->stop_at - p->start) / p->period;
}

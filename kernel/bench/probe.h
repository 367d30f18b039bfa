/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KERNEL_BENCH_PROBE_H
#define KERNEL_BENCH_PROBE_H

#include "kernel/sched/sched.h"
#include "lib/params.h"

/*
 * probe=latency: a task on the faulting CPU, above the workload, that
 * sleeps until a TSC deadline every probe_us and records how late it ran
 * (actual - deadline) and the fault whose primitive call it interrupted
 * (the fault path's index inside a call; ~0 outside one).  Every deadline is owed one wake-up: none is
 * skipped, so wake-ups against deadlines passed counts the lost ones.
 */
#define PROBE_MAX 65536		/* wake-ups one pass keeps */

struct bench_probe {
	struct task *task;
	volatile bool stop;
	bool truncated;			/* PROBE_MAX samples: the rest untaken */
	u64 start, stop_at, period;	/* TSC */
	u64 expected;
	u32 n;
	const volatile u64 *current;
	u64 late[PROBE_MAX], fault[PROBE_MAX];
};

/* Start it on @cpu beside the caller (a model must be active). */
bool bench_probe_start(struct bench_probe *p, u32 cpu,
		       const struct hz_config *c, const volatile u64 *current);
void bench_probe_stop(struct bench_probe *p);

#endif

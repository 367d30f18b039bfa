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
#define PROBE_BYTES (2ULL * PROBE_MAX * sizeof(u64))	/* late[] and fault[] */

struct bench_probe {
	struct task *task;
	volatile bool stop;
	bool truncated;			/* cap samples: the rest untaken */
	u64 start, stop_at, period;	/* TSC */
	u64 expected;
	u32 n;
	const volatile u64 *current;
	/* The CPU's, made with its state when probe=latency (cap
	 * PROBE_MAX), else none (cap 0) */
	u64 *late, *fault;
	u32 cap;
};

/* Start it on @cpu beside the caller (a model must be active); false
 * without memory for its task or samples. */
bool bench_probe_start(struct bench_probe *p, u32 cpu,
		       const struct hz_config *c, const volatile u64 *current);
void bench_probe_stop(struct bench_probe *p);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HOSTED_PROBE_H
#define HOSTED_PROBE_H

#include <pthread.h>
#include "lib/params.h"

/*
 * probe=latency on the Linux side: a thread pinned to the faulting CPU
 * that sleeps until a TSC deadline every probe_us (clock_nanosleep on
 * CLOCK_MONOTONIC, absolute) and records how late it woke and which fault
 * it woke in: the kernel's probe, under Linux's scheduler and the model
 * the host record names.  SCHED_FIFO with probe_class=rt as root, else
 * SCHED_OTHER (the policy is recorded).
 */
struct probe {
	pthread_t thread;
	int cpu;
	u64 period;			/* TSC ticks */
	u64 *late, *fault;		/* per wake-up */
	u32 cap, n;
	u64 start, stop_at;		/* TSC */
	u64 start_ns;			/* CLOCK_MONOTONIC at start */
	u64 expected;
	volatile u64 *current_fault;	/* the toucher's, ~0 between faults */
	bool stop;			/* atomic: release by the stopper */
	bool truncated;			/* cap samples: the rest untaken */
	const char *policy;		/* SCHED_FIFO, SCHED_OTHER */
	char why[160];			/* why it could not be what was asked */
};

/* The policy probe_class= gets here, for the config record. */
const char *probe_policy(const struct hz_config *c);
/* Start the probe beside the caller (who must be pinned to @cpu). */
bool probe_start(struct probe *p, const struct hz_config *c, int cpu,
		 volatile u64 *current_fault, u32 cap);
/* Stop it; its samples stay until probe_free(). */
void probe_stop(struct probe *p);
void probe_free(struct probe *p);

#endif

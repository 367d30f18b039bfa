/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HOSTED_PERF_H
#define HOSTED_PERF_H

#include <sys/types.h>
#include <linux/perf_event.h>
#include "lib/benchrec.h"
#include "lib/outcome.h"
#include "lib/pmu.h"

/*
 * pmu= under Linux: the kernel's events (lib/pmu.c), counted through
 * perf_event_open(2) (include/uapi/linux/perf_event.h) for this thread on
 * its CPU, kernel and user alike, as one group read just before and just
 * after each timed fault or clear.  docs/companion.md ("Counters") is the
 * user's view.
 */

/* The system calls behind the counters, so that a host test can fake them. */
struct perf_ops {
	/* perf_event_open(2): the new fd, or -errno */
	int (*open)(struct perf_event_attr *a, pid_t pid, int cpu, int group_fd,
		    unsigned long flags);
	/* read(2): bytes read, or -errno */
	long (*read)(int fd, void *buf, size_t n);
	/* ioctl(2): 0, or -errno */
	int (*ioctl)(int fd, unsigned long req, unsigned long arg);
	void (*close)(int fd);
	/* The first line of a sysfs or procfs file; false when unreadable. */
	bool (*read_line)(const char *path, char *buf, size_t n);
};

extern const struct perf_ops perf_sys;

#define PERF_MAX BENCH_PMU_MAX	/* events in the group: those sampled */
#define PERF_REASON_LEN 200

/* Whose counters: the CPU the thread is pinned to (-1: any). */
struct perf_cpu {
	u32 vendor;		/* enum pmu_vendor */
	u32 family;
	const char *vendor_name;	/* CPUID's, for a reason */
	int cpu;
};

struct perf_counters {
	const struct perf_ops *ops;
	/* Every event asked for, counted or why not: only the slots' name,
	 * event and skip mean anything here (no MSR is ours to write). */
	struct pmu_plan plan;
	u32 n;				/* in the group, in the order asked */
	int fd[PERF_MAX];		/* fd[0] leads the group */
	u8 slot[PERF_MAX];		/* each one's slot in plan */
	u64 before[PERF_MAX];
	u64 *delta[PERF_MAX];		/* per fault or clear, cap of them */
	u64 bracket[PERF_MAX];		/* least count of an empty bracket */
	u32 cap;
	const char *lost;		/* a read failed in this pass: why */
	char lost_why[PERF_REASON_LEN];
	char reason[PMU_MAX_EVENTS][PERF_REASON_LEN];
};

/*
 * Open the @n events of @events (indices in lib/pmu.c's pmu_events, as
 * pmu= gives them) on @cpu for the calling thread, then reset and start
 * them, with room for @cap samples each.  Every event gets a slot in
 * @p->plan, with its reason when it is not counted; @p->bracket says
 * what a read before and after nothing counts.  Returns the number
 * counted.
 */
u32 perf_open(struct perf_counters *p, const struct perf_ops *ops,
	      const struct perf_cpu *cpu, const u8 *events, u32 n, u32 cap);
void perf_close(struct perf_counters *p);

/* Just before the timed region: every counter's value now. */
void perf_before(struct perf_counters *p);
/* Just after it: sample @k of each counter, its count since perf_before(). */
void perf_after(struct perf_counters *p, u32 k);
/* The pass's samples into @bp; a read that failed in it fails @o. */
void perf_pass(struct perf_counters *p, struct bench_pass *bp,
	       struct bench_outcome *o, const char *name);

#endif

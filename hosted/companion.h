/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HOSTED_COMPANION_H
#define HOSTED_COMPANION_H

#include "lib/benchrec.h"
#include "lib/params.h"
#include "lib/record.h"
#include "hosted/perf.h"
#include "hosted/sched_info.h"

/*
 * build/hugezero-linux: the same clearing primitives and orders as the
 * kernel, run under Linux on the same machine, writing the same records
 * to standard output.
 */

extern struct rec_writer records;
extern u64 tsc_hz;
extern u64 tsc_overhead;	/* the empty timed pair, ticks (median) */

/* host.c: where we run */
struct host_info {
	char kernel[128];		/* uname -r */
	char clocksource[32];
	char thp_enabled[64], thp_defrag[64];
	u64 hugetlb_total[2], hugetlb_free[2];	/* 2M, 1G */
	int cpu;			/* pinned to; -1: not pinned */
	char cpus[256];			/* cpus=: where the processes run */
	bool root;
	bool vm;
	u64 mem_available;
	struct sched_info sched;	/* preemption model, init_on_alloc/free */
};

extern struct host_info host;

int host_pin(u64 want, char *err, size_t n);
void host_read(void);
void host_record(void);
/* The first line of a file, '\n' cut; false when unreadable. */
bool host_read_line(const char *path, char *buf, size_t n);
/* A /proc/meminfo line ("MemTotal", "MemAvailable") in bytes, 0 if absent. */
u64 meminfo_bytes(const char *key);
/* Free 2M hugetlb pages right now. */
u64 host_free_hugetlb_2m(void);
/* Make @pages huge pages of @size free, reserving them as root; false with
 * what to run otherwise.  Every change is undone at exit or on a signal
 * (hosted/restore.h). */
bool hugetlb_ensure(u64 size, u64 pages, char *why, size_t n);
/* hugetlb_pool.c: the host's pool held by this run alone for the rest of
 * it; @wait for another run's end (bounded), else one try; false with
 * why when it is held elsewhere. */
bool hugetlb_claim(bool wait, char *why, size_t n);

/* gs.c: GS base for the return thunks' per-CPU words; NULL on success,
 * else why not (and gs_missing() says it again later). */
const char *gs_setup(void);
const char *gs_missing(void);

/* cpus.c: cpus= against this machine */
/*
 * The CPUs of @want that Linux has online and this process may run on,
 * into @out; each one left out is said on standard error.  Returns how
 * many there are.
 */
u32 cpus_usable(const struct cpu_set *want, struct cpu_set *out);
/* The NUMA node of @cpu (sysfs's cpuN/nodeM), 0 without one. */
u32 cpu_node(u32 cpu);
/* The CPUs of @set on @cpu's last-level cache, @cpu counted once (sysfs
 * cacheinfo; unreadable: all of @set). */
u32 cpu_llc_sharers(u32 cpu, const struct cpu_set *set);
/* NUMA nodes online; 1 without sysfs's node directory. */
u32 numa_nodes(void);

/*
 * perf_linux.c: pmu=, this process's counters for the configuration
 * being run (companion_run_config() opens and closes them; the timed
 * passes read them around each fault or clear).  open sets @d->pmu.
 */
extern struct perf_counters counters;
void counters_open(struct bench_desc *d);
void counters_close(void);

/* timebase.c */
void timebase_calibrate(void);

/*
 * One configuration through lib/benchrun.c's skeleton, skipped when @why
 * is not "", said on standard error; 1 if it failed, else 0.  Fills in
 * the job's outcome (one, the companion being one thread).
 */
struct bench_job;
u32 companion_run_config(struct bench_job *j, const char *why);

/*
 * rounds.c: @n (up to ROUND_GROUP_MAX) configurations of this process as
 * one round group (interleave=on, lib/benchrun.h), each job with its own
 * desc and ctx; @skip[i] a reason or NULL.  Each gets an outcome of its
 * own; the ok/FAIL/skip lines follow the group.  @led: a group a fault
 * leads (bench=split), which runs split_runs= rounds where given; @hook:
 * one whose rounds the --round-hook command follows (round_hook_set()).
 * Returns
 * the number of members that failed.  In a cpus= group's process each
 * member is a configuration of the group's, its passes in step with the
 * other processes' (docs/companion.md, "Round groups").
 */
u32 companion_run_rounds(struct bench_job *job, const char *const *skip, u32 n,
			 bool led, bool hook);
void round_hook_set(const char *cmd);
/* At the end: says so when a hook was given and never ran. */
void round_hook_done(void);

/*
 * bare.c and linux_fault.c: each returns the number of failed
 * configurations.  @g: cpus= was given, one process per CPU of @g (NULL:
 * this process alone, pinned by cpu=).
 */
struct group_cpus;
u32 run_bare(const struct hz_config *c, u32 *id, const struct group_cpus *g);
u32 run_linux_fault(const struct hz_config *c, u32 *id,
		    const struct group_cpus *g);

/*
 * bench=split in this process (split.c): the faults that lead a folio
 * size's bare round group.  start, given the bare region's backing: up
 * to @max faults' jobs and skip reasons (NULL: it runs) into @j and
 * @skip, and how many; done after the groups, when start gave any.
 */
struct bare_lead {
	u32 (*start)(void *ctx, const char *backing, struct bench_job *j,
		     const char **skip, u32 max);
	void (*done)(void *ctx);
	void *ctx;
};

/* bare.c: folio size @f's matrix over one region, hugetlb when
 * the pool holds it; round groups with interleave=on, the first led
 * by @lead's faults.  bare_bytes: that region's size. */
u32 run_bare_led(const struct hz_config *c, u32 f, u32 *id,
		 const struct bare_lead *lead);
/* bare.c: Linux's own primitive (and its tree twin) in every order of
 * @c, over a region of memory kind @b (THP), a round group led by
 * @lead's fault over @b. */
u32 run_bare_twin(const struct hz_config *c, u32 f, u32 *id, enum backing b,
		  const struct bare_lead *lead);
u64 bare_bytes(const struct hz_config *c, u32 f);

/* linux_fault.c: whether the fault of @f over @b is asked for and has
 * that memory kind (THP: 2M). */
bool lf_selected(const struct hz_config *c, u32 f, enum backing b);
/* linux_fault.c: mode @m's configurations of folio size @f over the
 * backings of @backings (a bitmask of enum backing), in this process. */
u32 run_linux_fault_of(const struct hz_config *c, u32 *id, u32 m, u32 f,
		       u64 backings);
/* The configuration of @f, @b and mode none as a job, its skip reason
 * into @why ("" when it runs); NULL when not selected, not applicable or
 * no memory (said).  lf_lead_free() after its group. */
struct lf_cfg;
struct lf_cfg *lf_lead_new(const struct hz_config *c, u32 f, enum backing b,
			   u32 *id, struct bench_job *j, char *why, size_t n);
void lf_lead_free(struct lf_cfg *l);
/* Folios a configuration of @f over @b has (size= clamped as it runs). */
u32 lf_count(const struct hz_config *c, u32 f, enum backing b);
/* split.c: bench=split without cpus= */
u32 run_split(const struct hz_config *c, u32 *id);
/* scale.c: cpus= given: every scale= step over the @usable CPUs. */
u32 run_scaled(const struct hz_config *c, const struct cpu_set *usable,
	       u32 *id);

/* memory.c: regions backed as asked, and what they got */
struct region {
	u8 *base;
	u64 bytes, map_bytes;
	void *map;
	const char *backing;		/* hugetlb, thp, base */
};

bool region_map(struct region *r, u64 bytes, enum backing b, u64 page,
		char *why, size_t n);
/* Per cent of the region the kernel backs with huge pages (smaps). */
u32 region_huge_pct(const struct region *r);
void region_unmap(struct region *r);

/* One pass's per-folio arrays. */
struct samples {
	u64 *fault, *clear, *access, *page, *scratch;
	u32 cap;
};

bool samples_alloc(struct samples *s, u32 n);
void samples_free(struct samples *s);
/* The post-fault access of the folio containing @p, timed (0 for none). */
u64 timed_access(u8 *p, u64 bytes, u32 mode);

#endif

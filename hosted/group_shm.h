/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HOSTED_GROUP_SHM_H
#define HOSTED_GROUP_SHM_H

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "hosted/group.h"

/*
 * What a group's processes and their parent share: one page of
 * MAP_SHARED|MAP_ANONYMOUS memory, made before the fork.  Every process
 * goes through the same rounds (one per pass, one per configuration, one
 * at exit): it fills its slot and posts; the last to post rings the
 * parent through the record pipe, whose earlier lines are therefore all
 * in; the parent reads the slots, counts the round consumed, and wakes
 * them.  No process writes its slot again before that.
 */
enum round_kind { ROUND_PASS = 1, ROUND_CONFIG, ROUND_EXIT };
enum round_status { ROUND_OK, ROUND_FAIL, ROUND_SKIP };

/* The line the last process to post writes to the record pipe. */
#define GROUP_DOORBELL "!\n"

struct group_slot {
	u32 kind, group, run, status;
	bool finished;			/* the pass ran to its end */
	char pass[12];
	u64 start, end;			/* TSC */
	u64 stime_us, utime_us;		/* getrusage() over the pass */
	u64 bytes;
	char reason[160];		/* a failed or skipped configuration */
	u32 auto_stop;			/* runs=auto: what stopped it */
	struct auto_view view;		/* runs=auto: this process's */
} __attribute__((aligned(64)));

struct group_shm {
	u32 n;
	u32 sleepers;			/* processes asleep on gen */
	u32 posted;			/* processes that posted this round */
	u32 consumed;			/* rounds the parent has read: a futex */
	/* The start barrier, each word on a line of its own, as the
	 * kernel's (lib/barrier.h): every arrival bumps arrived, while the
	 * spinning processes read gen alone (and sleep on it, a futex). */
	u32 arrived __attribute__((aligned(64)));
	u32 gen __attribute__((aligned(64)));
	struct group_slot slot[];
};

_Static_assert(offsetof(struct group_shm, arrived) == 64 &&
	       offsetof(struct group_shm, gen) == 128 &&
	       offsetof(struct group_shm, slot) == 192,
	       "the barrier's words on lines of their own");

static inline void futex_wait(u32 *addr, u32 val)
{
	/* Not FUTEX_PRIVATE: the word is shared between processes. */
	syscall(SYS_futex, addr, FUTEX_WAIT, val, NULL, NULL, 0);
}

static inline void futex_wake(u32 *addr)
{
	syscall(SYS_futex, addr, FUTEX_WAKE, 0x7fffffff, NULL, NULL, 0);
}

/* One CPU's place in a group's config records. */
struct group_place {
	struct bench_smp smp;	/* first: a desc's smp points here */
	char mem_node[16];
	u64 bytes;		/* the configuration's region */
};

void group_place(const struct group_cpus *g, u32 cpu, u32 group,
		 struct group_place *p);

/* What the process for the @index-th CPU starts with. */
struct group_proc {
	struct group_shm *sh;
	const struct group_cpus *g;
	u32 index, cpu;
	int fd, parent_fd;		/* the record pipe's ends */
	pid_t parent;
	u32 first_id, first_group;
	group_body body;
	void *ctx;
};

/* group_proc.c: the process's whole life, after fork(). */
void group_proc_main(const struct group_proc *a) __attribute__((noreturn));

#endif

// SPDX-License-Identifier: GPL-2.0-only
/*
 * A host model of the kernel's barrier (lib/barrier.c, the same source,
 * built with -DBARRIER_TRACE and -fsanitize=thread): pthreads stand for
 * CPUs, 64 to 192 of them on however few cores the host has.  It checks
 * what the kernel cannot show in QEMU at 2-10 CPUs:
 *
 *  - a waiter reads no line of the barrier but the generation's before
 *    the deadline (every access goes through barrier_trace() below,
 *    which sorts it by cache line and by the waiter's own clock);
 *  - past the deadline it does read the members' slots, and names the
 *    one member planted late;
 *  - an abort lets every waiter go, with false;
 *  - no member leaves a generation before every member arrived at it.
 *
 * It prints the release skew (the spread of the members' clocks as they
 * leave, max - min, per generation) with an eager wake (a waiter yields
 * and looks again: the kernel's cpu_relax() spin) and a lazy one (it
 * sleeps on the generation's futex, at most 2 ms at a time, and the last
 * arrival wakes the sleepers, as the companion's waiters do after their
 * spin: hosted/group_proc.c).  Those are reported, never asserted:
 * threads oversubscribe the host's cores, so they measure the host's
 * scheduler as much as the barrier.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/syscall.h>

#include "lib/barrier.h"

#define MAX_THREADS 192
#define ROUNDS 12
#define NEVER (~0ull)

enum line_kind { L_GEN, L_COUNT, L_CFG, L_SLOT, L_IDS, L_OTHER, L_KINDS };
static const char *const line_names[L_KINDS] = {
	"generation", "count", "read-mostly", "slot", "members", "other",
};

/* One thread's view: what it read, and when. */
struct view {
	u32 id;
	bool lazy;
	bool waiting;		/* from its arrival (the count bumped) on */
	u64 deadline;		/* its own clock's, in ns */
	u64 before[L_KINDS];	/* loads while waiting, before the deadline */
	u64 after;		/* loads while waiting, past it */
	u64 abort_checks;	/* reads of the abort flag (not the barrier's) */
	u32 named;		/* the member overdue() was given, or ~0u */
	u64 overdue_calls;
	u64 arrived_ns;		/* when it arrived (its last generation) */
};

static __thread struct view *me;

static struct barrier bar;
static struct barrier_slot slots[MAX_THREADS];
static u32 ids[MAX_THREADS];
/* The run's abort flag, as smp_aborted: a line of its own. */
static struct { volatile u32 set; } __aligned(64) abort_flag;

static struct view views[MAX_THREADS];
static u64 released[ROUNDS][MAX_THREADS];
static volatile u32 arrived[ROUNDS];
static u32 nthreads, late_id = ~0u, abort_id = ~0u;
static u64 late_ns, abort_after_ns, deadline_rel;
/* Every member starts when all exist: their creation is not measured. */
static volatile u32 go;
static u64 go_ns;
static bool results[MAX_THREADS];
static u32 failures, passes;

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

static void check(bool ok, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		__atomic_add_fetch(&passes, 1, __ATOMIC_RELAXED);
		return;
	}
	if (__atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED) > 20)
		return;		/* the count at the end says how many */
	printf("FAIL barrier model: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static uintptr_t line(const volatile void *p)
{
	return (uintptr_t)p & ~(uintptr_t)(BARRIER_LINE - 1);
}

static enum line_kind kind_of(const volatile void *p)
{
	uintptr_t a = line(p);

	if (a == line(&bar.gen))
		return L_GEN;
	if (a == line(&bar.count))
		return L_COUNT;
	if (a >= line(&bar.n) && a < (uintptr_t)(&bar + 1))
		return L_CFG;
	if (a >= (uintptr_t)slots && a < (uintptr_t)(slots + MAX_THREADS))
		return L_SLOT;
	if (a >= line(ids) && a < (uintptr_t)(ids + MAX_THREADS))
		return L_IDS;
	return L_OTHER;
}

/* lib/barrier.c's accessor under BARRIER_TRACE: every access, first. */
void barrier_trace(const volatile void *p, enum barrier_access a)
{
	enum line_kind k = kind_of(p);

	if (!me)
		return;		/* the main thread's barrier_init() */
	if (a == BARRIER_RMW && k == L_COUNT) {
		me->waiting = true;	/* arrived: the wait starts */
		return;
	}
	if (a != BARRIER_LOAD || !me->waiting)
		return;
	if (now_ns() < me->deadline)
		me->before[k]++;
	else
		me->after++;
}

/* Lazy: asleep while the generation is what it just read (a read of
 * the generation's line, as the spin's), woken by the last arrival. */
static void relax(void *ctx)
{
	struct view *v = ctx;
	struct timespec most = { 0, 2000000 };
	u32 seen;

	if (!v->lazy) {
		sched_yield();
		return;
	}
	barrier_trace(&bar.gen, BARRIER_LOAD);
	seen = __atomic_load_n(&bar.gen, __ATOMIC_ACQUIRE);
	syscall(SYS_futex, &bar.gen, FUTEX_WAIT_PRIVATE, seen, &most, NULL,
		0);
}

static void wake(void *ctx, volatile u32 *gen)
{
	struct view *v = ctx;

	if (v->lazy)
		syscall(SYS_futex, gen, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL,
			NULL, 0);
}

static u64 clock_of(void *ctx)
{
	(void)ctx;
	return now_ns();
}

static bool aborted(void *ctx)
{
	struct view *v = ctx;

	v->abort_checks++;
	return __atomic_load_n(&abort_flag.set, __ATOMIC_ACQUIRE);
}

static void overdue(void *ctx, u32 late)
{
	struct view *v = ctx;

	v->overdue_calls++;
	if (v->named == ~0u)
		v->named = late;
}

static const struct barrier_ops ops = {
	.relax = relax,
	.now = clock_of,
	.aborted = aborted,
	.overdue = overdue,
	.wake = wake,
};

static void nap_ns(u64 ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull),
			       (long)(ns % 1000000000ull) };

	nanosleep(&ts, NULL);
}

static void *member(void *arg)
{
	struct view *v = arg;
	u32 rounds = late_id != ~0u || abort_id != ~0u ? 1 : ROUNDS;

	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		nap_ns(1000000);
	v->deadline = deadline_rel == NEVER ? NEVER : go_ns + deadline_rel;
	me = v;
	for (u32 r = 0; r < rounds; r++) {
		if (v->id == late_id)
			nap_ns(late_ns);
		if (v->id == abort_id) {
			nap_ns(abort_after_ns);
			__atomic_store_n(&abort_flag.set, 1, __ATOMIC_RELEASE);
			results[v->id] = false;
			return NULL;
		}
		__atomic_store_n(&v->arrived_ns, now_ns(), __ATOMIC_RELAXED);
		__atomic_add_fetch(&arrived[r], 1, __ATOMIC_RELAXED);
		results[v->id] = barrier_wait(&bar, v->id, v->deadline, &ops,
					      v);
		released[r][v->id] = now_ns();
		v->waiting = false;
		if (__atomic_load_n(&arrived[r], __ATOMIC_RELAXED) !=
		    nthreads && results[v->id])
			check(false, "thread %u left generation %u with %u of "
			      "%u arrived", v->id, r, arrived[r], nthreads);
		if (!results[v->id])
			break;
	}
	return NULL;
}

/* @n threads, each with @deadline_ns from the start (NEVER: none). */
static void run(u32 n, bool lazy, u64 deadline_ns)
{
	pthread_t t[MAX_THREADS];

	nthreads = n;
	deadline_rel = deadline_ns;
	go = 0;
	memset(views, 0, sizeof(views));
	memset(released, 0, sizeof(released));
	memset((void *)arrived, 0, sizeof(arrived));
	abort_flag.set = 0;
	for (u32 i = 0; i < n; i++)
		ids[i] = i;
	barrier_init(&bar, n, slots, ids);
	for (u32 i = 0; i < n; i++) {
		views[i] = (struct view){ .id = i, .lazy = lazy, .named = ~0u };
		if (pthread_create(&t[i], NULL, member, &views[i])) {
			printf("FAIL barrier model: pthread_create %u\n", i);
			exit(1);
		}
	}
	go_ns = now_ns();
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	for (u32 i = 0; i < n; i++)
		pthread_join(t[i], NULL);
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 before_other(const struct view *v)
{
	u64 sum = 0;

	for (int k = 0; k < L_KINDS; k++)
		sum += k == L_GEN ? 0 : v->before[k];
	return sum;
}

/* Every generation released, every waiter's reads on the line alone. */
static void skew(u32 n, bool lazy)
{
	u64 spread[ROUNDS], gen = 0, other = 0, aborts = 0;

	run(n, lazy, NEVER);
	for (u32 r = 0; r < ROUNDS; r++) {
		u64 lo = ~0ull, hi = 0;

		for (u32 i = 0; i < n; i++) {
			lo = MIN(lo, released[r][i]);
			hi = MAX(hi, released[r][i]);
		}
		spread[r] = hi - lo;
	}
	for (u32 i = 0; i < n; i++) {
		check(results[i], "%u threads: thread %u's wait returned "
		      "false", n, i);
		gen += views[i].before[L_GEN];
		other += before_other(&views[i]);
		aborts += views[i].abort_checks;
		for (int k = 0; k < L_KINDS; k++)
			if (k != L_GEN && views[i].before[k])
				check(false, "%u threads, %s: thread %u read "
				      "the %s line %llu times before the "
				      "deadline", n, lazy ? "lazy" : "eager",
				      i, line_names[k],
				      (unsigned long long)views[i].before[k]);
	}
	check(other == 0, "remote reads before the deadline: %llu",
	      (unsigned long long)other);
	qsort(spread, ROUNDS, sizeof(spread[0]), cmp_u64);
	printf("barrier model: %3u threads, %-5s wake: release skew median "
	       "%llu us, max %llu us over %u generations; per waiter %llu "
	       "generation-line reads, %llu abort-flag checks, %llu reads "
	       "of other lines before the deadline\n", n,
	       lazy ? "lazy" : "eager",
	       (unsigned long long)spread[ROUNDS / 2] / 1000,
	       (unsigned long long)spread[ROUNDS - 1] / 1000, ROUNDS,
	       (unsigned long long)(gen / n),
	       (unsigned long long)(aborts / n), (unsigned long long)other);
}

/* A member 1.2 s late past a 0.5 s deadline: named, slots read then. */
static void late_member(u32 n, u32 late)
{
	u64 named = 0, after = 0, other = 0;

	late_id = late;
	late_ns = 1200000000ull;
	run(n, false, 500000000ull);
	late_id = ~0u;
	for (u32 i = 0; i < n; i++) {
		const struct view *v = &views[i];

		check(results[i], "late member: thread %u's wait returned "
		      "false", i);
		other += before_other(v);
		if (i == late)
			continue;
		if (v->overdue_calls)
			named++;
		after += v->after;
		/* Another thread that came after the deadline too (64 TSan
		 * threads on a loaded host's 2 cores) is rightly named. */
		if (v->overdue_calls && v->named != late &&
		    !(v->named < n &&
		      __atomic_load_n(&views[v->named].arrived_ns,
				      __ATOMIC_RELAXED) > v->deadline))
			check(false, "thread %u named %u, not the late %u", i,
			      v->named, late);
	}
	check(named > 0, "no waiter reached the deadline path");
	check(after > 0, "past the deadline, no waiter read the slots");
	check(other == 0, "late member: %llu remote reads before the "
	      "deadline", (unsigned long long)other);
	printf("barrier model: %3u threads, thread %u late: %llu waiters "
	       "named it past the deadline, after reading %llu lines there; "
	       "%llu reads of other lines before it\n", n, late,
	       (unsigned long long)named, (unsigned long long)after,
	       (unsigned long long)other);
}

/* One member gives the run up instead of arriving: all others leave. */
static void abort_run(u32 n, u32 who)
{
	u32 left = 0;

	abort_id = who;
	abort_after_ns = 50000000ull;
	run(n, false, NEVER);
	abort_id = ~0u;
	for (u32 i = 0; i < n; i++)
		left += !results[i];
	check(left == n, "abort: %u of %u waits returned false", left, n);
	printf("barrier model: %3u threads, thread %u aborts: %u of %u "
	       "waits returned false\n", n, who, left, n);
}

/*
 * The count is not blind: the deadline path's reads, made by a waiter
 * before its deadline, are seen and sorted (the members' list, slots).
 */
static void trace_sees(void)
{
	struct view v = { .waiting = true, .deadline = NEVER };

	for (u32 i = 0; i < 4; i++)
		ids[i] = i;
	barrier_init(&bar, 4, slots, ids);
	me = &v;
	check(barrier_late(&bar, 0) == 0, "no member arrived: 0 is late");
	me = NULL;
	check(v.before[L_CFG] == 3 && v.before[L_IDS] == 1 &&
	      v.before[L_SLOT] == 1 && v.before[L_GEN] == 0,
	      "the trace missed barrier_late()'s reads: %llu read-mostly, "
	      "%llu members, %llu slot", (unsigned long long)v.before[L_CFG],
	      (unsigned long long)v.before[L_IDS],
	      (unsigned long long)v.before[L_SLOT]);
}

int main(void)
{
	static const u32 sizes[] = { 64, 128, 192 };

	u64 t0 = now_ns();

	setvbuf(stdout, NULL, _IOLBF, 0);
	trace_sees();
	for (u32 i = 0; i < ARRAY_SIZE(sizes); i++) {
		skew(sizes[i], false);
		skew(sizes[i], true);
	}
	late_member(64, 37);
	abort_run(64, 5);
	printf("barrier model: %u passed, %u failed in %.1f s\n", passes,
	       failures, (double)(now_ns() - t0) / 1e9);
	return failures ? 1 : 0;
}

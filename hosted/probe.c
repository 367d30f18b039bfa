// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "arch/x86_64/tsc.h"
#include "hosted/companion.h"
#include "hosted/interrupt.h"
#include "hosted/probe.h"
#include "lib/calib.h"

static u64 mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (u64)t.tv_sec * 1000000000ULL + (u64)t.tv_nsec;
}

const char *probe_policy(const struct hz_config *c)
{
	return c->probe_class == PROBE_RT && host.root ? "SCHED_FIFO"
						       : "SCHED_OTHER";
}

/*
 * Every deadline up to the stop is owed a sample, however late.  The sleep
 * and the lateness are both CLOCK_MONOTONIC's (which NTP may slew: the same
 * clock on both sides cancels it); lateness is then converted to TSC ticks.
 */
static void *probe_main(void *arg)
{
	struct probe *p = arg;

	for (u64 k = 1;; k++) {
		u64 deadline = p->start + k * p->period, now_ns;
		u64 ns = p->start_ns + mul_div_u64(k * p->period, 1000000000ULL,
						   tsc_hz);
		struct timespec ts = { (time_t)(ns / 1000000000ULL),
				       (long)(ns % 1000000000ULL) };

		if (__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE) &&
		    deadline > p->stop_at)
			break;
		if (p->n == p->cap) {
			p->truncated = true;
			break;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
		       EINTR)
			;
		now_ns = mono_ns();
		if (__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE) &&
		    deadline > p->stop_at)
			break;
		p->late[p->n] = now_ns > ns ? mul_div_u64(now_ns - ns, tsc_hz,
							  1000000000ULL) : 0;
		p->fault[p->n] = *p->current_fault;
		p->n++;
	}
	return NULL;
}

static bool set_policy(struct probe *p, pthread_attr_t *a,
		       const struct hz_config *c)
{
	struct sched_param sp = { .sched_priority = 1 };
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(p->cpu, &set);
	p->policy = probe_policy(c);
	if (c->probe_class == PROBE_RT && !host.root)
		snprintf(p->why, sizeof(p->why), "probe_class=rt needs root for "
			 "SCHED_FIFO: the probe runs SCHED_OTHER");
	return pthread_attr_init(a) == 0 &&
	       pthread_attr_setaffinity_np(a, sizeof(set), &set) == 0 &&
	       (strcmp(p->policy, "SCHED_FIFO") != 0 ||
		(pthread_attr_setinheritsched(a, PTHREAD_EXPLICIT_SCHED) == 0 &&
		 pthread_attr_setschedpolicy(a, SCHED_FIFO) == 0 &&
		 pthread_attr_setschedparam(a, &sp) == 0));
}

bool probe_start(struct probe *p, const struct hz_config *c, int cpu,
		 volatile u64 *current_fault, u32 cap)
{
	pthread_attr_t a;
	sigset_t old;
	int err;

	memset(p, 0, sizeof(*p));
	p->cpu = cpu;
	p->cap = cap;
	p->period = mul_div_u64(c->probe_us, tsc_hz, 1000000ULL);
	p->current_fault = current_fault;
	p->late = calloc(cap, sizeof(u64));
	p->fault = calloc(cap, sizeof(u64));
	if (!p->late || !p->fault || !p->period || !set_policy(p, &a, c)) {
		snprintf(p->why, sizeof(p->why), "cannot set up the probe thread");
		return false;
	}
	p->start_ns = mono_ns();
	p->start = rdtsc();
	/* Created with SIGINT and the like held, it never takes them: the
	 * main thread's handler does (hosted/interrupt.h). */
	interrupt_hold(&old);
	err = pthread_create(&p->thread, &a, probe_main, p);
	pthread_attr_destroy(&a);
	if (err == EPERM && strcmp(p->policy, "SCHED_FIFO") == 0) {
		/* Root without CAP_SYS_NICE (a container): say so, go on. */
		p->policy = "SCHED_OTHER";
		snprintf(p->why, sizeof(p->why), "SCHED_FIFO refused (EPERM): the "
			 "probe runs SCHED_OTHER");
		fprintf(stderr, "hugezero-linux: %s\n", p->why);
		err = pthread_create(&p->thread, NULL, probe_main, p);
	}
	interrupt_release(&old);
	if (err) {
		snprintf(p->why, sizeof(p->why), "pthread_create: %s", strerror(err));
		return false;
	}
	return true;
}

void probe_stop(struct probe *p)
{
	p->stop_at = rdtsc();
	__atomic_store_n(&p->stop, true, __ATOMIC_RELEASE);
	pthread_join(p->thread, NULL);
	p->expected = (p->stop_at - p->start) / p->period;
}

void probe_free(struct probe *p)
{
	free(p->late);
	free(p->fault);
	p->late = p->fault = NULL;
}

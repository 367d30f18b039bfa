// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "arch/x86_64/tsc.h"
#include "hosted/companion.h"
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

/* Each deadline gets one wake-up, late or not: none is skipped, so the
 * count against the deadlines passed says whether any was lost. */
static void *probe_main(void *arg)
{
	struct probe *p = arg;

	for (u64 k = 1; !p->stop && p->n < p->cap; k++) {
		u64 deadline = p->start + k * p->period, now;
		/* Deadlines are after start, the pair's TSC side: no wrap. */
		u64 ns = p->start_ns + mul_div_u64(deadline - p->start,
						   1000000000ULL, tsc_hz);
		struct timespec ts = { (time_t)(ns / 1000000000ULL),
				       (long)(ns % 1000000000ULL) };

		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
		       EINTR)
			;
		now = rdtsc();
		/* A deadline before the stop is owed its sample. */
		if (p->stop && deadline > p->stop_at)
			break;
		p->late[p->n] = now > deadline ? now - deadline : 0;
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
	err = pthread_create(&p->thread, &a, probe_main, p);
	pthread_attr_destroy(&a);
	if (err) {
		snprintf(p->why, sizeof(p->why), "pthread_create: %s", strerror(err));
		return false;
	}
	return true;
}

void probe_stop(struct probe *p)
{
	p->stop_at = rdtsc();
	p->stop = true;
	pthread_join(p->thread, NULL);
	p->expected = (p->stop_at - p->start) / p->period;
	if (p->expected > p->cap)
		p->expected = p->cap;
}

void probe_free(struct probe *p)
{
	free(p->late);
	free(p->fault);
	p->late = p->fault = NULL;
}

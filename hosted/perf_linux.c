// SPDX-License-Identifier: GPL-2.0-only
/*
 * The companion's counters (pmu=): hosted/perf.c over Linux's own system
 * calls, opened for each configuration, for this thread on the CPU it is
 * pinned to (each of a group's processes its own), before the config
 * record says what each event became, and closed after its summary.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "arch/x86_64/cpuid.h"
#include "hosted/companion.h"

struct perf_counters counters;

static int sys_open(struct perf_event_attr *a, pid_t pid, int cpu,
		    int group_fd, unsigned long flags)
{
	long fd = syscall(SYS_perf_event_open, a, pid, cpu, group_fd, flags);

	return fd < 0 ? -errno : (int)fd;
}

static long sys_read(int fd, void *buf, size_t n)
{
	ssize_t r = read(fd, buf, n);

	return r < 0 ? -errno : (long)r;
}

static int sys_ioctl(int fd, unsigned long req, unsigned long arg)
{
	return ioctl(fd, req, arg) < 0 ? -errno : 0;
}

static void sys_close(int fd)
{
	close(fd);
}

const struct perf_ops perf_sys = {
	sys_open, sys_read, sys_ioctl, sys_close, host_read_line,
};

static u32 vendor_of(const char *v)
{
	if (strcmp(v, "GenuineIntel") == 0)
		return PMU_VENDOR_INTEL;
	if (strcmp(v, "AuthenticAMD") == 0 || strcmp(v, "HygonGenuine") == 0)
		return PMU_VENDOR_AMD;
	return PMU_VENDOR_NONE;
}

/* Once per process, on standard error: what is counted, what an empty
 * bracket costs, and why each other event is not. */
static void say(const struct perf_counters *p)
{
	static pid_t said;
	const struct pmu_plan *pl = &p->plan;

	if (said == getpid())
		return;
	said = getpid();
	if (p->n) {
		fprintf(stderr, "hugezero-linux: pmu: counting");
		for (u32 i = 0; i < p->n; i++)
			fprintf(stderr, "%s %s", i ? "," : "",
				pl->slots[p->slot[i]].name);
		fprintf(stderr, " on CPU %d, kernel and user, one read(2) of "
			"the group before and after each timed fault or "
			"clear; an empty bracket counts", host.cpu);
		for (u32 i = 0; i < p->n; i++)
			fprintf(stderr, "%s %s %llu", i ? "," : "",
				pl->slots[p->slot[i]].name,
				(unsigned long long)p->bracket[i]);
		fprintf(stderr, "\n");
	}
	for (u32 i = 0; i < pl->nslots; i++)
		if (pl->slots[i].skip)
			fprintf(stderr, "hugezero-linux: pmu: skip %s: %s\n",
				pl->slots[i].name, pl->slots[i].skip);
}

void counters_open(struct bench_desc *d)
{
	const struct hz_config *c = d->c;
	struct perf_cpu cpu = { vendor_of(cpu_info.vendor), cpu_info.family,
				cpu_info.vendor, host.cpu };

	if (!c->npmu)
		return;
	perf_open(&counters, &perf_sys, &cpu, c->pmu, c->npmu, (u32)d->folios);
	d->pmu = &counters.plan;
	say(&counters);
}

void counters_close(void)
{
	perf_close(&counters);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpus= against this machine: a listed CPU runs only when Linux has it
 * online and this process may run on it (its affinity mask, as a cpuset
 * or taskset leaves it); and where each CPU sits, from sysfs.
 */

#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hosted/companion.h"
#include "hosted/hostroot.h"

#define SYS_CPU "/sys/devices/system/cpu"
#define SYS_NODE "/sys/devices/system/node"

/*
 * A sysfs cpulist file ("0-3,8"); false when absent or unreadable.  Room
 * for any list of CPUs below CPUSET_MAX (every other one of 1024 is some
 * 2000 characters); a line that fills it is taken as unreadable, never
 * parsed cut.
 */
static bool read_cpulist(const char *path, struct cpu_set *s)
{
	char buf[16384], err[160];

	return host_read_line(path, buf, sizeof(buf)) &&
	       strlen(buf) < sizeof(buf) - 1 &&
	       cpulist_parse(buf, strlen(buf), s, err, sizeof(err));
}

u32 cpus_usable(const struct cpu_set *want, struct cpu_set *out)
{
	struct cpu_set online;
	bool known = read_cpulist(SYS_CPU "/online", &online);
	cpu_set_t allowed;

	memset(out, 0, sizeof(*out));
	if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0)
		CPU_ZERO(&allowed);
	for (u32 cpu = 0; cpu < MIN((u32)CPUSET_MAX, (u32)CPU_SETSIZE); cpu++) {
		const char *why = NULL;

		if (!cpu_set_has(want, cpu))
			continue;
		if (known && !cpu_set_has(&online, cpu))
			why = "not online in Linux (" SYS_CPU "/online)";
		else if (!CPU_ISSET(cpu, &allowed))
			why = "not one this process may run on (its affinity mask)";
		if (!why)
			cpu_set_add(out, cpu);
		else if (!want->all)	/* all: every CPU there is, silently */
			fprintf(stderr, "hugezero-linux: cpus=: cpu %u is %s: "
				"left out\n", cpu, why);
	}
	return cpu_set_count(out, CPUSET_MAX);
}

u32 cpu_node(u32 cpu)
{
	char path[64];
	struct dirent *e;
	u32 node = 0;
	DIR *d;

	snprintf(path, sizeof(path), SYS_CPU "/cpu%u", cpu);
	d = opendir(path);
	while (d && (e = readdir(d)))
		if (strncmp(e->d_name, "node", 4) == 0 && e->d_name[4] >= '0' &&
		    e->d_name[4] <= '9') {
			node = (u32)strtoul(e->d_name + 4, NULL, 10);
			break;
		}
	if (d)
		closedir(d);
	return node;
}

u32 numa_nodes(void)
{
	struct cpu_set nodes;

	if (!read_cpulist(SYS_NODE "/online", &nodes))
		return 1;
	return MAX(cpu_set_count(&nodes, CPUSET_MAX), 1u);
}

/*
 * The CPUs of @set on @cpu's last-level cache, @cpu counted once: the
 * shared_cpu_list of its highest-level data or unified cache in sysfs
 * (Linux's cacheinfo, from the same CPUID sharing and APIC IDs as
 * lib/llc.h), under $HUGEZERO_HOST_ROOT.  Not readable: every CPU of
 * @set, as lib/llc.h takes a CPU that does not say.
 */
u32 cpu_llc_sharers(u32 cpu, const struct cpu_set *set)
{
	const char *root = host_root();
	struct cpu_set shared, best;
	char path[256], buf[64];
	long level = -1;
	u32 n = 0;

	for (u32 i = 0; i < 16; i++) {
		long l;

		snprintf(path, sizeof(path), "%s" SYS_CPU "/cpu%u/cache/index%u/level",
			 root, cpu, i);
		if (!host_read_line(path, buf, sizeof(buf)))
			break;
		l = strtol(buf, NULL, 10);
		snprintf(path, sizeof(path), "%s" SYS_CPU "/cpu%u/cache/index%u/type",
			 root, cpu, i);
		if (!host_read_line(path, buf, sizeof(buf)) ||
		    strcmp(buf, "Instruction") == 0 || l <= level)
			continue;
		snprintf(path, sizeof(path), "%s" SYS_CPU "/cpu%u/cache/index%u/"
			 "shared_cpu_list", root, cpu, i);
		if (read_cpulist(path, &shared)) {
			best = shared;
			level = l;
		}
	}
	if (level < 0)
		return MAX(cpu_set_count(set, CPUSET_MAX), 1u);
	for (u32 c = 0; c < CPUSET_MAX; c++)
		n += cpu_set_has(set, c) && cpu_set_has(&best, c) && c != cpu;
	return n + 1;
}

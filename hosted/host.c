// SPDX-License-Identifier: GPL-2.0-only
/*
 * The Linux host: what it is (kernel, clock source, THP and hugetlb
 * settings, preemption model and page init, virtual or not), pinning to
 * one CPU, and reserving hugetlb pages for a run without leaving the host
 * changed afterwards.
 */

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "arch/x86_64/clear.h"
#include "arch/x86_64/cpuid.h"
#include "hosted/companion.h"
#include "hosted/restore.h"
#include "lib/order.h"
#include "lib/prims.h"

struct host_info host;

static const char *const hp_dir[2] = {
	"/sys/kernel/mm/hugepages/hugepages-2048kB",
	"/sys/kernel/mm/hugepages/hugepages-1048576kB",
};

bool host_read_line(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	bool ok;

	buf[0] = '\0';
	if (!f)
		return false;
	ok = fgets(buf, (int)n, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

static long read_long(const char *dir, const char *file)
{
	char path[256], buf[64];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return host_read_line(path, buf, sizeof(buf)) ? strtol(buf, NULL, 10) : -1;
}

static bool write_long(const char *dir, const char *file, long v)
{
	char path[256];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "w");
	if (!f)
		return false;
	ok = fprintf(f, "%ld\n", v) > 0;
	return fclose(f) == 0 && ok;
}

/* "always [madvise] never" -> "madvise" */
static void selected(char *buf)
{
	char *a = strchr(buf, '['), *b = a ? strchr(a, ']') : NULL;

	if (a && b) {
		memmove(buf, a + 1, (size_t)(b - a - 1));
		buf[b - a - 1] = '\0';
	}
}

u64 meminfo_bytes(const char *key)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256], name[64];
	unsigned long long kb;
	u64 v = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%63[^:]: %llu kB", name, &kb) == 2 &&
		    strcmp(name, key) == 0) {
			v = (u64)kb * 1024;
			break;
		}
	if (f)
		fclose(f);
	return v;
}

void host_read(void)
{
	struct utsname u;

	if (uname(&u) == 0)
		snprintf(host.kernel, sizeof(host.kernel), "%s", u.release);
	host_read_line("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		  host.clocksource, sizeof(host.clocksource));
	host_read_line("/sys/kernel/mm/transparent_hugepage/enabled",
		  host.thp_enabled, sizeof(host.thp_enabled));
	host_read_line("/sys/kernel/mm/transparent_hugepage/defrag",
		  host.thp_defrag, sizeof(host.thp_defrag));
	selected(host.thp_enabled);
	selected(host.thp_defrag);
	for (int i = 0; i < 2; i++) {
		long t = read_long(hp_dir[i], "nr_hugepages");
		long f = read_long(hp_dir[i], "free_hugepages");

		host.hugetlb_total[i] = t < 0 ? 0 : (u64)t;
		host.hugetlb_free[i] = f < 0 ? 0 : (u64)f;
	}
	host.root = geteuid() == 0;
	host.vm = cpu_info.has_hypervisor;
	host.mem_available = meminfo_bytes("MemAvailable");
	sched_info_read(&host.sched);
}

int host_pin(u64 want, char *err, size_t n)
{
	cpu_set_t set;
	int cpu = -1;

	if (sched_getaffinity(0, sizeof(set), &set) != 0) {
		snprintf(err, n, "sched_getaffinity: %s", strerror(errno));
		return -1;
	}
	if (want != CPU_AUTO) {
		if (!CPU_ISSET((int)want, &set)) {
			snprintf(err, n, "cpu=%llu is not one this process may "
				 "run on", (unsigned long long)want);
			return -1;
		}
		cpu = (int)want;
	} else {
		/* The highest allowed CPU: CPU 0 takes most interrupts. */
		for (int i = 0; i < CPU_SETSIZE; i++)
			if (CPU_ISSET(i, &set))
				cpu = i;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0) {
		snprintf(err, n, "sched_setaffinity(%d): %s", cpu, strerror(errno));
		return -1;
	}
	host.cpu = cpu;
	return cpu;
}

/*
 * What Linux's zeroing is made of on this machine, decided here once so
 * the host tools read it (split): its clear_page() on this CPU and 7.0's
 * folio_zero_user() constants.
 */
static void linux_record(struct rec *r)
{
	char why[320];

	rec_str(r, "linux_clear", prim_names[prim_linux(why, sizeof(why))]);
	rec_str(r, "linux_clear_why", why);
	rec_u64(r, "linux_batch", LINUX_BATCH);
	rec_u64(r, "linux_radius", LINUX_RADIUS);
}

void host_record(void)
{
	struct rec r;

	rec_begin(&records, &r, "host");
	rec_str(&r, "kernel", host.kernel);
	rec_str(&r, "clocksource", host.clocksource);
	rec_str(&r, "thp_enabled", host.thp_enabled);
	rec_str(&r, "thp_defrag", host.thp_defrag);
	rec_u64(&r, "hugetlb_2m_total", host.hugetlb_total[0]);
	rec_u64(&r, "hugetlb_2m_free", host.hugetlb_free[0]);
	rec_u64(&r, "hugetlb_1g_total", host.hugetlb_total[1]);
	rec_u64(&r, "hugetlb_1g_free", host.hugetlb_free[1]);
	/* With cpus= each process is pinned, the parent that writes is not. */
	if (host.cpus[0])
		rec_str(&r, "cpus", host.cpus);
	else
		rec_u64(&r, "cpu", (u64)host.cpu);
	rec_u64(&r, "root", host.root);
	rec_u64(&r, "vm", host.vm);
	rec_u64(&r, "mem_available", host.mem_available);
	sched_info_record(&r, &host.sched);
	linux_record(&r);
	rec_end(&records, &r);
}

bool hugetlb_ensure(u64 size, u64 pages, char *why, size_t n)
{
	int i = size == SZ_1G;
	long total, free_, want;
	char path[256], was[24];

	/* Free pages are this run's only while no other run maps the pool. */
	if (!hugetlb_claim(true, why, n))
		return false;
	total = read_long(hp_dir[i], "nr_hugepages");
	free_ = read_long(hp_dir[i], "free_hugepages");
	if (total < 0 || free_ < 0) {
		snprintf(why, n, "this kernel has no %s hugetlb pages (%s)",
			 i ? "1G" : "2M", hp_dir[i]);
		return false;
	}
	if ((u64)free_ >= pages)
		return true;
	want = total + (long)pages - free_;
	if (!host.root) {
		snprintf(why, n, "needs %llu free %s hugetlb pages, %ld free; as "
			 "root: echo %ld > %s/nr_hugepages (and %ld afterwards)",
			 (unsigned long long)pages, i ? "1G" : "2M", free_, want,
			 hp_dir[i], total);
		return false;
	}
	snprintf(path, sizeof(path), "%s/nr_hugepages", hp_dir[i]);
	snprintf(was, sizeof(was), "%ld", total);
	/* The first value noted is the one put back (hosted/restore.h). */
	if (!restore_note(path, was)) {
		snprintf(why, n, "no memory to note %s before changing it", path);
		return false;
	}
	if (!write_long(hp_dir[i], "nr_hugepages", want) ||
	    read_long(hp_dir[i], "free_hugepages") < (long)pages) {
		snprintf(why, n, "the kernel could not provide %llu free %s "
			 "hugetlb pages (memory fragmented?): %ld free",
			 (unsigned long long)pages, i ? "1G" : "2M",
			 read_long(hp_dir[i], "free_hugepages"));
		return false;
	}
	return true;
}

u64 host_free_hugetlb_2m(void)
{
	long f = read_long(hp_dir[0], "free_hugepages");

	return f < 0 ? 0 : (u64)f;
}

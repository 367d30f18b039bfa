// SPDX-License-Identifier: GPL-2.0-only
/*
 * hugezero-plain: the cross-check of the companion.  Plain loops written
 * apart from hugezero (no shared code): REP STOSB and CLZERO over 2M
 * ranges of a faulted-in hugetlb region, and a plain mmap-and-touch of
 * hugetlb 2M pages, timed with clock_gettime.  `make bench` puts their
 * figures beside the companion's: they should agree within 10%, or the
 * harness adds something it should not.
 *
 * Run by the companion's --round-hook after each measured round of its
 * split round group (HZ_ROUND_GROUP and HZ_ROUND set), it does one pass
 * of each loop and names the round in its line, so that each of its
 * figures pairs with the companion's of the same round: run back to
 * back on the same CPU, the machine's drift is in both.
 *
 * As root it reserves the hugetlb pages it needs and gives them back.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define MB (1UL << 20)
#define NR "/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages"
#define FREE "/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages"

static long old_nr = -1;

static long get(const char *p)
{
	FILE *f = fopen(p, "r");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static void put(const char *p, long v)
{
	FILE *f = fopen(p, "w");

	if (f) {
		fprintf(f, "%ld\n", v);
		fclose(f);
	}
}

static void give_back(void)
{
	if (old_nr >= 0)
		put(NR, old_nr);
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void *huge(size_t bytes, const char **kind)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);

	*kind = "hugetlb";
	if (p != MAP_FAILED)
		return p;
	*kind = "thp";
	p = aligned_alloc(2 * MB, bytes);
	if (p)
		madvise(p, bytes, MADV_HUGEPAGE);
	return p;
}

static void stosb(char *p, size_t n)
{
	asm volatile("rep stosb" : "+D"(p), "+c"(n) : "a"(0) : "memory");
}

static void clzero_range(char *p, size_t n)
{
	for (size_t i = 0; i < n; i += 64)
		asm volatile(".byte 0x0f, 0x01, 0xfc" : : "a"(p + i) : "memory");
	asm volatile("sfence" ::: "memory");
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Passes of each loop: 5 (their median), or 1 in a companion's round. */
static int passes = 5;

/* Median GiB/s of the passes of @fn over every 2M of the region, each
 * after the region was filled with a non-zero byte (as the companion does). */
static double rate(void (*fn)(char *, size_t), char *p, size_t bytes)
{
	double r[5];

	for (int k = 0; k < passes; k++) {
		double t0;

		memset(p, 0xa5, bytes);
		t0 = now();

		for (size_t off = 0; off < bytes; off += 2 * MB)
			fn(p + off, 2 * MB);
		r[k] = (double)bytes / (now() - t0) / (1 << 30);
	}
	qsort(r, passes, sizeof(r[0]), cmp);
	return r[passes / 2];
}

static double touch_rate(size_t bytes)
{
	double r[5];

	for (int k = 0; k < passes; k++) {
		char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
		double t0;

		if (p == MAP_FAILED)
			return -1;
		t0 = now();
		for (size_t off = 0; off < bytes; off += 2 * MB)
			p[off] = 0;
		r[k] = (double)bytes / (now() - t0) / (1 << 30);
		munmap(p, bytes);
	}
	qsort(r, passes, sizeof(r[0]), cmp);
	return r[passes / 2];
}

int main(int argc, char **argv)
{
	size_t bytes = (argc > 1 ? strtoul(argv[1], NULL, 0) : 256) * MB;
	unsigned a, b, c, d;
	const char *kind;
	char *p;
	int cpu = argc > 2 ? atoi(argv[2]) : -1;
	const char *group = getenv("HZ_ROUND_GROUP");
	const char *round = getenv("HZ_ROUND");
	cpu_set_t s;

	if (group && round)
		passes = 1;

	/* Pinned as the companion pins: to the highest CPU allowed. */
	if (cpu < 0 && sched_getaffinity(0, sizeof(s), &s) == 0)
		for (int i = 0; i < CPU_SETSIZE; i++)
			if (CPU_ISSET(i, &s))
				cpu = i;
	CPU_ZERO(&s);
	CPU_SET(cpu < 0 ? 0 : cpu, &s);
	sched_setaffinity(0, sizeof(s), &s);
	if (geteuid() == 0 && get(FREE) < (long)(bytes / (2 * MB))) {
		old_nr = get(NR);
		atexit(give_back);
		put(NR, old_nr + (long)(bytes / (2 * MB)) - get(FREE));
	}
	p = huge(bytes, &kind);
	if (!p)
		return 1;
	memset(p, 1, bytes);
	printf("plain cpu=%d backing=%s size=%zu", cpu, kind, bytes);
	if (passes == 1)
		printf(" round_group=%s round=%s", group, round);
	printf(" erms_2m_gibps=%.3f", rate(stosb, p, bytes));
	__cpuid(0x80000000, a, b, c, d);
	if (a >= 0x80000008) {
		__cpuid(0x80000008, a, b, c, d);
		if (b & 1)
			printf(" clzero_2m_gibps=%.3f", rate(clzero_range, p, bytes));
	}
	if (strcmp(kind, "hugetlb") == 0)
		munmap(p, bytes);
	else
		free(p);
	printf(" touch_hugetlb_2m_gibps=%.3f\n", touch_rate(bytes));
	return 0;
}

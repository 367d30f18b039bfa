// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/perfbench.c against perf's own arithmetic, written again here from
 * tools/perf/bench/mem-functions.c (do_mmap_thread(), clock_diff(),
 * clock_accum(), timeval2double(), __bench_mem_function(), print_bps())
 * for one thread: each loop's start and end as gettimeofday() reads them
 * (whole microseconds), timersub() into the loop's time, timeradd() into
 * the sum, then size * nr_loops over the sum in seconds, printed as GB/sec
 * (x / K / K / K, K = 1024).  The loops' timings are synthetic: the clock
 * at each loop's start and end, in ns.  Then the same timings through
 * lib/benchrun.c's skeleton, as the companion's passes: run and summary
 * records.
 */
#include <stdlib.h>
#include <sys/time.h>
#include "lib/benchrun.h"
#include "lib/outcome.h"
#include "lib/params.h"
#include "lib/perfbench.h"
#include "lib/record.h"
#include "lib/string.h"
#include "tests/host/fake_ops.h"
#include "tests/host/unit.h"

struct loop {
	u64 start_ns, end_ns;
};

#define NS 1000000000ULL

static double absd(double x)
{
	return x < 0 ? -x : x;
}

static struct timeval gettimeofday_at(u64 ns)
{
	struct timeval tv = { (time_t)(ns / NS), (suseconds_t)(ns % NS / 1000) };

	return tv;
}

/* perf's figure, in GB/sec, for @n loops of @size bytes each. */
static double perf_gb_per_sec(u64 size, const struct loop *l, unsigned int n)
{
	struct timeval sum = { 0, 0 }, start, end, diff;
	double secs;

	for (unsigned int i = 0; i < n; i++) {
		start = gettimeofday_at(l[i].start_ns);
		end = gettimeofday_at(l[i].end_ns);
		timersub(&end, &start, &diff);
		timeradd(&sum, &diff, &sum);
	}
	secs = ((double)sum.tv_sec + (double)sum.tv_usec / 1e6) / 1;	/* nr_threads */
	return (double)(size * n) / secs / 1024 / 1024 / 1024;
}

static struct perfbench ours(u64 size, const struct loop *l, unsigned int n)
{
	struct perfbench pb;

	memset(&pb, 0, sizeof(pb));
	for (unsigned int i = 0; i < n; i++)
		perfbench_add(&pb, size, l[i].end_ns - l[i].start_ns);
	return pb;
}

/*
 * Ours (x 1000, rounded down) against perf's: equal to the milli when
 * every reading falls on a whole microsecond; else apart by at most what
 * perf's microseconds lose, one a loop.
 */
static void expect_as_perf(u64 size, const struct loop *l, unsigned int n,
			   bool whole_us)
{
	struct perfbench pb = ours(size, l, n);
	double perf = perf_gb_per_sec(size, l, n) * 1000;
	double got = (double)perfbench_gibps_milli(pb.bytes, pb.ns);
	double slack = whole_us ? 0 : perf * n * 1000.0 / (double)pb.ns;

	EXPECT_EQ(pb.loops, n);
	EXPECT_EQ(pb.bytes, size * n);
	EXPECT(perf - got >= -slack - 1e-6 && perf - got < 1 + slack + 1e-6,
	       "ours %.0f, perf's %.3f (milli GB/sec), slack %.3f", got, perf,
	       slack);
	/* The first loop alone is perf -l 1. */
	perf = perf_gb_per_sec(size, l, 1) * 1000;
	got = (double)perfbench_gibps_milli(pb.first_bytes, pb.first_ns);
	slack = whole_us ? 0 : perf * 1000.0 / (double)pb.first_ns;
	EXPECT(perf - got >= -slack - 1e-6 && perf - got < 1 + slack + 1e-6,
	       "first: ours %.0f, perf's %.3f", got, perf);
}

/* The seed's perf bench mem mmap -p 1GB -f demand -s 64GB -l 5: five
 * loops of about 7 s, on whole microseconds. */
TEST(perfbench_as_perf_seed_shape)
{
	static const struct loop l[] = {
		{ 1000000000000ULL, 1007012345000ULL },
		{ 1008000000000ULL, 1014998001000ULL },
		{ 1016000000000ULL, 1023100000000ULL },
		{ 1024000000000ULL, 1030876543000ULL },
		{ 1032000000000ULL, 1039000000000ULL },
	};

	expect_as_perf(64 * GiB, l, 5, true);
}

/* The first loop paid the hypervisor's first touch of guest memory
 * (1.24 GB/sec): perf counts it, weighed by its time; the companion's
 * own figure (the mean of per-run GB/s, the warm-up left out) does not. */
TEST(perfbench_counts_the_slow_first_loop)
{
	static struct loop l[6];
	u64 size = 4 * GiB, t = 5 * NS, mean_milli = 0;
	struct perfbench pb;

	for (u32 i = 0; i < 6; i++) {
		u64 d = i ? 439000000ULL + i * 1000000ULL : 3225806000ULL;

		l[i] = (struct loop){ t, t + d };
		t += d + 250000000ULL;		/* munmap, outside */
	}
	expect_as_perf(size, l, 6, true);
	pb = ours(size, l, 6);
	EXPECT(perfbench_gibps_milli(pb.first_bytes, pb.first_ns) == 1240,
	       "first %llu", (unsigned long long)
	       perfbench_gibps_milli(pb.first_bytes, pb.first_ns));
	for (u32 i = 1; i < 6; i++)
		mean_milli += perfbench_gibps_milli(size, l[i].end_ns -
						    l[i].start_ns) / 5;
	/* Not the same quantity: here more than a third apart. */
	EXPECT(perfbench_gibps_milli(pb.bytes, pb.ns) * 3 < mean_milli * 2,
	       "perf %llu, mean of the measured runs %llu",
	       (unsigned long long)perfbench_gibps_milli(pb.bytes, pb.ns),
	       (unsigned long long)mean_milli);
}

/* Short 2M loops read in ns, off the microsecond: apart by no more than
 * perf's rounding of each reading. */
TEST(perfbench_as_perf_off_the_microsecond)
{
	static struct loop l[7];
	u64 t = 123456789ULL;

	for (u32 i = 0; i < 7; i++) {
		u64 d = 110123457ULL + i * 977ULL;

		l[i] = (struct loop){ t, t + d };
		t += d + 3333ULL;
	}
	expect_as_perf(512 * SZ_2M, l, 7, false);
	EXPECT_EQ(perfbench_gibps_milli(GiB, 0), 0);
	EXPECT_EQ(perfbench_gibps_milli(GiB, NS), 1000);
}

/* The companion's passes through lib/benchrun.c: each run record carries
 * its wall_ns, the summary perf's figure over every pass, warm-up first. */
static const struct loop *walls;
static u32 npass;
static char lines[16][RECORD_MAX + 8];
static u32 nlines;

static void keep(void *ctx, const char *line)
{
	(void)ctx;
	if (nlines < ARRAY_SIZE(lines))
		strlcpy(lines[nlines], line, sizeof(lines[0]));
	nlines++;
}

static void timed(void *ctx, u32 access, struct bench_pass *p,
		  struct bench_outcome *o)
{
	(void)ctx, (void)access, (void)o;
	p->has_wall = true;
	p->wall_ns = walls[npass].end_ns - walls[npass].start_ns;
	npass++;
}

static const struct bench_ops ops = FAKE_OPS(timed);

static u64 field(const char *line, const char *key)
{
	const char *at = strstr(line, key);

	return at ? strtoull(at + strlen(key), NULL, 10) : ~0ULL;
}

TEST(perfbench_in_the_records)
{
	static struct bench_outcome o;
	static const struct loop l[] = {
		{ 0, 900000000ULL },	/* the warm-up: slow */
		{ 1000000000ULL, 1400000000ULL },
		{ 2000000000ULL, 2410000000ULL },
		{ 3000000000ULL, 3420000000ULL },	/* access=write's */
	};
	struct hz_config c;
	struct bench_desc d;
	struct rec_writer w;
	struct bench_job j;
	const char *sum;
	double perf;

	config_defaults(&c);
	memset(&d, 0, sizeof(d));
	memset(&j, 0, sizeof(j));
	c.warmups = 1;
	c.runs = 2;
	c.access = ACCESS_NONE;
	d.c = &c;
	d.name[0] = 'x';
	d.bench = d.folio = d.clear = d.order = "linux";
	d.backing = "hugetlb";
	d.size = 2 * GiB;
	rec_writer_init(&w, keep, NULL);
	j.w = &w;
	j.d = &d;
	j.o = &o;
	j.ops = &ops;
	j.tsc_hz = 1000000000ULL;
	walls = l;
	npass = nlines = 0;
	EXPECT(bench_run_config(&j, NULL));
	EXPECT_EQ(nlines, 5);		/* config, 3 runs, summary */
	for (u32 i = 0; i < 3; i++)
		EXPECT_EQ(field(lines[1 + i], " wall_ns="),
			  l[i].end_ns - l[i].start_ns);
	sum = lines[4];
	perf = perf_gb_per_sec(d.size, l, 3) * 1000;
	EXPECT(absd(perf - (double)field(sum, " perfbench_gibps_milli=")) < 1,
	       "%s (perf's %.3f)", sum, perf);
	EXPECT_EQ(field(sum, " perfbench_loops="), 3);
	perf = perf_gb_per_sec(d.size, l, 1) * 1000;
	EXPECT(absd(perf - (double)field(sum, " perfbench_first_gibps_milli="))
	       < 1, "%s (perf's first %.3f)", sum, perf);
	/* With an access in each window it is not perf's loop: no figure,
	 * the raw times still there. */
	c.access = ACCESS_WRITE;
	npass = nlines = 0;
	EXPECT(bench_run_config(&j, NULL));
	EXPECT(!strstr(lines[nlines - 1], "perfbench"), "%s", lines[nlines - 1]);
	EXPECT(strstr(lines[1], " wall_ns=") != NULL, "%s", lines[1]);
	/* THP (or base pages): memory perf's loop cannot map, no figure
	 * either, the wall times kept. */
	c.access = ACCESS_NONE;
	d.backing = "thp";
	npass = nlines = 0;
	EXPECT(bench_run_config(&j, NULL));
	EXPECT(!strstr(lines[nlines - 1], "perfbench"), "%s", lines[nlines - 1]);
	EXPECT(strstr(lines[1], " wall_ns=") != NULL, "%s", lines[1]);
}

/* perf bench mem mmap maps hugetlb pages only: the companion's thp and
 * base rows (and the kernel, NULL) get no figure. */
TEST(perfbench_hugetlb_only)
{
	EXPECT(perfbench_backing("hugetlb"));
	EXPECT(!perfbench_backing("thp"));
	EXPECT(!perfbench_backing("base"));
	EXPECT(!perfbench_backing(NULL));
}

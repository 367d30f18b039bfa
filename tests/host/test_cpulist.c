// SPDX-License-Identifier: GPL-2.0-only
/* Host tests of the cpulist parser and the cpus=, scale=, numa= keys. */
#include <stdio.h>
#include <stdlib.h>
#include "lib/cpulist.h"
#include "lib/order.h"
#include "lib/params.h"
#include "lib/prims.h"
#include "lib/string.h"
#include "tests/host/unit.h"

static bool list(const char *s, struct cpu_set *c, char *err)
{
	return cpulist_parse(s, strlen(s), c, err, 160);
}

static const char *fmt(const struct cpu_set *c)
{
	static char buf[256];

	cpulist_format(c, buf, sizeof(buf));
	return buf;
}

TEST(cpulist_ranges_and_strides)
{
	struct cpu_set c;
	char err[160];

	EXPECT(list("0-3,8", &c, err), "%s", err);
	EXPECT_EQ(cpu_set_count(&c, CPUSET_MAX), 5);
	EXPECT(cpu_set_has(&c, 3) && cpu_set_has(&c, 8) && !cpu_set_has(&c, 4));
	EXPECT(strcmp(fmt(&c), "0-3,8") == 0, "%s", fmt(&c));
	/* bitmap_parselist's example: of each 4 in 0..15, the first 2. */
	EXPECT(list("0-15:2/4", &c, err), "%s", err);
	EXPECT(strcmp(fmt(&c), "0-1,4-5,8-9,12-13") == 0, "%s", fmt(&c));
	EXPECT(list("5,1,2,3", &c, err), "%s", err);
	EXPECT(strcmp(fmt(&c), "1-3,5") == 0, "%s", fmt(&c));
	EXPECT_EQ(cpu_set_nth(&c, 3, CPUSET_MAX), 5);
	EXPECT_EQ(cpu_set_nth(&c, 4, CPUSET_MAX), ~0u);
	EXPECT_EQ(cpu_set_count(&c, 3), 2);
	EXPECT(list("1023", &c, err), "%s", err);
	EXPECT(cpu_set_has(&c, 1023));
}

TEST(cpulist_all_and_first)
{
	struct cpu_set c, f;
	char err[160];

	EXPECT(list("all", &c, err));
	EXPECT(c.all);
	EXPECT_EQ(cpu_set_count(&c, 6), 6);
	EXPECT(strcmp(fmt(&c), "all") == 0);
	cpu_set_first(&c, 2, 6, &f);
	EXPECT(strcmp(fmt(&f), "0-1") == 0, "%s", fmt(&f));
	EXPECT(list("2,4,6,8", &c, err));
	cpu_set_first(&c, 3, 7, &f);
	EXPECT(strcmp(fmt(&f), "2,4,6") == 0, "%s", fmt(&f));
	cpu_set_first(&c, 9, 7, &f);	/* fewer than asked below the limit */
	EXPECT(strcmp(fmt(&f), "2,4,6") == 0, "%s", fmt(&f));
}

TEST(cpulist_refuses_bad_lists)
{
	static const char *const bad[] = {
		"", ",", "1,", "3-1", "a", "1-", "-1", "0-7:3/2", "0-7:0/2",
		"0-7:1/0", "0-7:1", "1024", "0 1", "all,1", NULL,
	};
	struct cpu_set c;
	char err[160];

	for (u32 i = 0; bad[i]; i++) {
		err[0] = '\0';
		EXPECT(!list(bad[i], &c, err), "'%s' accepted", bad[i]);
		EXPECT(err[0], "'%s' refused without a message", bad[i]);
	}
}

static bool parse(const char *line, struct hz_config *c,
		  struct cmdline_result *r)
{
	config_defaults(c);
	return config_parse(line, c, r);
}

TEST(cmdline_cpus_scale_numa)
{
	struct hz_config c;
	struct cmdline_result r;

	EXPECT(parse("", &c, &r));
	EXPECT(strcmp(fmt(&c.cpus), "0") == 0, "%s", fmt(&c.cpus));
	EXPECT_EQ(c.nscale, 0);
	EXPECT_EQ(c.numa, NUMA_LOCAL);
	EXPECT(parse("bench=fault cpus=all scale=1,2,4,all numa=remote", &c, &r),
	       "%s", r.errors[0]);
	EXPECT(c.cpus.all);
	EXPECT_EQ(c.nscale, 4);
	EXPECT_EQ(c.scale[2], 4);
	EXPECT_EQ(c.scale[3], SCALE_ALL);
	EXPECT_EQ(c.numa, NUMA_REMOTE);
	EXPECT(!parse("bench=fault scale=0", &c, &r));
	EXPECT(strstr(r.errors[0], "'0'"), "%s", r.errors[0]);
	EXPECT(!parse("bench=fault cpus=3-1", &c, &r));
	EXPECT(strstr(r.errors[0], "3-1"), "%s", r.errors[0]);
	EXPECT(!parse("bench=bare cpu=1 cpus=0-1", &c, &r));
	EXPECT(strstr(r.errors[0], "cpus="), "%s", r.errors[0]);
	EXPECT(!parse("numa=local", &c, &r));	/* a benchmark key */
	EXPECT(!parse("bench=fault numa=far", &c, &r));
}

TEST(cmdline_prezero_keys)
{
	struct hz_config c;
	struct cmdline_result r;

	EXPECT(parse("", &c, &r));
	EXPECT_EQ(c.prezeros, 0);
	EXPECT_EQ(c.prezero_n, PREZERO_ALL);
	EXPECT_EQ(c.prezero_clear, PREZERO_SAME);
	EXPECT_EQ(c.prezero_low, 33);
	EXPECT_EQ(c.prezero_high, 50);
	EXPECT(parse("bench=fault prezero=none,request,on-free prezero_n=7 "
		     "prezero_clear=movnti prezero_order=batched-pages "
		     "prezero_pool=apart prezero_low=10 prezero_high=90", &c, &r),
	       "%s", r.errors[0]);
	EXPECT_EQ(c.prezeros, (1u << PREZERO_NONE) | (1u << PREZERO_REQUEST) |
			      (1u << PREZERO_ON_FREE));
	EXPECT_EQ(c.prezero_n, 7);
	EXPECT(strcmp(prim_names[c.prezero_clear], "movnti") == 0);
	EXPECT_EQ(c.prezero_order, ORDER_BATCHED);
	EXPECT_EQ(c.prezero_pool, PREZERO_POOL_APART);
	EXPECT(parse("bench=fault prezero=all prezero_n=all", &c, &r));
	EXPECT_EQ(c.prezeros, (1u << PREZERO_COUNT) - 1);
	EXPECT(!parse("bench=fault prezero_order=linux", &c, &r));
	EXPECT(strstr(r.errors[0], "prezero_order=linux: the background zeroer "
		      "has no model to follow"), "%s", r.errors[0]);
	EXPECT(!parse("bench=fault prezero_order=tree", &c, &r));
	EXPECT(strstr(r.errors[0], "prezero_order=tree: the background zeroer "
		      "runs hugezero's planner"), "%s", r.errors[0]);
	EXPECT(!parse("bench=fault prezero_clear=fast", &c, &r));
	EXPECT(!parse("bench=fault prezero_low=60 prezero_high=50", &c, &r));
	EXPECT(strstr(r.errors[0], "below"), "%s", r.errors[0]);
	EXPECT(!parse("bench=fault prezero_n=262145", &c, &r));
}

/* "0,2,4,...,1022" and again until @min characters: a list as long as a
 * lab's script may write, every part valid. */
static char *even_list(size_t min)
{
	size_t cap = min + 4096, len = 0;
	char *s = malloc(cap);

	s[0] = '\0';
	while (len < min)
		for (u32 c = 0; c < 1024; c += 2)
			len += (size_t)snprintf(s + len, cap - len, "%s%u",
						len ? "," : "", c);
	return s;
}

/* A text of 4096+ characters parses whole (no limit on the text); its
 * canonical list is cut only by the buffer, the length said in full. */
TEST(cpulist_4096_characters)
{
	char *s = even_list(4096), err[160], *buf = malloc(4096), small[128];
	struct cpu_set c;
	int len;

	EXPECT(strlen(s) >= 4096);
	EXPECT(list(s, &c, err), "%s", err);
	EXPECT_EQ(cpu_set_count(&c, CPUSET_MAX), 512);
	EXPECT(cpu_set_has(&c, 1022) && !cpu_set_has(&c, 1023));
	len = cpulist_format(&c, buf, 4096);
	EXPECT_EQ(len, strlen(buf));
	EXPECT(strncmp(buf, "0,2,4,6,8,10,", 13) == 0, "%s", buf);
	EXPECT(strcmp(buf + len - 10, "1020,1022") == 0 ||
	       strcmp(buf + len - 9, "1020,1022") == 0, "%s", buf + len - 10);
	EXPECT_EQ(cpulist_format(&c, small, sizeof(small)), len);
	EXPECT(strlen(small) < sizeof(small));
	free(buf);
	free(s);
}

/*
 * cpus= whose list records could not keep whole (CPULIST_TEXT_MAX):
 * refused with its length named, kernel and companion alike; as ranges
 * the same CPUs fit.
 */
TEST(cpus_key_too_long_for_records)
{
	static struct hz_config cfg;
	static struct cmdline_result r;
	char *line, *s = even_list(4096);
	size_t n = strlen(s) + 64;

	line = malloc(n);
	snprintf(line, n, "bench=fault cpus=%s", s);
	config_defaults(&cfg);
	EXPECT(!config_parse(line, &cfg, &r));
	EXPECT(r.nerrors >= 1 && strstr(r.errors[r.nerrors - 1],
					"more than the 127 records keep"),
	       "%s", r.errors[0]);
	snprintf(line, n, "bench=bare cpus=%s", s);
	config_defaults(&cfg);
	EXPECT(!config_parse_target(line, &cfg, &r, true));
	EXPECT(r.nerrors == 1 && strstr(r.errors[0], "records keep"), "%s",
	       r.errors[0]);
	/* 0,2,...,62: 32 CPUs in 90 characters, kept. */
	config_defaults(&cfg);
	EXPECT(config_parse("bench=fault cpus=0-63:1/2", &cfg, &r), "%s",
	       r.errors[0]);
	/* 0,2,...,98: 144 characters, refused. */
	config_defaults(&cfg);
	EXPECT(!config_parse("bench=fault cpus=0-99:1/2", &cfg, &r));
	config_defaults(&cfg);
	EXPECT(config_parse("bench=fault cpus=0-383", &cfg, &r), "%s",
	       r.errors[0]);
	free(line);
	free(s);
}

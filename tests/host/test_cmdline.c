// SPDX-License-Identifier: GPL-2.0-only
/* Host tests of the command-line parser and hugezero's schema. */
#include "lib/format.h"
#include "lib/order.h"
#include "lib/params.h"
#include "lib/prims.h"
#include "lib/string.h"
#include "tests/host/unit.h"

/* How many keys the line that filled @r gave. */
static u32 ngiven(const struct cmdline_result *r)
{
	u32 n = 0;

	for (size_t i = 0; i < CMDLINE_MAX_PARAMS; i++)
		n += cmdline_given(r, i);
	return n;
}

static bool parse(const char *line, struct hz_config *c,
		  struct cmdline_result *r)
{
	config_defaults(c);
	return config_parse(line, c, r);
}

TEST(cmdline_defaults_on_empty)
{
	struct hz_config c;
	struct cmdline_result r;

	EXPECT(parse("", &c, &r));
	EXPECT(parse("   \t ", &c, &r));
	EXPECT_EQ(c.exit, EXIT_AUTO);
	EXPECT(c.selftest);
	EXPECT(c.console.autosel);
	EXPECT_EQ(c.console.port, 0);
	EXPECT_EQ(c.console.baud, 115200);
	EXPECT_EQ(ngiven(&r), 0);
}

/* console=auto is the default, and said explicitly it is the same. */
TEST(cmdline_console_auto)
{
	struct hz_config c;
	struct cmdline_result r;

	EXPECT(parse("console=auto", &c, &r), "%s", r.errors[0]);
	EXPECT(c.console.autosel);
	EXPECT_EQ(c.console.baud, 115200);
	EXPECT(parse("console=ttyS0", &c, &r), "%s", r.errors[0]);
	EXPECT(!c.console.autosel);
	EXPECT(!parse("console=autox", &c, &r));
	EXPECT(!parse("console=auto,9600", &c, &r));
}

TEST(cmdline_all_keys)
{
	struct hz_config c;
	struct cmdline_result r;

	EXPECT(parse("console=ttyS1,57600o7 exit=reboot selftest=no "
		     "crash=stack calib_ms=0x10 tsc_tolerance_ppm=500", &c, &r),
	       "%s", r.errors[0]);
	EXPECT(!c.console.autosel);
	EXPECT_EQ(c.console.port, 1);
	EXPECT_EQ(c.console.baud, 57600);
	EXPECT_EQ(c.console.parity, 'o');
	EXPECT_EQ(c.console.bits, 7);
	EXPECT_EQ(c.exit, EXIT_REBOOT);
	EXPECT(!c.selftest);
	EXPECT_EQ(c.crash, CRASH_STACK);
	EXPECT_EQ(c.calib_ms, 16);
	EXPECT_EQ(c.tsc_tolerance_ppm, 500);
	EXPECT_EQ(ngiven(&r), 6);
}

TEST(cmdline_bare_bool_and_quotes)
{
	struct hz_config c;
	struct cmdline_result r;

	EXPECT(parse("selftest=off selftest", &c, &r));
	EXPECT(c.selftest);
	EXPECT_EQ(r.nnotes, 1);
	EXPECT(strstr(r.notes[0], "selftest") != NULL);
	EXPECT(parse("exit=\"halt\"", &c, &r));
	EXPECT_EQ(c.exit, EXIT_HALT);
}

TEST(cmdline_image_path_skipped)
{
	struct hz_config c;
	struct cmdline_result r;

	EXPECT(parse("/boot/hugezero.elf exit=halt", &c, &r), "%s", r.errors[0]);
	EXPECT_EQ(c.exit, EXIT_HALT);
	EXPECT(parse("(hd0)/boot/hugezero.elf", &c, &r));
	EXPECT(!parse("exit=halt /boot/hugezero.elf", &c, &r));
}

static void expect_error(const char *line, const char *needle)
{
	struct hz_config c;
	struct cmdline_result r;

	EXPECT(!parse(line, &c, &r), "'%s' was accepted", line);
	EXPECT(r.nerrors >= 1, "'%s': no error recorded", line);
	EXPECT(strstr(r.errors[0], needle) != NULL,
	       "'%s': message '%s' lacks '%s'", line, r.errors[0], needle);
}

TEST(cmdline_errors_name_the_problem)
{
	expect_error("bogus=1", "unknown key 'bogus'");
	expect_error("bogus", "unknown key 'bogus'");
	expect_error("exit=sometimes", "'sometimes' is not one of auto|qemu|halt|reboot");
	expect_error("exit", "key 'exit' needs a value");
	expect_error("exit=", "key 'exit' needs a value");
	expect_error("calib_ms=0", "outside 1..1000");
	expect_error("calib_ms=1001", "outside 1..1000");
	expect_error("calib_ms=fast", "'fast' is not a number");
	expect_error("calib_ms=99999999999999999999", "is not a number");
	expect_error("selftest=maybe", "'maybe' is not on or off");
	expect_error("console=tty0", "not a serial console");
	expect_error("console=ttyS4", "not a serial console");
	expect_error("console=ttyS0,", "no baud rate");
	expect_error("console=ttyS0,12345", "baud rate 12345");
	expect_error("console=ttyS0,9600x", "parity");
	expect_error("console=ttyS0,9600n9", "data bits");
	expect_error("=5", "no key");
	expect_error("exit=\"halt", "missing closing quote");
}

TEST(cmdline_every_error_counted)
{
	struct hz_config c;
	struct cmdline_result r;

	EXPECT(!parse("a=1 b=2 c=3 d=4 e=5 f=6 g=7 h=8 i=9 j=10", &c, &r));
	EXPECT_EQ(r.nerrors, 10);
	EXPECT(strstr(r.errors[7], "'h'") != NULL);
	/* A good key after bad ones still applies. */
	EXPECT(!parse("bogus=1 exit=halt", &c, &r));
	EXPECT_EQ(c.exit, EXIT_HALT);
}

TEST(cmdline_enum_list)
{
	static const char *const sizes[] = { "4K", "2M", "1G", NULL };
	struct cfg {
		u64 mask;
	} cfg = { 0 };
	const struct param p[] = {
		{ .key = "folio", .type = P_ENUM_LIST, .choices = sizes },
		{ .key = "size", .type = P_SIZE, .min = 4096, .max = 1ULL << 40,
		  .values = "4K.." },
	};
	struct cmdline_result r;

	EXPECT(cmdline_parse("folio=2M,1G", p, 1, &cfg, &r));
	EXPECT_EQ(cfg.mask, 6);
	EXPECT(cmdline_parse("folio=all", p, 1, &cfg, &r));
	EXPECT_EQ(cfg.mask, 7);
	/* "all" is one item: a choice standing apart of max joins it. */
	{
		struct param q = p[0];

		q.max = 3;
		EXPECT(cmdline_parse("folio=all", &q, 1, &cfg, &r));
		EXPECT_EQ(cfg.mask, 3);
		EXPECT(cmdline_parse("folio=all,1G", &q, 1, &cfg, &r));
		EXPECT_EQ(cfg.mask, 7);
		EXPECT(cmdline_parse("folio=1G,all", &q, 1, &cfg, &r));
		EXPECT_EQ(cfg.mask, 7);
		EXPECT(!cmdline_parse("folio=all,3M", &q, 1, &cfg, &r));
	}
	EXPECT(!cmdline_parse("folio=2M,3M", p, 1, &cfg, &r));
	EXPECT(strstr(r.errors[0], "'3M' is not one of 4K|2M|1G|all") != NULL,
	       "%s", r.errors[0]);
	EXPECT(!cmdline_parse("folio=2M,,1G", p, 1, &cfg, &r));
	EXPECT(!cmdline_parse("folio=", p, 1, &cfg, &r));
	EXPECT(cmdline_parse("size=1G", p + 1, 1, &cfg, &r));
	EXPECT_EQ(cfg.mask, 1ULL << 30);
	EXPECT(!cmdline_parse("size=2K", p + 1, 1, &cfg, &r));
}

/* More keys than a u64 has bits: each still says it was given, up to
 * CMDLINE_MAX_PARAMS, and a schema past that is refused, not truncated. */
TEST(cmdline_many_keys)
{
	static char names[CMDLINE_MAX_PARAMS + 1][8];
	static struct param p[CMDLINE_MAX_PARAMS + 1];
	static bool on[CMDLINE_MAX_PARAMS + 1];
	struct cmdline_result r;
	char line[64];

	for (u32 i = 0; i <= CMDLINE_MAX_PARAMS; i++) {
		ksnprintf(names[i], sizeof(names[i]), "k%u", i);
		p[i] = (struct param){ .key = names[i], .type = P_BOOL,
				       .offset = i * sizeof(bool) };
	}
	ksnprintf(line, sizeof(line), "k1 k64 k%u", CMDLINE_MAX_PARAMS - 1);
	EXPECT(cmdline_parse(line, p, CMDLINE_MAX_PARAMS, on, &r), "%s",
	       r.errors[0]);
	EXPECT(on[64] && on[CMDLINE_MAX_PARAMS - 1] && !on[0]);
	EXPECT(cmdline_given(&r, 1) && cmdline_given(&r, 64));
	EXPECT(cmdline_given(&r, CMDLINE_MAX_PARAMS - 1));
	EXPECT_EQ(ngiven(&r), 3);
	EXPECT(!cmdline_parse("k1", p, CMDLINE_MAX_PARAMS + 1, on, &r));
	EXPECT(strstr(r.errors[0], "exceed") != NULL, "%s", r.errors[0]);
}

TEST(cmdline_kernel_and_companion_keys)
{
	struct hz_config c;
	struct cmdline_result r;

	EXPECT(parse("bench=bare cpu=1 backing=thp", &c, &r), "%s", r.errors[0]);
	EXPECT(config_check_target(&c, &r, true), "%s", r.errors[0]);
	EXPECT(!config_check_target(&c, &r, false));
	EXPECT(strstr(r.errors[r.nerrors - 1], "runs in the Linux companion") ||
	       strstr(r.errors[0], "is for build/hugezero-linux"));
	EXPECT(parse("bench=fault console=ttyS1 cpl=0", &c, &r));
	EXPECT(config_check_target(&c, &r, false));
	EXPECT(!config_check_target(&c, &r, true));
	EXPECT(strstr(r.errors[0], "key 'console' has no meaning in the Linux "
		      "companion") != NULL, "%s", r.errors[0]);
	EXPECT(parse("bench=split cache=wbinvd", &c, &r));
	EXPECT(!config_check_target(&c, &r, true));
	EXPECT(strstr(r.errors[0], "cache=wbinvd needs ring 0") != NULL);
}

TEST(cmdline_old_names_are_accepted_with_a_note)
{
	struct hz_config c;
	struct cmdline_result r;

	config_defaults(&c);
	EXPECT_EQ(c.cache, CACHE_COLD);
	memset(&r, 0, sizeof(r));
	EXPECT(config_parse("bench=fault cache=asis", &c, &r));
	EXPECT_EQ(c.cache, CACHE_WARM);
	EXPECT(r.nnotes == 1 && strstr(r.notes[0], "cache=asis is an old name "
					"for cache=warm"), "%s", r.notes[0]);
	memset(&r, 0, sizeof(r));
	EXPECT(config_parse("bench=fault cache=clflush pte=clean", &c, &r));
	EXPECT_EQ(c.cache, CACHE_COLD);
	EXPECT_EQ(c.pte, PTE_MODE_CLEAN);
	memset(&r, 0, sizeof(r));
	EXPECT(!config_parse("bench=fault cache=hot", &c, &r));
	EXPECT(strstr(r.errors[0], "'hot' is not one of cold|warm|wbinvd"),
	       "%s", r.errors[0]);
}

TEST(cmdline_scheduling_keys)
{
	struct hz_config c;
	struct cmdline_result r;

	config_defaults(&c);
	EXPECT(c.preempts == 0 && c.hz == 250 && c.probe == PROBE_NONE);
	memset(&r, 0, sizeof(r));
	EXPECT(config_parse("bench=fault preempt=all hz=1000 probe=latency "
			    "probe_class=rt probe_us=500", &c, &r));
	EXPECT(config_check_target(&c, &r, false));
	EXPECT_EQ(c.preempts, 15);
	EXPECT(c.hz == 1000 && c.probe_us == 500 && c.probe_class == PROBE_RT);
	config_defaults(&c);
	memset(&r, 0, sizeof(r));
	EXPECT(!config_parse("bench=fault hz=300", &c, &r));
	EXPECT(strstr(r.errors[0], "'300' is not one of 100|250|1000"), "%s",
	       r.errors[0]);
	/* cpl= keeps the ring's number, not an index. */
	config_defaults(&c);
	EXPECT_EQ(c.cpl, 3);
	memset(&r, 0, sizeof(r));
	EXPECT(config_parse("bench=fault cpl=0", &c, &r));
	EXPECT_EQ(c.cpl, 0);
	EXPECT(!config_parse("bench=fault cpl=1", &c, &r));
	config_defaults(&c);
	memset(&r, 0, sizeof(r));
	EXPECT(config_parse("bench=fault probe=latency", &c, &r));
	EXPECT(!config_check_target(&c, &r, false));
	EXPECT(strstr(r.errors[0], "needs a scheduling model"), "%s", r.errors[0]);
	/* The companion runs its probe under the host's model; preempt= and
	 * hz= are the kernel's. */
	config_defaults(&c);
	memset(&r, 0, sizeof(r));
	EXPECT(config_parse("bench=linux-fault probe=latency", &c, &r));
	EXPECT(config_check_target(&c, &r, true), "%s", r.errors[0]);
	memset(&r, 0, sizeof(r));
	EXPECT(config_parse("bench=linux-fault preempt=full", &c, &r));
	EXPECT(!config_check_target(&c, &r, true));
}

TEST(cmdline_pmu)
{
	struct hz_config c;
	struct cmdline_result r;

	EXPECT(parse("", &c, &r));
	EXPECT_EQ(c.npmu, 0);
	EXPECT(parse("bench=fault pmu=cycles,fills-dram,instructions", &c, &r),
	       "%s", r.errors[0]);
	EXPECT_EQ(c.npmu, 3);
	EXPECT_STR(pmu_events[c.pmu[0]].name, "cycles");
	EXPECT_STR(pmu_events[c.pmu[1]].name, "fills-dram");
	EXPECT_STR(pmu_events[c.pmu[2]].name, "instructions");
	EXPECT(parse("bench=fault pmu=cycles pmu=none", &c, &r));
	EXPECT_EQ(c.npmu, 0);
	/* an unknown name: an error naming the valid ones */
	EXPECT(!parse("bench=fault pmu=cycles,cache-misses", &c, &r));
	EXPECT_EQ(r.nerrors, 1);
	EXPECT(strstr(r.errors[0], "'cache-misses' unknown (instructions,"
		      "cycles,ref-cycles,llc-references,llc-misses,l1d-loads,"
		      "l1d-misses,fills-dram,branches,branch-misses or none)"),
	       "%s", r.errors[0]);
	EXPECT(!parse("bench=fault pmu=a-very-long-misspelt-event-name", &c, &r));
	EXPECT(strstr(r.errors[0], "branch-misses or none)"), "%s", r.errors[0]);
	EXPECT(!parse("bench=fault pmu=cycles,,branches", &c, &r));
	EXPECT(!parse("bench=fault pmu=none,cycles", &c, &r));
	EXPECT(!parse("bench=fault pmu=", &c, &r));
	EXPECT(!parse("bench=fault pmu=cycles,cycles", &c, &r));
	EXPECT(strstr(r.errors[0], "listed twice"), "%s", r.errors[0]);
	/* a benchmark key, of both sides (the companion's: hosted/perf.c) */
	EXPECT(!parse("pmu=cycles", &c, &r));
	EXPECT(strstr(r.errors[0], "benchmark key"), "%s", r.errors[0]);
	EXPECT(parse("bench=split pmu=cycles", &c, &r));
	EXPECT(config_check_target(&c, &r, true), "%s", r.errors[0]);
	EXPECT_EQ(c.npmu, 1);
}

/* msr_gp=: test-only, the kernel's; MSR numbers, at most MSR_GP_MAX. */
TEST(cmdline_msr_gp)
{
	struct hz_config c;
	struct cmdline_result r;

	EXPECT(parse("", &c, &r));
	EXPECT_EQ(c.nmsr_gp, 0);
	EXPECT(parse("msr_gp=0xc0011029,0x8b,416", &c, &r), "%s", r.errors[0]);
	EXPECT_EQ(c.nmsr_gp, 3);
	EXPECT_EQ(c.msr_gp[0], 0xc0011029);
	EXPECT_EQ(c.msr_gp[1], 0x8b);
	EXPECT_EQ(c.msr_gp[2], 0x1a0);
	EXPECT(config_check_target(&c, &r, false), "%s", r.errors[0]);
	EXPECT(!config_check_target(&c, &r, true));
	EXPECT(!parse("msr_gp=0x100000000", &c, &r));
	EXPECT(strstr(r.errors[0], "key 'msr_gp': '0x100000000' is not an MSR "
		      "number (0..0xffffffff)"), "%s", r.errors[0]);
	EXPECT(!parse("msr_gp=de_cfg", &c, &r));
	EXPECT(!parse("msr_gp=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", &c, &r));
	EXPECT(strstr(r.errors[0], "more than 16 MSRs"), "%s", r.errors[0]);
	EXPECT(!parse("msr_gp=", &c, &r));
	EXPECT(!parse("msr_gp=1,,2", &c, &r));
}

/* runs=auto and its keys (docs/statistics.md, "runs=auto") */
TEST(cmdline_runs_auto)
{
	struct hz_config c;
	struct cmdline_result r;

	EXPECT(parse("bench=fault runs=7", &c, &r), "%s", r.errors[0]);
	EXPECT(!c.runs_auto);
	EXPECT_EQ(c.runs, 7);
	EXPECT(parse("bench=fault runs=auto", &c, &r), "%s", r.errors[0]);
	EXPECT(c.runs_auto);
	EXPECT_EQ(c.precision_x100, 500);
	EXPECT_EQ(c.max_runs, 30);
	EXPECT_EQ(c.budget_s, 0);
	EXPECT(parse("bench=fault runs=auto precision=2.5 max_runs=8 "
		     "budget_s=60", &c, &r), "%s", r.errors[0]);
	EXPECT_EQ(c.precision_x100, 250);
	EXPECT_EQ(c.max_runs, 8);
	EXPECT_EQ(c.budget_s, 60);
	EXPECT(parse("bench=fault runs=auto precision=5%", &c, &r));
	EXPECT_EQ(c.precision_x100, 500);
	EXPECT(parse("bench=fault runs=auto precision=0.01", &c, &r));
	EXPECT_EQ(c.precision_x100, 1);
	EXPECT(parse("bench=fault runs=auto precision=100", &c, &r));
	EXPECT_EQ(c.precision_x100, 10000);
	/* the last runs= wins, auto or not */
	EXPECT(parse("bench=fault runs=auto runs=4", &c, &r));
	EXPECT(!c.runs_auto);
	EXPECT_EQ(c.runs, 4);
	static const char *const bad[] = {
		"runs=0", "runs=1001", "runs=au", "precision=0",
		"precision=100.01", "precision=1.234", "precision=5%%",
		"precision=.", "precision=x", "precision=", "max_runs=2",
		"max_runs=1001", "budget_s=1000001",
	};
	for (u32 i = 0; i < ARRAY_SIZE(bad); i++) {
		char line[80];

		ksnprintf(line, sizeof(line), "bench=fault runs=auto %s", bad[i]);
		EXPECT(!parse(line, &c, &r), "%s accepted", bad[i]);
	}
}

TEST(cmdline_auto_keys_need_runs_auto)
{
	struct hz_config c;
	struct cmdline_result r;

	EXPECT(!parse("bench=fault precision=5", &c, &r));
	EXPECT(strstr(r.errors[0], "precision= says when runs=auto stops"),
	       "%s", r.errors[0]);
	EXPECT(!parse("bench=fault runs=3 max_runs=9", &c, &r));
	EXPECT(!parse("bench=fault budget_s=9", &c, &r));
	EXPECT(!parse("runs=auto", &c, &r));	/* a benchmark key */
	/* CPU groups agree after each round (docs/statistics.md) */
	EXPECT(parse("bench=fault runs=auto cpus=0-1", &c, &r), "%s",
	       r.errors[0]);
	EXPECT(parse("bench=fault runs=auto scale=1,all", &c, &r), "%s",
	       r.errors[0]);
	EXPECT(parse("bench=fault runs=auto cpus=1", &c, &r), "%s",
	       r.errors[0]);
}

/* inject_cpu= (test-only) says where inject= plants: alone, refused. */
TEST(cmdline_inject_cpu_needs_inject)
{
	struct hz_config c;
	struct cmdline_result r;

	EXPECT(!parse("bench=fault inject_cpu=1", &c, &r));
	EXPECT(strstr(r.errors[0], "inject_cpu= says which CPUs"), "%s",
	       r.errors[0]);
	EXPECT(parse("bench=fault inject=skip-line inject_cpu=1,3", &c, &r),
	       "%s", r.errors[0]);
	EXPECT(cpu_set_has(&c.inject_cpu, 3) && !cpu_set_has(&c.inject_cpu, 0));
}

static const struct param *find_key(const char *key)
{
	for (size_t i = 0; i < hz_nparams; i++)
		if (strcmp(hz_params[i].key, key) == 0)
			return &hz_params[i];
	EXPECT(false, "no key '%s' in hz_params[]", key);
	return &hz_params[0];
}

/* The first byte where @a and @b differ, or -1. */
static long config_diff(const struct hz_config *a, const struct hz_config *b)
{
	for (size_t i = 0; i < sizeof(*a); i++)
		if (((const u8 *)a)[i] != ((const u8 *)b)[i])
			return (long)i;
	return -1;
}

static bool has_tab_or_newline(const char *s)
{
	return s && (strchr(s, '\t') || strchr(s, '\n'));
}

/*
 * Every key's default, shown from config_defaults() through the parser's
 * types, is a value its parser takes back to the very same config: the
 * documentation's defaults cannot drift from the code's.  A key whose
 * default is no value says what "not given" means, and only such a key.
 */
TEST(cmdline_defaults_shown_round_trip)
{
	static struct hz_config d, c;
	struct cmdline_result r;
	char def[256], line[300];

	config_defaults(&d);
	for (size_t i = 0; i < hz_nparams; i++) {
		const struct param *p = &hz_params[i];
		bool set = param_default(p, def, sizeof(def));

		EXPECT(p->type != P_CUSTOM || (p->parse && p->show),
		       "%s: a custom key needs .parse and .show", p->key);
		EXPECT(set == !p->unset, "%s: default '%s' but .unset %s",
		       p->key, def, p->unset ? p->unset : "NULL");
		if (!set)
			continue;
		ksnprintf(line, sizeof(line), "%s=%s", p->key, def);
		config_defaults(&c);
		EXPECT(cmdline_parse(line, hz_params, hz_nparams, &c, &r),
		       "'%s': %s", line, r.errors[0]);
		EXPECT(config_diff(&c, &d) < 0, "'%s' changes byte %ld of the "
		       "defaults", line, config_diff(&c, &d));
	}
}

/*
 * The defaults are the table's rows: every .def parses; a key shows as
 * its default what its .def says, or a key without one shows none; the
 * constants a default stands for are Linux's (lib/order.h).
 */
TEST(cmdline_defaults_are_the_rows)
{
	static struct hz_config c;
	char err[CMDLINE_ERR_LEN], def[256];
	struct param bad = hz_params[0];

	memset(&c, 0, sizeof(c));
	EXPECT(cmdline_defaults(hz_params, hz_nparams, &c, err, sizeof(err)),
	       "%s", err);
	for (size_t i = 0; i < hz_nparams; i++) {
		const struct param *p = &hz_params[i];

		param_default(p, def, sizeof(def));
		EXPECT(!p->def || strcmp(def, p->def) == 0 || p->type == P_CUSTOM,
		       "%s: .def '%s' shown as '%s'", p->key, p->def, def);
		EXPECT(p->def || !def[0], "%s: shows '%s' with no .def", p->key,
		       def);
	}
	config_defaults(&c);
	EXPECT_EQ(c.chunks[0], LINUX_BATCH);
	EXPECT_EQ(c.radius, LINUX_RADIUS);
	EXPECT_EQ(c.cpu, CPU_AUTO);
	EXPECT_EQ(c.prims, prims_all());
	/* A row's .def its parser refuses is named. */
	bad.def = "sometimes";
	bad.type = P_U64;
	EXPECT(!cmdline_defaults(&bad, 1, &c, err, sizeof(err)));
	EXPECT(strstr(err, "default 'sometimes'") != NULL, "%s", err);
}

TEST(cmdline_defaults_shown)
{
	static const char *const want[][2] = {
		{ "console", "auto" }, { "exit", "auto" }, { "selftest", "on" },
		{ "folio", "2M" }, { "clear", "all" }, { "order", "all" },
		{ "size", "64M" }, { "chunk", "32M" }, { "cpus", "0" },
		{ "runs", "3" }, { "precision", "5" }, { "budget_s", "0" },
		{ "prezero_order", "contiguous-page" }, { "prezero_n", "all" },
		{ "prezero_clear", "same" }, { "pmu", "none" }, { "cpl", "3" },
		{ "hz", "250" }, { "backing", "all" }, { "cache", "cold" },
		{ "deadline_s", "3600" }, { "interleave", "on" },
		{ "preempt", "" }, { "prezero", "" }, { "scale", "" },
		{ "msr_gp", "" }, { "cpu", "" }, { "hang_cpu", "" },
		{ "ap_fail", "" }, { "prezero_cpu", "" },
	};
	char def[256];

	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		param_default(find_key(want[i][0]), def, sizeof(def));
		EXPECT(strcmp(def, want[i][1]) == 0, "%s: default '%s', "
		       "expected '%s'", want[i][0], def, want[i][1]);
	}
}

/* Values other than the defaults are shown back as the line gave them. */
TEST(cmdline_values_shown_back)
{
	static const char *const lines[] = {
		"console=ttyS1,57600o7", "precision=2.5", "precision=0.01",
		"runs=auto", "runs=12", "scale=1,2,all", "msr_gp=0xc0011029,0x8b",
		"pmu=cycles,instructions", "chunk=2M,8M,4K", "folio=2M,1G",
		"order=linux", "cpus=0-3,8", "cpus=all", "prezero_clear=erms",
		"prezero_order=batched-pages", "prezero_n=7",
		"preempt=full,lazy", "size=1536K", "selftest=off", "cpl=0",
		"hz=1000", "cpu=5", "seed=0",
	};
	static struct hz_config c;
	struct cmdline_result r;
	char shown[256];

	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		const char *eq = strchr(lines[i], '=');
		char key[32];

		ksnprintf(key, sizeof(key), "%.*s", (int)(eq - lines[i]),
			  lines[i]);
		config_defaults(&c);
		EXPECT(cmdline_parse(lines[i], hz_params, hz_nparams, &c, &r),
		       "'%s': %s", lines[i], r.errors[0]);
		param_show(find_key(key), &c, shown, sizeof(shown));
		EXPECT(strcmp(shown, eq + 1) == 0, "'%s' shown as '%s'",
		       lines[i], shown);
	}
}

/* What docs/cmdline.md's tables are made from is there, and fits them. */
TEST(cmdline_keys_documented)
{
	char values[512], lo[48];

	for (size_t i = 0; i < hz_nparams; i++) {
		const struct param *p = &hz_params[i];

		EXPECT(p->meaning && p->meaning[0], "%s: no .meaning", p->key);
		EXPECT(!p->meaning || strlen(p->meaning) <= PARAM_MEANING_MAX,
		       "%s: .meaning of %zu characters", p->key,
		       p->meaning ? strlen(p->meaning) : 0);
		EXPECT(!has_tab_or_newline(p->values) &&
		       !has_tab_or_newline(p->meaning) &&
		       !has_tab_or_newline(p->unset) &&
		       !has_tab_or_newline(p->more), "%s: a tab or newline in "
		       "its documentation (--keys is tab-separated)", p->key);
		EXPECT(!p->more || strncmp(p->more, "docs/", 5) == 0,
		       "%s: .more '%s' is not docs/...", p->key, p->more);
		/* A range written out must be the one the parser holds to. */
		if ((p->type == P_U64 || p->type == P_SIZE) && p->values &&
		    p->values[0] >= '0' && p->values[0] <= '9') {
			struct param bare = *p;

			bare.values = NULL;
			param_values(&bare, lo, sizeof(lo));
			EXPECT(strncmp(p->values, lo, strlen(lo)) == 0 &&
			       !(p->values[strlen(lo)] >= '0' &&
				 p->values[strlen(lo)] <= '9'),
			       "%s: .values '%s' is not its range %s", p->key,
			       p->values, lo);
		}
		param_doc_values(p, values, sizeof(values));
		EXPECT(values[0], "%s: no values", p->key);
	}
}

TEST(cmdline_keys_rendered)
{
	char buf[2048];
	u32 tabs = 0;

	param_help_line(find_key("folio"), buf, sizeof(buf));
	EXPECT(strstr(buf, "folio=4K,2M,1G|all") && strstr(buf, "default: 2M"),
	       "%s", buf);
	param_help_line(find_key("preempt"), buf, sizeof(buf));
	EXPECT(strstr(buf, "default: not given: no model,"), "%s", buf);
	param_help_line(find_key("cpu"), buf, sizeof(buf));
	EXPECT(strstr(buf, "default: not given: the highest CPU"), "%s", buf);
	/* every key's entry: lines of 79 columns at most, no blank at an end */
	for (size_t i = 0; i < hz_nparams; i++) {
		const char *line = buf;

		param_help_line(&hz_params[i], buf, sizeof(buf));
		for (const char *s = buf;; s++) {
			if (*s && *s != '\n')
				continue;
			EXPECT(s - line <= 79 && (s == line || s[-1] != ' '),
			       "%s: --help line '%.*s'", hz_params[i].key,
			       (int)(s - line), line);
			if (!*s)
				break;
			line = s + 1;
		}
	}
	param_help_line(find_key("inject"), buf, sizeof(buf));
	EXPECT(strstr(buf, "(test-only)"), "%s", buf);
	param_doc_values(find_key("cache"), buf, sizeof(buf));
	EXPECT_STR(buf, "cold|warm|wbinvd (old names: asis for warm, "
		   "clflush for cold)");
	param_doc_values(find_key("pmu"), buf, sizeof(buf));
	EXPECT(strstr(buf, "none|EVENT[,EVENT...]; names: instructions, "
		      "cycles, "), "%s", buf);
	param_doc_values(find_key("calib_ms"), buf, sizeof(buf));
	EXPECT_STR(buf, "1..1000");
	param_tsv_line(find_key("order"), buf, sizeof(buf));
	for (char *s = buf; *s; s++)
		tabs += *s == '\t';
	EXPECT_EQ(tabs, 8);
	EXPECT(strncmp(buf, "order\tboth\t1\t0\tconverging-page,", 31) == 0,
	       "%s", buf);
	EXPECT(strstr(buf, "|all\tall\t\t") != NULL, "%s", buf);
}

// SPDX-License-Identifier: GPL-2.0-only
/* Host tests of preset=: the keys each expands to, and its sizing. */
#include "lib/format.h"
#include "lib/order.h"
#include "lib/params.h"
#include "lib/preset.h"
#include "lib/prims.h"
#include "lib/string.h"
#include "tests/host/unit.h"

static bool parse(const char *line, struct hz_config *c,
		  struct cmdline_result *r, bool companion)
{
	config_defaults(c);
	return config_parse_target(line, c, r, companion) &&
	       config_check_target(c, r, companion);
}

/* A preset is its keys: what a line spelling them out would give. */
TEST(preset_expands_to_keys)
{
	struct hz_config c, d;
	struct cmdline_result r, s;

	EXPECT(parse("preset=seed-001", &c, &r, false), "%s", r.errors[0]);
	EXPECT(parse(presets[PRESET_SEED_001].kernel, &d, &s, false), "%s",
	       s.errors[0]);
	d.preset = PRESET_SEED_001;
	EXPECT(memcmp(&c, &d, sizeof(c)) == 0);
	EXPECT_EQ(c.bench, BENCH_FAULT);
	EXPECT_EQ(c.folios, (1ULL << FOLIO_2M) | (1ULL << FOLIO_1G));
	EXPECT_EQ(c.orders, (1ULL << ORDER_CONVERGING) | (1ULL << ORDER_CONTIGUOUS));
	EXPECT_EQ(c.preempts, preempt_bit(PREEMPT_MODEL_NONE) | preempt_bit(PREEMPT_MODEL_FULL));
	EXPECT_EQ(c.runs, 5);
	/* As the seed ran: boost=0 on Milan, no_turbo=1 on Icelake-X. */
	EXPECT_EQ(c.boost, BOOST_OFF);
	/* Only the line's own key counts as given: the sizing fills the rest. */
	EXPECT(config_given(&r, "preset"));
	EXPECT(!config_given(&r, "size"));
	EXPECT(!config_given(&r, "folio"));
}

TEST(preset_line_overrides)
{
	struct hz_config c;
	struct cmdline_result r;

	EXPECT(parse("preset=seed-001 folio=2M size=8M runs=1 preempt=full",
		     &c, &r, false), "%s", r.errors[0]);
	EXPECT_EQ(c.folios, 1ULL << FOLIO_2M);
	EXPECT_EQ(c.size, 8 * MiB);
	EXPECT_EQ(c.runs, 1);
	EXPECT_EQ(c.preempts, preempt_bit(PREEMPT_MODEL_FULL));
	EXPECT_EQ(c.orders, (1ULL << ORDER_CONVERGING) | (1ULL << ORDER_CONTIGUOUS));
	EXPECT(config_given(&r, "size"));
	/* Overriding is not a way round the checks: 8M of 1G folios. */
	EXPECT(!parse("preset=seed-001 size=8M", &c, &r, false));
	EXPECT(strstr(r.errors[0], "not a whole number of 1G folios"), "%s",
	       r.errors[0]);
}

/* Every preset's keys parse, for the program they are for. */
TEST(preset_keys_parse_both_sides)
{
	struct hz_config c;
	struct cmdline_result r;
	char line[64];

	for (u32 id = 1; id < PRESET_COUNT; id++) {
		ksnprintf(line, sizeof(line), "preset=%s", preset_names[id]);
		EXPECT(parse(line, &c, &r, false), "%s kernel: %s", line,
		       r.errors[0]);
		EXPECT_EQ(c.preset, id);
		EXPECT(parse(line, &c, &r, true), "%s companion: %s", line,
		       r.errors[0]);
		EXPECT(c.bench != BENCH_FAULT);
	}
	EXPECT(parse("preset=seed-001", &c, &r, true));
	EXPECT_EQ(c.bench, BENCH_SPLIT);
	EXPECT_EQ(c.boost, BOOST_OFF);
	EXPECT(parse("preset=seed-001 boost=firmware", &c, &r, true));
	EXPECT_EQ(c.boost, BOOST_FIRMWARE);
	/* A kernel key beside a preset is still refused in the companion. */
	EXPECT(!parse("preset=seed-001 preempt=full", &c, &r, true));
}

TEST(preset_unknown)
{
	struct hz_config c;
	struct cmdline_result r;

	EXPECT(!parse("preset=seed-003", &c, &r, false));
	EXPECT(strstr(r.errors[0], "seed-002"), "%s", r.errors[0]);
}

static const struct preset_machine here = {
	.mem = 24 * GiB, .free_1g = 22, .ncpus = 2, .has_1g = true,
	.linux_prim = PRIM_ERMS,
};

static void sized(u32 id, const struct preset_machine *m, const char *extra,
		  struct hz_config *c, struct preset_sizing *z, bool *ok)
{
	struct cmdline_result r;
	char line[128];

	ksnprintf(line, sizeof(line), "preset=%s %s", preset_names[id], extra);
	EXPECT(parse(line, c, &r, m->companion), "%s: %s", line, r.errors[0]);
	*ok = preset_size(id, m, &r, c, z);
}

TEST(preset_size_001)
{
	struct preset_machine m = here;
	struct preset_sizing z;
	struct hz_config c;
	bool ok;

	sized(PRESET_SEED_001, &m, "", &c, &z, &ok);
	EXPECT(ok);
	EXPECT_EQ(c.size, 12 * GiB);	/* half of 24G, under 16G */
	EXPECT_EQ(c.prims, prims_all());
	EXPECT_EQ(c.prims, (1ULL << PRIM_TREE_FIRST) - 1);
	EXPECT(strstr(z.chose, "size=12G") && strstr(z.chose, "clear=all"),
	       "%s", z.chose);
	EXPECT(strstr(z.scaled, "not the seed's 64 GiB"), "%s", z.scaled);
	EXPECT(strstr(z.why, "erms"), "%s", z.why);
	/* No 1G pages: the 2M row alone, said so. */
	m.has_1g = false;
	m.mem = 3 * GiB + 6 * MiB;
	sized(PRESET_SEED_001, &m, "", &c, &z, &ok);
	EXPECT(ok);
	EXPECT_EQ(c.folios, 1ULL << FOLIO_2M);
	EXPECT_EQ(c.size, 1536 * MiB + 2 * MiB);
	EXPECT(strstr(z.why, "pdpe1gb"), "%s", z.why);
	EXPECT(strstr(z.scaled, "no 1G row"), "%s", z.scaled);
	/* What the line gives is not touched. */
	sized(PRESET_SEED_001, &here, "clear=rep size=2G", &c, &z, &ok);
	EXPECT_EQ(c.size, 2 * GiB);
	EXPECT_EQ(c.prims, 1ULL << PRIM_REP);
	EXPECT_STR(z.chose, "nothing: the line gave it all");
	/* Half the memory short of one 1G folio: the 2M row alone. */
	m = here;
	m.mem = GiB;
	sized(PRESET_SEED_001, &m, "", &c, &z, &ok);
	EXPECT(ok);
	EXPECT_EQ(c.folios, 1ULL << FOLIO_2M);
	EXPECT_EQ(c.size, 512 * MiB);
	EXPECT(strstr(z.why, "one 1G folio does not fit"), "%s", z.why);
	EXPECT(strstr(z.scaled, "no 1G row"), "%s", z.scaled);
	/* Not even one 2M folio: not run, with why. */
	m.mem = 3 * MiB;
	sized(PRESET_SEED_001, &m, "", &c, &z, &ok);
	EXPECT(!ok);
	EXPECT(strstr(z.why, "half the free memory (1 of 3 MiB) holds not "
		      "one 2M folio"), "%s", z.why);
}

TEST(preset_size_000)
{
	struct preset_machine m = here;
	struct preset_sizing z;
	struct hz_config c;
	bool ok;

	m.mem = 8 * GiB;
	m.ncpus = 4;
	sized(PRESET_SEED_000, &m, "", &c, &z, &ok);
	EXPECT(ok);
	EXPECT_EQ(c.size, GiB);		/* 4G over 4 CPUs */
	EXPECT_EQ(c.prims, 1ULL << PRIM_ERMS);
	EXPECT(c.cpus.all);
	EXPECT(strstr(z.scaled, "4 CPUs, not the seed's 384"), "%s", z.scaled);
	m.mem = 64 * GiB;
	m.ncpus = 2;
	sized(PRESET_SEED_000, &m, "", &c, &z, &ok);
	EXPECT_EQ(c.size, 4 * GiB);	/* capped */
	m.linux_prim = PRIM_REP;
	m.mem = 5 * MiB;
	sized(PRESET_SEED_000, &m, "", &c, &z, &ok);
	EXPECT(!ok);
}

TEST(preset_size_002)
{
	struct preset_machine m = here;
	struct preset_sizing z;
	struct hz_config c;
	bool ok;

	sized(PRESET_SEED_002, &m, "", &c, &z, &ok);
	EXPECT(ok);
	EXPECT_EQ(c.folios, 1ULL << FOLIO_1G);
	EXPECT_EQ(c.size, 12 * GiB);	/* 12 x 1G: half of 24G */
	EXPECT(strstr(z.why, "12 x 1G"), "%s", z.why);
	/* Memory short of two 1G folios: 2M, said why. */
	m.mem = 3 * GiB;
	m.free_1g = 1;
	sized(PRESET_SEED_002, &m, "", &c, &z, &ok);
	EXPECT(ok);
	EXPECT_EQ(c.folios, 1ULL << FOLIO_2M);
	EXPECT_EQ(c.size, 1536 * MiB);
	EXPECT(strstr(z.why, "fewer than two 1G folios"), "%s", z.why);
	EXPECT(strstr(z.scaled, "2M folios"), "%s", z.scaled);
	/* The companion without a 1G pool: 2M. */
	m = here;
	m.companion = true;
	m.free_1g = 0;
	m.has_1g = false;
	sized(PRESET_SEED_002, &m, "", &c, &z, &ok);
	EXPECT(ok);
	EXPECT_EQ(c.folios, 1ULL << FOLIO_2M);
	EXPECT(strstr(z.why, "no free 1G hugetlb pages"), "%s", z.why);
	/* One CPU: the dedicated zeroer cannot run, and it is said. */
	m = here;
	m.ncpus = 1;
	sized(PRESET_SEED_002, &m, "", &c, &z, &ok);
	EXPECT(strstr(z.scaled, "dedicated is skipped"), "%s", z.scaled);
}

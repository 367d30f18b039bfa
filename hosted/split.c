// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench=split in one process (no cpus=): Linux's demand fault and the
 * same clearing done bare.  With interleave=on, per folio size, the fault
 * over each memory kind leads a round group of bare clearing over a
 * region of its own kind, so that each round runs Linux's fault and the
 * bare clearing back to back on this CPU and that memory: split then
 * pairs them by round (docs/statistics.md, "Linux's overhead").  The
 * fault of the bare region's own kind (hugetlb where the pool holds it,
 * else THP) leads the matrix's first group (bare.c, lead_rank()); THP's
 * beside a hugetlb region a group of Linux's own primitive in every
 * order over a THP region (run_bare_twin()).  A hugetlb fault the pool cannot hold beside
 * the bare region, and the faults of prezero= modes other than none, are
 * round groups of their own.  interleave=off runs every fault, then the
 * bare matrix, as before.
 */

#include <stdio.h>
#include <string.h>
#include "hosted/companion.h"
#include "lib/benchrun.h"

struct split_folio {
	const struct hz_config *c;
	u32 f, *id;
	bool pool_both;		/* the 2M pool holds the fault's and bare's */
	struct lf_cfg *l;	/* the fault leading the group under way */
	char why[240];
	u64 led;		/* the backings whose fault led a group */
};

static int backing_of(const char *name)
{
	for (u32 b = 0; b < BACKING_COUNT; b++)
		if (strcmp(backing_names[b], name) == 0)
			return (int)b;
	return -1;
}

/* The fault over the group's own memory kind (@backing) leads it. */
static u32 lead_start(void *ctx, const char *backing, struct bench_job *j,
		      const char **skip, u32 max)
{
	struct split_folio *sf = ctx;
	int b = backing_of(backing);

	/* A 2M hugetlb fault beside a hugetlb bare region only where the
	 * pool holds both; else it runs in a group of its own. */
	if (b < 0 || max == 0 || (b == BACKING_HUGETLB && sf->f == FOLIO_2M &&
				  !sf->pool_both))
		return 0;
	sf->l = lf_lead_new(sf->c, sf->f, (enum backing)b, sf->id, j, sf->why,
			    sizeof(sf->why));
	if (!sf->l)
		return 0;
	*skip = sf->why[0] ? sf->why : NULL;
	sf->led |= 1ULL << b;
	return 1;
}

static void lead_done(void *ctx)
{
	struct split_folio *sf = ctx;

	lf_lead_free(sf->l);
	sf->l = NULL;
}

/*
 * A 2M hugetlb fault and a hugetlb bare region of folio size 2M both
 * come from the 2M pool, and in a round group both are held at once (the
 * bare region for the whole group, the fault's for each of its passes):
 * as root, grow the pool for both.  Said when it cannot.
 */
static bool pool_for_both(const struct hz_config *c, u32 f)
{
	u64 pages;
	char why[240];

	if (f != FOLIO_2M || !(c->backings >> BACKING_HUGETLB & 1))
		return false;
	pages = bare_bytes(c, f) / SZ_2M + lf_count(c, f, BACKING_HUGETLB);
	if (hugetlb_ensure(SZ_2M, pages, why, sizeof(why)))
		return true;
	fprintf(stderr, "hugezero-linux: split %s: the 2M hugetlb pool cannot "
		"hold the fault's region and the bare one at once (%s): the "
		"fault runs as a round group of its own, unpaired with the bare "
		"clearing\n", folio_names[f], why);
	return false;
}

static u32 split_folio(const struct hz_config *c, u32 f, u32 *id)
{
	struct split_folio sf = { .c = c, .f = f, .id = id };
	struct bare_lead lead = { lead_start, lead_done, &sf };
	u32 failed;

	sf.pool_both = pool_for_both(c, f);
	failed = run_bare_led(c, f, id, &lead);
	/* THP beside a hugetlb region: Linux's own clearing over THP too. */
	if (!(sf.led >> BACKING_THP & 1) && lf_selected(c, f, BACKING_THP))
		failed += run_bare_twin(c, f, id, BACKING_THP, &lead);
	/* What did not lead (a hugetlb fault without the pool) runs alone. */
	return failed + run_linux_fault_of(c, id, PREZERO_NONE, f, ~sf.led);
}

u32 run_split(const struct hz_config *c, u32 *id)
{
	u64 modes = c->prezeros ? c->prezeros : 1ULL << PREZERO_NONE;
	u32 failed = 0;

	if (!c->interleave || !(modes >> PREZERO_NONE & 1))
		return run_linux_fault(c, id, NULL) + run_bare(c, id, NULL);
	for (u32 f = 0; f < FOLIO_COUNT; f++)
		if (c->folios >> f & 1)
			failed += split_folio(c, f, id);
	/* The other modes' faults pair with nothing bare: each its own. */
	for (u32 m = 0; m < PREZERO_COUNT; m++)
		for (u32 f = 0; f < FOLIO_COUNT && m != PREZERO_NONE; f++)
			if (modes >> m & 1)
				failed += run_linux_fault_of(c, id, m, f, ~0ULL);
	return failed;
}

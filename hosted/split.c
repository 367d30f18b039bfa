// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench=split in one process (no cpus=): Linux's demand fault and the
 * same clearing done bare.  With interleave=on, per folio size, the
 * faults over each memory kind lead the bare configurations' first round
 * group, so that each round runs Linux's faults and the bare clearing
 * back to back on this CPU: split then pairs them by round
 * (docs/statistics.md, "Linux's overhead").  A hugetlb fault the pool
 * cannot hold beside the bare region, and the faults of prezero= modes
 * other than none, are round groups of their own.  interleave=off runs every
 * fault, then the bare matrix, as before.
 */

#include <stdio.h>
#include <string.h>
#include "hosted/companion.h"
#include "lib/benchrun.h"

struct split_folio {
	const struct hz_config *c;
	u32 f, *id;
	bool pool_both;		/* the 2M pool holds the fault's and bare's */
	struct lf_cfg *l[BACKING_COUNT];	/* the faults leading, in order */
	char why[BACKING_COUNT][240];
	u32 nled;
	u64 led;		/* the backings that led */
};

static int backing_of(const char *name)
{
	for (u32 b = 0; b < BACKING_COUNT; b++)
		if (strcmp(backing_names[b], name) == 0)
			return (int)b;
	return -1;
}

/* The fault over backing @b into the lead's next slot; false when it
 * does not lead (not selected, or no memory: said). */
static bool lead_one(struct split_folio *sf, u32 b, struct bench_job *j,
		     const char **skip)
{
	u32 k = sf->nled;

	/* A 2M hugetlb fault beside a hugetlb bare region only where the
	 * pool holds both; else it runs in a group of its own. */
	if (b == BACKING_HUGETLB && sf->f == FOLIO_2M && !sf->pool_both)
		return false;
	sf->l[k] = lf_lead_new(sf->c, sf->f, (enum backing)b, sf->id, &j[k],
			       sf->why[k], sizeof(sf->why[k]));
	if (!sf->l[k])
		return false;
	skip[k] = sf->why[k][0] ? sf->why[k] : NULL;
	sf->led |= 1ULL << b;
	sf->nled++;
	return true;
}

/*
 * Every backing's fault leads the bare round group, the bare region's
 * own first: each round then runs Linux's fault over hugetlb, THP and
 * base pages and the bare clearing back to back, so split pairs each
 * backing's overhead by round (docs/statistics.md, "Linux's overhead").
 * A fault over hugetlb needs the bare region's backing to be hugetlb
 * (the pool): over THP it still leads, the clearing being the same
 * instructions over other 2M pages.
 */
static u32 lead_start(void *ctx, const char *backing, struct bench_job *j,
		      const char **skip, u32 max)
{
	struct split_folio *sf = ctx;
	int own = backing_of(backing);

	if (own >= 0 && max > 0)
		lead_one(sf, (u32)own, j, skip);
	for (u32 b = 0; b < BACKING_COUNT && sf->nled < max; b++)
		if ((int)b != own && b != BACKING_HUGETLB)
			lead_one(sf, b, j, skip);
	return sf->nled;
}

static void lead_done(void *ctx)
{
	struct split_folio *sf = ctx;

	for (u32 k = 0; k < sf->nled; k++)
		lf_lead_free(sf->l[k]);
	sf->nled = 0;
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

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The proof of hugezero's own orders (tests/test_tree_seq.py): the event
 * sequence of a tree's own folio_zero_user() (order=tree, BUILD's
 * tree_zero.c) against a built-in order's, for every folio size, fault
 * class and model.  Both plans are made by matrix_resolve(), as the
 * kernel and the companion make them, for each model and for none given.
 * An event is a primitive call, its first page and its length, and the
 * points that came before it since the last call, in their order:
 * might_sleep() and cond_resched(), each its own kind; the counts of both
 * must agree too.  The first differing event is printed.
 *
 *   tree_seq ORDER [RADIUS]   exit 0: equal, 1: they differ
 *
 * ORDER is an order= choice (converging-page, linux, ...); RADIUS, given,
 * replaces the plan's radius (a tree whose FOLIO_ZERO_LOCALITY_RADIUS
 * was changed against order=linux's plan with that radius).
 */
#include <stdio.h>
#include <stdlib.h>
#include "lib/matrix.h"
#include "lib/order.h"
#include "lib/params.h"
#include "lib/tree.h"
#include "lib/zero.h"

/* The points before a call, oldest in the highest bits, 2 bits each. */
enum { PT_MIGHT_SLEEP = 1, PT_RESCHED = 2, PT_MAX = 16 };

struct event {
	u32 start, npages;
	u32 points, npoints;
};

struct log {
	u8 *base;
	struct event *ev;
	u32 n, cap;
	u32 points, npoints;	/* since the last call */
	s64 sleeps;		/* might_sleep() calls */
};

static struct log *cur;

static void add_point(struct log *l, u32 kind)
{
	if (l->npoints < PT_MAX)
		l->points = l->points << 2 | kind;
	l->npoints++;
}

static void rec_resched(void *ctx)
{
	add_point(ctx, PT_RESCHED);
}

static void rec_might_sleep(void *ctx)
{
	((struct log *)ctx)->sleeps++;
	add_point(ctx, PT_MIGHT_SLEEP);
}

static void rec_prim(void *dst, u64 len)
{
	struct log *l = cur;

	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 1024;
		l->ev = realloc(l->ev, l->cap * sizeof(*l->ev));
		if (!l->ev)
			abort();
	}
	l->ev[l->n++] = (struct event){ (u32)(((u8 *)dst - l->base) / SZ_4K),
					(u32)(len / SZ_4K), l->points,
					l->npoints };
	l->points = l->npoints = 0;
}

/* Both runs see the same folio address; nothing is written to it. */
static s64 run(struct log *l, u8 *base, u32 nr, u32 fault,
	       const struct zero_plan *plan)
{
	const struct zero_ops ops = { rec_prim, rec_resched, l, NULL, NULL,
				      rec_might_sleep };

	*l = (struct log){ .base = base, .ev = l->ev, .cap = l->cap };
	cur = l;
	return folio_zero(base, nr, fault, plan, &ops);
}

static void show_points(u32 points, u32 npoints)
{
	for (u32 k = 0; k < MIN(npoints, (u32)PT_MAX); k++) {
		u32 kind = points >> 2 * (MIN(npoints, (u32)PT_MAX) - 1 - k) & 3;

		printf("%s, ", kind == PT_MIGHT_SLEEP ? "might_sleep" :
		       "resched point");
	}
	if (npoints > PT_MAX)
		printf("(%u points in all), ", npoints);
}

static void show(const char *who, const struct log *l, u32 k)
{
	printf("  %s: ", who);
	if (k >= l->n) {
		printf("no event %u (%u in all)\n", k, l->n);
		return;
	}
	show_points(l->ev[k].points, l->ev[k].npoints);
	printf("pages %u+%u\n", l->ev[k].start, l->ev[k].npages);
}

static bool same_event(const struct event *a, const struct event *b)
{
	return a->start == b->start && a->npages == b->npages &&
	       a->points == b->points && a->npoints == b->npoints;
}

/* Equal, or the first differing event printed. */
static bool same(const struct log *t, const struct log *b, s64 pt, s64 pb,
		 const char *what)
{
	u32 k;

	for (k = 0; k < t->n && k < b->n; k++)
		if (!same_event(&t->ev[k], &b->ev[k]))
			break;
	if (k == t->n && k == b->n && t->points == b->points &&
	    t->npoints == b->npoints && pt == pb && t->sleeps == b->sleeps)
		return true;
	printf("differ: %s: first differing event %u\n", what, k);
	show("tree", t, k);
	show("built-in", b, k);
	if (k == t->n && k == b->n)
		printf("  cond_resched() calls: tree %lld, built-in %lld; "
		       "might_sleep() calls: tree %lld, built-in %lld; points "
		       "after the last call: tree %u, built-in %u\n",
		       (long long)pt, (long long)pb, (long long)t->sleeps,
		       (long long)b->sleeps, t->npoints, b->npoints);
	return false;
}

/*
 * The fault classes of a folio of @nr pages: the edges, the radius, the
 * middle; and with a @batch, the faults whose left or right range is a
 * batch less one, a batch, or one or two more (the left range is the
 * pages below fault - radius, the right those above fault + radius).
 */
static u32 faults(u32 nr, u32 radius, u32 batch, u32 *out, u32 max)
{
	const s64 n = nr, r = radius, b = batch;
	const s64 cand[] = { 0, 1, 2, 3, 4, 5, r + 1, r + 2, n / 2 - 1, n / 2,
			     n / 2 + 1, n - 6, n - 5, n - 4, n - 3, n - 2,
			     n - 1, n - 2 - r, n - 3 - r,
			     b ? b + r - 1 : -1, b ? b + r : -1,
			     b ? b + r + 1 : -1, b ? b + r + 2 : -1,
			     b ? n - 1 - r - b - 2 : -1,
			     b ? n - 1 - r - b - 1 : -1,
			     b ? n - 1 - r - b : -1,
			     b ? n - 1 - r - b + 1 : -1 };
	u32 k = 0;

	for (u32 i = 0; i < ARRAY_SIZE(cand) && k < max; i++) {
		bool dup = cand[i] < 0 || cand[i] >= n;

		for (u32 j = 0; j < k && !dup; j++)
			dup = out[j] == (u32)cand[i];
		if (!dup)
			out[k++] = (u32)cand[i];
	}
	return k;
}

static u32 choice(const char *name)
{
	for (u32 o = 0; order_choice_names[o]; o++)
		if (strcmp(order_choice_names[o], name) == 0)
			return o;
	return ~0u;
}

/* The plan of order choice @o under model @m, as the matrix makes it. */
static void plan(const struct hz_config *c, u32 o, u32 m, u64 bytes,
		 struct zero_plan *out)
{
	struct matrix_point p = { { 0 } };

	p.v[AXIS_PREEMPT] = m;
	p.v[AXIS_ORDER] = o;
	matrix_resolve(c, &p, bytes, out);
}

static struct log t, b;

/* Every fault class of one folio size under one model; false: differs. */
static bool one_model(const struct hz_config *c, u32 o, u32 m, u32 nr,
		      const char *size, const long *radius, u32 *cases)
{
	struct zero_plan tp, bp;
	u8 *base = (u8 *)(1ULL << 46);	/* never dereferenced */
	u32 fs[64], nf;

	plan(c, ORDER_TREE, m, (u64)nr * SZ_4K, &tp);
	plan(c, o, m, (u64)nr * SZ_4K, &bp);
	if (*radius >= 0)
		bp.radius = (u32)*radius;
	nf = faults(nr, bp.radius, o == ORDER_LINUX ? LINUX_BATCH / SZ_4K :
		    order_uses_chunk(o) ? bp.chunk : 0, fs, ARRAY_SIZE(fs));
	if (m == PREEMPT_MODEL_OFF) {
		printf("%s faults:", size);
		for (u32 f = 0; f < nf; f++)
			printf(" %u", fs[f]);
		printf("\n");
	}
	for (u32 f = 0; f < nf; f++) {
		s64 pt = run(&t, base, nr, fs[f], &tp);
		s64 pb = run(&b, base, nr, fs[f], &bp);
		char what[96];

		snprintf(what, sizeof(what), "%s folio, fault at page %u, "
			 "model %s", size, fs[f], preempt_model_names[m]);
		if (!same(&t, &b, pt, pb, what))
			return false;
		(*cases)++;
	}
	return true;
}

int main(int argc, char **argv)
{
	static const u32 sizes[] = { 1, 512, 262144 };
	static const char *const size_names[] = { "4K", "2M", "1G" };
	u32 o = argc > 1 ? choice(argv[1]) : ~0u, cases = 0;
	long radius = argc > 2 ? strtol(argv[2], NULL, 0) : -1;
	struct hz_config c;
	int rc = 0;

	if (o == ~0u || o == ORDER_TREE || !tree_zero) {
		fprintf(stderr, "usage: tree_seq ORDER [RADIUS], ORDER an "
			"order= choice but tree, in a build with a tree's "
			"zeroing\n");
		return 2;
	}
	config_defaults(&c);
	printf("tree: %s %s sha256 %s; built-in: order=%s", tree_zero->version,
	       tree_zero->entry, tree_zero->sha256, order_choice_names[o]);
	if (radius >= 0)
		printf(" with radius %ld", radius);
	printf("\n");
	for (u32 s = 0; s < ARRAY_SIZE(sizes) && !rc; s++)
		for (u32 m = 0; m < PREEMPT_MODEL_COUNT && !rc; m++)
			if (!one_model(&c, o, m, sizes[s], size_names[s],
				       &radius, &cases))
				rc = 1;
	if (!rc)
		printf("equal: %u cases (folio sizes 4K 2M 1G, models off none "
		       "voluntary full lazy)\n", cases);
	free(t.ev);
	free(b.ev);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The proof of hugezero's orders (tests/test_tree_seq.py): the event
 * sequence of a tree's own folio_zero_user() (order=tree, BUILD's
 * tree_zero.c) against a built-in order's, for every folio size, fault
 * class and model.  An event is a primitive call, its first page and
 * its length, and whether resched points (cond_resched(), might_sleep())
 * came before it since the last call; the cond_resched() counts must
 * agree too.  The first differing event is printed.
 *
 *   tree_seq ORDER [RADIUS BATCH]   exit 0: equal, 1: they differ
 */
#include <stdio.h>
#include <stdlib.h>
#include "lib/order.h"
#include "lib/tree.h"
#include "lib/zero.h"

struct event {
	u32 start, npages;
	bool resched;
};

struct log {
	u8 *base;
	struct event *ev;
	u32 n, cap;
	bool pending;		/* a resched point since the last call */
};

static void rec_prim(void *dst, u64 len);
static struct log *cur;

static void rec_point(void *ctx)
{
	((struct log *)ctx)->pending = true;
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
					(u32)(len / SZ_4K), l->pending };
	l->pending = false;
}

/* Both runs see the same folio address; nothing is written to it. */
static s64 run(struct log *l, u8 *base, u32 nr, u32 fault,
	       const struct zero_plan *plan)
{
	const struct zero_ops ops = { rec_prim, rec_point, l, NULL, NULL,
				      rec_point };

	l->base = base;
	l->n = 0;
	l->pending = false;
	cur = l;
	return folio_zero(base, nr, fault, plan, &ops);
}

static const char *const models[] = { "off", "none", "voluntary", "full",
				      "lazy" };

static void show(const char *who, const struct log *l, u32 k)
{
	if (k >= l->n) {
		printf("  %s: no event %u (%u in all)\n", who, k, l->n);
		return;
	}
	printf("  %s: %spages %u+%u\n", who,
	       l->ev[k].resched ? "resched point, " : "", l->ev[k].start,
	       l->ev[k].npages);
}

/* Equal, or the first differing event printed. */
static bool same(const struct log *t, const struct log *b, s64 pt, s64 pb,
		 const char *what)
{
	u32 k;

	for (k = 0; k < t->n && k < b->n; k++)
		if (t->ev[k].start != b->ev[k].start ||
		    t->ev[k].npages != b->ev[k].npages ||
		    t->ev[k].resched != b->ev[k].resched)
			break;
	if (k == t->n && k == b->n && t->pending == b->pending && pt == pb)
		return true;
	printf("differ: %s: first differing event %u\n", what, k);
	show("tree", t, k);
	show("built-in", b, k);
	if (k == t->n && k == b->n)
		printf("  cond_resched() calls: tree %lld, built-in %lld; a "
		       "point after the last call: tree %d, built-in %d\n",
		       (long long)pt, (long long)pb, t->pending, b->pending);
	return false;
}

static u32 faults(u32 nr, u32 batch, u32 *out)
{
	const u32 cand[] = { 0, 1, 2, 3, 4, 5, batch - 1, batch, batch + 1,
			     nr / 2 - 1, nr / 2, nr / 2 + 1, nr - 6, nr - 5,
			     nr - 4, nr - 3, nr - 2, nr - 1 };
	u32 n = 0;

	for (u32 i = 0; i < ARRAY_SIZE(cand); i++) {
		bool dup = cand[i] >= nr;

		for (u32 j = 0; j < n && !dup; j++)
			dup = out[j] == cand[i];
		if (!dup)
			out[n++] = cand[i];
	}
	return n;
}

int main(int argc, char **argv)
{
	static const u32 sizes[] = { 1, 512, 262144 };
	static const char *const size_names[] = { "4K", "2M", "1G" };
	struct log t = { 0 }, b = { 0 };
	u32 order = ORDER_COUNT, radius = 0, batch = 0, cases = 0;
	u8 *base = (u8 *)(1ULL << 46);	/* never dereferenced */
	int rc = 0;

	for (u32 o = 0; o < ORDER_COUNT && argc > 1; o++)
		if (strcmp(order_names[o], argv[1]) == 0)
			order = o;
	if (argc > 3) {
		radius = (u32)strtoul(argv[2], NULL, 0);
		batch = (u32)strtoul(argv[3], NULL, 0);
	}
	if (order == ORDER_COUNT || (order_uses_chunk(order) && !batch) ||
	    !tree_zero) {
		fprintf(stderr, "usage: tree_seq ORDER [RADIUS BATCH], in a "
			"build with a tree's zeroing\n");
		return 2;
	}
	printf("tree: %s %s sha256 %s; built-in: %s\n", tree_zero->version,
	       tree_zero->entry, tree_zero->sha256, order_names[order]);
	for (u32 s = 0; s < ARRAY_SIZE(sizes); s++) {
		u32 nr = sizes[s], fs[32], nf = faults(nr, batch, fs);

		for (u32 m = 0; m < ARRAY_SIZE(models); m++) {
			bool pre = m >= 3;	/* full, lazy */

			for (u32 f = 0; f < nf; f++) {
				struct zero_plan tp = { ORDER_TREE, 0, 0, pre };
				struct zero_plan bp = {
					order, pre ? nr : batch, radius, pre };
				char what[96];
				s64 pt = run(&t, base, nr, fs[f], &tp);
				s64 pb = run(&b, base, nr, fs[f], &bp);

				snprintf(what, sizeof(what), "%s folio, "
					 "fault at page %u, model %s",
					 size_names[s], fs[f], models[m]);
				if (!same(&t, &b, pt, pb, what)) {
					rc = 1;
					goto out;
				}
				cases++;
			}
		}
	}
	printf("equal: %u cases (folio sizes 4K 2M 1G, models off none "
	       "voluntary full lazy)\n", cases);
out:
	free(t.ev);
	free(b.ev);
	return rc;
}

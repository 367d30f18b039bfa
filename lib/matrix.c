// SPDX-License-Identifier: GPL-2.0-only
#include "lib/format.h"
#include "lib/matrix.h"
#include "lib/order.h"
#include "lib/prims.h"
#include "lib/rethunk.h"

struct axis_desc {
	/* How many positions the axis has at this point of the outer axes. */
	u32 (*span)(const struct hz_config *c, const struct matrix_point *p);
	/* Is position @v selected by the command line? */
	bool (*picked)(const struct hz_config *c, u32 v);
};

static u32 span_preempt(const struct hz_config *c, const struct matrix_point *p)
{
	(void)c, (void)p;
	return PREEMPT_MODEL_COUNT;
}

static bool picked_preempt(const struct hz_config *c, u32 v)
{
	return c->preempts ? (c->preempts & preempt_bit(v)) != 0 :
	       v == PREEMPT_MODEL_OFF;
}

static u32 span_prezero(const struct hz_config *c, const struct matrix_point *p)
{
	(void)c, (void)p;
	return PREZERO_COUNT;
}

static bool picked_prezero(const struct hz_config *c, u32 v)
{
	return c->prezeros ? c->prezeros >> v & 1 : v == PREZERO_NONE;
}

static u32 span_rethunk(const struct hz_config *c, const struct matrix_point *p)
{
	(void)c, (void)p;
	return RETHUNK_MODE_COUNT;
}

static bool picked_rethunk(const struct hz_config *c, u32 v)
{
	return c->rethunks ? c->rethunks >> v & 1 : v == c->rethunk_default;
}

static u32 span_prim(const struct hz_config *c, const struct matrix_point *p)
{
	(void)c, (void)p;
	return PRIM_COUNT;
}

static u32 span_order(const struct hz_config *c, const struct matrix_point *p)
{
	(void)c, (void)p;
	return ORDER_TREE + 1;		/* and ORDER_LINUX, ORDER_TREE */
}

static u32 span_chunk(const struct hz_config *c, const struct matrix_point *p)
{
	return order_uses_chunk(p->v[AXIS_ORDER]) ? c->nchunks : 1;
}

static bool picked_prim(const struct hz_config *c, u32 v)
{
	return c->prims >> v & 1;
}

static bool picked_order(const struct hz_config *c, u32 v)
{
	return c->orders >> v & 1;
}

static bool picked_all(const struct hz_config *c, u32 v)
{
	(void)c, (void)v;
	return true;
}

static const struct axis_desc axes[AXIS_COUNT] = {
	[AXIS_PREEMPT] = { span_preempt, picked_preempt },
	[AXIS_PREZERO] = { span_prezero, picked_prezero },
	[AXIS_RETHUNK] = { span_rethunk, picked_rethunk },
	[AXIS_PRIM] = { span_prim, picked_prim },
	[AXIS_ORDER] = { span_order, picked_order },
	[AXIS_CHUNK] = { span_chunk, picked_all },
};

/* Advance axis @a and the ones inside it to the next selected point. */
static bool settle(const struct hz_config *c, struct matrix_point *p, int a)
{
	if (a == AXIS_COUNT)
		return true;
	for (; p->v[a] < axes[a].span(c, p); p->v[a]++) {
		if (!axes[a].picked(c, p->v[a]))
			continue;
		for (int in = a + 1; in < AXIS_COUNT; in++)
			p->v[in] = 0;
		if (settle(c, p, a + 1))
			return true;
	}
	return false;
}

/* The next point after @p: the innermost axis that can move, moves. */
static bool step(const struct hz_config *c, struct matrix_point *p)
{
	for (int a = AXIS_COUNT - 1; a >= 0; a--) {
		struct matrix_point q = *p;

		q.v[a]++;
		for (int in = a + 1; in < AXIS_COUNT; in++)
			q.v[in] = 0;
		if (q.v[a] < axes[a].span(c, &q) && settle(c, &q, a)) {
			*p = q;
			return true;
		}
	}
	return false;
}

bool matrix_next(const struct hz_config *c, struct matrix_iter *it)
{
	if (!it->started) {
		it->started = true;
		for (int a = 0; a < AXIS_COUNT; a++)
			it->at.v[a] = 0;
		return settle(c, &it->at, 0);
	}
	return step(c, &it->at);
}

u32 matrix_count(const struct hz_config *c)
{
	struct matrix_iter it = { { { 0 } }, false };
	u32 n = 0, folios = 0;

	for (u32 f = 0; f < FOLIO_COUNT; f++)
		folios += c->folios >> f & 1;
	while (matrix_next(c, &it))
		n++;
	return n * folios;
}

u64 matrix_chunk(const struct hz_config *c, const struct matrix_point *p)
{
	return order_uses_chunk(p->v[AXIS_ORDER]) ? c->chunks[p->v[AXIS_CHUNK]]
						  : 0;
}

void matrix_name(const struct hz_config *c, u32 folio,
		 const struct matrix_point *p, const char *prefix, char *buf,
		 size_t n)
{
	u64 chunk = matrix_chunk(c, p);
	char cs[16];

	u32 model = p->v[AXIS_PREEMPT], pz = p->v[AXIS_PREZERO];
	u32 rt = p->v[AXIS_RETHUNK];

	/* Each axis named only when its key was given: older names hold. */
	ksnprintf(buf, n, "%s%s%s%s%s%s%s%s%s.%s.%s%s%s", prefix,
		  model ? preempt_model_names[model] : "", model ? "." : "",
		  c->prezeros ? prezero_names[pz] : "", c->prezeros ? "." : "",
		  c->rethunks ? "rethunk-" : "",
		  c->rethunks ? rethunk_mode_names[rt] : "",
		  c->rethunks ? "." : "", folio_names[folio], prim_names[p->v[AXIS_PRIM]],
		  order_choice_names[p->v[AXIS_ORDER]], chunk ? "." : "",
		  chunk ? size_name(chunk, cs, sizeof(cs)) : "");
}

u32 matrix_rethunk_kind(const struct hz_config *c, const struct matrix_point *p)
{
	return p->v[AXIS_RETHUNK] == RETHUNK_ON ? c->rethunk_on_kind :
	       RETHUNK_NONE;
}

const char *matrix_model_name(const struct matrix_point *p)
{
	return preempt_model_names[p->v[AXIS_PREEMPT]];
}

bool matrix_preemptible(const struct matrix_point *p)
{
	return preempt_linux_preemptible(p->v[AXIS_PREEMPT]);
}

/* Bytes to pages; a unit past 2^32 pages is past any folio anyway. */
static u32 pages(u64 bytes)
{
	return (u32)MIN(bytes / SZ_4K, (u64)~0u);
}

bool matrix_linux_offered(const struct matrix_point *p)
{
	u32 model = p->v[AXIS_PREEMPT];

	return model == PREEMPT_MODEL_OFF || preempt_x86_linux7_offers(model);
}

void matrix_resolve(const struct hz_config *c, const struct matrix_point *p,
		    u64 folio_bytes, struct zero_plan *out)
{
	u32 order = p->v[AXIS_ORDER];

	/* order=tree: the tree's code asks it; order=linux below the same. */
	out->preemptible = matrix_preemptible(p);
	if (order == ORDER_LINUX) {
		out->order = ORDER_NEIGHBOURHOOD;
		out->radius = LINUX_RADIUS;
		/*
		 * clear_contig_highpages(): preempt_model_preemptible() ?
		 * nr_pages : PROCESS_PAGES_NON_PREEMPT_BATCH.  No model runs
		 * as the x86 7.0 it stands for, which is always full or
		 * lazy; a unit of the folio's size is one call per range.
		 */
		out->chunk = pages(out->preemptible ? folio_bytes : LINUX_BATCH);
		return;
	}
	out->order = order;
	out->chunk = pages(matrix_chunk(c, p));
	out->radius = order == ORDER_NEIGHBOURHOOD ? (u32)c->radius : 0;
}

const char *size_name(u64 b, char *buf, size_t n)
{
	if (b && b % GiB == 0)
		ksnprintf(buf, n, "%lluG", (unsigned long long)(b / GiB));
	else if (b && b % MiB == 0)
		ksnprintf(buf, n, "%lluM", (unsigned long long)(b / MiB));
	else
		ksnprintf(buf, n, "%lluK", (unsigned long long)(b / KiB));
	return buf;
}

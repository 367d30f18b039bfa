/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_MATRIX_H
#define LIB_MATRIX_H

#include "lib/params.h"
#include "lib/zero.h"

/*
 * The configuration matrix of one folio size, as a list of axes walked
 * like an odometer (the last axis fastest).  Adding an axis (a scheduling
 * model, a CPU list, a pre-zeroing mode) is an enum entry, a row in
 * matrix.c's table and its field in the record: the walk, the count and
 * the names follow.
 */
enum axis { AXIS_PREEMPT, AXIS_PREZERO, AXIS_RETHUNK, AXIS_PRIM, AXIS_ORDER,
	    AXIS_CHUNK, AXIS_COUNT };

/* AXIS_PREEMPT: an enum preempt_model (PREEMPT_MODEL_OFF: preempt= not
 * given).  AXIS_ORDER: the planner's orders, then ORDER_LINUX, then
 * ORDER_TREE (lib/order.h). */
#define ORDER_LINUX ORDER_COUNT

/* One configuration: the index on each axis. */
struct matrix_point {
	u32 v[AXIS_COUNT];
};

struct matrix_iter {
	struct matrix_point at;
	bool started;
};

/* Does @order take chunk= (batched-pages, neighbourhood-last)? */
/* The point's enum prezero_mode (PREZERO_NONE when prezero= not given). */
static inline u32 matrix_prezero(const struct matrix_point *p)
{
	return p->v[AXIS_PREZERO];
}
/* AXIS_RETHUNK: an enum rethunk_mode; without rethunk=, the one Linux's
 * default picks for the CPU (hz_config's rethunk_default).  The thunk the
 * point's primitive returns through (enum rethunk_kind): */
u32 matrix_rethunk_kind(const struct hz_config *c, const struct matrix_point *p);
/* "off" or the model's name. */
const char *matrix_model_name(const struct matrix_point *p);
/* What preempt_model_preemptible() answers order=linux and order=tree at
 * the point: full, lazy, and no model (x86 7.0's; lib/preempt.h). */
bool matrix_preemptible(const struct matrix_point *p);

/*
 * order=linux at point @p: is its model one x86 Linux 7.0 runs (full,
 * lazy, or no model, which stands for them), or only the non-preemptible
 * branch kept for none and voluntary, which x86 7.0 does not offer
 * (lib/preempt.h)?  The config record's linux_offered.
 */
bool matrix_linux_offered(const struct matrix_point *p);
/*
 * What the planner runs for point @p on a folio of @folio_bytes: the
 * order, unit (bytes) and radius; order=linux resolved as merged Linux 7.0
 * does it (folio_zero_user() -> clear_contig_highpages()): neighbourhood-
 * last, radius 2, whole ranges under full and lazy and with no model,
 * 32M units under none and voluntary.
 */
void matrix_resolve(const struct hz_config *c, const struct matrix_point *p,
		    u64 folio_bytes, struct zero_plan *out);
/* The next selected point; false when the matrix is done. */
bool matrix_next(const struct hz_config *c, struct matrix_iter *it);
/* How many points the matrix has for every selected folio size. */
u32 matrix_count(const struct hz_config *c);
/* "2M.erms.neighbourhood-last.32M", after @prefix. */
void matrix_name(const struct hz_config *c, u32 folio,
		 const struct matrix_point *p, const char *prefix, char *buf,
		 size_t n);
/* The chunk of point @p in bytes, 0 when its order takes none. */
u64 matrix_chunk(const struct hz_config *c, const struct matrix_point *p);

/* "32M", "4K", "1G" */
const char *size_name(u64 bytes, char *buf, size_t n);

#endif

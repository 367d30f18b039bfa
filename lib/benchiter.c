// SPDX-License-Identifier: GPL-2.0-only
/*
 * The configurations of a folio size, one after another, as the records
 * name and describe them: the matrix's points resolved into what the
 * kernel and the companion run.
 */
#include "lib/benchiter.h"
#include "lib/order.h"
#include "lib/prims.h"
#include "lib/rethunk.h"

bool bench_matrix_next(const struct hz_config *c, u32 folio, const char *prefix,
		       struct matrix_iter *it, struct bench_desc *d, u32 *id)
{
	if (!matrix_next(c, it))
		return false;
	d->at = it->at;
	matrix_resolve(c, &it->at, folio_bytes[folio], &d->plan);
	d->id = ++*id;
	d->preempt = matrix_model_name(&it->at);
	d->linux_offered = it->at.v[AXIS_ORDER] != ORDER_LINUX ? NULL :
			   matrix_linux_offered(&it->at) ? "yes" : "no";
	d->clear = prim_names[it->at.v[AXIS_PRIM]];
	d->rethunk = rethunk_mode_names[it->at.v[AXIS_RETHUNK]];
	d->rethunk_thunk = rethunk_names[matrix_rethunk_kind(c, &it->at)];
	d->order = order_choice_names[it->at.v[AXIS_ORDER]];
	d->chunk = zero_plan_chunk_bytes(&d->plan);
	d->radius = d->plan.radius;
	matrix_name(c, folio, &it->at, prefix, d->name, sizeof(d->name));
	return true;
}

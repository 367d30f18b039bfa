/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_BENCHITER_H
#define LIB_BENCHITER_H

#include "lib/benchrec.h"
#include "lib/matrix.h"
#include "lib/params.h"

/*
 * The next configured point of folio size @folio's matrix: fills @d's
 * id (from *@id), at, clear, order, chunk, radius and name
 * ("PREFIX2M.erms.neighbourhood-last.32M").
 */
bool bench_matrix_next(const struct hz_config *c, u32 folio, const char *prefix,
		       struct matrix_iter *it, struct bench_desc *d, u32 *id);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_TOUCH_H
#define LIB_TOUCH_H

#include "lib/params.h"

/*
 * Where the workload touches: folios in touch= order, each at the page
 * offset= picks.  The kernel and the companion both plan with this, so
 * one seed= gives the same touches on both sides.
 */

/* xorshift64*: small, seeded, the same everywhere. */
u64 bench_random(u64 *state);
/* Folio indices in touch= order (a seeded shuffle for random). */
void touch_permutation(const struct hz_config *c, u32 n, u64 *idx, u64 *rng);
/* The 4K page of a folio that offset= touches. */
u32 touch_page(const struct hz_config *c, u64 folio_bytes, u64 *rng);
/*
 * @addr[k]: the address of the k-th touch of @n folios of @folio_bytes
 * laid out from @base.  One seeded stream: the permutation, then the pages.
 */
void touch_plan(const struct hz_config *c, u32 n, u64 folio_bytes, u64 base,
		u64 *addr);

#endif

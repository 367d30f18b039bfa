// SPDX-License-Identifier: GPL-2.0-only
#include "lib/prims.h"
#include <stddef.h>

#define DESC(id, nm, fn, sm, feat, lx)					\
	[PRIM_##id] = { .name = nm, .simd = sm, .feature = PRIM_FEAT_##feat, \
			.linux_fn = lx },
const struct prim_desc prim_descs[PRIM_COUNT] = { PRIMS(DESC) };

#define NAME(id, nm, fn, sm, feat, lx) [PRIM_##id] = nm,
const char *const prim_names[PRIM_COUNT + 1] = { PRIMS(NAME) };

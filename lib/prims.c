// SPDX-License-Identifier: GPL-2.0-only
#include "lib/prims.h"
#include "lib/string.h"
#include <stddef.h>

#define DESC(id, nm, fn, sm, feat, lx)					\
	[PRIM_##id] = { .name = nm, .simd = sm, .feature = PRIM_FEAT_##feat, \
			.linux_fn = lx },
const struct prim_desc prim_descs[PRIM_COUNT] = { PRIMS(DESC) };

#define NAME(id, nm, fn, sm, feat, lx) [PRIM_##id] = nm,
const char *const prim_names[PRIM_COUNT + 1] = { PRIMS(NAME) };

#ifdef LINUX_TREE_VERSION
#ifndef LINUX_TREE_DESCRIBE
#define LINUX_TREE_DESCRIBE NULL	/* the tree is not a git work tree */
#endif
static const struct linux_tree the_tree = {
	.version = LINUX_TREE_VERSION,
	.describe = LINUX_TREE_DESCRIBE,
	.sha256 = LINUX_TREE_SHA256,
};
const struct linux_tree *const linux_tree = &the_tree;
#else
const struct linux_tree *const linux_tree;
#endif

#define ABI(id, abi) [PRIM_##id] = abi,
static const char *const tree_abis[PRIM_COUNT] = { PRIMS_TREE_ABI(ABI) };

const char *prim_tree_abi(enum prim_id p)
{
	return p < PRIM_COUNT ? tree_abis[p] : NULL;
}

enum prim_id prim_by_name(const char *name)
{
	u32 p;

	for (p = 0; p < PRIM_COUNT; p++)
		if (!strcmp(prim_names[p], name))
			break;
	return p;
}

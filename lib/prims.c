// SPDX-License-Identifier: GPL-2.0-only
#include "lib/prims_tree.h"
#include "lib/string.h"
#include <stddef.h>

#define DESC_AT(at, nm, sm, feat, lx)					\
	[at] = { .name = nm, .simd = sm, .feature = PRIM_FEAT_##feat,	\
		 .linux_fn = lx },
#define DESC(id, nm, fn, sm, feat, lx) DESC_AT(PRIM_##id, nm, sm, feat, lx)
#define TREE_DESC(id, nm, fn, sm, feat, lx) DESC_AT(TREE_AT(id), nm, sm, feat, lx)
const struct prim_desc prim_descs[PRIM_COUNT] = {
	PRIMS(DESC) PRIMS_TREE(TREE_DESC)
};

#define NAME(id, nm, fn, sm, feat, lx) [PRIM_##id] = nm,
#define TREE_NAME(id, nm, fn, sm, feat, lx) [TREE_AT(id)] = nm,
const char *const prim_names[PRIM_COUNT + 1] = {
	PRIMS(NAME) PRIMS_TREE(TREE_NAME)
};

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

#define ABI(id, abi) [TREE_AT(id)] = abi,
static const char *const tree_abis[PRIM_COUNT] = { PRIMS_TREE_ABI(ABI) };

const char *prim_tree_abi(enum prim_id p)
{
	return p < PRIM_COUNT ? tree_abis[p] : NULL;
}

enum prim_id prim_by_name(const char *name)
{
	u32 p;

	for (p = 0; prim_names[p]; p++)
		if (!strcmp(prim_names[p], name))
			return p;
	return PRIM_COUNT;
}

u64 prims_all(void)
{
	u64 mask = 0;

	for (u32 p = 0; prim_names[p]; p++)
		mask |= 1ULL << p;
	return mask;
}

/*
 * make LINUX=DIR: the tree's own routine in place of hugezero's
 * transcription of it -- linux-erms for erms where the tree has one --
 * so that what stands for Linux's primitive (a preset's column, the
 * split's bare row) is the tree's code (docs/linux-tree.md); @p itself
 * where the tree has none, or without a tree.
 */
enum prim_id prim_tree_twin(enum prim_id p)
{
	static const char prefix[] = "linux-";

	if (p >= PRIM_COUNT || prim_tree_abi(p))
		return p;
	for (u32 t = 0; t < PRIM_COUNT; t++)
		if (prim_tree_abi(t) &&
		    !strncmp(prim_names[t], prefix, sizeof(prefix) - 1) &&
		    !strcmp(prim_names[t] + sizeof(prefix) - 1, prim_names[p]))
			return t;
	return p;
}

/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_PRIMS_TREE_H
#define LIB_PRIMS_TREE_H

/*
 * make LINUX=DIR: the rows of the tree's primitives, for the two files
 * that fill the primitives' tables (lib/prims.c, arch/x86_64/clear.c).
 * The Makefile gives BUILD/linux-tree's generated headers (-include) to
 * these and lib/tree.c alone (its TREE_USERS, which tests/test_layering.py
 * holds to the files that read them): every other object is then the
 * same with any tree or none, and a build against another tree compiles
 * only these again.
 *
 * PRIMS_TREE(X) lists X(ID, name, routine, simd, feature, linux routine)
 * and PRIMS_TREE_ABI(X) X(ID, convention), as lib/prims.h's PRIMS();
 * TREE_AT(ID) is ID's slot, from PRIM_TREE_FIRST in the list's order.
 */
#include "lib/prims.h"

#ifndef PRIMS_TREE
#define PRIMS_TREE(X)
#define PRIMS_TREE_ABI(X)
#endif

#define TREE_SLOT_ENUM(id, ...) TREE_SLOT_##id,
enum { PRIMS_TREE(TREE_SLOT_ENUM) TREE_SLOTS };
#undef TREE_SLOT_ENUM
_Static_assert(TREE_SLOTS <= PRIM_TREE_MAX,
	       "a tree of more routines than PRIM_TREE_MAX slots");

#define TREE_AT(id) (PRIM_TREE_FIRST + TREE_SLOT_##id)

#endif

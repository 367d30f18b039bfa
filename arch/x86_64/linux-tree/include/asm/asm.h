/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hugezero's stand-in: exception-table entries emit nothing.  They let
 * the user-copy routines (clear_user_*, rep_stos_alternative) recover
 * from a fault on a user address; make LINUX= leaves those routines out,
 * and the page-clearing ones have none.
 */
#ifndef HZ_TREE_ASM_H
#define HZ_TREE_ASM_H

#include <linux/objtool.h>

#define _ASM_EXTABLE(from, to)
#define _ASM_EXTABLE_UA(from, to)
#define _ASM_EXTABLE_TYPE(from, to, type)
#define _ASM_EXTABLE_TYPE_REG(from, to, type, reg)

#endif

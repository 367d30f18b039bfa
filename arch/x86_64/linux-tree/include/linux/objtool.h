/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hugezero's stand-in: objtool's annotations only tell objtool about the
 * code; no objtool runs here, so they emit nothing.
 */
#ifndef HZ_TREE_OBJTOOL_H
#define HZ_TREE_OBJTOOL_H

#define ANNOTATE_NOENDBR
#define ANNOTATE_RETPOLINE_SAFE
#define ANNOTATE_UNRET_SAFE
#define ANNOTATE_INTRA_FUNCTION_CALL
#define ANNOTATE_NOINSTR_ALLOWED
#define ANNOTATE_IGNORE_ALTERNATIVE
#define ANNOTATE_UNRET_BEGIN
#define ANNOTATE_REACHABLE
#define UNWIND_HINT_EMPTY
#define UNWIND_HINT_END_OF_STACK
#define UNWIND_HINT_FUNC
#define UNWIND_HINT_UNDEFINED
#define STACK_FRAME_NON_STANDARD(func)

#endif

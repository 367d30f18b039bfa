/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_TREE_H
#define LIB_TREE_H

#include "lib/types.h"
#include "lib/zero.h"

/*
 * order=tree: a Linux tree's own huge-page zeroing (folio_zero_user(), or
 * clear_huge_page() before it), taken as text from its mm/memory.c by
 * `make LINUX=DIR` (scripts/linux-tree zero) and compiled over
 * lib/tree_shim.h, the Linux API it calls (docs/linux-tree.md, "The
 * shim").  The tree's code calls cond_resched(), clear_user_highpage()
 * and the rest with none of hugezero's context; the context is the
 * caller's, kept in a slot of the calling task while the tree's entry
 * runs.
 */

/* What a build's tree provides; tree_zero is NULL without one. */
struct tree_zero_desc {
	const char *version;	/* the tree's, as make kernelversion says */
	const char *entry;	/* folio_zero_user, clear_huge_page */
	const char *sha256;	/* of the extracted text (tree_memory.json) */
	/* Calls the entry on the folio of @nr 4K pages at @folio, faulted
	 * at page @fault (the generated glue, BUILD/linux-tree/tree_zero.c). */
	void (*run)(u8 *folio, u32 nr, u32 fault);
};
extern const struct tree_zero_desc *const tree_zero;

/* The caller's context while the tree's entry runs. */
struct tree_ctx {
	const struct zero_ops *ops;
	u8 *folio;
	u32 nr;
	bool preemptible;	/* preempt_model_preemptible() */
	bool stray;		/* a clear outside the folio: refused */
	u32 calls;		/* primitive calls */
	s64 points;		/* cond_resched() calls */
};

/*
 * Where the calling task keeps its context: the kernel's is the running
 * task's (a resched point inside the tree's code may switch to another
 * task that runs it too), the companion's its thread's.  Until one is
 * registered, one slot for all (the host tests: one thread).
 */
void tree_slot_register(struct tree_ctx **(*slot)(void));

/*
 * As folio_zero_counted() with order=tree: the tree's entry on the folio,
 * @preemptible what preempt_model_preemptible() answers it.  Returns the
 * cond_resched() calls it made, or -1 when the build has no tree, for
 * arguments no folio has, or when the tree's code asked to clear outside
 * the folio (that clear is not made).
 */
s64 tree_folio_zero(u8 *folio, u32 nr, u32 fault, bool preemptible,
		    const struct zero_ops *ops, u32 *calls);

/* The shim's calls into hugezero (lib/tree_shim.h). */
void tree_clear(void *addr, unsigned long npages);
int tree_cond_resched(void);
void tree_might_sleep(void);
bool tree_preemptible(void);

/* The user address a folio is taken to be mapped at: 1 TiB, aligned for
 * every folio size, so ALIGN_DOWN(addr_hint, folio_size()) is exact. */
#define TREE_VADDR_BASE (1ULL << 40)

#endif

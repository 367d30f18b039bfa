/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_TREE_SHIM_H
#define LIB_TREE_SHIM_H

/*
 * The Linux API a tree's huge-page zeroing calls, written for hugezero:
 * what BUILD/linux-tree/tree_memory.c (a tree's mm/memory.c, taken as
 * text) is compiled against, and nothing else (docs/linux-tree.md, "The
 * shim").  scripts/linux-tree reads the names this file defines and
 * refuses a tree whose code calls anything more, naming the function,
 * the callee and the tree's file and line; a function is never quietly
 * something else.  The tree's constants (PAGE_SIZE,
 * MAX_ORDER_NR_PAGES, PROCESS_PAGES_NON_PREEMPT_BATCH) are not here:
 * they are the tree's own, from its headers (tree_zero.c).
 *
 * A struct page pointer is its 4K page's address, so page + i,
 * nth_page() and folio_page() are the i-th page of the folio and what
 * clear_user_highpage() clears; a struct folio is where its first page
 * is and how many it has.
 */
#include "lib/tree.h"
#include "lib/types.h"

struct page {
	u8 bytes[4096];
};

struct folio {
	struct page *page;
	unsigned long nr;
};

/* include/linux/range.h */
struct range {
	u64 start;
	u64 end;
};

#define DEFINE_RANGE(_start, _end)					\
	(struct range) { .start = (_start), .end = (_end) }

static inline u64 range_len(const struct range *range)
{
	return range->end - range->start + 1;
}

/* include/linux/mm.h: folio_nr_pages() is unsigned long in 7.x, long
 * before; the code taken only compares and assigns it. */
static inline unsigned long folio_nr_pages(const struct folio *folio)
{
	return folio->nr;
}

static inline unsigned long folio_size(const struct folio *folio)
{
	return folio->nr * sizeof(struct page);
}

#define folio_page(folio, n) ((folio)->page + (n))
#define nth_page(page, n) ((page) + (n))
#define page_address(page) ((void *)(page))

/* include/linux/align.h, minmax.h, array_size.h, compiler.h; Linux's
 * ALIGN_DOWN() keeps x's type where lib/types.h's is u64. */
#undef ALIGN_DOWN
#undef ARRAY_SIZE
#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a) - 1))
#define min(x, y) ({ __auto_type _x = (x); __auto_type _y = (y);	\
		     _x < _y ? _x : _y; })
#define max(x, y) ({ __auto_type _x = (x); __auto_type _y = (y);	\
		     _x > _y ? _x : _y; })
#define min_t(type, x, y) min((type)(x), (type)(y))
#define max_t(type, x, y) max((type)(x), (type)(y))
#define clamp_t(type, val, lo, hi) min_t(type, max_t(type, val, lo), hi)
#define ARRAY_SIZE(arr) (sizeof(arr) / sizeof((arr)[0]))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* include/linux/kernel.h, sched.h, preempt.h: the active model's. */
#define might_sleep() tree_might_sleep()
#define cond_resched() tree_cond_resched()
#define preempt_model_preemptible() tree_preemptible()

/*
 * include/linux/highmem.h, arch/x86/include/asm/page_64.h: the selected
 * primitive, once per page for clear_user_highpage() and clear_page(),
 * once over the range for clear_user_highpages(), clear_user_pages()
 * and clear_pages(), as 7.x's inline clear_pages() is one call.  The
 * user address only tells Linux which cache colour to flush on other
 * architectures; x86 ignores it, and so does this.
 */
static inline void clear_user_highpage(struct page *page, unsigned long vaddr)
{
	(void)vaddr;
	tree_clear(page, 1);
}

static inline void clear_user_highpages(struct page *page, unsigned long vaddr,
					unsigned int npages)
{
	(void)vaddr;
	tree_clear(page, npages);
}

static inline void clear_user_pages(void *addr, unsigned long vaddr,
				    struct page *page, unsigned int npages)
{
	(void)vaddr, (void)page;
	tree_clear(addr, npages);
}

static inline void clear_pages(void *addr, unsigned int npages)
{
	tree_clear(addr, npages);
}

static inline void clear_page(void *addr)
{
	tree_clear(addr, 1);
}

#endif

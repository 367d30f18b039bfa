// SPDX-License-Identifier: GPL-2.0-only
/*
 * Written for hugezero's tests in Linux's style: the shape of a series
 * that moves folio_zero_user() to x86 and keeps __folio_zero_user()
 * here.  Not Linux's code.
 */
#include <linux/mm.h>
#include <linux/highmem.h>

static const char *banner = "folio_zero_user(struct folio *f) { }";

/*
 * Not a definition: void folio_zero_user(struct folio *folio) { }
 */
#if 0
void __folio_zero_user(struct folio *folio, unsigned long addr_hint)
{
	fake_clear(folio);
}
#endif

#ifdef CONFIG_HIGHMEM
static void clear_range(struct page *page, unsigned int nr)
{
	highmem_clear(page, nr);
}
#else
static void clear_range(struct page *page, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i += PROCESS_PAGES_NON_PREEMPT_BATCH) {
		cond_resched();
		clear_user_highpages(page + i, 0,
				     min(nr - i, PROCESS_PAGES_NON_PREEMPT_BATCH));
	}
}
#endif

#define ZERO_TAIL_PAGES	\
	1

void __folio_zero_user(struct folio *folio, unsigned long addr_hint)
{
	unsigned int nr = folio_nr_pages(folio);

	clear_range(folio_page(folio, 0), nr - ZERO_TAIL_PAGES);
	clear_range(folio_page(folio, nr - ZERO_TAIL_PAGES), ZERO_TAIL_PAGES);
}

void __weak folio_zero_user(struct folio *folio, unsigned long addr_hint)
{
	__folio_zero_user(folio, addr_hint);
}

static void unrelated(void)
{
	printk("folio_zero_user(%d)\n", 0);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Written for hugezero's tests in Linux's style: an x86 folio_zero_user()
 * over the generic one.  Not Linux's code.
 */
#include <linux/mm.h>

static bool x86_wants_generic(struct folio *folio)
{
	return folio_nr_pages(folio) < 2;
}

void folio_zero_user(struct folio *folio, unsigned long addr_hint)
{
	if (x86_wants_generic(folio))
		clear_user_highpages(folio_page(folio, 0), addr_hint, 1);
	else
		__folio_zero_user(folio, addr_hint);
}

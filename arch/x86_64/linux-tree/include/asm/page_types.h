/* SPDX-License-Identifier: GPL-2.0-only */
/* hugezero's stand-in: x86's 4K base page. */
#ifndef HZ_TREE_PAGE_TYPES_H
#define HZ_TREE_PAGE_TYPES_H

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1 << PAGE_SHIFT)

#endif

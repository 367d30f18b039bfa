/* SPDX-License-Identifier: GPL-2.0-only */
/* hugezero's stand-in: PAGE_SIZE and PAGE_SHIFT. */
#include <asm/page_types.h>

/* SPDX-License-Identifier: GPL-2.0-only */
/* hugezero's stand-in: SYM_TYPED_FUNC_START is in linux/linkage.h. */
#include <linux/linkage.h>

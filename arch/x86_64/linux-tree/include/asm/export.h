/* SPDX-License-Identifier: GPL-2.0-only */
/* hugezero's stand-in: older trees include the export macros from asm/. */
#include <linux/export.h>

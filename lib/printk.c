// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include "lib/format.h"
#include "lib/printk.h"

static printk_sink sink;

void printk_set_sink(printk_sink s)
{
	sink = s;
}

void printk(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	if (!sink)
		return;
	va_start(ap, fmt);
	n = kvsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1;
	sink(buf, (size_t)n);
}

/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HOSTED_KLINE_H
#define HOSTED_KLINE_H

/* Check @line as the kernel's boot line; print what it runs.  0 or 2. */
int kline_main(const char *line);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HOSTED_ZEROABLE_H
#define HOSTED_ZEROABLE_H

#include <stddef.h>
#include "lib/types.h"

/*
 * Li Zhe's hugetlb series: per node and huge page size a sysfs file
 * zeroable_hugepages; reading it says how many free huge pages could be
 * zeroed now, writing N zeroes N of them in the writer's context.  Paths
 * under $HUGEZERO_HOST_ROOT (default /), so tests run on a fake tree.
 */
#define ZEROABLE_MAX_NODES 64

struct zeroable {
	u32 n;
	char path[ZEROABLE_MAX_NODES][160];
};

/* The files for @huge_bytes pages; false, with @why, when there are none. */
bool zeroable_find(u64 huge_bytes, struct zeroable *z, char *why, size_t n);
/* Ask every node's file for up to @want pages (all it says it can):
 * returns the pages asked for, and the TSC ticks the writes took. */
u64 zeroable_request(const struct zeroable *z, u64 want, u64 *ticks);

#endif

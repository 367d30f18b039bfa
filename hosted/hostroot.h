/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HOSTED_HOSTROOT_H
#define HOSTED_HOSTROOT_H

#include <stdlib.h>

/*
 * Where the companion finds the host's /proc and /sys: $HUGEZERO_HOST_ROOT
 * when set, so tests run it on a fake tree, else "" (the real root).
 * Every reader and writer of host files prefixes its paths with this.
 */
static inline const char *host_root(void)
{
	const char *r = getenv("HUGEZERO_HOST_ROOT");

	return r ? r : "";
}

#endif

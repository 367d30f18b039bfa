/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lib/benchrun.c's ops for host tests that script only the timed pass
 * (test_autogroup.c, test_perfbench.c): filling, the cache, the check and
 * the reset do nothing.
 */
#ifndef TESTS_HOST_FAKE_OPS_H
#define TESTS_HOST_FAKE_OPS_H

#include "lib/benchrun.h"

void fake_nop(void *ctx);
void fake_nop_cache(void *ctx, u32 mode);
void fake_verify(void *ctx, struct bench_pass *p, struct bench_outcome *o);

/* The ops with @timed_fn as their timed part. */
#define FAKE_OPS(timed_fn) {						\
	.fill = fake_nop, .cache = fake_nop_cache, .timed = (timed_fn),	\
	.verify = fake_verify, .reset = fake_nop,			\
}

#endif

// SPDX-License-Identifier: GPL-2.0-only
/* The untimed steps of tests/host/fake_ops.h: nothing to do. */
#include "tests/host/fake_ops.h"

void fake_nop(void *ctx)
{
	(void)ctx;
}

void fake_nop_cache(void *ctx, u32 mode)
{
	(void)ctx, (void)mode;
}

void fake_verify(void *ctx, struct bench_pass *p, struct bench_outcome *o)
{
	(void)ctx, (void)p, (void)o;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * crash=stack: overflow the kernel stack into its guard page, to show
 * that the #DF on its own IST stack reports it instead of triple-faulting.
 * The depth limit is far beyond any stack, so the recursion is unbounded
 * in practice without the compiler seeing an infinite one.
 */
#include "kernel/main.h"

u64 recurse_forever(u64 depth)
{
	volatile u8 pad[256];

	pad[0] = (u8)depth;
	if (depth > (1ULL << 40))
		return pad[0];
	return recurse_forever(depth + 1) + pad[0];
}

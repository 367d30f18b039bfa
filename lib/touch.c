// SPDX-License-Identifier: GPL-2.0-only
#include "lib/touch.h"

u64 bench_random(u64 *state)
{
	u64 x = *state ? *state : 1;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dULL;
}

void touch_permutation(const struct hz_config *c, u32 n, u64 *idx, u64 *rng)
{
	for (u32 k = 0; k < n; k++)
		idx[k] = c->touch == TOUCH_REVERSE ? n - 1 - k : k;
	if (c->touch != TOUCH_RANDOM)
		return;
	for (u32 k = n; k > 1; k--) {	/* Fisher-Yates */
		u32 j = (u32)(bench_random(rng) % k);
		u64 t = idx[k - 1];

		idx[k - 1] = idx[j];
		idx[j] = t;
	}
}

u32 touch_page(const struct hz_config *c, u64 folio_bytes, u64 *rng)
{
	u32 nr = (u32)(folio_bytes / SZ_4K);

	switch (c->offset) {
	case OFFSET_MIDDLE:
		return nr / 2;
	case OFFSET_LAST:
		return nr - 1;
	case OFFSET_RANDOM:
		return (u32)(bench_random(rng) % nr);
	}
	return 0;
}

void touch_plan(const struct hz_config *c, u32 n, u64 folio_bytes, u64 base,
		u64 *addr)
{
	u64 rng = c->seed;

	touch_permutation(c, n, addr, &rng);
	for (u32 k = 0; k < n; k++)
		addr[k] = base + addr[k] * folio_bytes +
			  (u64)touch_page(c, folio_bytes, &rng) * SZ_4K;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CPUs of a set that share one last-level cache (lib/llc.h).
 */
#include "lib/llc.h"

u32 llc_count_order(u32 n)
{
	u32 k = 0;

	while (k < 32 && (1ULL << k) < n)
		k++;
	return k;
}

u32 llc_sharers(const u32 *apic_ids, u32 n, u32 self, u32 sharing)
{
	u32 shift = llc_count_order(sharing), count = 0;
	bool self_seen = false;

	if (!sharing)
		return n ? n : 1;
	for (u32 i = 0; i < n; i++) {
		if (shift < 32 && apic_ids[i] >> shift != self >> shift)
			continue;
		count++;
		self_seen |= apic_ids[i] == self;
	}
	return count + !self_seen;
}

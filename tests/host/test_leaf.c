// SPDX-License-Identifier: GPL-2.0-only
/*
 * The verifier's leaf check (arch/x86_64/paging.h) on synthetic entries:
 * each way a mapping can be wrong is named, and a right one passes.
 */
#include <string.h>
#include "arch/x86_64/paging.h"
#include "tests/host/unit.h"

#define OK_BITS (PTE_P | PTE_U | PTE_W | PTE_NX | PTE_A | PTE_D)

static const char *check(u64 e, int level, enum leaf_size want, u64 pa)
{
	return pt_leaf_mismatch(e, level, want, pa);
}

static bool says(const char *got, const char *what)
{
	return got && strstr(got, what);
}

TEST(leaf_check_names_each_wrong_mapping)
{
	u64 pa2m = 0x40200000ULL, pa4k = 0x1234000ULL, pa1g = 0x80000000ULL;

	EXPECT(!check(pa2m | OK_BITS | PTE_PS, 2, LEAF_2M, pa2m));
	EXPECT(!check(pa4k | OK_BITS, 1, LEAF_4K, pa4k));
	EXPECT(!check(pa1g | OK_BITS | PTE_PS, 3, LEAF_1G, pa1g));
	EXPECT(says(check(0, 2, LEAF_2M, pa2m), "not mapped"));
	EXPECT(says(check(pa2m | OK_BITS | PTE_PS, 2, LEAF_2M, pa2m + SZ_2M),
		    "wrong physical address"));
	EXPECT(says(check(pa4k | OK_BITS, 1, LEAF_2M, pa4k), "wrong size"));
	EXPECT(says(check(pa2m | (OK_BITS & ~PTE_W) | PTE_PS, 2, LEAF_2M, pa2m),
		    "permissions"));
	EXPECT(says(check(pa2m | (OK_BITS & ~PTE_U) | PTE_PS, 2, LEAF_2M, pa2m),
		    "permissions"));
	EXPECT(says(check(pa2m | (OK_BITS & ~PTE_NX) | PTE_PS, 2, LEAF_2M, pa2m),
		    "permissions"));
	EXPECT(says(check(pa2m | OK_BITS | PTE_PS | PTE_PCD, 2, LEAF_2M, pa2m),
		    "cache attribute"));
	EXPECT(says(check(pa2m | OK_BITS | PTE_PS | PTE_PWT, 2, LEAF_2M, pa2m),
		    "cache attribute"));
	/* PAT: bit 12 in a large leaf, bit 7 in a 4K one. */
	EXPECT(says(check(pa2m | OK_BITS | PTE_PS | (1ULL << 12), 2, LEAF_2M,
			  pa2m), "cache attribute"));
	EXPECT(says(check(pa4k | OK_BITS | PTE_PS, 1, LEAF_4K, pa4k),
		    "cache attribute"));
	EXPECT(says(check(pa1g | OK_BITS | PTE_PS | (1ULL << 12), 3, LEAF_1G,
			  pa1g), "cache attribute"));
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every clearing primitive this CPU has, on the host: over many sizes and
 * alignments exactly the range becomes zero and the guard bytes around it
 * keep their pattern.  A primitive the CPU lacks is reported as skipped.
 */
#include <stdlib.h>
#include "arch/x86_64/clear.h"
#include "arch/x86_64/cpuid.h"
#include "lib/string.h"
#include "tests/host/unit.h"

#define GUARD 4096
#define MAXLEN (2u << 20)

static u8 *arena;

static void check_prim(enum prim_id p)
{
	static const u64 sizes[] = { 64, 128, 192, 4096, 8192, 12288, 65536,
				     1u << 20, 2u << 20 };
	static const u64 offsets[] = { 0, 64, 4096 - 64, 4096 };
	char why[160] = "";

	if (!prim_supported(p, why, sizeof(why))) {
		printf("# SKIP %s: %s\n", prim_names[p], why);
		return;
	}
	for (u32 s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		for (u32 o = 0; o < sizeof(offsets) / sizeof(offsets[0]); o++) {
			u64 len = sizes[s], off = GUARD + offsets[o];
			u8 *dst = arena + off;
			u64 bad = ~0ULL;

			memset(arena, 0xa5, GUARD * 2 + MAXLEN + 8192);
			prim_fns[p](dst, len);
			for (u64 i = 0; i < len && bad == ~0ULL; i++)
				if (dst[i])
					bad = i;
			EXPECT(bad == ~0ULL, "%s len %llu off %llu: byte %llu "
			       "not zero", prim_names[p],
			       (unsigned long long)len,
			       (unsigned long long)off, (unsigned long long)bad);
			for (u64 i = 0; i < off; i++)
				if (arena[i] != 0xa5) {
					EXPECT(0, "%s wrote %llu bytes before "
					       "the range", prim_names[p],
					       (unsigned long long)(off - i));
					break;
				}
			for (u64 i = off + len; i < off + len + GUARD; i++)
				if (arena[i] != 0xa5) {
					EXPECT(0, "%s wrote past the range "
					       "(len %llu)", prim_names[p],
					       (unsigned long long)len);
					break;
				}
		}
	}
}

TEST(clear_every_supported_primitive)
{
	cpuid_init();
	arena = aligned_alloc(4096, GUARD * 2 + MAXLEN + 8192);
	for (int p = 0; prim_present(p); p++)
		check_prim((enum prim_id)p);
	free(arena);
}

TEST(clear_support_reasons)
{
	char why[160];

	cpuid_init();
	EXPECT(prim_supported(PRIM_ORIG, why, sizeof(why)));
	EXPECT(prim_supported(PRIM_REP, why, sizeof(why)));
	/* A tree slot this build did not fill is no primitive. */
	EXPECT(!prim_present(PRIM_TREE_FIRST));
	EXPECT(!prim_supported(PRIM_TREE_FIRST, why, sizeof(why)));
	EXPECT(strstr(why, "unknown primitive") != NULL, "%s", why);
	EXPECT_EQ(prim_by_name("linux-erms"), PRIM_COUNT);
	for (int p = 0; prim_present(p); p++) {
		why[0] = '\0';
		if (!prim_supported((enum prim_id)p, why, sizeof(why)))
			EXPECT(strstr(why, "CPUID") != NULL, "%s: reason '%s' "
			       "names no CPUID bit", prim_names[p], why);
	}
}

TEST(fill_movq_writes_the_pattern_and_only_the_range)
{
	u64 *a = aligned_alloc(4096, 3 * 4096);

	for (u32 i = 0; i < 3 * 512; i++)
		a[i] = 7;
	fill_movq(a + 512, 4096, 0xdeadbeefcafef00dULL);
	for (u32 i = 0; i < 3 * 512; i++)
		EXPECT(a[i] == (i >= 512 && i < 1024 ? 0xdeadbeefcafef00dULL : 7),
		       "qword %u is %#llx", i, (unsigned long long)a[i]);
	free(a);
}

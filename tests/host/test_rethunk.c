// SPDX-License-Identifier: GPL-2.0-only
/*
 * rethunk=: Linux's default return thunk for a table of CPUs
 * (lib/rethunk.c), every named CPU of rethunk_assume=, and every thunked
 * copy of every primitive this CPU has (arch/x86_64/clear.asm): it
 * clears, it returns, it counts its returns, and call_depth_return_thunk
 * refills the RSB when the depth runs out.
 */
#include <asm/prctl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "arch/x86_64/clear.h"
#include "arch/x86_64/cpuid.h"
#include "lib/rethunk.h"
#include "tests/host/unit.h"

struct cpu_case {
	struct rethunk_cpu cpu;
	enum rethunk_kind linux_kind, on_kind;
};

#define AMD(fam, mod, no, ukno) { RT_VENDOR_AMD, fam, mod, no, ukno }

static const struct cpu_case cases[] = {
	{ AMD(0x15, 0x02, false, false), RETHUNK_RETBLEED, RETHUNK_RETBLEED },
	{ AMD(0x16, 0x30, false, false), RETHUNK_RETBLEED, RETHUNK_RETBLEED },
	{ AMD(0x17, 0x01, false, false), RETHUNK_SRSO, RETHUNK_SRSO },
	{ AMD(0x17, 0x31, true, false), RETHUNK_RETBLEED, RETHUNK_RETBLEED },
	{ { RT_VENDOR_HYGON, 0x18, 0, false, false }, RETHUNK_SRSO,
	  RETHUNK_SRSO },
	{ AMD(0x19, 0x01, false, false), RETHUNK_SRSO_ALIAS,
	  RETHUNK_SRSO_ALIAS },
	{ AMD(0x19, 0x11, false, false), RETHUNK_SRSO_ALIAS,
	  RETHUNK_SRSO_ALIAS },
	{ AMD(0x19, 0x11, true, false), RETHUNK_NONE, RETHUNK_RETBLEED },
	{ AMD(0x19, 0x11, false, true), RETHUNK_NONE, RETHUNK_RETBLEED },
	{ AMD(0x1a, 0x02, false, true), RETHUNK_NONE, RETHUNK_RETBLEED },
	/* Zen 5 whose hypervisor hides SRSO_USER_KERNEL_NO: safe-ret */
	{ AMD(0x1a, 0x02, false, false), RETHUNK_SRSO, RETHUNK_SRSO },
	{ AMD(0x10, 0x02, false, false), RETHUNK_NONE, RETHUNK_RETBLEED },
	{ { RT_VENDOR_INTEL, 6, 0x6a, false, false }, RETHUNK_NONE,
	  RETHUNK_CALL_DEPTH },
	{ { RT_VENDOR_INTEL, 6, 0x55, false, false }, RETHUNK_NONE,
	  RETHUNK_CALL_DEPTH },
	{ { RT_VENDOR_OTHER, 6, 0x0f, false, false }, RETHUNK_NONE,
	  RETHUNK_CALL_DEPTH },
};

TEST(rethunk_linux_default_by_cpu)
{
	for (u32 i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct cpu_case *k = &cases[i];
		struct rethunk_choice c;

		rethunk_choose(&k->cpu, &c);
		EXPECT(c.linux_kind == k->linux_kind, "case %u (family %#x): "
		       "%s, expected %s", i, k->cpu.family,
		       rethunk_names[c.linux_kind], rethunk_names[k->linux_kind]);
		EXPECT(c.on_kind == k->on_kind, "case %u: on %s, expected %s",
		       i, rethunk_names[c.on_kind], rethunk_names[k->on_kind]);
		EXPECT(c.why && c.why[0], "case %u: no reason", i);
	}
}

TEST(rethunk_vendor_strings)
{
	EXPECT_EQ(rethunk_vendor_of("AuthenticAMD"), RT_VENDOR_AMD);
	EXPECT_EQ(rethunk_vendor_of("HygonGenuine"), RT_VENDOR_HYGON);
	EXPECT_EQ(rethunk_vendor_of("GenuineIntel"), RT_VENDOR_INTEL);
	EXPECT_EQ(rethunk_vendor_of("CentaurHauls"), RT_VENDOR_OTHER);
}

/* rethunk_assume='s CPUs reach every thunk as Linux's default or as on */
TEST(rethunk_assume_reaches_every_thunk)
{
	bool linux_seen[RETHUNK_KIND_COUNT] = { 0 }, on_seen[RETHUNK_KIND_COUNT] = { 0 };
	struct rethunk_cpu cpu;
	u32 n = 0;

	EXPECT(!rethunk_assumed(0, &cpu), "index 0 is this CPU");
	while (rethunk_assume_names[n])
		n++;
	EXPECT(!rethunk_assumed(n, &cpu), "past the names");
	for (u32 i = 1; i < n; i++) {
		struct rethunk_choice c;

		EXPECT(rethunk_assumed(i, &cpu), "%s", rethunk_assume_names[i]);
		rethunk_choose(&cpu, &c);
		linux_seen[c.linux_kind] = true;
		on_seen[c.on_kind] = true;
	}
	for (u32 k = 0; k < RETHUNK_CALL_DEPTH; k++)
		EXPECT(linux_seen[k], "no named CPU defaults to %s",
		       rethunk_names[k]);
	EXPECT(on_seen[RETHUNK_CALL_DEPTH], "no named CPU reaches call depth");
}

/* As the kernel's struct percpu begins (clear.h GS_*) */
static struct {
	void *self;
	u64 call_depth, returns;
} gs;

static bool gs_ready(void)
{
	gs.self = &gs;
	gs.call_depth = CALL_DEPTH_RESET;
	return syscall(SYS_arch_prctl, ARCH_SET_GS, (unsigned long)&gs) == 0;
}

static bool zero(const u8 *p, u64 n)
{
	for (u64 i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static void check_copy(enum prim_id p, u32 kind, bool count, u8 *buf)
{
	char why[160] = "";
	prim_fn fn = prim_thunked(p, kind, count, why, sizeof(why));

	EXPECT(fn != NULL, "%s via %s: %s", prim_names[p], rethunk_names[kind],
	       why);
	if (!fn)
		return;
	memset(buf, 0x5a, 4 * 4096);
	(void)rethunk_returns_take();
	for (u32 i = 0; i < 4; i++)
		fn(buf + i * 4096, 4096);
	EXPECT(zero(buf, 4 * 4096), "%s via %s left a byte",
	       prim_names[p], rethunk_names[kind]);
	EXPECT_EQ(rethunk_returns_take(), count && kind ? 4 : 0);
}

TEST(rethunk_every_copy_clears_and_counts)
{
	u8 *buf = aligned_alloc(4096, 4 * 4096);
	char why[160];

	cpuid_init();
	if (!gs_ready()) {
		printf("# SKIP rethunk copies: arch_prctl(ARCH_SET_GS) refused\n");
		free(buf);
		return;
	}
	for (u32 p = 0; prim_present(p); p++) {
		if (!prim_supported(p, why, sizeof(why)))
			continue;
		for (u32 k = 0; k < RETHUNK_KIND_COUNT; k++) {
			check_copy(p, k, false, buf);
			check_copy(p, k, true, buf);
		}
	}
	free(buf);
}

/* A return with no call left (depth 0) refills the RSB and credits the
 * depth, as Linux's; a balanced call and return does not. */
TEST(rethunk_call_depth_refills_when_out)
{
	u8 *buf = aligned_alloc(4096, 4096);
	prim_fn fn;

	cpuid_init();
	fn = prim_thunked(PRIM_REP, RETHUNK_CALL_DEPTH, true, NULL, 0);
	if (!gs_ready() || !fn) {
		printf("# SKIP call depth: no GS base or no copy\n");
		free(buf);
		return;
	}
	gs.call_depth = 0;
	fn(buf, 4096);
	EXPECT_EQ(gs.call_depth, ~0ULL);
	gs.call_depth = CALL_DEPTH_RESET;
	fn(buf, 4096);
	EXPECT(gs.call_depth != 0 && gs.call_depth != ~0ULL,
	       "depth %#llx", (unsigned long long)gs.call_depth);
	EXPECT_EQ(rethunk_returns_take(), 2);
	free(buf);
}

TEST(rethunk_refuses_unknown)
{
	char why[160] = "";

	EXPECT(!prim_thunked(PRIM_COUNT, RETHUNK_SRSO, false, why, sizeof(why)));
	EXPECT(why[0]);
	EXPECT(!prim_thunked(PRIM_REP, RETHUNK_KIND_COUNT, false, NULL, 0));
	EXPECT(prim_thunked(PRIM_REP, RETHUNK_NONE, true, NULL, 0) ==
	       prim_fns[PRIM_REP]);
}

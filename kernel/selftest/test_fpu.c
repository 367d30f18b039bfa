// SPDX-License-Identifier: GPL-2.0-only
/*
 * Self-tests: the extended-state save and restore that kernel SIMD will
 * run between (kernel_fpu_begin()/end()): what was saved comes back, in
 * XMM and in the upper halves of YMM, and the pair's cost is noted.
 */
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/fpu.h"
#include "arch/x86_64/simd.h"
#include "arch/x86_64/tsc.h"
#include "kernel/selftest/selftest.h"
#include "lib/stats.h"
#include "lib/string.h"

static u8 area[8192] __aligned(FPU_ALIGN);

static void set_xmm0(u64 v)
{
	u64 q[2] = { v, ~v };

	__asm__ volatile("movdqu (%0), %%xmm0" : : "r"(q) : "memory");
}

static u64 get_xmm0(void)
{
	u64 q[2];

	__asm__ volatile("movdqu %%xmm0, (%0)" : : "r"(q) : "memory");
	return q[0] ^ ~q[1] ? ~0ULL : q[0];
}

static void set_ymm1_high(u64 v)
{
	u64 q[4] = { 0, 0, v, ~v };

	__asm__ volatile("vmovdqu (%0), %%ymm1" : : "r"(q) : "memory");
}

static u64 get_ymm1_high(void)
{
	u64 q[4];

	__asm__ volatile("vmovdqu %%ymm1, (%0)" : : "r"(q) : "memory");
	return q[2] ^ ~q[3] ? ~0ULL : q[2];
}

static bool ready(struct tctx *t)
{
	if (fpu_area_size() == 0) {
		skip(t, "no SSE: nothing to save");
		return false;
	}
	if (!check(t, fpu_area_size() <= sizeof(area), "area of %u bytes "
		   "exceeds the test's", fpu_area_size()))
		return false;
	memset(area, 0, sizeof(area));
	return true;
}

static void xmm_round_trip(struct tctx *t)
{
	if (!ready(t))
		return;
	set_xmm0(0x1122334455667788ULL);
	fpu_save(area);
	set_xmm0(0xdeadULL);
	fpu_restore(area);
	check(t, get_xmm0() == 0x1122334455667788ULL, "xmm0 %#llx after the "
	      "restore (%s)", (unsigned long long)get_xmm0(),
	      fpu_insn_names[fpu_current()]);
}

static void ymm_round_trip(struct tctx *t)
{
	if (!simd.avx) {
		skip(t, "no AVX state in XCR0");
		return;
	}
	if (!ready(t))
		return;
	set_ymm1_high(0x0badc0ffee0ddf00ULL);
	fpu_save(area);
	set_ymm1_high(7);
	fpu_restore(area);
	check(t, get_ymm1_high() == 0x0badc0ffee0ddf00ULL, "ymm1[255:128] "
	      "%#llx after the restore", (unsigned long long)get_ymm1_high());
}

/* Not a speed assertion: the cost is printed for the record. */
static void pair_cost(struct tctx *t)
{
	static u64 d[256];

	if (!ready(t))
		return;
	for (u32 i = 0; i < ARRAY_SIZE(d); i++) {
		u64 a = tsc_begin();

		fpu_save(area);
		fpu_restore(area);
		d[i] = tsc_end() - a;
	}
	note(t, "%s + restore of %u bytes: median %llu TSC ticks",
	     fpu_insn_names[fpu_current()], fpu_area_size(),
	     (unsigned long long)median_u64(d, ARRAY_SIZE(d)));
}

SUITE(suite_fpu, "fpu",
	{ "xmm_round_trip", xmm_round_trip },
	{ "ymm_round_trip", ymm_round_trip },
	{ "save_restore_cost", pair_cost },
);

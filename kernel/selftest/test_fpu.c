// SPDX-License-Identifier: GPL-2.0-only
/*
 * Self-tests: the extended-state save and restore that kernel SIMD runs
 * between: what was saved comes back, in XMM and in the upper halves of
 * YMM, and the pair's cost is noted.  Then kernel_fpu_begin() as Linux
 * pays it (kernel/sched/fpu.h): the user's registers saved once per
 * fault however many SIMD calls clear the folio, loaded on the way back
 * to the workload at CPL 3 and at CPL 0; a switch away saves them only
 * if no kernel_fpu_begin() did, and the return loads them only if the
 * CPU no longer holds them.  The user's registers are an XMM value and
 * a rounding mode in MXCSR that every kernel_fpu_begin() resets: the
 * primitives keep XMM0 themselves, so MXCSR is what a missed load shows.
 */
#include "arch/x86_64/cpuid.h"
#include "arch/x86_64/fpu.h"
#include "arch/x86_64/simd.h"
#include "arch/x86_64/tsc.h"
#include "arch/x86_64/user.h"
#include "kernel/bench/fault.h"
#include "kernel/bench/workload.h"
#include "kernel/mm/memory.h"
#include "kernel/sched/fpu.h"
#include "kernel/selftest/test_sched.h"
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

/* The user's registers: xmm0 and MXCSR rounding toward zero. */
#define USER_XMM0	0x5eed5eed12345678ULL
#define USER_MXCSR	(MXCSR_DEFAULT | 0x6000)

static void set_user_regs(void)
{
	set_xmm0(USER_XMM0);
	fpu_ldmxcsr(USER_MXCSR);
}

static bool user_regs_back(struct tctx *t, const char *when)
{
	u32 mxcsr = fpu_stmxcsr();
	u64 x = get_xmm0();

	fpu_ldmxcsr(MXCSR_DEFAULT);
	return check(t, mxcsr == USER_MXCSR, "%s: MXCSR %#x, the user's "
		     "was %#x", when, mxcsr, USER_MXCSR) &&
	       check(t, x == USER_XMM0, "%s: xmm0 %#llx, the user's was "
		     "%#llx", when, (unsigned long long)x, USER_XMM0);
}

/* Saves and loads of user registers on this CPU since @s0, @r0. */
static bool counts_are(struct tctx *t, u64 s0, u64 r0, u64 saves,
		       u64 restores)
{
	const struct sched_stats *st = sched_stats(cpu());

	return check(t, st->fpu_saves - s0 == saves, "%llu saves, expected "
		     "%llu", (unsigned long long)(st->fpu_saves - s0),
		     (unsigned long long)saves) &&
	       check(t, st->fpu_restores - r0 == restores, "%llu restores, "
		     "expected %llu", (unsigned long long)(st->fpu_restores - r0),
		     (unsigned long long)restores);
}

#define FAULTS 2

struct simd_run {
	struct workload wl;
	struct folio slots[FAULTS];
	struct pool pool;
	struct fault_ctx fc;
	u64 ticks[FAULTS], page[FAULTS];
};

/* The fault path as the benchmark arms it under a model: SIMD, one call
 * per 4K page (converging-page over a 2M folio: 512 calls a fault). */
static void arm_simd(struct simd_run *s)
{
	u64 va = REGION_VA(FOLIO_2M);

	memset(&s->fc, 0, sizeof(s->fc));
	s->fc.pml4 = s->wl.pml4;
	s->fc.region = va;
	s->fc.region_end = va + FAULTS * SZ_2M;
	s->fc.leaf = LEAF_2M;
	s->fc.pool = &s->pool;
	s->fc.prim = prim_fns[PRIM_MOVNTDQ];
	s->fc.plan = (struct zero_plan){ ORDER_CONVERGING, 0, 0, false };
	s->fc.pte_linux = true;
	s->fc.wrong_pa_fault = ~0u;
	s->fc.max = FAULTS;
	s->fc.clear_ticks = s->ticks;
	s->fc.fault_page = s->page;
	s->fc.model_on = true;
	s->fc.simd = true;
	s->fc.current = ~0ULL;
	for (u32 k = 0; k < FAULTS; k++)
		s->wl.addrs[k] = va + k * SZ_2M + 5 * SZ_4K;
	s->wl.args->count = FAULTS;
	s->wl.args->folio_bytes = SZ_2M;
	s->wl.args->access = ACCESS_NONE;
	s->wl.args->use_rdtscp = cpu_info.has_rdtscp;
}

static void one_save_per_fault(struct tctx *t, bool ring3)
{
	static struct simd_run s;
	const struct sched_stats *st;
	char why[96];
	u64 s0, r0;

	if (!ready(t))
		return;
	memset(&s, 0, sizeof(s));
	if (!prim_supported(PRIM_MOVNTDQ, why, sizeof(why))) {
		skip(t, "movntdq: %s", why);
		return;
	}
	if (!workload_create(&s.wl, WL_MAX_FAULTS, FRAME_ANY_NODE) ||
	    pool_create(&s.pool, s.slots, SZ_2M, FAULTS) != FAULTS) {
		skip(t, "no memory for a workload address space and %u 2M "
		     "folios", FAULTS);
		goto out;
	}
	if (!sched_up(t, PREEMPT_MODEL_FULL))
		goto out;
	user_init();
	fault_init();
	arm_simd(&s);
	st = sched_stats(cpu());
	s0 = st->fpu_saves;
	r0 = st->fpu_restores;
	workload_enter_space(&s.wl);
	fault_arm(cpu(), &s.fc);
	fpu_user_attach(area);
	set_user_regs();
	workload_run(&s.wl, ring3, true);
	user_regs_back(t, ring3 ? "back from ring 3" : "back from CPL 0");
	fpu_user_detach();
	fault_disarm(cpu());
	for (u32 k = 0; k < s.fc.nfaults; k++)
		pt_unmap(s.wl.pml4, s.fc.region + k * SZ_2M, LEAF_2M, NULL);
	workload_leave_space();
	if (check(t, s.fc.nfaults == FAULTS, "%u faults, expected %u",
		  s.fc.nfaults, FAULTS))
		counts_are(t, s0, r0, FAULTS, FAULTS);
	sched_down(t);
out:
	pool_destroy(&s.pool);
	workload_destroy(&s.wl);
}

static void one_save_per_fault_ring3(struct tctx *t)
{
	one_save_per_fault(t, true);
}

static void one_save_per_fault_cpl0(struct tctx *t)
{
	one_save_per_fault(t, false);
}

/* A kernel task's SIMD: nothing of its own to save; it leaves other
 * values in both registers. */
static void kthread_simd(void *arg)
{
	(void)arg;
	kernel_fpu_begin();
	set_xmm0(0xdeadULL);
	kernel_fpu_end();
}

static void kthread_no_simd(void *arg)
{
	(void)arg;
}

/*
 * A switch away from the task: @begun, a kernel_fpu_begin() in this
 * entry has already saved the user's registers (switch_fpu() saves
 * nothing more); else the switch saves them.  The other task uses kernel
 * SIMD (@simd) or not: the return to user code loads the registers only
 * if it did.
 */
static void switch_case(struct tctx *t, bool begun, bool simd)
{
	u64 s0, r0;

	if (!ready(t) || !sched_up(t, PREEMPT_MODEL_NONE))
		return;
	s0 = sched_stats(cpu())->fpu_saves;
	r0 = sched_stats(cpu())->fpu_restores;
	fpu_user_attach(area);
	set_user_regs();
	if (begun) {
		kernel_fpu_begin();
		kernel_fpu_end();
	}
	{
		struct task *k = spawn(t, "kfpu", simd ? kthread_simd :
				       kthread_no_simd, NULL, PRIO_WORKLOAD,
				       false);

		run_tasks(&k, 1);
	}
	check(t, current_task()->need_fpu_load, "after the switch the "
	      "registers are not marked saved (TIF_NEED_FPU_LOAD)");
	switch_fpu_return();
	user_regs_back(t, "on the way back to user code");
	counts_are(t, s0, r0, 1, begun || simd);
	fpu_user_detach();
	sched_down(t);
}

static void switch_after_begin(struct tctx *t)
{
	switch_case(t, true, true);
}

static void switch_saves_live(struct tctx *t)
{
	switch_case(t, false, false);
}

static void switch_saves_then_simd(struct tctx *t)
{
	switch_case(t, false, true);
}

SUITE(suite_fpu, "fpu",
	{ "xmm_round_trip", xmm_round_trip },
	{ "ymm_round_trip", ymm_round_trip },
	{ "save_restore_cost", pair_cost },
	{ "one_save_per_fault_ring3", one_save_per_fault_ring3 },
	{ "one_save_per_fault_cpl0", one_save_per_fault_cpl0 },
	{ "switch_after_begin_saves_nothing_more", switch_after_begin },
	{ "switch_saves_live_registers_keeps_them", switch_saves_live },
	{ "switch_saves_then_kernel_simd_reloads", switch_saves_then_simd },
);

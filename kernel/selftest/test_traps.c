// SPDX-License-Identifier: GPL-2.0-only
/*
 * Self-tests: exceptions raised on purpose are caught, reported with the
 * right vector, error code and CR2, and the kernel carries on.
 */
#include "arch/x86_64/traps.h"
#include "kernel/selftest/selftest.h"

static void raise_pf(void *arg)
{
	(void)*(volatile u64 *)arg;
}

static void raise_ud(void *arg)
{
	(void)arg;
	__asm__ volatile("ud2");
}

static void raise_gp(void *arg)
{
	(void)arg;
	(void)*(volatile u64 *)0x8000000000000000ULL;	/* non-canonical */
}

static void raise_de(void *arg)
{
	u32 *zero = arg;
	u32 q;

	__asm__ volatile("divl %1" : "=a"(q) : "r"(*zero), "a"(1), "d"(0));
}

static void raise_bp(void *arg)
{
	(void)arg;
	__asm__ volatile("int3");
}

static void expect(struct tctx *t, void (*fn)(void *), void *arg, u64 vector)
{
	struct trap_info ti;
	u64 r = trap_try(fn, arg, &ti);

	check(t, r == vector + 1, "expected %s, got %s%llu",
	      trap_name(vector), r ? "vector " : "no exception ",
	      (unsigned long long)(r ? r - 1 : 0));
	check(t, ti.vector == vector, "info vector %llu",
	      (unsigned long long)ti.vector);
}

static void pf_recovery(struct tctx *t)
{
	struct trap_info ti;
	u64 addr = 0x0000200000001238ULL;

	expect(t, raise_pf, (void *)addr, X86_PF);
	trap_try(raise_pf, (void *)addr, &ti);
	check(t, ti.cr2 == addr, "CR2 %#llx, expected %#llx",
	      (unsigned long long)ti.cr2, (unsigned long long)addr);
	check(t, !(ti.error & (PF_ERR_P | PF_ERR_W | PF_ERR_U)),
	      "error code %#llx for a kernel read of a not-present page",
	      (unsigned long long)ti.error);
}

static void ud_recovery(struct tctx *t)
{
	expect(t, raise_ud, NULL, X86_UD);
}

static void gp_recovery(struct tctx *t)
{
	expect(t, raise_gp, NULL, X86_GP);
}

static void de_recovery(struct tctx *t)
{
	u32 zero = 0;

	expect(t, raise_de, &zero, X86_DE);
}

static void bp_recovery(struct tctx *t)
{
	expect(t, raise_bp, NULL, X86_BP);
}

static void no_exception(struct tctx *t)
{
	u64 target = 0, *p = &target;
	struct trap_info ti;

	check(t, trap_try(raise_pf, p, &ti) == 0, "a valid read faulted");
	/* After several recoveries the kernel stack must be where it was. */
	for (int i = 0; i < 100; i++)
		trap_try(raise_ud, NULL, &ti);
	check(t, trap_try(raise_pf, p, &ti) == 0, "valid read faulted after "
	      "100 recoveries");
}

SUITE(suite_traps, "traps",
	{ "pf_recovery", pf_recovery },
	{ "ud_recovery", ud_recovery },
	{ "gp_recovery", gp_recovery },
	{ "de_recovery", de_recovery },
	{ "bp_recovery", bp_recovery },
	{ "no_exception", no_exception },
);

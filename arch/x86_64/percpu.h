/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_PERCPU_H
#define ARCH_PERCPU_H

#include "lib/types.h"
#include "arch/x86_64/traps.h"
#include "lib/pmu.h"
#include "arch/x86_64/clear.h"	/* CALL_DEPTH_RESET */

#define MAX_CPUS 512	/* two sockets of 192-core Genoa are 384 */
#define KSTACK_SIZE (64 * KiB)
#define ISTACK_SIZE (16 * KiB)
#define GUARD_SIZE SZ_4K

/* 64-bit TSS; the CPU reads rsp0 on a ring 3 -> 0 transition, ist[] by vector. */
struct tss {
	u32 reserved0;
	u64 rsp0, rsp1, rsp2;
	u64 reserved1;
	u64 ist[7];
	u64 reserved2;
	u16 reserved3;
	u16 iomap_base;
} __packed;

/*
 * Stacks of one CPU, each below an unmapped guard page, so an overflow is
 * a #PF (or a #DF on its own stack) rather than silent corruption.
 * paging.c leaves the guard pages out of the kernel mapping.
 */
struct cpu_stacks {
	u8 guard0[GUARD_SIZE];
	u8 kernel[KSTACK_SIZE];
	u8 guard1[GUARD_SIZE];
	u8 df[ISTACK_SIZE];
	u8 guard2[GUARD_SIZE];
	u8 nmi[ISTACK_SIZE];
	u8 guard3[GUARD_SIZE];
	u8 mc[ISTACK_SIZE];
} __aligned(4096);

enum { IST_DF = 1, IST_NMI = 2, IST_MC = 3 };

/*
 * Per-CPU state of the architecture, reached through GS base: what a CPU
 * needs to take traps and enter user mode.  Bringing up more CPUs adds
 * instances, not locks.  kernel/ keeps its own per-CPU state (the
 * benchmark's, the scheduler's) indexed by @cpu.
 */
struct percpu {
	struct percpu *self;		/* %gs:0 */
	/* %gs:8: call_depth_return_thunk's depth (Linux's
	 * __x86_call_depth), %gs:16: rethunk_count='s returns (clear.h) */
	u64 call_depth;
	u64 rethunk_returns;
	u32 cpu;			/* logical number, BSP = 0 */
	u32 apic_id;
	struct cpu_stacks *stacks;
	struct trap_jmp *trap_jmp;	/* armed by trap_try() */
	u32 in_fatal;
	u64 user_saved_rsp;		/* user_run(): where int 0x81 returns */
	u64 gdt[8];
	struct tss tss;
	bool pmu_caps_valid;		/* pmu_caps_read(): probed once */
	struct pmu_caps pmu_caps;
	char pmu_why[64];		/* pmu_caps.none, when it names the vendor */
} __aligned(64);

extern struct percpu percpu_bsp;
extern struct cpu_stacks bsp_stacks;

static inline struct percpu *this_cpu(void)
{
	struct percpu *p;

	__asm__ volatile("mov %%gs:0, %0" : "=r"(p));
	return p;
}

/* GDT selectors; user segments in the order SYSRET expects. */
#define SEL_KCODE	0x08
#define SEL_KDATA	0x10
#define SEL_UCODE32	0x1b
#define SEL_UDATA	0x23
#define SEL_UCODE	0x2b
#define SEL_TSS		0x30

void percpu_init_bsp(void);
/* On an AP, @pc's cpu, apic_id and stacks filled in by whoever started it. */
void percpu_init_ap(struct percpu *pc);

#endif

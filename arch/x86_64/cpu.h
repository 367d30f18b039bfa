/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Thin wrappers around single x86-64 instructions.  Everything that needs
 * more than one instruction lives in a .c file of its own.
 */
#ifndef ARCH_CPU_H
#define ARCH_CPU_H

#include "lib/types.h"

static inline void outb(u16 port, u8 v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline void outw(u16 port, u16 v)
{
	__asm__ volatile("outw %0, %1" : : "a"(v), "Nd"(port));
}

static inline void outl(u16 port, u32 v)
{
	__asm__ volatile("outl %0, %1" : : "a"(v), "Nd"(port));
}

static inline u8 inb(u16 port)
{
	u8 v;

	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline u32 inl(u16 port)
{
	u32 v;

	__asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline u64 rdmsr(u32 msr)
{
	u32 lo, hi;

	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((u64)hi << 32) | lo;
}

static inline void wrmsr(u32 msr, u64 v)
{
	__asm__ volatile("wrmsr" : : "c"(msr), "a"((u32)v), "d"((u32)(v >> 32)));
}

struct cpuid_regs {
	u32 eax, ebx, ecx, edx;
};

static inline struct cpuid_regs cpuid(u32 leaf, u32 sub)
{
	struct cpuid_regs r;

	__asm__ volatile("cpuid"
			 : "=a"(r.eax), "=b"(r.ebx), "=c"(r.ecx), "=d"(r.edx)
			 : "a"(leaf), "c"(sub));
	return r;
}

#define DEFINE_CR(n)							\
static inline u64 read_cr##n(void)					\
{									\
	u64 v;								\
	__asm__ volatile("mov %%cr" #n ", %0" : "=r"(v));		\
	return v;							\
}									\
static inline void write_cr##n(u64 v)					\
{									\
	__asm__ volatile("mov %0, %%cr" #n : : "r"(v) : "memory");	\
}
DEFINE_CR(0)
DEFINE_CR(2)
DEFINE_CR(3)
DEFINE_CR(4)
#undef DEFINE_CR

static inline u64 xgetbv(u32 idx)
{
	u32 lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(idx));
	return ((u64)hi << 32) | lo;
}

static inline void xsetbv(u32 idx, u64 v)
{
	__asm__ volatile("xsetbv" : : "c"(idx), "a"((u32)v), "d"((u32)(v >> 32)));
}

static inline void invlpg(u64 va)
{
	__asm__ volatile("invlpg (%0)" : : "r"(va) : "memory");
}

static inline void cpu_relax(void)
{
	__asm__ volatile("pause" ::: "memory");
}

static inline void irq_disable(void)
{
	__asm__ volatile("cli" ::: "memory");
}

static inline void irq_enable(void)
{
	__asm__ volatile("sti" ::: "memory");
}

static inline void halt(void)
{
	__asm__ volatile("hlt" ::: "memory");
}

static inline u64 read_rflags(void)
{
	u64 f;

	__asm__ volatile("pushfq; popq %0" : "=r"(f));
	return f;
}

static inline u64 read_rbp(void)
{
	u64 v;

	__asm__ volatile("mov %%rbp, %0" : "=r"(v));
	return v;
}

static inline void barrier(void)
{
	__asm__ volatile("" ::: "memory");
}

#define RFLAGS_IF	(1ULL << 9)
#define CR0_PE		(1ULL << 0)
#define CR0_MP		(1ULL << 1)
#define CR0_EM		(1ULL << 2)
#define CR0_TS		(1ULL << 3)
#define CR0_NE		(1ULL << 5)
#define CR0_WP		(1ULL << 16)
#define CR0_PG		(1ULL << 31)
#define CR4_PAE		(1ULL << 5)
#define CR4_PGE		(1ULL << 7)
#define CR4_OSFXSR	(1ULL << 9)
#define CR4_OSXMMEXCPT	(1ULL << 10)
#define CR4_OSXSAVE	(1ULL << 18)
#define CR4_SMEP	(1ULL << 20)
#define CR4_SMAP	(1ULL << 21)
#define MSR_EFER	0xc0000080
#define EFER_NXE	(1ULL << 11)
#define MSR_GS_BASE	0xc0000101
#define MSR_KERNEL_GS_BASE 0xc0000102

#endif

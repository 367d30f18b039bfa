// SPDX-License-Identifier: GPL-2.0-only
/*
 * CPU identification and feature flags.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/cpuid.h"
#include "lib/format.h"
#include "lib/string.h"

struct cpu_info cpu_info;

struct cpuid_regs cpuid_checked(u32 leaf, u32 sub)
{
	struct cpuid_regs zero = { 0, 0, 0, 0 };
	u32 max = leaf >= 0x80000000 ? cpu_info.max_ext_leaf : cpu_info.max_leaf;

	if (leaf > max)
		return zero;
	return cpuid(leaf, sub);
}

static void copy_regs(char *dst, u32 a, u32 b, u32 c)
{
	memcpy(dst, &a, 4);
	memcpy(dst + 4, &b, 4);
	memcpy(dst + 8, &c, 4);
	dst[12] = '\0';
}

static void read_brand(void)
{
	char *p = cpu_info.brand;

	if (cpu_info.max_ext_leaf < 0x80000004) {
		strlcpy(p, "unknown", sizeof(cpu_info.brand));
		return;
	}
	for (u32 l = 0x80000002; l <= 0x80000004; l++) {
		struct cpuid_regs r = cpuid(l, 0);

		memcpy(p, &r, 16);
		p += 16;
	}
	cpu_info.brand[48] = '\0';
	/* Brand strings are often padded with leading spaces. */
	p = cpu_info.brand;
	while (*p == ' ')
		p++;
	memmove(cpu_info.brand, p, strlen(p) + 1);
}

static void read_signature(void)
{
	struct cpuid_regs r = cpuid(1, 0);
	u32 fam = (r.eax >> 8) & 0xf, model = (r.eax >> 4) & 0xf;

	cpu_info.signature = r.eax;
	if (fam == 0xf)
		fam += (r.eax >> 20) & 0xff;
	if (fam == 0x6 || fam >= 0xf)
		model |= ((r.eax >> 16) & 0xf) << 4;
	cpu_info.family = fam;
	cpu_info.model = model;
	cpu_info.stepping = r.eax & 0xf;
	cpu_info.has_tsc = r.edx & (1u << 4);
	cpu_info.has_apic = r.edx & (1u << 9);
	cpu_info.has_pge = r.edx & (1u << 13);
	cpu_info.has_sse2 = r.edx & (1u << 26);
	cpu_info.has_xsave = r.ecx & (1u << 26);
	cpu_info.has_avx = r.ecx & (1u << 28);
	cpu_info.has_x2apic = r.ecx & (1u << 21);
	cpu_info.has_tsc_deadline = r.ecx & (1u << 24);
	cpu_info.has_hypervisor = r.ecx & (1u << 31);
}

/* Deterministic cache parameters: leaf 4 (Intel) or 8000001Dh (AMD). */
static bool caches_from(u32 leaf)
{
	bool any = false;

	for (u32 i = 0; i < 16; i++) {
		struct cpuid_regs r = cpuid_checked(leaf, i);
		u32 type = r.eax & 0x1f, level = (r.eax >> 5) & 7;
		u64 size = (u64)((r.ebx >> 22) + 1) * (((r.ebx >> 12) & 0x3ff) + 1) *
			   ((r.ebx & 0xfff) + 1) * ((u64)r.ecx + 1);

		if (type == 0)
			break;
		any = true;
		if (level == 1 && type == 1)
			cpu_info.l1d = size;
		else if (level == 2 && type != 2)
			cpu_info.l2 = size;
		else if (level == 3 && type != 2) {
			cpu_info.l3 = size;
			/* EAX[25:14]: logical processors sharing it, less 1 */
			cpu_info.l3_sharing = ((r.eax >> 14) & 0xfff) + 1;
		}
	}
	return any;
}

static void read_caches(void)
{
	bool amd = strcmp(cpu_info.vendor, "AuthenticAMD") == 0 ||
		   strcmp(cpu_info.vendor, "HygonGenuine") == 0;
	struct cpuid_regs r;

	cpu_info.cache_line = ((cpuid(1, 0).ebx >> 8) & 0xff) * 8;
	if (amd && (cpuid_checked(0x80000001, 0).ecx & (1u << 22)) &&
	    caches_from(0x8000001d))
		return;
	if (!amd && caches_from(4))
		return;
	/* AMD's legacy leaves. */
	r = cpuid_checked(0x80000005, 0);
	cpu_info.l1d = (u64)(r.ecx >> 24) * KiB;
	r = cpuid_checked(0x80000006, 0);
	cpu_info.l2 = (u64)(r.ecx >> 16) * KiB;
	cpu_info.l3 = (u64)(r.edx >> 18) * 512 * KiB;
}

void cpuid_init(void)
{
	struct cpuid_regs r = cpuid(0, 0);

	cpu_info.max_leaf = r.eax;
	copy_regs(cpu_info.vendor, r.ebx, r.edx, r.ecx);
	cpu_info.max_ext_leaf = cpuid(0x80000000, 0).eax;
	if (cpu_info.max_ext_leaf < 0x80000000)
		cpu_info.max_ext_leaf = 0;
	read_signature();
	read_brand();

	r = cpuid_checked(7, 0);
	cpu_info.has_avx2 = r.ebx & (1u << 5);
	cpu_info.has_erms = r.ebx & (1u << 9);
	cpu_info.has_avx512f = r.ebx & (1u << 16);
	cpu_info.has_fsrm = r.edx & (1u << 4);
	cpu_info.has_clflushopt = r.ebx & (1u << 23);

	r = cpuid_checked(0x80000001, 0);
	cpu_info.has_nx = r.edx & (1u << 20);
	cpu_info.has_pdpe1gb = r.edx & (1u << 26);
	cpu_info.has_rdtscp = r.edx & (1u << 27);
	cpu_info.has_invariant_tsc = cpuid_checked(0x80000007, 0).edx & (1u << 8);
	cpu_info.has_clzero = cpuid_checked(0x80000008, 0).ebx & 1u;
	r = cpuid_checked(0x80000008, 0);
	cpu_info.phys_bits = r.eax ? (r.eax & 0xff) : 36;
	cpu_info.virt_bits = r.eax ? ((r.eax >> 8) & 0xff) : 48;

	cpu_info.hypervisor[0] = '\0';
	if (cpu_info.has_hypervisor) {
		r = cpuid(0x40000000, 0);
		copy_regs(cpu_info.hypervisor, r.ebx, r.ecx, r.edx);
	}
	cpu_info.microcode = ~0ULL;
	read_caches();
}

u64 cpu_xcr0(void)
{
	u32 lo, hi;

	/* XGETBV faults unless the OS has set CR4.OSXSAVE (CPUID 1:ECX[27]). */
	if (!(cpuid(1, 0).ecx & (1u << 27)))
		return 0;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((u64)hi << 32) | lo;
}

void cpuid_features(char *buf, size_t n)
{
	const struct cpu_info *c = &cpu_info;
	const struct { bool on; const char *name; } f[] = {
		{ c->has_pdpe1gb, "pdpe1gb" }, { c->has_erms, "erms" },
		{ c->has_fsrm, "fsrm" }, { c->has_sse2, "sse2" },
		{ c->has_avx, "avx" }, { c->has_avx2, "avx2" },
		{ c->has_avx512f, "avx512f" }, { c->has_clzero, "clzero" },
		{ c->has_invariant_tsc, "invariant_tsc" },
		{ c->has_rdtscp, "rdtscp" }, { c->has_x2apic, "x2apic" },
		{ c->has_clflushopt, "clflushopt" },
		{ c->has_tsc_deadline, "tsc_deadline" },
	};
	size_t pos = 0;

	if (n)
		buf[0] = '\0';
	for (u32 i = 0; i < ARRAY_SIZE(f); i++)
		if (f[i].on && pos + strlen(f[i].name) + 2 < n)
			pos += (size_t)ksnprintf(buf + pos, n - pos, "%s%s",
						 pos ? "," : "", f[i].name);
}

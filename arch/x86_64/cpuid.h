/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARCH_CPUID_H
#define ARCH_CPUID_H

#include "lib/msrtrace.h"
#include "lib/types.h"

/*
 * What the CPU says about itself, read once at boot.  Leaves above the
 * maximum the CPU reports are never trusted: under QEMU without KVM the
 * maximum basic leaf is 0xd and higher leaves echo leaf 0xd's data.
 */
struct cpu_info {
	char vendor[13];
	char brand[49];
	char hypervisor[13];	/* CPUID 40000000h signature, "" on bare metal */
	u32 max_leaf, max_ext_leaf;
	u32 family, model, stepping;
	u32 signature;		/* CPUID 1 EAX */
	u64 microcode;		/* ~0 if not readable */
	u32 phys_bits, virt_bits;
	bool has_pdpe1gb, has_nx, has_pge;
	bool has_sse2, has_xsave, has_avx, has_avx2, has_avx512f;
	bool has_erms, has_fsrm, has_clzero;
	bool has_tsc, has_invariant_tsc, has_rdtscp, has_hypervisor;
	bool has_apic, has_x2apic, has_tsc_deadline, has_clflushopt;
	u32 cache_line;
	u64 l1d, l2, l3;	/* bytes, 0 if not reported */
	u32 l3_sharing;		/* logical processors sharing the L3 (CPUID 4
				 * or 8000001Dh), 0 if not reported */
};

extern struct cpu_info cpu_info;

/* CPUID only: works in ring 0 and ring 3 (the companion builds it too). */
void cpuid_init(void);
/* XCR0: which extended state the OS has enabled; 0 before CR4.OSXSAVE. */
u64 cpu_xcr0(void);
/* "pdpe1gb,erms,..." of the features hugezero cares about. */
void cpuid_features(char *buf, size_t n);
/*
 * Kernel only: the microcode revision MSR (arch/x86_64/microcode.c), its
 * accesses traced in @t and what came of them said in @what.
 */
void cpuid_read_microcode(struct msr_trace *t, char *what, size_t n);
/* CPUID leaf if the CPU reports it, else all zero. */
struct cpuid_regs cpuid_checked(u32 leaf, u32 sub);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_PMU_H
#define LIB_PMU_H

#include "lib/types.h"

/*
 * The performance counters, without touching them: which events
 * hugezero knows by name, what each vendor's encoding is, and a plan of
 * MSR writes that programs a list of them on a CPU whose capabilities
 * the caller has read from CPUID (arch/x86_64/pmu.c applies the plan).
 * docs/hardware.md ("Counters") is the user's view.
 */

enum pmu_vendor { PMU_VENDOR_NONE, PMU_VENDOR_INTEL, PMU_VENDOR_AMD };

#define PMU_MAX_EVENTS	16
#define PMU_MAX_WRITES	64
#define PMU_MAX_FIXED	3	/* fixed counters hugezero uses */
#define PMU_MAX_SAMPLED	4	/* events sampled per fault, kernel and companion */

/*
 * Why a countable event past the first PMU_MAX_SAMPLED is skipped: the
 * same words from the kernel's plan and the companion (hosted/perf.c).
 */
extern const char pmu_no_room[];

/* Intel MSRs (SDM vol. 4, architectural MSRs) */
#define MSR_IA32_PMC0			0xc1
#define MSR_IA32_PERFEVTSEL0		0x186
#define MSR_IA32_FIXED_CTR0		0x309
#define MSR_IA32_FIXED_CTR_CTRL		0x38d
#define MSR_IA32_PERF_GLOBAL_CTRL	0x38f
/* AMD MSRs (APM vol. 2, 13.2; the PPRs) */
#define MSR_K7_EVNTSEL0			0xc0010000
#define MSR_K7_PERFCTR0			0xc0010004
#define MSR_F15H_PERF_CTL0		0xc0010200	/* + 2n */
#define MSR_F15H_PERF_CTR0		0xc0010201	/* + 2n */
#define MSR_AMD64_PERF_CNTR_GLOBAL_CTL	0xc0000301	/* PerfMonV2 */

/* PERFEVTSEL / PerfEvtSel bits, the same on both vendors */
#define PMU_SEL_USR	(1ULL << 16)
#define PMU_SEL_OS	(1ULL << 17)
#define PMU_SEL_EN	(1ULL << 22)
/* RDPMC ECX bit 30: Intel's fixed counters */
#define PMU_RDPMC_FIXED	(1u << 30)

/* One event hugezero knows, with each vendor's encoding (0: none). */
struct pmu_event {
	const char *name;
	const char *what;
	u32 intel_fixed;	/* fixed counter n + 1; 0: none */
	u32 intel_arch;		/* architectural event (CPUID 0AH EBX bit) + 1 */
	u64 intel_sel;		/* umask << 8 | event, general counters; 0: fixed only */
	u64 amd_sel;		/* family 17h on: event[11:8] << 32 | umask << 8 | event[7:0] */
	u64 amd_k8_sel;		/* families before 17h */
};

extern const struct pmu_event pmu_events[];
extern const u32 pmu_nevents;
/* The names, NULL-terminated (for messages and the cmdline). */
extern const char *const pmu_event_names[];

/* Index in pmu_events of @name (@len bytes), or -1. */
int pmu_event_index(const char *name, size_t len);

/*
 * Why @e has no encoding on @vendor's CPUs of @family, or NULL: the
 * kernel's plans and the companion's perf events (hosted/perf.c) offer
 * the same events on the same CPUs.
 */
const char *pmu_encoding_skip(u32 vendor, u32 family, const struct pmu_event *e);

/*
 * Counters the firmware had left enabled (pmu_caps_check()): @mask bit n
 * general counter n, bit 32 + n fixed counter n; @msr the first such
 * control MSR and @val what it held.  Zero: none.
 */
struct pmu_firmware {
	u64 mask;
	u32 msr;
	u64 val;
};

/*
 * What the CPU has, from CPUID; the pmu_caps_* decoders fill it from
 * raw registers, so that the host tests can give any CPU.  @none is set
 * (and every event skipped with it) when there is nothing to program.
 */
struct pmu_caps {
	u32 vendor;		/* enum pmu_vendor */
	u32 family;		/* CPUID 1, extended family added */
	u32 version;		/* Intel: CPUID 0AH EAX[7:0]; AMD: 1, 2 with PerfMonV2 */
	u32 ngeneral;		/* general-purpose counters */
	u32 general_width;	/* bits */
	u32 nfixed;		/* Intel v2+: CPUID 0AH EDX[4:0], fixed counters */
	u32 fixed_mask;		/* Intel: bit n, fixed counter n (those hugezero uses) */
	u32 fixed_present;	/* Intel: bit n, fixed counter n CPUID reports (0-15) */
	u32 fixed_width;
	u32 arch_len;		/* Intel: CPUID 0AH EAX[31:24], events EBX describes */
	u32 arch_unavail;	/* Intel: CPUID 0AH EBX, bit set: event absent */
	bool amd_ext;		/* AMD: PerfCtrExtCore, CPUID 80000001h ECX[23] */
	bool global_ctrl;	/* a global enable (Intel v2+, AMD PerfMonV2) */
	u32 reserved;		/* general counters another user holds (the
				 * NMI watchdog's, lib/pmu_nmi.h): bit n */
	const char *none;	/* why there is no PMU; NULL: there is one */
	struct pmu_firmware fw;	/* pmu_caps_check(): what the firmware left on */
};

/*
 * Intel: CPUID 0AH's registers (all zero when the maximum basic leaf is
 * below 0AH).
 */
void pmu_caps_intel(struct pmu_caps *c, u32 family, u32 eax, u32 ebx,
		    u32 ecx, u32 edx);
/*
 * AMD (and Hygon): CPUID 80000001h ECX, CPUID 80000022h EAX and EBX (0 if
 * not reported).  There is no CPUID bit for the four legacy counters:
 * pmu_caps_check() asks the counters themselves.
 */
void pmu_caps_amd(struct pmu_caps *c, u32 family, u32 ext1_ecx,
		  u32 ext22_eax, u32 ext22_ebx);
/* No PMU this code knows: another vendor. */
void pmu_caps_none(struct pmu_caps *c, const char *why);

struct pmu_write {
	u32 msr;
	u64 val;
};

/* A guarded RDMSR / WRMSR: false when the access faulted. */
typedef bool (*pmu_rdmsr_fn)(void *ctx, u32 msr, u64 *val);
typedef bool (*pmu_wrmsr_fn)(void *ctx, u32 msr, u64 val);

/*
 * What CPUID says, checked against the counters themselves, as Linux's
 * check_hw_exists() (arch/x86/events/core.c) does before it trusts them:
 * each general counter's event select and Intel's fixed-counter control
 * (every fixed counter CPUID reports) are read through @rd, and an
 * enabled one is the firmware's, recorded in c->fw_* (Linux's "Broken
 * BIOS detected": counted over all the same, as Linux does).  Then the
 * last general counter the firmware does not use must keep a value
 * written to it through @wr (written back after).  A fault, a value not
 * kept (QEMU's TCG ignores the writes), no general counter free, or none
 * at all sets c->none, worded for a @hypervisor as Linux words it: no
 * PMU, as Linux falls back to software events, and fw_* cleared (nothing
 * is counted over).  Nothing is touched when c->none is already set.
 */
void pmu_caps_check(struct pmu_caps *c, bool hypervisor, pmu_rdmsr_fn rd,
		    pmu_wrmsr_fn wr, void *ctx);

/* One requested event, counted or skipped. */
struct pmu_slot {
	const char *name;	/* as requested */
	int event;		/* index in pmu_events, -1: unknown */
	const char *skip;	/* NULL: counted; else why not */
	bool fixed;		/* on a fixed counter (Intel) */
	u32 counter;		/* fixed or general counter number */
	u32 rdpmc;		/* RDPMC's ECX */
	u32 width;		/* bits the counter holds */
	u64 sel;		/* the event select written (general counters) */
	u64 bracket;		/* the companion: what an empty bracket counts */
};

struct pmu_plan {
	u32 nwrites;
	struct pmu_write writes[PMU_MAX_WRITES];	/* stop, configure, clear, start */
	u32 noff;
	struct pmu_write off[PMU_MAX_WRITES];	/* stop counting, afterwards */
	u32 nslots;
	struct pmu_slot slots[PMU_MAX_EVENTS];
	u32 ncounted;
	bool bracketed;		/* slots' bracket measured (the companion's) */
	struct pmu_firmware fw;	/* the caps', for the config record */
};

/*
 * Plan @n events by name on @c: every name gets a slot, in order, with
 * its RDPMC index or its skip reason.  Returns the number counted; a
 * plan that counts nothing has no writes.
 */
u32 pmu_plan_make(const struct pmu_caps *c, const char *const *names, u32 n,
		  struct pmu_plan *p);
/*
 * As pmu_plan_make, but only the first PMU_MAX_SAMPLED countable events
 * are counted; each one after is skipped with pmu_no_room (the kernel's
 * bench=fault: what it programs is what it samples).
 */
u32 pmu_plan_make_sampled(const struct pmu_caps *c, const char *const *names,
			  u32 n, struct pmu_plan *p);
/*
 * Write @n MSRs of a plan in order through @wr (arch/x86_64/pmu.c: a
 * guarded WRMSR; the host tests: a recorder).  Stops at the first write
 * @wr refuses; returns how many were made.
 */
u32 pmu_apply(const struct pmu_write *w, u32 n, pmu_wrmsr_fn wr, void *ctx);
/* General counter @n's event select and counter MSRs on @c's CPU. */
u32 pmu_sel_msr(const struct pmu_caps *c, u32 n);
u32 pmu_ctr_msr(const struct pmu_caps *c, u32 n);
/* The global enable MSR (c->global_ctrl), and the enables every write to
 * it keeps: the reserved counters'. */
u32 pmu_global_msr(const struct pmu_caps *c);
u64 pmu_global_kept(const struct pmu_caps *c);

/* A counter's value from RDPMC's 64 bits (the counter's width kept). */
u64 pmu_value(const struct pmu_slot *s, u64 raw);

#endif

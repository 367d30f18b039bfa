/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LIB_BOOST_H
#define LIB_BOOST_H

#include "lib/record.h"
#include "lib/types.h"

/*
 * Turbo (Intel) and Core Performance Boost (AMD) on one CPU, without
 * touching it: what CPUID says, the state its MSRs hold, and boost=off|on
 * set through read/write callbacks (arch/x86_64/boost.c: the guarded
 * accessors; the host tests: a fake MSR layer), each vendor's way as
 * Linux's cpufreq drivers do it.  docs/hardware.md ("Boost") is the
 * user's view.
 */

enum boost_vendor { BOOST_VENDOR_OTHER, BOOST_VENDOR_AMD, BOOST_VENDOR_INTEL };
extern const char *const boost_vendor_names[];

/* AMD (APM vol. 2; Linux's msr-index.h MSR_K7_HWCR, acpi-cpufreq.c) */
#define MSR_K7_HWCR			0xc0010015
#define MSR_K7_HWCR_CPB_DIS		(1ULL << 25)
/* Intel (SDM vol. 4, architectural MSRs) */
#define MSR_IA32_PERF_CTL		0x199
#define MSR_IA32_PERF_CTL_TURBO_DIS	(1ULL << 32)	/* "IDA engage" off */
#define MSR_IA32_MISC_ENABLE		0x1a0
#define MSR_IA32_MISC_ENABLE_TURBO_DIS	(1ULL << 38)
#define MSR_PM_ENABLE			0x770
#define MSR_PM_ENABLE_HWP		(1ULL << 0)
#define MSR_HWP_CAPABILITIES		0x771
#define MSR_HWP_REQUEST			0x774
#define HWP_HIGHEST_PERF(cap)		((cap) & 0xff)
#define HWP_GUARANTEED_PERF(cap)	(((cap) >> 8) & 0xff)
#define HWP_MIN_PERF(req)		((req) & 0xff)
#define HWP_MAX_PERF(req)		(((req) >> 8) & 0xff)

/* What CPUID says; boost_caps_decode() fills it from raw registers. */
struct boost_caps {
	u32 vendor;		/* enum boost_vendor; Hygon is AMD's */
	bool cpb;		/* AMD: CPUID 80000007h:EDX[9], boost exists */
	bool ida;		/* Intel: CPUID 06H:EAX[1], turbo on (MISC_ENABLE[38] hides it) */
	bool hwp;		/* Intel: CPUID 06H:EAX[7], HWP exists */
	bool assumed;		/* cpb or ida taken as set (boost_assume=, tests) */
};

/*
 * @vendor: CPUID 0's string; @leaf6_eax: CPUID 06H EAX; @ext7_edx:
 * CPUID 80000007h EDX (each 0 where the leaf is beyond the maximum).
 */
void boost_caps_decode(struct boost_caps *c, const char *vendor, u32 leaf6_eax,
		       u32 ext7_edx);

/* The MSRs read; the four written (hwcr, misc_enable, perf_ctl,
 * hwp_request) are also the names of the paths that set boost. */
enum boost_reg { BOOST_HWCR, BOOST_MISC_ENABLE, BOOST_PERF_CTL,
		 BOOST_PM_ENABLE, BOOST_HWP_CAP, BOOST_HWP_REQUEST, BOOST_NREGS };
extern const u32 boost_reg_msr[BOOST_NREGS];
extern const char *const boost_reg_names[BOOST_NREGS];

struct boost_regs {
	u32 read;		/* bit per enum boost_reg: v[] holds it */
	u32 faulted;		/* bit per enum boost_reg: its RDMSR faulted */
	u64 v[BOOST_NREGS];
};

/* unknown: unreadable or another vendor; none: this CPU has no boost */
enum boost_state { BOOST_STATE_UNKNOWN, BOOST_STATE_NONE, BOOST_STATE_OFF,
		   BOOST_STATE_ON };
extern const char *const boost_state_names[];

/* What a path did: nothing (not tried), its write read back as asked,
 * it already was, the write read back otherwise, or an access faulted. */
enum boost_try { BOOST_TRY_NONE, BOOST_TRY_SET, BOOST_TRY_ALREADY,
		 BOOST_TRY_IGNORED, BOOST_TRY_READ_FAULT, BOOST_TRY_WRITE_FAULT };
extern const char *const boost_try_names[];

/*
 * The effect check (boost_check()), with boost=off and boost=on: off is
 * over where the busy CPU ran above its reference, on is under where it
 * did not (boost did not take effect); unmeasured: it cannot say why.
 */
enum boost_check { BOOST_CHECK_NONE, BOOST_CHECK_UNMEASURED, BOOST_CHECK_OK,
		   BOOST_CHECK_OVER, BOOST_CHECK_UNDER };
extern const char *const boost_check_names[];
/* boost=off: the effective frequency may exceed the reference by this;
 * boost=on: it must exceed it by more. */
#define BOOST_OVER_PCT 2
/* How it was checked: APERF/MPERF over a busy loop, or, with boost=on
 * on Intel without HWP and no APERF/MPERF, the ratio IA32_PERF_CTL asks
 * (bits 15:8) against the base ratio, the TSC's rate in 100 MHz units:
 * turbo runs only where a ratio above the base one is asked, as
 * intel_pstate's non-HWP path asks the turbo ratio (core_get_val()). */
enum boost_check_by { BOOST_BY_NONE, BOOST_BY_APERF_MPERF, BOOST_BY_PERF_CTL };
extern const char *const boost_check_by_names[];
/*
 * What the check holds the effective frequency against: the TSC's rate
 * (nominal), or, on Intel with HWP enabled, the guaranteed performance
 * where it is above that, since boost=off puts HWP's maximum there.
 */
enum boost_ref { BOOST_REF_TSC, BOOST_REF_HWP_GUARANTEED };
extern const char *const boost_ref_names[];
/* kHz per HWP performance unit on Intel's non-hybrid cores (Linux's
 * intel_pstate.c core_get_scaling(): 100 MHz, the bus clock). */
#define BOOST_HWP_UNIT_KHZ 100000

/* One CPU: what was asked, found, tried and left. */
struct boost_cpu {
	u32 mode;		/* enum boost_mode asked (lib/params.h) */
	struct boost_caps caps;
	bool present;		/* it has boost to set (CPUID, or MISC_ENABLE[38]) */
	struct boost_regs before, after;
	u32 state_before, state_after;	/* enum boost_state */
	u8 tried[BOOST_NREGS];	/* enum boost_try of each path */
	const char *why;	/* why it is not as asked (or nothing to do); NULL */
	/* The effect: APERF/MPERF over a busy loop, after (boost_check()) */
	u32 check;		/* enum boost_check */
	bool measured;
	u64 eff_khz, nominal_khz;
	u32 hwp_guaranteed;	/* HWP_CAPABILITIES[15:8] with HWP on; 0 */
	u32 ref;		/* enum boost_ref, when measured */
	u64 ref_khz;		/* what eff_khz is held against */
	u32 check_by;		/* enum boost_check_by */
	u32 ratio_asked, ratio_base;	/* BOOST_BY_PERF_CTL */
	char check_why[192];	/* why unmeasured, or what PERF_CTL said; "" */
};

/* A guarded RDMSR / WRMSR: false when the access faulted. */
typedef bool (*boost_rdmsr_fn)(void *ctx, u32 msr, u64 *val);
typedef bool (*boost_wrmsr_fn)(void *ctx, u32 msr, u64 val);

/* Read the MSRs @c's vendor keeps its boost state in. */
void boost_read(const struct boost_caps *c, struct boost_regs *r,
		boost_rdmsr_fn rd, void *ctx);
/* The state @r holds on a CPU with @c (@present: boost exists). */
u32 boost_state_of(const struct boost_caps *c, bool present,
		   const struct boost_regs *r);
/*
 * Fill @b for @mode on a CPU with @c: read the state, and for off or on
 * set it through each vendor's paths in turn (docs/hardware.md, "Boost"),
 * each write read back; then read it again.  Never fails: a CPU where
 * nothing takes keeps what it had, and b->why says so.
 */
void boost_set(struct boost_cpu *b, u32 mode, const struct boost_caps *c,
	       boost_rdmsr_fn rd, boost_wrmsr_fn wr, void *ctx);
/* Whether @b ended as asked (firmware: always). */
bool boost_as_asked(const struct boost_cpu *b);
/*
 * The effect measured after (@measured: @eff_khz against @nominal_khz,
 * the TSC's rate, given either way; else @why): with boost=off, over
 * when @eff_khz exceeds the reference (boost_reference()) by more than
 * BOOST_OVER_PCT percent; with boost=on, under when it does not.
 * Unmeasured with boost=on on Intel without HWP, IA32_PERF_CTL's ratio
 * as read after decides where it asks one (boost_check_by).
 */
void boost_check(struct boost_cpu *b, bool measured, u64 eff_khz,
		 u64 nominal_khz, const char *why);
/*
 * The console's sentence for CPU @cpu where the check found boost= not
 * in effect (over, under) or could not check: "" (0) otherwise.
 */
int boost_check_say(const struct boost_cpu *b, u32 cpu, char *buf, size_t n);
/*
 * The reference for @b measured against @nominal_khz: the larger of it
 * and, with Intel's HWP enabled, b->hwp_guaranteed in kHz (@ref: which
 * it is).
 */
u64 boost_reference(const struct boost_cpu *b, u64 nominal_khz, u32 *ref);
/* Whether two CPUs' outcomes read the same (one console line for both). */
bool boost_same(const struct boost_cpu *a, const struct boost_cpu *b);
/*
 * The console's words for @b, without the CPU: "vendor=amd asked=off
 * before=on after=off tried=hwcr:set" and why="..." when there is a why.
 */
int boost_describe(const struct boost_cpu *b, char *buf, size_t n);
/* The boost record of CPU @cpu (docs/records.md). */
void boost_rec(struct rec_writer *w, u32 cpu, const struct boost_cpu *b);
/* The check's fields of a boost record (eff_khz .. eff_why), the
 * kernel's and the companion's alike. */
void boost_rec_check(struct rec *r, const struct boost_cpu *b);
/* Its fields in a config record of a configuration run on that CPU. */
void boost_rec_config(struct rec *r, const struct boost_cpu *b);

#endif

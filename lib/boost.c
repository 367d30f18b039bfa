// SPDX-License-Identifier: GPL-2.0-only
/*
 * Turbo and Core Performance Boost, one CPU (lib/boost.h), as Linux's
 * cpufreq drivers set them:
 *
 * AMD and Hygon: HWCR (MSR C001_0015) bit 25, CpbDis, on every CPU:
 *   drivers/cpufreq/acpi-cpufreq.c, boost_set_msr_each() and
 *   boost_state(); boost exists where CPUID 80000007h:EDX[9] (CPB) says
 *   so (acpi_cpufreq_boost_init(), X86_FEATURE_CPB).
 * Intel: IA32_MISC_ENABLE bit 38 (turbo disable), as acpi-cpufreq's
 *   boost_set_msr_each() writes it; where that write does not read back,
 *   IA32_PERF_CTL bit 32, as intel_pstate's core_get_val() sets it for
 *   no_turbo (written by intel_pstate_set_pstate()); and with HWP enabled
 *   (IA32_PM_ENABLE bit 0), whose P-state requests ignore PERF_CTL, the
 *   maximum of IA32_HWP_REQUEST at the guaranteed performance for off
 *   and at the highest for on, as intel_pstate_hwp_set() writes the
 *   limits intel_pstate_update_perf_limits() makes from
 *   __intel_pstate_get_hwp_cap() (max_pstate: HWP_GUARANTEED_PERF,
 *   turbo_pstate: HWP_HIGHEST_PERF).  Turbo exists where CPUID 06H:EAX[1]
 *   (IDA) says so, or where MISC_ENABLE[38] is set, which clears that
 *   bit (SDM vol. 4, IA32_MISC_ENABLE; turbo_is_disabled()).
 */
#include "lib/boost.h"
#include "lib/format.h"
#include "lib/params.h"
#include "lib/string.h"

const char *const boost_vendor_names[] = { "other", "amd", "intel", NULL };
const u32 boost_reg_msr[BOOST_NREGS] = {
	MSR_K7_HWCR, MSR_IA32_MISC_ENABLE, MSR_IA32_PERF_CTL, MSR_PM_ENABLE,
	MSR_HWP_CAPABILITIES, MSR_HWP_REQUEST,
};
const char *const boost_reg_names[BOOST_NREGS] = {
	"hwcr", "misc_enable", "perf_ctl", "pm_enable", "hwp_cap", "hwp_request",
};
const char *const boost_state_names[] = { "unknown", "none", "off", "on", NULL };
const char *const boost_try_names[] = { "-", "set", "already", "ignored",
					"read-faulted", "write-faulted", NULL };
const char *const boost_check_names[] = { "-", "unmeasured", "ok", "over",
					  "under", NULL };
const char *const boost_check_by_names[] = { "-", "aperf-mperf", "perf-ctl",
					     NULL };
const char *const boost_ref_names[] = { "tsc", "hwp-guaranteed", NULL };

static const char no_cpb[] =
	"no Core Performance Boost (CPUID 80000007h:EDX[9] clear)";
static const char no_turbo[] =
	"no turbo (CPUID 06H:EAX[1] and IA32_MISC_ENABLE[38] clear)";
static const char no_turbo_unread[] =
	"no turbo (CPUID 06H:EAX[1] clear, IA32_MISC_ENABLE unreadable)";
static const char other_vendor[] =
	"neither Intel nor AMD or Hygon: no boost control known";
static const char none_took[] =
	"not as asked after every path (tried= says what each did); the run "
	"goes on";

#define BIT(n) (1u << (n))

void boost_caps_decode(struct boost_caps *c, const char *vendor, u32 leaf6_eax,
		       u32 ext7_edx)
{
	memset(c, 0, sizeof(*c));
	if (!strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine")) {
		c->vendor = BOOST_VENDOR_AMD;
		c->cpb = ext7_edx & BIT(9);
	} else if (!strcmp(vendor, "GenuineIntel")) {
		c->vendor = BOOST_VENDOR_INTEL;
		c->ida = leaf6_eax & BIT(1);
		c->hwp = leaf6_eax & BIT(7);
	}
}

static void read_reg(struct boost_regs *r, u32 reg, boost_rdmsr_fn rd, void *ctx)
{
	if (rd(ctx, boost_reg_msr[reg], &r->v[reg]))
		r->read |= BIT(reg);
	else
		r->faulted |= BIT(reg);
}

static bool has(const struct boost_regs *r, u32 reg)
{
	return r->read & BIT(reg);
}

static bool hwp_on(const struct boost_caps *c, const struct boost_regs *r)
{
	return c->hwp && has(r, BOOST_PM_ENABLE) &&
	       (r->v[BOOST_PM_ENABLE] & MSR_PM_ENABLE_HWP);
}

void boost_read(const struct boost_caps *c, struct boost_regs *r,
		boost_rdmsr_fn rd, void *ctx)
{
	memset(r, 0, sizeof(*r));
	if (c->vendor == BOOST_VENDOR_AMD) {
		read_reg(r, BOOST_HWCR, rd, ctx);
		return;
	}
	if (c->vendor != BOOST_VENDOR_INTEL)
		return;
	read_reg(r, BOOST_MISC_ENABLE, rd, ctx);
	read_reg(r, BOOST_PERF_CTL, rd, ctx);
	if (!c->hwp)
		return;
	read_reg(r, BOOST_PM_ENABLE, rd, ctx);
	if (hwp_on(c, r)) {
		read_reg(r, BOOST_HWP_CAP, rd, ctx);
		read_reg(r, BOOST_HWP_REQUEST, rd, ctx);
	}
}

/* HWP's state: off when the maximum asked is at most the guaranteed
 * performance and there is a turbo range above it. */
static u32 hwp_state(const struct boost_regs *r)
{
	u64 cap = r->v[BOOST_HWP_CAP], req = r->v[BOOST_HWP_REQUEST];

	if (!has(r, BOOST_HWP_CAP) || !has(r, BOOST_HWP_REQUEST))
		return has(r, BOOST_MISC_ENABLE) ? BOOST_STATE_ON :
		       BOOST_STATE_UNKNOWN;
	if (HWP_GUARANTEED_PERF(cap) < HWP_HIGHEST_PERF(cap) &&
	    HWP_MAX_PERF(req) <= HWP_GUARANTEED_PERF(cap))
		return BOOST_STATE_OFF;
	return BOOST_STATE_ON;
}

/* HWP's guaranteed ratio in @r, with HWP on and its capabilities read; 0 */
static u32 hwp_guaranteed(const struct boost_caps *c, const struct boost_regs *r)
{
	if (!hwp_on(c, r) || !has(r, BOOST_HWP_CAP))
		return 0;
	return (u32)HWP_GUARANTEED_PERF(r->v[BOOST_HWP_CAP]);
}

u32 boost_state_of(const struct boost_caps *c, bool present,
		   const struct boost_regs *r)
{
	if (c->vendor == BOOST_VENDOR_OTHER)
		return BOOST_STATE_UNKNOWN;
	if (!present)
		return BOOST_STATE_NONE;
	if (c->vendor == BOOST_VENDOR_AMD) {
		if (!has(r, BOOST_HWCR))
			return BOOST_STATE_UNKNOWN;
		return r->v[BOOST_HWCR] & MSR_K7_HWCR_CPB_DIS ? BOOST_STATE_OFF :
		       BOOST_STATE_ON;
	}
	if (has(r, BOOST_MISC_ENABLE) &&
	    (r->v[BOOST_MISC_ENABLE] & MSR_IA32_MISC_ENABLE_TURBO_DIS))
		return BOOST_STATE_OFF;
	if (hwp_on(c, r))
		return hwp_state(r);
	if (has(r, BOOST_PERF_CTL))
		return r->v[BOOST_PERF_CTL] & MSR_IA32_PERF_CTL_TURBO_DIS ?
		       BOOST_STATE_OFF : BOOST_STATE_ON;
	return has(r, BOOST_MISC_ENABLE) ? BOOST_STATE_ON : BOOST_STATE_UNKNOWN;
}

struct msr_ops {
	boost_rdmsr_fn rd;
	boost_wrmsr_fn wr;
	void *ctx;
};

/*
 * Path @reg: its @mask bits made @want, read-modify-write, then read
 * back, as Linux's boost_set_msr_each() does (there without the check:
 * a write some firmware ignores is why it is read back here).
 */
static u32 try_bits(struct boost_cpu *b, u32 reg, u64 mask, u64 want,
		    const struct msr_ops *o)
{
	u32 msr = boost_reg_msr[reg], t;
	u64 v, back;

	if (!o->rd(o->ctx, msr, &v))
		t = BOOST_TRY_READ_FAULT;
	else if ((v & mask) == want)
		t = BOOST_TRY_ALREADY;
	else if (!o->wr(o->ctx, msr, (v & ~mask) | want))
		t = BOOST_TRY_WRITE_FAULT;
	else if (!o->rd(o->ctx, msr, &back))
		t = BOOST_TRY_READ_FAULT;
	else
		t = (back & mask) == want ? BOOST_TRY_SET : BOOST_TRY_IGNORED;
	b->tried[reg] = (u8)t;
	return t;
}

static bool took(u32 t)
{
	return t == BOOST_TRY_SET || t == BOOST_TRY_ALREADY;
}

/*
 * HWP_REQUEST's maximum at the guaranteed (off) or highest (on)
 * performance; a minimum above it comes down with it, since
 * intel_pstate_hwp_set() writes both and a minimum over the maximum
 * asks for what the maximum forbids.
 */
static void set_hwp(struct boost_cpu *b, bool off, const struct msr_ops *o)
{
	const struct boost_regs *r = &b->before;
	u64 cap = r->v[BOOST_HWP_CAP], top, mask = 0xff00, want;

	if (!has(r, BOOST_HWP_CAP) || !has(r, BOOST_HWP_REQUEST)) {
		b->tried[BOOST_HWP_REQUEST] = BOOST_TRY_READ_FAULT;
		return;
	}
	top = off ? HWP_GUARANTEED_PERF(cap) : HWP_HIGHEST_PERF(cap);
	want = top << 8;
	if (HWP_MIN_PERF(r->v[BOOST_HWP_REQUEST]) > top) {
		mask |= 0xff;
		want |= top;
	}
	try_bits(b, BOOST_HWP_REQUEST, mask, want, o);
}

static void set_intel(struct boost_cpu *b, bool off, const struct msr_ops *o)
{
	bool hwp = hwp_on(&b->caps, &b->before);
	u32 t;

	t = try_bits(b, BOOST_MISC_ENABLE, MSR_IA32_MISC_ENABLE_TURBO_DIS,
		     off ? MSR_IA32_MISC_ENABLE_TURBO_DIS : 0, o);
	/* With HWP the hardware ignores PERF_CTL's requests. */
	if (!hwp && (!off || !took(t)))
		try_bits(b, BOOST_PERF_CTL, MSR_IA32_PERF_CTL_TURBO_DIS,
			 off ? MSR_IA32_PERF_CTL_TURBO_DIS : 0, o);
	if (hwp)
		set_hwp(b, off, o);
}

/* Whether boost exists, and if not why (NULL: it does). */
static const char *absent(struct boost_cpu *b)
{
	const struct boost_regs *r = &b->before;

	switch (b->caps.vendor) {
	case BOOST_VENDOR_AMD:
		b->present = b->caps.cpb;
		return b->present ? NULL : no_cpb;
	case BOOST_VENDOR_INTEL:
		b->present = b->caps.ida ||
			     (has(r, BOOST_MISC_ENABLE) &&
			      (r->v[BOOST_MISC_ENABLE] &
			       MSR_IA32_MISC_ENABLE_TURBO_DIS));
		if (b->present)
			return NULL;
		return has(r, BOOST_MISC_ENABLE) ? no_turbo : no_turbo_unread;
	}
	b->present = false;
	return other_vendor;
}

void boost_set(struct boost_cpu *b, u32 mode, const struct boost_caps *c,
	       boost_rdmsr_fn rd, boost_wrmsr_fn wr, void *ctx)
{
	const struct msr_ops o = { rd, wr, ctx };
	bool off = mode == BOOST_OFF;
	u32 g;

	memset(b, 0, sizeof(*b));
	b->mode = mode;
	b->caps = *c;
	boost_read(c, &b->before, rd, ctx);
	b->why = absent(b);
	b->state_before = boost_state_of(c, b->present, &b->before);
	b->hwp_guaranteed = hwp_guaranteed(c, &b->before);
	if (mode == BOOST_FIRMWARE || !b->present) {
		b->after = b->before;
		b->state_after = b->state_before;
		return;
	}
	if (c->vendor == BOOST_VENDOR_AMD)
		try_bits(b, BOOST_HWCR, MSR_K7_HWCR_CPB_DIS,
			 off ? MSR_K7_HWCR_CPB_DIS : 0, &o);
	else
		set_intel(b, off, &o);
	boost_read(c, &b->after, rd, ctx);
	b->state_after = boost_state_of(c, b->present, &b->after);
	g = hwp_guaranteed(c, &b->after);	/* as left, where read */
	if (g)
		b->hwp_guaranteed = g;
	if (!boost_as_asked(b))
		b->why = none_took;
}

bool boost_as_asked(const struct boost_cpu *b)
{
	switch (b->mode) {
	case BOOST_OFF:	/* a CPU without boost never boosts */
		return b->state_after == BOOST_STATE_OFF ||
		       b->state_after == BOOST_STATE_NONE;
	case BOOST_ON:
		return b->state_after == BOOST_STATE_ON;
	}
	return true;
}

/*
 * boost=off puts HWP's maximum at the guaranteed performance
 * (set_hwp()), which some parts rate above the TSC's: held against the
 * TSC alone, a CPU set as asked would read over.  HWP's units are taken
 * as 100 MHz, as intel_pstate's core_get_scaling(); its hybrid parts'
 * P-cores count less per unit (hybrid_get_cpu_scaling(): 78741 kHz and
 * up), where this reference is the looser one (docs/hardware.md).
 */
u64 boost_reference(const struct boost_cpu *b, u64 nominal_khz, u32 *ref)
{
	u64 g = (u64)b->hwp_guaranteed * BOOST_HWP_UNIT_KHZ;

	*ref = g > nominal_khz ? BOOST_REF_HWP_GUARANTEED : BOOST_REF_TSC;
	return g > nominal_khz ? g : nominal_khz;
}

/*
 * boost=on, unmeasured, Intel without HWP: the ratio IA32_PERF_CTL asks
 * after the writes (bits 15:8) against the base ratio, @nominal_khz in
 * HWP's 100 MHz units, rounded; @why: why APERF/MPERF could not.  False
 * where it cannot say (check_why then says so): another
 * vendor, HWP on (PERF_CTL ignored), PERF_CTL unread, no rate.
 */
static bool by_perf_ctl(struct boost_cpu *b, u64 nominal_khz,
			const char *why)
{
	const struct boost_regs *r = &b->after;
	u32 base = (u32)((nominal_khz + BOOST_HWP_UNIT_KHZ / 2) /
			 BOOST_HWP_UNIT_KHZ);
	u32 asked = (u32)(r->v[BOOST_PERF_CTL] >> 8) & 0xff;
	size_t len = strlen(b->check_why);

	if (b->caps.vendor != BOOST_VENDOR_INTEL || hwp_on(&b->caps, r) ||
	    !has(r, BOOST_PERF_CTL) || !base)
		return false;
	if (!asked) {
		ksnprintf(b->check_why + len, sizeof(b->check_why) - len,
			  "; IA32_PERF_CTL asks no ratio (0)");
		return false;
	}
	b->check_by = BOOST_BY_PERF_CTL;
	b->ratio_asked = asked;
	b->ratio_base = base;
	b->check = asked > base ? BOOST_CHECK_OK : BOOST_CHECK_UNDER;
	ksnprintf(b->check_why, sizeof(b->check_why), "%s; by IA32_PERF_CTL: "
		  "ratio %u asked, %s the base ratio %u (the TSC's rate)",
		  why ? why : "unmeasured", asked,
		  asked > base ? "above" : "not above", base);
	return true;
}

void boost_check(struct boost_cpu *b, bool measured, u64 eff_khz,
		 u64 nominal_khz, const char *why)
{
	u32 ref = BOOST_REF_TSC;
	u64 ref_khz = boost_reference(b, nominal_khz, &ref);
	bool above = eff_khz * 100 > ref_khz * (100 + BOOST_OVER_PCT);

	b->measured = measured;
	b->eff_khz = measured ? eff_khz : 0;
	b->nominal_khz = measured ? nominal_khz : 0;
	b->ref = measured ? ref : BOOST_REF_TSC;
	b->ref_khz = measured ? ref_khz : 0;
	b->check_by = measured ? BOOST_BY_APERF_MPERF : BOOST_BY_NONE;
	b->ratio_asked = b->ratio_base = 0;
	b->check_why[0] = '\0';
	if (!measured)
		ksnprintf(b->check_why, sizeof(b->check_why), "%s%s",
			  b->mode == BOOST_FIRMWARE ? "" : "cannot check: ",
			  why ? why : "unmeasured");
	if (b->mode == BOOST_FIRMWARE)
		b->check = BOOST_CHECK_NONE;
	else if (!measured && b->mode == BOOST_ON &&
		 by_perf_ctl(b, nominal_khz, why))
		return;
	else if (!measured)
		b->check = BOOST_CHECK_UNMEASURED;
	else if (b->mode == BOOST_OFF)
		b->check = above ? BOOST_CHECK_OVER : BOOST_CHECK_OK;
	else
		b->check = above ? BOOST_CHECK_OK : BOOST_CHECK_UNDER;
}

int boost_check_say(const struct boost_cpu *b, u32 cpu, char *buf, size_t n)
{
	const char *asked = boost_names[b->mode];

	buf[0] = '\0';
	if (b->check == BOOST_CHECK_UNMEASURED)
		return ksnprintf(buf, n, "cpu %u: boost=%s %s: whether it "
				 "took effect is not known", cpu, asked,
				 b->check_why);
	if (b->check == BOOST_CHECK_OVER)
		return ksnprintf(buf, n, "WARNING: cpu %u ran %llu kHz busy, "
				 "more than %u%% over its reference %llu kHz "
				 "(%s) with boost=off; its config records say "
				 "boost_check=over", cpu,
				 (unsigned long long)b->eff_khz, BOOST_OVER_PCT,
				 (unsigned long long)b->ref_khz,
				 boost_ref_names[b->ref]);
	if (b->check != BOOST_CHECK_UNDER)
		return 0;
	if (b->check_by == BOOST_BY_PERF_CTL)
		return ksnprintf(buf, n, "WARNING: cpu %u: boost=on did not "
				 "take effect: %s, so turbo is never asked "
				 "for; its config records say "
				 "boost_check=under", cpu, b->check_why);
	return ksnprintf(buf, n, "WARNING: cpu %u: boost=on did not take "
			 "effect: it ran %llu kHz busy, not more than %u%% over "
			 "its reference %llu kHz (%s); its config records say "
			 "boost_check=under", cpu,
			 (unsigned long long)b->eff_khz, BOOST_OVER_PCT,
			 (unsigned long long)b->ref_khz,
			 boost_ref_names[b->ref]);
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

bool boost_same(const struct boost_cpu *a, const struct boost_cpu *b)
{
	return a->mode == b->mode && a->caps.vendor == b->caps.vendor &&
	       a->caps.cpb == b->caps.cpb && a->caps.ida == b->caps.ida &&
	       a->caps.hwp == b->caps.hwp && a->caps.assumed == b->caps.assumed &&
	       a->present == b->present &&
	       a->state_before == b->state_before &&
	       a->state_after == b->state_after &&
	       !memcmp(a->tried, b->tried, sizeof(a->tried)) &&
	       same_str(a->why, b->why);
}

/* "hwcr:set" or "misc_enable:ignored,perf_ctl:set"; "none" */
static void tried_text(const struct boost_cpu *b, char *buf, size_t n)
{
	size_t pos = 0;

	buf[0] = '\0';
	for (u32 i = 0; i < BOOST_NREGS && pos < n; i++)
		if (b->tried[i] != BOOST_TRY_NONE)
			pos += (size_t)ksnprintf(buf + pos, n - pos, "%s%s:%s",
						 pos ? "," : "", boost_reg_names[i],
						 boost_try_names[b->tried[i]]);
	if (!pos)
		strlcpy(buf, "none", n);
}

int boost_describe(const struct boost_cpu *b, char *buf, size_t n)
{
	char tried[96];
	int len;

	tried_text(b, tried, sizeof(tried));
	len = ksnprintf(buf, n, "vendor=%s asked=%s before=%s after=%s tried=%s",
			boost_vendor_names[b->caps.vendor], boost_names[b->mode],
			boost_state_names[b->state_before],
			boost_state_names[b->state_after], tried);
	if (b->why && len >= 0 && (size_t)len < n)
		len += ksnprintf(buf + len, n - (size_t)len, " why=\"%s\"", b->why);
	return len;
}

/* "<reg>_<when>=0x..." for each MSR read, "fault" for each that faulted. */
static void rec_regs(struct rec *r, const struct boost_regs *g, const char *when)
{
	char key[32];

	for (u32 i = 0; i < BOOST_NREGS; i++) {
		if (!((g->read | g->faulted) & BIT(i)))
			continue;
		ksnprintf(key, sizeof(key), "%s_%s", boost_reg_names[i], when);
		if (has(g, i))
			rec_hex(r, key, g->v[i]);
		else
			rec_str(r, key, "fault");
	}
}

void boost_rec(struct rec_writer *w, u32 cpu, const struct boost_cpu *b)
{
	char tried[96];
	struct rec r;

	rec_begin(w, &r, "boost");
	rec_u64(&r, "cpu", cpu);
	rec_str(&r, "asked", boost_names[b->mode]);
	rec_str(&r, "vendor", boost_vendor_names[b->caps.vendor]);
	if (b->caps.vendor == BOOST_VENDOR_AMD) {
		rec_u64(&r, "cpb", b->caps.cpb);
	} else if (b->caps.vendor == BOOST_VENDOR_INTEL) {
		rec_u64(&r, "ida", b->caps.ida);
		rec_u64(&r, "hwp", b->caps.hwp);
	}
	if (b->caps.assumed)
		rec_u64(&r, "assumed", 1);
	rec_str(&r, "before", boost_state_names[b->state_before]);
	rec_str(&r, "after", boost_state_names[b->state_after]);
	tried_text(b, tried, sizeof(tried));
	rec_str(&r, "tried", tried);
	if (b->why)
		rec_str(&r, "why", b->why);
	rec_regs(&r, &b->before, "before");
	if (b->mode != BOOST_FIRMWARE && b->present)
		rec_regs(&r, &b->after, "after");
	if (b->hwp_guaranteed)
		rec_u64(&r, "hwp_guaranteed", b->hwp_guaranteed);
	boost_rec_check(&r, b);
	rec_end(w, &r);
}

void boost_rec_check(struct rec *r, const struct boost_cpu *b)
{
	if (b->measured) {
		rec_u64(r, "eff_khz", b->eff_khz);
		rec_u64(r, "nominal_khz", b->nominal_khz);
		rec_str(r, "ref", boost_ref_names[b->ref]);
		rec_u64(r, "ref_khz", b->ref_khz);
	}
	if (b->check != BOOST_CHECK_NONE)
		rec_str(r, "check", boost_check_names[b->check]);
	if (b->check_by != BOOST_BY_NONE)
		rec_str(r, "check_by", boost_check_by_names[b->check_by]);
	if (b->check_by == BOOST_BY_PERF_CTL) {
		rec_u64(r, "perf_ctl_ratio", b->ratio_asked);
		rec_u64(r, "base_ratio", b->ratio_base);
	}
	if (b->check_why[0])
		rec_str(r, "eff_why", b->check_why);
}

void boost_rec_config(struct rec *r, const struct boost_cpu *b)
{
	rec_str(r, "boost_state", boost_state_names[b->state_after]);
	if (b->check == BOOST_CHECK_NONE)
		return;
	rec_str(r, "boost_check", boost_check_names[b->check]);
	if (b->measured) {
		rec_u64(r, "boost_eff_khz", b->eff_khz);
		rec_str(r, "boost_ref", boost_ref_names[b->ref]);
	}
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host tests of lib/boost.c: each vendor's path replayed on a fake MSR
 * layer (this machine's MSRs are out of reach, and a real CPU offers one
 * vendor): registers that keep a write or ignore it, and accesses that
 * fault (#GP) on read or on write, with every write recorded in order.
 */
#include <string.h>
#include "lib/boost.h"
#include "lib/params.h"
#include "lib/record.h"
#include "tests/host/unit.h"

struct fake_msr {
	u32 msr;
	u64 val;
	u64 keeps;		/* bits a write changes; the rest ignore it */
	bool gp_read, gp_write;
};

struct fake_cpu {
	struct fake_msr m[8];
	u32 n;
	u32 nwrites;		/* attempted, faulted ones too */
	struct { u32 msr; u64 val; } w[16];
};

static struct fake_msr *find(struct fake_cpu *f, u32 msr)
{
	for (u32 i = 0; i < f->n; i++)
		if (f->m[i].msr == msr)
			return &f->m[i];
	return NULL;	/* not implemented: #GP, as a CPU without it */
}

static struct fake_msr *add(struct fake_cpu *f, u32 msr, u64 val)
{
	struct fake_msr *m = &f->m[f->n++];

	m->msr = msr;
	m->val = val;
	m->keeps = ~0ULL;
	return m;
}

static bool fake_rd(void *ctx, u32 msr, u64 *val)
{
	struct fake_msr *m = find(ctx, msr);

	if (!m || m->gp_read)
		return false;
	*val = m->val;
	return true;
}

static bool fake_wr(void *ctx, u32 msr, u64 val)
{
	struct fake_cpu *f = ctx;
	struct fake_msr *m = find(f, msr);

	if (f->nwrites < ARRAY_SIZE(f->w)) {
		f->w[f->nwrites].msr = msr;
		f->w[f->nwrites].val = val;
	}
	f->nwrites++;
	if (!m || m->gp_write)
		return false;
	m->val = (m->val & ~m->keeps) | (val & m->keeps);
	return true;
}

static void expect_write(const struct fake_cpu *f, u32 i, u32 msr, u64 val)
{
	EXPECT(i < f->nwrites, "write %u of %u", i, f->nwrites);
	if (i >= f->nwrites)
		return;
	EXPECT(f->w[i].msr == msr && f->w[i].val == val,
	       "write %u: (%#x, %#llx), expected (%#x, %#llx)", i, f->w[i].msr,
	       (unsigned long long)f->w[i].val, msr, (unsigned long long)val);
}

#define CPB	(1u << 9)	/* CPUID 80000007h EDX */
#define IDA	(1u << 1)	/* CPUID 06H EAX */
#define HWP	(1u << 7)
#define HWCR_FW	0x0000000000030010ULL	/* bits the firmware left; kept */
#define MISC_FW	0x0000000000850089ULL
#define PERF_FW	0x0000000000001d00ULL
/* HWP_CAPABILITIES: highest 0x30, guaranteed 0x1c, efficient 0x0c, lowest 0x08 */
#define HWP_CAP	0x00000000080c1c30ULL
/* HWP_REQUEST: EPP 0x80, max 0x30, min 0x08 */
#define HWP_REQ	0x0000000080003008ULL

static void describe(const struct boost_cpu *b, char *buf, size_t n)
{
	boost_describe(b, buf, n);
}

TEST(boost_amd_hwcr)
{
	struct fake_cpu f = { 0 };
	struct boost_caps c;
	struct boost_cpu b;
	char line[256];

	boost_caps_decode(&c, "AuthenticAMD", 0, CPB);
	EXPECT_EQ(c.vendor, BOOST_VENDOR_AMD);
	EXPECT(c.cpb);
	add(&f, MSR_K7_HWCR, HWCR_FW);
	boost_set(&b, BOOST_OFF, &c, fake_rd, fake_wr, &f);
	EXPECT_EQ(f.nwrites, 1);
	expect_write(&f, 0, 0xc0010015, HWCR_FW | (1ULL << 25));
	EXPECT_EQ(b.state_before, BOOST_STATE_ON);
	EXPECT_EQ(b.state_after, BOOST_STATE_OFF);
	EXPECT_EQ(b.before.v[BOOST_HWCR], HWCR_FW);
	EXPECT_EQ(b.after.v[BOOST_HWCR], HWCR_FW | (1ULL << 25));
	EXPECT(boost_as_asked(&b));
	EXPECT(b.why == NULL);
	describe(&b, line, sizeof(line));
	EXPECT_STR(line, "vendor=amd asked=off before=on after=off tried=hwcr:set");

	/* off again: nothing written */
	f.nwrites = 0;
	boost_set(&b, BOOST_OFF, &c, fake_rd, fake_wr, &f);
	EXPECT_EQ(f.nwrites, 0);
	EXPECT_EQ(b.tried[BOOST_HWCR], BOOST_TRY_ALREADY);
	EXPECT_EQ(b.state_before, BOOST_STATE_OFF);

	/* on clears CpbDis, the firmware's other bits kept */
	boost_set(&b, BOOST_ON, &c, fake_rd, fake_wr, &f);
	expect_write(&f, 0, 0xc0010015, HWCR_FW);
	EXPECT_EQ(b.state_after, BOOST_STATE_ON);
	EXPECT(boost_as_asked(&b));

	/* Hygon is AMD's */
	boost_caps_decode(&c, "HygonGenuine", 0, CPB);
	EXPECT_EQ(c.vendor, BOOST_VENDOR_AMD);
}

TEST(boost_amd_without_cpb)
{
	struct fake_cpu f = { 0 };
	struct boost_caps c;
	struct boost_cpu b;
	char line[256];

	/* QEMU's TCG models: CPUID 80000007h:EDX[9] clear */
	boost_caps_decode(&c, "AuthenticAMD", 0, 1u << 8);
	add(&f, MSR_K7_HWCR, 0);
	boost_set(&b, BOOST_OFF, &c, fake_rd, fake_wr, &f);
	EXPECT_EQ(f.nwrites, 0);
	EXPECT_EQ(b.state_before, BOOST_STATE_NONE);
	EXPECT_EQ(b.state_after, BOOST_STATE_NONE);
	EXPECT(boost_as_asked(&b));	/* it never boosts */
	describe(&b, line, sizeof(line));
	EXPECT_STR(line, "vendor=amd asked=off before=none after=none tried=none "
		   "why=\"no Core Performance Boost (CPUID 80000007h:EDX[9] "
		   "clear)\"");
	boost_set(&b, BOOST_ON, &c, fake_rd, fake_wr, &f);
	EXPECT(!boost_as_asked(&b));
	EXPECT_EQ(f.nwrites, 0);
}

TEST(boost_amd_hwcr_faults)
{
	struct fake_cpu f = { 0 };
	struct boost_caps c;
	struct boost_cpu b;
	char line[256];

	boost_caps_decode(&c, "AuthenticAMD", 0, CPB);
	add(&f, MSR_K7_HWCR, 0)->gp_write = true;
	boost_set(&b, BOOST_OFF, &c, fake_rd, fake_wr, &f);
	EXPECT_EQ(f.nwrites, 1);
	EXPECT_EQ(b.tried[BOOST_HWCR], BOOST_TRY_WRITE_FAULT);
	EXPECT_EQ(b.state_after, BOOST_STATE_ON);
	EXPECT(!boost_as_asked(&b));
	describe(&b, line, sizeof(line));
	EXPECT_STR(line, "vendor=amd asked=off before=on after=on "
		   "tried=hwcr:write-faulted why=\"not as asked after every "
		   "path (tried= says what each did); the run goes on\"");
	/* unreadable: the state is unknown and nothing is written */
	f.m[0].gp_read = true;
	f.nwrites = 0;
	boost_set(&b, BOOST_OFF, &c, fake_rd, fake_wr, &f);
	EXPECT_EQ(f.nwrites, 0);
	EXPECT_EQ(b.state_before, BOOST_STATE_UNKNOWN);
	EXPECT_EQ(b.tried[BOOST_HWCR], BOOST_TRY_READ_FAULT);
	EXPECT(b.before.faulted & (1u << BOOST_HWCR));
	EXPECT(!boost_as_asked(&b));
}

TEST(boost_intel_misc_enable)
{
	struct fake_cpu f = { 0 };
	struct boost_caps c;
	struct boost_cpu b;
	char line[256];

	boost_caps_decode(&c, "GenuineIntel", IDA, 0);
	EXPECT(c.ida && !c.hwp);
	add(&f, MSR_IA32_MISC_ENABLE, MISC_FW);
	add(&f, MSR_IA32_PERF_CTL, PERF_FW);
	boost_set(&b, BOOST_OFF, &c, fake_rd, fake_wr, &f);
	/* MISC_ENABLE takes it: PERF_CTL is left alone */
	EXPECT_EQ(f.nwrites, 1);
	expect_write(&f, 0, 0x1a0, MISC_FW | (1ULL << 38));
	EXPECT_EQ(b.state_after, BOOST_STATE_OFF);
	describe(&b, line, sizeof(line));
	EXPECT_STR(line, "vendor=intel asked=off before=on after=off "
		   "tried=misc_enable:set");

	/* on: MISC_ENABLE[38] and PERF_CTL[32] both cleared */
	f.m[1].val |= 1ULL << 32;
	f.nwrites = 0;
	boost_set(&b, BOOST_ON, &c, fake_rd, fake_wr, &f);
	EXPECT_EQ(f.nwrites, 2);
	expect_write(&f, 0, 0x1a0, MISC_FW);
	expect_write(&f, 1, 0x199, PERF_FW);
	EXPECT_EQ(b.state_before, BOOST_STATE_OFF);
	EXPECT_EQ(b.state_after, BOOST_STATE_ON);
}

TEST(boost_intel_misc_enable_ignored)
{
	struct fake_cpu f = { 0 };
	struct boost_caps c;
	struct boost_cpu b;
	char line[256];

	boost_caps_decode(&c, "GenuineIntel", IDA, 0);
	add(&f, MSR_IA32_MISC_ENABLE, MISC_FW)->keeps =
		~MSR_IA32_MISC_ENABLE_TURBO_DIS;
	add(&f, MSR_IA32_PERF_CTL, PERF_FW);
	boost_set(&b, BOOST_OFF, &c, fake_rd, fake_wr, &f);
	/* the write reads back without bit 38: PERF_CTL's bit 32 next */
	EXPECT_EQ(f.nwrites, 2);
	expect_write(&f, 0, 0x1a0, MISC_FW | (1ULL << 38));
	expect_write(&f, 1, 0x199, PERF_FW | (1ULL << 32));
	EXPECT_EQ(b.after.v[BOOST_MISC_ENABLE], MISC_FW);
	EXPECT_EQ(b.state_after, BOOST_STATE_OFF);
	EXPECT(boost_as_asked(&b));
	describe(&b, line, sizeof(line));
	EXPECT_STR(line, "vendor=intel asked=off before=on after=off "
		   "tried=misc_enable:ignored,perf_ctl:set");
}

TEST(boost_intel_gp_on_write)
{
	struct fake_cpu f = { 0 };
	struct boost_caps c;
	struct boost_cpu b;
	char line[256];

	boost_caps_decode(&c, "GenuineIntel", IDA, 0);
	add(&f, MSR_IA32_MISC_ENABLE, MISC_FW)->gp_write = true;
	add(&f, MSR_IA32_PERF_CTL, PERF_FW);
	boost_set(&b, BOOST_OFF, &c, fake_rd, fake_wr, &f);
	EXPECT_EQ(f.nwrites, 2);
	expect_write(&f, 1, 0x199, PERF_FW | (1ULL << 32));
	EXPECT_EQ(b.tried[BOOST_MISC_ENABLE], BOOST_TRY_WRITE_FAULT);
	EXPECT_EQ(b.state_after, BOOST_STATE_OFF);
	describe(&b, line, sizeof(line));
	EXPECT_STR(line, "vendor=intel asked=off before=on after=off "
		   "tried=misc_enable:write-faulted,perf_ctl:set");

	/* PERF_CTL faults too: nothing took, the run goes on as found */
	f.m[1].val = PERF_FW;
	f.m[1].gp_write = true;
	f.nwrites = 0;
	boost_set(&b, BOOST_OFF, &c, fake_rd, fake_wr, &f);
	EXPECT_EQ(f.nwrites, 2);
	EXPECT_EQ(b.state_after, BOOST_STATE_ON);
	EXPECT(!boost_as_asked(&b));
	EXPECT(b.why != NULL && strstr(b.why, "not as asked"), "%s", b.why);
}

TEST(boost_intel_hwp)
{
	struct fake_cpu f = { 0 };
	struct boost_caps c;
	struct boost_cpu b;
	char line[256];

	boost_caps_decode(&c, "GenuineIntel", IDA | HWP, 0);
	EXPECT(c.hwp);
	add(&f, MSR_IA32_MISC_ENABLE, MISC_FW);
	add(&f, MSR_IA32_PERF_CTL, PERF_FW);
	add(&f, MSR_PM_ENABLE, 1);
	add(&f, MSR_HWP_CAPABILITIES, HWP_CAP);
	add(&f, MSR_HWP_REQUEST, HWP_REQ);
	boost_set(&b, BOOST_OFF, &c, fake_rd, fake_wr, &f);
	/* MISC_ENABLE, then HWP_REQUEST's maximum at guaranteed (0x1c);
	 * never PERF_CTL, which HWP ignores */
	EXPECT_EQ(f.nwrites, 2);
	expect_write(&f, 0, 0x1a0, MISC_FW | (1ULL << 38));
	expect_write(&f, 1, 0x774, 0x0000000080001c08ULL);
	EXPECT_EQ(b.state_after, BOOST_STATE_OFF);
	describe(&b, line, sizeof(line));
	EXPECT_STR(line, "vendor=intel asked=off before=on after=off "
		   "tried=misc_enable:set,hwp_request:set");

	/* MISC_ENABLE ignores the write: HWP_REQUEST alone makes it off */
	f.m[0].val = MISC_FW;
	f.m[0].keeps = ~MSR_IA32_MISC_ENABLE_TURBO_DIS;
	f.m[4].val = HWP_REQ;
	f.nwrites = 0;
	boost_set(&b, BOOST_OFF, &c, fake_rd, fake_wr, &f);
	EXPECT_EQ(f.nwrites, 2);
	EXPECT_EQ(b.tried[BOOST_MISC_ENABLE], BOOST_TRY_IGNORED);
	EXPECT_EQ(b.tried[BOOST_PERF_CTL], BOOST_TRY_NONE);
	EXPECT_EQ(b.tried[BOOST_HWP_REQUEST], BOOST_TRY_SET);
	EXPECT_EQ(b.state_after, BOOST_STATE_OFF);

	/* on: the maximum at highest (0x30) */
	f.nwrites = 0;
	boost_set(&b, BOOST_ON, &c, fake_rd, fake_wr, &f);
	EXPECT_EQ(b.state_before, BOOST_STATE_OFF);
	EXPECT_EQ(b.tried[BOOST_MISC_ENABLE], BOOST_TRY_ALREADY);
	expect_write(&f, 0, 0x774, HWP_REQ);
	EXPECT_EQ(b.state_after, BOOST_STATE_ON);

	/* on, where the firmware's MISC_ENABLE[38] will not clear: the
	 * request's write takes, turbo stays off, and it says so */
	f.m[0].val = MISC_FW | (1ULL << 38);
	f.m[4].val = 0x0000000080001c08ULL;
	f.nwrites = 0;
	boost_set(&b, BOOST_ON, &c, fake_rd, fake_wr, &f);
	EXPECT_EQ(b.tried[BOOST_MISC_ENABLE], BOOST_TRY_IGNORED);
	EXPECT_EQ(b.tried[BOOST_HWP_REQUEST], BOOST_TRY_SET);
	EXPECT_EQ(b.state_after, BOOST_STATE_OFF);
	EXPECT(!boost_as_asked(&b) && b.why != NULL);
	f.m[0].val = MISC_FW;

	/* a minimum above guaranteed comes down with the maximum */
	f.m[4].val = 0x0000000080003030ULL;
	f.nwrites = 0;
	boost_set(&b, BOOST_OFF, &c, fake_rd, fake_wr, &f);
	EXPECT_EQ(f.nwrites, 2);	/* MISC_ENABLE (ignored) first */
	expect_write(&f, 1, 0x774, 0x0000000080001c1cULL);
	EXPECT_EQ(b.state_after, BOOST_STATE_OFF);
}

TEST(boost_intel_hwp_not_enabled)
{
	struct fake_cpu f = { 0 };
	struct boost_caps c;
	struct boost_cpu b;

	/* HWP exists but the firmware left it off: PERF_CTL governs */
	boost_caps_decode(&c, "GenuineIntel", IDA | HWP, 0);
	add(&f, MSR_IA32_MISC_ENABLE, MISC_FW)->keeps =
		~MSR_IA32_MISC_ENABLE_TURBO_DIS;
	add(&f, MSR_IA32_PERF_CTL, PERF_FW);
	add(&f, MSR_PM_ENABLE, 0);
	boost_set(&b, BOOST_OFF, &c, fake_rd, fake_wr, &f);
	EXPECT_EQ(b.tried[BOOST_PERF_CTL], BOOST_TRY_SET);
	EXPECT_EQ(b.tried[BOOST_HWP_REQUEST], BOOST_TRY_NONE);
	EXPECT(!(b.before.read & (1u << BOOST_HWP_CAP)));
	EXPECT_EQ(b.state_after, BOOST_STATE_OFF);
}

TEST(boost_intel_firmware_disabled)
{
	struct fake_cpu f = { 0 };
	struct boost_caps c;
	struct boost_cpu b;

	/* MISC_ENABLE[38] set by the firmware clears CPUID's IDA bit:
	 * turbo is there, off */
	boost_caps_decode(&c, "GenuineIntel", 0, 0);
	add(&f, MSR_IA32_MISC_ENABLE, MISC_FW | (1ULL << 38));
	add(&f, MSR_IA32_PERF_CTL, PERF_FW);
	boost_set(&b, BOOST_FIRMWARE, &c, fake_rd, fake_wr, &f);
	EXPECT_EQ(f.nwrites, 0);
	EXPECT(b.present);
	EXPECT_EQ(b.state_before, BOOST_STATE_OFF);
	EXPECT_EQ(b.state_after, BOOST_STATE_OFF);
	EXPECT(b.why == NULL);
	boost_set(&b, BOOST_ON, &c, fake_rd, fake_wr, &f);
	expect_write(&f, 0, 0x1a0, MISC_FW);
	EXPECT_EQ(b.state_after, BOOST_STATE_ON);

	/* neither: no turbo, nothing written */
	f.nwrites = 0;
	boost_set(&b, BOOST_OFF, &c, fake_rd, fake_wr, &f);
	EXPECT_EQ(f.nwrites, 0);
	EXPECT_EQ(b.state_after, BOOST_STATE_NONE);
	EXPECT_STR(b.why, "no turbo (CPUID 06H:EAX[1] and IA32_MISC_ENABLE[38] "
		   "clear)");
}

TEST(boost_firmware_writes_nothing)
{
	struct fake_cpu f = { 0 };
	struct boost_caps c;
	struct boost_cpu b;

	boost_caps_decode(&c, "GenuineIntel", IDA | HWP, 0);
	add(&f, MSR_IA32_MISC_ENABLE, MISC_FW);
	add(&f, MSR_IA32_PERF_CTL, PERF_FW);
	add(&f, MSR_PM_ENABLE, 1);
	add(&f, MSR_HWP_CAPABILITIES, HWP_CAP);
	add(&f, MSR_HWP_REQUEST, 0x0000000080001c08ULL);
	boost_set(&b, BOOST_FIRMWARE, &c, fake_rd, fake_wr, &f);
	EXPECT_EQ(f.nwrites, 0);
	EXPECT_EQ(b.before.read, 0x3e);	/* every Intel MSR, no HWCR */
	EXPECT_EQ(b.state_before, BOOST_STATE_OFF);	/* HWP max at guaranteed */
	EXPECT(boost_as_asked(&b));

	boost_caps_decode(&c, "CentaurHauls", IDA, CPB);
	boost_set(&b, BOOST_OFF, &c, fake_rd, fake_wr, &f);
	EXPECT_EQ(f.nwrites, 0);
	EXPECT_EQ(b.before.read, 0);
	EXPECT_EQ(b.state_after, BOOST_STATE_UNKNOWN);
	EXPECT(!boost_as_asked(&b));
}

TEST(boost_check_two_percent)
{
	struct boost_cpu b;

	memset(&b, 0, sizeof(b));
	b.mode = BOOST_OFF;
	boost_check(&b, true, 2040000, 2000000, NULL);
	EXPECT_EQ(b.check, BOOST_CHECK_OK);
	boost_check(&b, true, 2040001, 2000000, NULL);
	EXPECT_EQ(b.check, BOOST_CHECK_OVER);
	boost_check(&b, false, 0, 0, "no APERF/MPERF");
	EXPECT_EQ(b.check, BOOST_CHECK_UNMEASURED);
	EXPECT_STR(b.check_why, "cannot check: no APERF/MPERF");
	/* firmware is not checked; the figures are kept */
	b.mode = BOOST_FIRMWARE;
	boost_check(&b, true, 3500000, 2000000, NULL);
	EXPECT_EQ(b.check, BOOST_CHECK_NONE);
	EXPECT_EQ(b.eff_khz, 3500000);
}

/* An Intel CPU with HWP on (guaranteed 0x1c: 2.8 GHz), boost=off set. */
static void hwp_off(struct boost_cpu *b, struct fake_cpu *f, u64 pm_enable,
		    bool cap_gp)
{
	struct boost_caps c;

	memset(f, 0, sizeof(*f));
	boost_caps_decode(&c, "GenuineIntel", IDA | HWP, 0);
	add(f, MSR_IA32_MISC_ENABLE, MISC_FW);
	add(f, MSR_IA32_PERF_CTL, PERF_FW);
	add(f, MSR_PM_ENABLE, pm_enable);
	add(f, MSR_HWP_CAPABILITIES, HWP_CAP)->gp_read = cap_gp;
	add(f, MSR_HWP_REQUEST, HWP_REQ);
	boost_set(b, BOOST_OFF, &c, fake_rd, fake_wr, f);
}

TEST(boost_check_hwp_reference)
{
	struct fake_cpu f;
	struct boost_cpu b;
	u32 ref = ~0u;

	/* HWP's maximum at guaranteed (28 x 100 MHz) above a 2 GHz TSC:
	 * 2.85 GHz is within 2% of it, not 42% over nominal */
	hwp_off(&b, &f, 1, false);
	EXPECT_EQ(b.hwp_guaranteed, 0x1c);
	EXPECT_EQ(boost_reference(&b, 2000000, &ref), 2800000);
	EXPECT_EQ(ref, BOOST_REF_HWP_GUARANTEED);
	boost_check(&b, true, 2850000, 2000000, NULL);
	EXPECT_EQ(b.check, BOOST_CHECK_OK);
	EXPECT_EQ(b.ref, BOOST_REF_HWP_GUARANTEED);
	EXPECT_EQ(b.ref_khz, 2800000);
	EXPECT_EQ(b.nominal_khz, 2000000);
	boost_check(&b, true, 2856001, 2000000, NULL);
	EXPECT_EQ(b.check, BOOST_CHECK_OVER);

	/* guaranteed below the TSC's rate: the TSC stays the reference */
	EXPECT_EQ(boost_reference(&b, 3000000, &ref), 3000000);
	EXPECT_EQ(ref, BOOST_REF_TSC);
	boost_check(&b, true, 3070000, 3000000, NULL);
	EXPECT_EQ(b.check, BOOST_CHECK_OVER);
	EXPECT_EQ(b.ref, BOOST_REF_TSC);
	/* equal: the TSC's, the one that needs no unit */
	EXPECT_EQ(boost_reference(&b, 2800000, &ref), 2800000);
	EXPECT_EQ(ref, BOOST_REF_TSC);

	/* HWP present but not enabled: PERF_CTL governs, no guaranteed */
	hwp_off(&b, &f, 0, false);
	EXPECT_EQ(b.hwp_guaranteed, 0);
	boost_check(&b, true, 2850000, 2000000, NULL);
	EXPECT_EQ(b.ref, BOOST_REF_TSC);
	EXPECT_EQ(b.check, BOOST_CHECK_OVER);

	/* HWP_CAPABILITIES unreadable: no guaranteed to hold it against */
	hwp_off(&b, &f, 1, true);
	EXPECT_EQ(b.hwp_guaranteed, 0);
	EXPECT_EQ(boost_reference(&b, 2000000, &ref), 2000000);
	EXPECT_EQ(ref, BOOST_REF_TSC);

	/* unmeasured: no reference kept */
	hwp_off(&b, &f, 1, false);
	boost_check(&b, false, 0, 0, "MPERF did not count over the loop");
	EXPECT_EQ(b.ref_khz, 0);
	EXPECT_EQ(b.check, BOOST_CHECK_UNMEASURED);
}

static char rec_line[1200];

static void keep(void *ctx, const char *line)
{
	(void)ctx;
	strncpy(rec_line, line, sizeof(rec_line) - 1);
}

/* A config record with @b's fields alone, into rec_line */
static void config_rec(struct rec_writer *w, const struct boost_cpu *b)
{
	struct rec r;

	rec_begin(w, &r, "config");
	boost_rec_config(&r, b);
	rec_end(w, &r);
}

TEST(boost_records)
{
	struct fake_cpu f = { 0 };
	struct rec_writer w;
	struct boost_caps c;
	struct boost_cpu b;
	char *end;

	boost_caps_decode(&c, "AuthenticAMD", 0, CPB);
	add(&f, MSR_K7_HWCR, HWCR_FW);
	boost_set(&b, BOOST_OFF, &c, fake_rd, fake_wr, &f);
	boost_check(&b, true, 2100000, 2000000, NULL);
	rec_writer_init(&w, keep, NULL);
	boost_rec(&w, 3, &b);
	end = strstr(rec_line, " #");
	EXPECT(end != NULL);
	if (end)
		*end = '\0';
	EXPECT_STR(rec_line, "@hz1 1 boost cpu=3 asked=off vendor=amd cpb=1 "
		   "before=on after=off tried=hwcr:set hwcr_before=0x30010 "
		   "hwcr_after=0x2030010 eff_khz=2100000 nominal_khz=2000000 "
		   "ref=tsc ref_khz=2000000 check=over check_by=aperf-mperf");

	config_rec(&w, &b);
	EXPECT(strstr(rec_line, "config boost_state=off boost_check=over "
		      "boost_eff_khz=2100000 boost_ref=tsc #") != NULL, "%s",
	       rec_line);

	/* a faulted read says so; firmware has no after */
	f.m[0].gp_read = true;
	boost_set(&b, BOOST_FIRMWARE, &c, fake_rd, fake_wr, &f);
	boost_check(&b, false, 0, 0, "no APERF/MPERF (CPUID 06H:ECX[0] clear)");
	boost_rec(&w, 0, &b);
	EXPECT(strstr(rec_line, "before=unknown after=unknown tried=none "
		      "hwcr_before=fault eff_why=\"no APERF/MPERF (CPUID 06H:ECX[0] "
		      "clear)\" #") != NULL, "%s", rec_line);
	config_rec(&w, &b);
	EXPECT(strstr(rec_line, "config boost_state=unknown #") != NULL, "%s",
	       rec_line);
}

TEST(boost_records_hwp_reference)
{
	struct fake_cpu f;
	struct rec_writer w;
	struct boost_cpu b;

	hwp_off(&b, &f, 1, false);
	boost_check(&b, true, 2850000, 2000000, NULL);
	rec_writer_init(&w, keep, NULL);
	boost_rec(&w, 1, &b);
	EXPECT(strstr(rec_line, " hwp_guaranteed=28 eff_khz=2850000 "
		      "nominal_khz=2000000 ref=hwp-guaranteed ref_khz=2800000 "
		      "check=ok check_by=aperf-mperf #") != NULL, "%s", rec_line);
	config_rec(&w, &b);
	EXPECT(strstr(rec_line, "config boost_state=off boost_check=ok "
		      "boost_eff_khz=2850000 boost_ref=hwp-guaranteed #") != NULL,
	       "%s", rec_line);
}

/*
 * boost=on: the busy CPU must run more than BOOST_OVER_PCT over its
 * reference, else boost did not take effect (under); measured by
 * APERF/MPERF, faked here as the readings the kernel's loop would take.
 */
TEST(boost_check_on_took_effect_or_not)
{
	struct boost_cpu b;
	char say[320];

	memset(&b, 0, sizeof(b));
	b.mode = BOOST_ON;
	boost_check(&b, true, 3100000, 2000000, NULL);
	EXPECT_EQ(b.check, BOOST_CHECK_OK);
	EXPECT_EQ(b.check_by, BOOST_BY_APERF_MPERF);
	EXPECT_EQ(boost_check_say(&b, 0, say, sizeof(say)), 0);
	boost_check(&b, true, 2040001, 2000000, NULL);
	EXPECT_EQ(b.check, BOOST_CHECK_OK);
	boost_check(&b, true, 2040000, 2000000, NULL);	/* 2 %: not over */
	EXPECT_EQ(b.check, BOOST_CHECK_UNDER);
	EXPECT(boost_check_say(&b, 5, say, sizeof(say)) > 0);
	EXPECT_STR(say, "WARNING: cpu 5: boost=on did not take effect: it ran "
		   "2040000 kHz busy, not more than 2% over its reference "
		   "2000000 kHz (tsc); its config records say boost_check=under");
	/* no APERF/MPERF (QEMU's TCG, most VMs): it cannot say, and says so */
	boost_check(&b, false, 0, 2000000,
		    "no APERF/MPERF (CPUID 06H:ECX[0] clear)");
	EXPECT_EQ(b.check, BOOST_CHECK_UNMEASURED);
	EXPECT_EQ(b.check_by, BOOST_BY_NONE);
	EXPECT(boost_check_say(&b, 0, say, sizeof(say)) > 0);
	EXPECT_STR(say, "cpu 0: boost=on cannot check: no APERF/MPERF (CPUID "
		   "06H:ECX[0] clear): whether it took effect is not known");
}

/* Intel without HWP and no APERF/MPERF: the ratio PERF_CTL asks. */
static void intel_perf_ctl(struct boost_cpu *b, u64 perf_ctl, bool hwp)
{
	memset(b, 0, sizeof(*b));
	b->mode = BOOST_ON;
	b->caps.vendor = BOOST_VENDOR_INTEL;
	b->caps.hwp = hwp;
	b->after.read = 1u << BOOST_PERF_CTL | 1u << BOOST_PM_ENABLE;
	b->after.v[BOOST_PERF_CTL] = perf_ctl;
	b->after.v[BOOST_PM_ENABLE] = hwp;
	boost_check(b, false, 0, 2095000, "no APERF/MPERF (CPUID 06H:ECX[0] clear)");
}

TEST(boost_check_on_by_perf_ctl)
{
	struct boost_cpu b;
	char say[320];

	intel_perf_ctl(&b, 0x2300, false);	/* ratio 35 over base 21 */
	EXPECT_EQ(b.check, BOOST_CHECK_OK);
	EXPECT_EQ(b.check_by, BOOST_BY_PERF_CTL);
	EXPECT_EQ(b.ratio_asked, 35);
	EXPECT_EQ(b.ratio_base, 21);		/* 2095 MHz, rounded */
	EXPECT_EQ(boost_check_say(&b, 0, say, sizeof(say)), 0);
	intel_perf_ctl(&b, 0x1500, false);	/* the base ratio: no turbo */
	EXPECT_EQ(b.check, BOOST_CHECK_UNDER);
	EXPECT(boost_check_say(&b, 2, say, sizeof(say)) > 0);
	EXPECT_STR(say, "WARNING: cpu 2: boost=on did not take effect: no "
		   "APERF/MPERF (CPUID 06H:ECX[0] clear); by IA32_PERF_CTL: "
		   "ratio 21 asked, not above the base ratio 21 (the TSC's "
		   "rate), so turbo is never asked for; its config records "
		   "say boost_check=under");
	/* a PERF_CTL never written asks nothing: unmeasured, said */
	intel_perf_ctl(&b, 0, false);
	EXPECT_EQ(b.check, BOOST_CHECK_UNMEASURED);
	EXPECT(strstr(b.check_why, "cannot check: no APERF/MPERF") == b.check_why);
	EXPECT(strstr(b.check_why, "; IA32_PERF_CTL asks no ratio (0)") != NULL,
	       "%s", b.check_why);
	/* HWP on: PERF_CTL is ignored by the hardware, so not read as asked */
	intel_perf_ctl(&b, 0x2300, true);
	EXPECT_EQ(b.check, BOOST_CHECK_UNMEASURED);
	EXPECT_EQ(b.check_by, BOOST_BY_NONE);
	/* boost=off keeps APERF/MPERF's check alone */
	intel_perf_ctl(&b, 0x2300, false);
	b.mode = BOOST_OFF;
	boost_check(&b, false, 0, 2095000, "no APERF/MPERF");
	EXPECT_EQ(b.check, BOOST_CHECK_UNMEASURED);
}

TEST(boost_records_perf_ctl)
{
	struct rec_writer w;
	struct boost_cpu b;

	intel_perf_ctl(&b, 0x1500, false);
	rec_writer_init(&w, keep, NULL);
	boost_rec(&w, 0, &b);
	EXPECT(strstr(rec_line, " check=under check_by=perf-ctl "
		      "perf_ctl_ratio=21 base_ratio=21 eff_why=") != NULL, "%s",
	       rec_line);
	config_rec(&w, &b);
	EXPECT(strstr(rec_line, " boost_check=under #") != NULL, "%s", rec_line);
}

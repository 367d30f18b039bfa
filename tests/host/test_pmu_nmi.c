// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host tests of lib/pmu_nmi.c, the NMI watchdog's cycle counter, against
 * a fake PMU: a model of the counters below the MSR writes (Intel's
 * 32-bit sign-extended counter writes, AMD's full ones, the global enable
 * and overflow status, an interrupt on each wrap of a counter whose
 * select asks for one).  This machine has no PMU to run it on: the model
 * is the layer the kernel's arch/x86_64/pmu_nmi.c writes to.
 */
#include "lib/pmu_nmi.h"
#include "lib/string.h"
#include "tests/host/unit.h"

struct fake_pmu {
	const struct pmu_caps *c;
	u64 sel[8], ctr[8], global, status;
	u32 pmis;			/* interrupts raised */
	u32 writes;
};

static u64 width_mask(const struct fake_pmu *f)
{
	return (1ULL << f->c->general_width) - 1;
}

static bool fake_wr(void *ctx, u32 msr, u64 val)
{
	struct fake_pmu *f = ctx;
	const struct pmu_caps *c = f->c;

	f->writes++;
	for (u32 n = 0; n < c->ngeneral && n < 8; n++) {
		if (msr == pmu_sel_msr(c, n)) {
			f->sel[n] = val;
			return true;
		}
		if (msr == pmu_ctr_msr(c, n)) {
			if (c->vendor == PMU_VENDOR_INTEL)	/* sign-extended */
				val = (u64)(s64)(s32)(u32)val;
			f->ctr[n] = val & width_mask(f);
			return true;
		}
	}
	if (c->global_ctrl && msr == pmu_global_msr(c))
		f->global = val;
	else if (msr == MSR_CORE_PERF_GLOBAL_OVF_CTRL ||
		 msr == MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR)
		f->status &= ~val;
	else if (msr != MSR_IA32_FIXED_CTR_CTRL &&
		 (msr < MSR_IA32_FIXED_CTR0 || msr > MSR_IA32_FIXED_CTR0 + 2))
		return false;	/* an MSR this model lacks: #GP */
	return true;
}

static bool counting(const struct fake_pmu *f, u32 n)
{
	return (f->sel[n] & PMU_SEL_EN) &&
	       (!f->c->global_ctrl || (f->global & (1ULL << n)));
}

/* @cycles pass: every counting counter advances, one wrap each at most. */
static void run(struct fake_pmu *f, u64 cycles)
{
	for (u32 n = 0; n < f->c->ngeneral && n < 8; n++) {
		u64 v;

		if (!counting(f, n))
			continue;
		v = f->ctr[n] + cycles;
		if (v > width_mask(f)) {
			if (f->c->global_ctrl)	/* a global status: v2 on */
				f->status |= 1ULL << n;
			f->pmis += !!(f->sel[n] & PMU_SEL_INT);
		}
		f->ctr[n] = v & width_mask(f);
	}
}

/* What the NMI handler does: was it ours, and if so re-armed. */
static bool nmi(struct fake_pmu *f, const struct pmu_nmi *w)
{
	if (!pmu_nmi_overflowed(w, f->ctr[w->counter]))
		return false;
	EXPECT_EQ(pmu_apply(w->rearm, w->nrearm, fake_wr, f), w->nrearm);
	return true;
}

/* Start @w and check three periods give three NMIs, exactly at each. */
static void fires_each_period(const struct pmu_caps *c, u64 period,
			      u64 want_period)
{
	struct fake_pmu f = { .c = c };
	struct pmu_nmi w;
	char why[96] = "";

	EXPECT(pmu_nmi_plan(c, period, &w, why, sizeof(why)), "%s", why);
	EXPECT_EQ(w.period, want_period);
	EXPECT_EQ(w.counter, c->ngeneral - 1);
	EXPECT_EQ(pmu_apply(w.start, w.nstart, fake_wr, &f), w.nstart);
	for (u32 i = 1; i <= 3; i++) {
		run(&f, w.period - 1);
		EXPECT(!nmi(&f, &w), "period %u: overflowed a cycle early", i);
		EXPECT_EQ(f.pmis, i - 1);
		run(&f, 1);
		EXPECT_EQ(f.pmis, i);
		EXPECT(nmi(&f, &w), "period %u: the NMI not taken as ours", i);
		EXPECT_EQ(f.ctr[w.counter], w.reload);
		EXPECT_EQ(f.status, 0);
	}
	EXPECT_EQ(pmu_apply(w.off, w.noff, fake_wr, &f), w.noff);
	run(&f, w.period * 2);
	EXPECT_EQ(f.pmis, 3);
}

TEST(pmu_nmi_intel_icelake)
{
	struct pmu_caps c;

	memset(&c, 0, sizeof(c));
	pmu_caps_intel(&c, 6, 0x07300804, 0, 0, 0x603);
	/* 3 GHz for a second does not fit a 32-bit signed write */
	fires_each_period(&c, 3000000000ULL, PMU_NMI_INTEL_MAX_PERIOD);
	fires_each_period(&c, 1000000, 1000000);
}

TEST(pmu_nmi_amd_genoa_and_k8)
{
	struct pmu_caps c;

	memset(&c, 0, sizeof(c));
	pmu_caps_amd(&c, 0x19, 1u << 23, 1, 6);	/* PerfMonV2, 6 counters */
	EXPECT(c.global_ctrl);
	fires_each_period(&c, 3000000000ULL, 3000000000ULL);
	memset(&c, 0, sizeof(c));
	pmu_caps_amd(&c, 0x10, 0, 0, 0);		/* 4 legacy counters */
	EXPECT(!c.global_ctrl);
	fires_each_period(&c, 2000000000ULL, 2000000000ULL);
}

/* The bench's plans share the PMU: they never take the watchdog's
 * counter, and starting and stopping them leaves it counting. */
TEST(pmu_nmi_reserved_from_plans)
{
	static const char *const names[] = {
		"instructions", "cycles", "l1d-loads", "l1d-misses",
		"branches", "branch-misses",
	};
	struct pmu_caps c;
	struct fake_pmu f = { .c = &c };
	struct pmu_nmi w;
	struct pmu_plan p;
	char why[96];
	bool skipped = false;

	memset(&c, 0, sizeof(c));
	pmu_caps_amd(&c, 0x19, 1u << 23, 1, 6);
	EXPECT(pmu_nmi_plan(&c, 1000, &w, why, sizeof(why)));
	pmu_nmi_reserve(&c, &w);
	EXPECT_EQ(pmu_apply(w.start, w.nstart, fake_wr, &f), w.nstart);
	pmu_plan_make(&c, names, ARRAY_SIZE(names), &p);
	for (u32 i = 0; i < p.nslots; i++) {
		if (p.slots[i].skip && strstr(p.slots[i].skip, "NMI watchdog"))
			skipped = true;
		EXPECT(p.slots[i].skip || p.slots[i].counter != w.counter,
		       "%s placed on the watchdog's counter", p.slots[i].name);
	}
	EXPECT(skipped, "no event said the watchdog holds a counter");
	EXPECT_EQ(p.ncounted, 5);
	EXPECT_EQ(pmu_apply(p.writes, p.nwrites, fake_wr, &f), p.nwrites);
	run(&f, 1000);
	EXPECT_EQ(f.pmis, 1);
	EXPECT(nmi(&f, &w));
	EXPECT_EQ(pmu_apply(p.off, p.noff, fake_wr, &f), p.noff);
	run(&f, 1000);
	EXPECT_EQ(f.pmis, 2);
	/* a second watchdog finds the next counter down */
	EXPECT(pmu_nmi_plan(&c, 1000, &w, why, sizeof(why)));
	EXPECT_EQ(w.counter, 4);
}

TEST(pmu_nmi_refused)
{
	struct pmu_caps c;
	struct pmu_nmi w;
	char why[96];

	memset(&c, 0, sizeof(c));
	pmu_caps_none(&c, "no PMU: vendor 'X' is not Intel, AMD or Hygon");
	EXPECT(!pmu_nmi_plan(&c, 1000, &w, why, sizeof(why)));
	EXPECT_STR(why, "no PMU: vendor 'X' is not Intel, AMD or Hygon");
	memset(&c, 0, sizeof(c));
	pmu_caps_intel(&c, 6, 0x07300804, 1, 0, 0x603);	/* no core cycles */
	EXPECT(!pmu_nmi_plan(&c, 1000, &w, why, sizeof(why)));
	EXPECT(strstr(why, "core-cycles") != NULL, "%s", why);
	memset(&c, 0, sizeof(c));
	pmu_caps_amd(&c, 0x10, 0, 0, 0);
	c.fw.mask = 0xf;				/* the firmware's, all */
	EXPECT(!pmu_nmi_plan(&c, 1000, &w, why, sizeof(why)));
	EXPECT(strstr(why, "firmware") != NULL, "%s", why);
}

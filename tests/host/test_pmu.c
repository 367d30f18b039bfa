// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host tests of lib/pmu.c: the plans' MSR sequences, replayed through a
 * fake MSR layer that records each write in order, the RDPMC indices and
 * the skips.
 */
#include "lib/pmu.h"
#include "lib/string.h"
#include "tests/host/unit.h"

struct fake_msrs {
	u32 n, refuse_at;	/* refuse_at: 1-based write to refuse; 0 none */
	struct pmu_write w[PMU_MAX_WRITES];
};

static bool record(void *ctx, u32 msr, u64 val)
{
	struct fake_msrs *f = ctx;

	if (f->refuse_at && f->n + 1 == f->refuse_at)
		return false;
	f->w[f->n].msr = msr;
	f->w[f->n].val = val;
	f->n++;
	return true;
}

static void expect_writes(const struct pmu_write *w, u32 n,
			  const struct pmu_write *want, u32 nwant,
			  const char *what)
{
	struct fake_msrs f = { 0, 0, { { 0, 0 } } };

	EXPECT_EQ(pmu_apply(w, n, record, &f), n);
	EXPECT(f.n == nwant, "%s: %u writes, expected %u", what, f.n, nwant);
	for (u32 i = 0; i < f.n && i < nwant; i++)
		EXPECT(f.w[i].msr == want[i].msr && f.w[i].val == want[i].val,
		       "%s write %u: (%#x, %#llx), expected (%#x, %#llx)", what,
		       i, f.w[i].msr, (unsigned long long)f.w[i].val,
		       want[i].msr, (unsigned long long)want[i].val);
}

#define EXPECT_WRITES(plan, ...)					\
	do {								\
		static const struct pmu_write _w[] = { __VA_ARGS__ };	\
		expect_writes((plan)->writes, (plan)->nwrites, _w,	\
			      ARRAY_SIZE(_w), "writes");		\
	} while (0)
#define EXPECT_OFF(plan, ...)						\
	do {								\
		static const struct pmu_write _w[] = { __VA_ARGS__ };	\
		expect_writes((plan)->off, (plan)->noff, _w,		\
			      ARRAY_SIZE(_w), "off");			\
	} while (0)

/* CPUID 0AH: version 4, 8 general counters of 48 bits, 7 architectural
 * events all present, 3 fixed counters of 48 bits (an Icelake server). */
static void icelake(struct pmu_caps *c)
{
	pmu_caps_intel(c, 6, 0x07300804, 0, 0, 0x603);
}

TEST(pmu_names)
{
	EXPECT_EQ(pmu_event_index("instructions", 12), 0);
	EXPECT_EQ(pmu_event_index("branch-misses", 13), pmu_nevents - 1);
	EXPECT_EQ(pmu_event_index("cycle", 5), -1);
	for (u32 i = 0; i < pmu_nevents; i++)
		EXPECT_STR(pmu_event_names[i], pmu_events[i].name);
	EXPECT(pmu_event_names[pmu_nevents] == NULL);
}

TEST(pmu_caps_intel_decode)
{
	struct pmu_caps c;

	icelake(&c);
	EXPECT(c.none == NULL);
	EXPECT_EQ(c.version, 4);
	EXPECT_EQ(c.ngeneral, 8);
	EXPECT_EQ(c.general_width, 48);
	EXPECT_EQ(c.fixed_mask, 7);
	EXPECT_EQ(c.fixed_width, 48);
	EXPECT_EQ(c.arch_len, 7);
	EXPECT(c.global_ctrl);
	/* version 5: ECX adds fixed counters beyond EDX's count */
	pmu_caps_intel(&c, 6, 0x07300805, 0, 0x4, 0x602);
	EXPECT_EQ(c.fixed_mask, 7);
	EXPECT_EQ(c.nfixed, 2);
	/* EDX[4:0] of 31, the most it can say, and of 4 (a Sapphire
	 * Rapids): the inventory says so, plans use the three hugezero
	 * knows */
	pmu_caps_intel(&c, 6, 0x07300805, 0x10, 0xf, 0x604 | (31u << 0));
	EXPECT_EQ(c.nfixed, 31);
	EXPECT_EQ(c.fixed_mask, 7);
	EXPECT_EQ(c.arch_unavail, 0x10);
	pmu_caps_intel(&c, 6, 0x07300805, 0, 0, 0x604);
	EXPECT_EQ(c.nfixed, 4);
	EXPECT_EQ(c.fixed_width, 48);
	pmu_caps_intel(&c, 6, 0x07300201, 0, 0, 0);
	EXPECT_EQ(c.fixed_mask, 0);
	EXPECT_EQ(c.nfixed, 0);
	EXPECT(!c.global_ctrl);
}

TEST(pmu_intel_plan)
{
	static const char *const ev[] = {
		"instructions", "cycles", "ref-cycles", "llc-misses",
		"branches", "l1d-loads",
	};
	struct pmu_caps c;
	struct pmu_plan p;

	icelake(&c);
	EXPECT_EQ(pmu_plan_make(&c, ev, ARRAY_SIZE(ev), &p), 5);
	EXPECT_EQ(p.nslots, 6);
	EXPECT_WRITES(&p,
		{ 0x38f, 0 },			/* GLOBAL_CTRL off */
		{ 0x38d, 0x333 },		/* fixed 0-2: OS | USR */
		{ 0x186, 0x43412e },		/* LLC misses, EN|OS|USR */
		{ 0x187, 0x4300c4 },		/* branches */
		{ 0x309, 0 }, { 0x30a, 0 }, { 0x30b, 0 },
		{ 0xc1, 0 }, { 0xc2, 0 },
		{ 0x38f, 0x700000003ULL });	/* fixed 0-2, PMC0-1 on */
	EXPECT_OFF(&p, { 0x38f, 0 }, { 0x38d, 0 }, { 0x186, 0 }, { 0x187, 0 });
	EXPECT_EQ(p.slots[0].rdpmc, 0x40000000);
	EXPECT_EQ(p.slots[1].rdpmc, 0x40000001);
	EXPECT_EQ(p.slots[2].rdpmc, 0x40000002);
	EXPECT_EQ(p.slots[3].rdpmc, 0);
	EXPECT_EQ(p.slots[4].rdpmc, 1);
	EXPECT(p.slots[2].fixed && !p.slots[3].fixed);
	EXPECT_STR(p.slots[5].skip, "Intel: not an architectural event");
	EXPECT_EQ(p.slots[0].width, 48);
	EXPECT_EQ(pmu_value(&p.slots[0], 0xffff000000000005ULL), 5);
}

TEST(pmu_intel_no_free_counter)
{
	static const char *const ev[] = {
		"llc-references", "llc-misses", "branches", "cycles",
	};
	struct pmu_caps c;
	struct pmu_plan p;

	/* version 2, 2 general counters, 1 fixed: cycles has no fixed
	 * counter 1, and the two general ones are taken */
	pmu_caps_intel(&c, 6, 0x07300202, 0, 0, 0x601);
	EXPECT_EQ(c.fixed_mask, 1);
	EXPECT_EQ(pmu_plan_make(&c, ev, ARRAY_SIZE(ev), &p), 2);
	EXPECT_STR(p.slots[2].skip, "no free counter: every general counter is taken");
	EXPECT_STR(p.slots[3].skip, "no free counter: every general counter is taken");
	EXPECT_WRITES(&p,
		{ 0x38f, 0 }, { 0x38d, 0 },
		{ 0x186, 0x434f2e }, { 0x187, 0x43412e },
		{ 0xc1, 0 }, { 0xc2, 0 },
		{ 0x38f, 0x3 });
}

TEST(pmu_intel_ref_cycles_fixed_only)
{
	static const char *const ev[] = { "ref-cycles", "cycles" };
	struct pmu_caps c;
	struct pmu_plan p;

	/* version 2, 4 general counters, 2 fixed: no fixed counter 2, and
	 * the general 0x013c (REF_XCLK) is another clock: skipped */
	pmu_caps_intel(&c, 6, 0x07300402, 0, 0, 0x602);
	EXPECT_EQ(c.fixed_mask, 3);
	EXPECT_EQ(pmu_plan_make(&c, ev, ARRAY_SIZE(ev), &p), 1);
	EXPECT_STR(p.slots[0].skip,
		   "Intel: ref-cycles needs fixed counter 2, which this CPU lacks");
	EXPECT(p.slots[1].fixed);
	EXPECT_WRITES(&p,
		{ 0x38f, 0 }, { 0x38d, 0x30 },	/* fixed 1: OS | USR */
		{ 0x30a, 0 },
		{ 0x38f, 0x200000000ULL });
	/* version 1: no fixed counters at all */
	pmu_caps_intel(&c, 6, 0x07280201, 0, 0, 0);
	EXPECT_EQ(pmu_plan_make(&c, ev, 1, &p), 0);
	EXPECT_STR(p.slots[0].skip,
		   "Intel: ref-cycles needs fixed counter 2, which this CPU lacks");
}

TEST(pmu_kernel_samples_four)
{
	static const char *const ev[] = {
		"instructions", "l1d-loads", "cycles", "ref-cycles",
		"llc-references", "llc-misses", "branches",
	};
	struct pmu_caps c;
	struct pmu_plan p;

	/* The kernel's plan: l1d-loads has no Intel encoding (skipped
	 * first, as the companion does), then four are counted and the
	 * rest skipped with the companion's words, so that pmu_counted
	 * names only what is sampled. */
	icelake(&c);
	EXPECT_EQ(pmu_plan_make_sampled(&c, ev, ARRAY_SIZE(ev), &p), 4);
	EXPECT_EQ(p.nslots, 7);
	EXPECT_STR(p.slots[1].skip, "Intel: not an architectural event");
	EXPECT(!p.slots[4].skip);
	EXPECT_STR(p.slots[5].skip, pmu_no_room);
	EXPECT_STR(p.slots[6].skip, pmu_no_room);
	EXPECT_STR(pmu_no_room, "the first 4 events that can be counted are "
		   "sampled, by the kernel and the companion alike");
	/* Nothing programmed for them: one general counter, PMC0 */
	EXPECT_WRITES(&p,
		{ 0x38f, 0 }, { 0x38d, 0x333 },
		{ 0x186, 0x434f2e },
		{ 0x309, 0 }, { 0x30a, 0 }, { 0x30b, 0 }, { 0xc1, 0 },
		{ 0x38f, 0x700000001ULL });
}

TEST(pmu_intel_version1_and_unavailable)
{
	static const char *const ev[] = { "instructions", "llc-misses", "cycles" };
	struct pmu_caps c;
	struct pmu_plan p;

	/* version 1: no fixed counters, no global control; EBX bit 4: no
	 * LLC misses */
	pmu_caps_intel(&c, 6, 0x07280201, 1u << 4, 0, 0);
	EXPECT_EQ(pmu_plan_make(&c, ev, ARRAY_SIZE(ev), &p), 2);
	EXPECT_STR(p.slots[1].skip, "Intel: CPUID 0AH EBX says this CPU lacks it");
	EXPECT_WRITES(&p,
		{ 0x186, 0x300c0 }, { 0x187, 0x3003c },	/* configured, off */
		{ 0xc1, 0 }, { 0xc2, 0 },
		{ 0x186, 0x4300c0 }, { 0x187, 0x43003c });	/* EN: start */
	EXPECT_OFF(&p, { 0x186, 0 }, { 0x187, 0 });
	EXPECT_EQ(p.slots[0].rdpmc, 0);
	EXPECT_EQ(p.slots[2].rdpmc, 1);
	EXPECT_EQ(p.slots[0].width, 40);
}

TEST(pmu_amd_legacy)
{
	static const char *const ev[] = {
		"instructions", "cycles", "l1d-misses", "fills-dram",
		"llc-misses",
	};
	struct pmu_caps c;
	struct pmu_plan p;

	pmu_caps_amd(&c, 0x10, 0, 0, 0);
	EXPECT_EQ(c.ngeneral, 4);
	EXPECT_EQ(pmu_plan_make(&c, ev, ARRAY_SIZE(ev), &p), 3);
	EXPECT_WRITES(&p,
		{ 0xc0010000, 0x300c0 }, { 0xc0010001, 0x30076 },
		{ 0xc0010002, 0x30141 },
		{ 0xc0010004, 0 }, { 0xc0010005, 0 }, { 0xc0010006, 0 },
		{ 0xc0010000, 0x4300c0 }, { 0xc0010001, 0x430076 },
		{ 0xc0010002, 0x430141 });
	EXPECT_OFF(&p, { 0xc0010000, 0 }, { 0xc0010001, 0 }, { 0xc0010002, 0 });
	EXPECT_EQ(p.slots[2].rdpmc, 2);
	EXPECT_STR(p.slots[3].skip, "AMD: no encoding before family 17h");
	EXPECT_STR(p.slots[4].skip, "AMD: no encoding for it");
}

TEST(pmu_amd_extended)
{
	static const char *const ev[] = {
		"instructions", "cycles", "l1d-loads", "l1d-misses",
		"fills-dram", "branches", "branch-misses",
	};
	struct pmu_caps c;
	struct pmu_plan p;

	pmu_caps_amd(&c, 0x19, 1u << 23, 0, 0);
	EXPECT_EQ(c.ngeneral, 6);
	EXPECT(!c.global_ctrl);
	EXPECT_EQ(pmu_plan_make(&c, ev, ARRAY_SIZE(ev), &p), 6);
	EXPECT_WRITES(&p,
		{ 0xc0010200, 0x300c0 }, { 0xc0010202, 0x30076 },
		{ 0xc0010204, 0x30040 }, { 0xc0010206, 0x3c860 },
		{ 0xc0010208, 0x34843 }, { 0xc001020a, 0x300c2 },
		{ 0xc0010201, 0 }, { 0xc0010203, 0 }, { 0xc0010205, 0 },
		{ 0xc0010207, 0 }, { 0xc0010209, 0 }, { 0xc001020b, 0 },
		{ 0xc0010200, 0x4300c0 }, { 0xc0010202, 0x430076 },
		{ 0xc0010204, 0x430040 }, { 0xc0010206, 0x43c860 },
		{ 0xc0010208, 0x434843 }, { 0xc001020a, 0x4300c2 });
	for (u32 i = 0; i < 6; i++)
		EXPECT_EQ(p.slots[i].rdpmc, i);
	EXPECT_STR(p.slots[6].skip, "no free counter: every general counter is taken");
}

TEST(pmu_amd_perfmon_v2)
{
	static const char *const ev[] = { "instructions", "cycles" };
	struct pmu_caps c;
	struct pmu_plan p;

	/* Genoa: PerfMonV2 (80000022h EAX[0]), NumCorePmc 6 */
	pmu_caps_amd(&c, 0x19, 1u << 23, 1, 6);
	EXPECT(c.global_ctrl);
	EXPECT_EQ(pmu_plan_make(&c, ev, ARRAY_SIZE(ev), &p), 2);
	EXPECT_WRITES(&p,
		{ 0xc0000301, 0 },
		{ 0xc0010200, 0x4300c0 }, { 0xc0010202, 0x430076 },
		{ 0xc0010201, 0 }, { 0xc0010203, 0 },
		{ 0xc0000301, 0x3 });
	EXPECT_OFF(&p, { 0xc0000301, 0 }, { 0xc0010200, 0 }, { 0xc0010202, 0 });
}

TEST(pmu_no_pmu)
{
	static const char *const ev[] = { "instructions", "cycles", "bogus" };
	struct pmu_caps c;
	struct pmu_plan p;

	/* QEMU TCG with an Intel vendor string: CPUID 0AH all zero */
	pmu_caps_intel(&c, 6, 0, 0, 0, 0);
	EXPECT_EQ(pmu_plan_make(&c, ev, ARRAY_SIZE(ev), &p), 0);
	EXPECT_EQ(p.nwrites, 0);
	EXPECT_EQ(p.noff, 0);
	EXPECT_STR(p.slots[0].skip, "no PMU: CPUID 0AH reports version 0");
	EXPECT_STR(p.slots[1].skip, "no PMU: CPUID 0AH reports version 0");
	EXPECT_STR(p.slots[2].skip, "unknown event");
	pmu_caps_none(&c, "no PMU: vendor CentaurHauls");
	EXPECT_EQ(pmu_plan_make(&c, ev, 2, &p), 0);
	EXPECT_STR(p.slots[1].skip, "no PMU: vendor CentaurHauls");
}

TEST(pmu_duplicates_and_refused_writes)
{
	static const char *const ev[] = { "cycles", "cycles" };
	struct fake_msrs f = { 0, 3, { { 0, 0 } } };
	struct pmu_caps c;
	struct pmu_plan p;

	icelake(&c);
	EXPECT_EQ(pmu_plan_make(&c, ev, ARRAY_SIZE(ev), &p), 1);
	EXPECT_STR(p.slots[1].skip, "listed twice");
	EXPECT_WRITES(&p, { 0x38f, 0 }, { 0x38d, 0x30 }, { 0x30a, 0 },
		      { 0x38f, 0x200000000ULL });
	/* a write the MSR layer refuses stops the sequence there */
	EXPECT_EQ(pmu_apply(p.writes, p.nwrites, record, &f), 2);
	EXPECT_EQ(f.n, 2);
}

/*
 * A fake MSR space for pmu_caps_check(): what each MSR holds, which
 * fault, and whether the counters keep what is written (QEMU's TCG: no).
 */
struct fake_space {
	u32 n;
	u32 msr[16];
	u64 val[16];
	u32 fault;		/* an MSR whose every access faults; 0 none */
	bool ignore_writes;	/* writes vanish, reads give 0 */
	u32 reads, writes;
};

static u64 *slot(struct fake_space *f, u32 msr)
{
	for (u32 i = 0; i < f->n; i++)
		if (f->msr[i] == msr)
			return &f->val[i];
	if (f->n == ARRAY_SIZE(f->msr))
		return NULL;
	f->msr[f->n] = msr;
	f->val[f->n] = 0;
	return &f->val[f->n++];
}

static bool space_rd(void *ctx, u32 msr, u64 *val)
{
	struct fake_space *f = ctx;
	u64 *v = slot(f, msr);

	f->reads++;
	if (msr == f->fault || !v)
		return false;
	*val = f->ignore_writes ? 0 : *v;
	return true;
}

static bool space_wr(void *ctx, u32 msr, u64 val)
{
	struct fake_space *f = ctx;
	u64 *v = slot(f, msr);

	f->writes++;
	if (msr == f->fault || !v)
		return false;
	if (!f->ignore_writes)
		*v = val;
	return true;
}

TEST(pmu_check_clean_amd)
{
	struct fake_space f = { 0 };
	struct pmu_caps c;

	/* PerfCtr5 (the last free one, as Linux's reg_safe) holds a value */
	*slot(&f, 0xc001020b) = 0x80001234ULL;
	pmu_caps_amd(&c, 0x19, 1u << 23, 1, 6);
	pmu_caps_check(&c, false, space_rd, space_wr, &f);
	EXPECT(c.none == NULL, "none: %s", c.none);
	EXPECT_EQ(c.fw.mask, 0);
	/* six selects read; PerfCtr5 read, written, read back, restored */
	EXPECT_EQ(f.reads, 8);
	EXPECT_EQ(f.writes, 2);
	EXPECT_EQ(*slot(&f, 0xc001020b), 0x80001234ULL);
	EXPECT_EQ(f.n, 7);	/* no other counter touched */
}

TEST(pmu_check_tcg_keeps_nothing)
{
	static const char *const ev[] = { "cycles" };
	struct fake_space f = { .ignore_writes = true };
	struct pmu_caps c;
	struct pmu_plan p;

	pmu_caps_amd(&c, 0x17, 1u << 23, 0, 0);
	pmu_caps_check(&c, true, space_rd, space_wr, &f);
	EXPECT_STR(c.none, "no core performance counters: a counter did not keep a "
		   "written value under a hypervisor");
	EXPECT_EQ(pmu_plan_make(&c, ev, 1, &p), 0);
	EXPECT_EQ(p.nwrites, 0);
	EXPECT_STR(p.slots[0].skip, c.none);
	/* a value that already reads as the probe would: the probe differs */
	memset(&f, 0, sizeof(f));
	f.ignore_writes = true;
	pmu_caps_amd(&c, 0x17, 0, 0, 0);
	pmu_caps_check(&c, false, space_rd, space_wr, &f);
	EXPECT_STR(c.none, "no core performance counters: a counter did not keep a "
		   "written value (broken PMU hardware, Linux says)");
}

TEST(pmu_check_msr_faults)
{
	struct fake_space f = { .fault = 0x188 };	/* PERFEVTSEL2 */
	struct pmu_caps c;

	icelake(&c);
	pmu_caps_check(&c, true, space_rd, space_wr, &f);
	EXPECT_STR(c.none, "no core performance counters: a counter MSR faulted "
		   "under a hypervisor");
	EXPECT_EQ(f.writes, 0);
	/* the counter under test faults: PMC7, the last free one */
	memset(&f, 0, sizeof(f));
	f.fault = 0xc8;
	icelake(&c);
	pmu_caps_check(&c, false, space_rd, space_wr, &f);
	EXPECT_STR(c.none, "no core performance counters: a counter MSR faulted "
		   "(broken PMU hardware, Linux says)");
	/* the fixed-counter control faults */
	memset(&f, 0, sizeof(f));
	f.fault = 0x38d;
	icelake(&c);
	pmu_caps_check(&c, true, space_rd, space_wr, &f);
	EXPECT(c.none != NULL, "a faulting FIXED_CTR_CTRL is no PMU");
	/* already none: nothing touched */
	memset(&f, 0, sizeof(f));
	pmu_caps_intel(&c, 6, 0, 0, 0, 0);
	pmu_caps_check(&c, false, space_rd, space_wr, &f);
	EXPECT_EQ(f.reads + f.writes, 0);
	EXPECT_STR(c.none, "no PMU: CPUID 0AH reports version 0");
}

TEST(pmu_check_firmware_counters)
{
	static const char *const ev[] = { "instructions", "cycles" };
	struct fake_space f = { 0 };
	struct pmu_caps c;
	struct pmu_plan p;

	/* the firmware left PERFEVTSEL0 counting cycles, fixed counter 1
	 * (FIXED_CTR_CTRL[7:4]) and fixed counter 3 (topdown slots, which
	 * hugezero does not use; CPUID 0AH EDX says 4 fixed) on */
	*slot(&f, 0x186) = 0x43003c;
	*slot(&f, 0x38d) = 0x3030;
	pmu_caps_intel(&c, 6, 0x07300804, 0, 0, 0x604);
	pmu_caps_check(&c, false, space_rd, space_wr, &f);
	EXPECT(c.none == NULL, "none: %s", c.none);
	EXPECT_EQ(c.fw.mask, (1ULL << 0) | (1ULL << 33) | (1ULL << 35));
	EXPECT_EQ(c.fw.msr, 0x186);
	EXPECT_EQ(c.fw.val, 0x43003c);
	EXPECT_EQ(*slot(&f, 0xc1), 0);	/* PMC0, the firmware's, untouched */
	EXPECT_EQ(f.writes, 2);
	/* counted over, as Linux does; the plan carries the warning */
	EXPECT_EQ(pmu_plan_make(&c, ev, ARRAY_SIZE(ev), &p), 2);
	EXPECT_EQ(p.fw.mask, c.fw.mask);
	EXPECT_EQ(p.fw.msr, 0x186);
	/* every general counter the firmware's: Linux gives up, so do we,
	 * and nothing is said to be counted over */
	memset(&f, 0, sizeof(f));
	for (u32 n = 0; n < 8; n++)
		*slot(&f, 0x186 + n) = 0x400000;
	icelake(&c);
	pmu_caps_check(&c, false, space_rd, space_wr, &f);
	EXPECT_STR(c.none, "no core performance counters free: the firmware left "
		   "every general counter enabled");
	EXPECT_EQ(f.writes, 0);
	EXPECT_EQ(c.fw.mask, 0);
	EXPECT_EQ(pmu_plan_make(&c, ev, ARRAY_SIZE(ev), &p), 0);
	EXPECT_EQ(p.fw.mask, 0);
	/* a firmware counter seen, then a fault: no PMU, no warning */
	memset(&f, 0, sizeof(f));
	*slot(&f, 0x186) = 0x400000;
	f.fault = 0x38d;
	icelake(&c);
	pmu_caps_check(&c, false, space_rd, space_wr, &f);
	EXPECT(c.none != NULL, "a fault is no PMU");
	EXPECT_EQ(c.fw.mask, 0);
}

TEST(pmu_check_fixed_only)
{
	struct fake_space f = { 0 };
	struct pmu_caps c;

	/* version 2, no general counters, 3 fixed: Linux's reg_safe stays
	 * -1 and it gives up; so does this */
	pmu_caps_intel(&c, 6, 0x07000002, 0, 0, 0x603);
	EXPECT(c.none == NULL, "CPUID alone: %s", c.none);
	pmu_caps_check(&c, false, space_rd, space_wr, &f);
	EXPECT_STR(c.none, "no core performance counters: no general counter to "
		   "test a written value on (fixed counters only)");
	EXPECT_EQ(f.writes, 0);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Performance-counter events and programming plans (lib/pmu.h).
 *
 * Intel: the architectural PMU (SDM vol. 3B, 20.2), CPUID 0AH.  Fixed
 * counters 0..2 count INST_RETIRED.ANY, CPU_CLK_UNHALTED.THREAD and
 * CPU_CLK_UNHALTED.REF_TSC; the general counters take the architectural
 * events, whose encodings are the SDM's (table 20-1) and Linux's
 * (arch/x86/events/intel/core.c, intel_perfmon_event_map).
 *
 * AMD: the core performance counters (APM vol. 2, 13.2): PerfEvtSel0-3
 * and PerfCtr0-3 at 0xc0010000/0xc0010004, or six at 0xc0010200 + 2n /
 * 0xc0010201 + 2n with PerfCtrExtCore; PerfMonV2 adds a global enable.
 * The encodings are Linux's, arch/x86/events/amd/core.c:
 *   instructions 0x00c0, cycles 0x0076, branches 0x00c2, branch-misses
 *   0x00c3: amd_perfmon_event_map (before 17h) and amd_zen1/2/4 maps;
 *   l1d-loads 0x0040 and l1d-misses 0xc860 ("L2$ access from DC miss"):
 *   amd_hw_cache_event_ids_f17h[L1D][OP_READ]; before 17h l1d-misses
 *   is 0x0141, amd_hw_cache_event_ids[L1D][OP_READ];
 *   fills-dram: PMCx043, Demand Data Cache Fills by Data Source, umasks
 *   0x08 (DRAM or IO, this node) | 0x40 (DRAM or IO, another node), as
 *   tools/perf/pmu-events/arch/x86/amdzen1..amdzen4 name them
 *   (ls_refills_from_sys.ls_mabresp_lcl_dram/_rmt_dram,
 *   ls_dmnd_fills_from_sys.dram_io_near/_far).
 */
#include "lib/pmu.h"
#include "lib/string.h"

enum {	/* CPUID 0AH EBX bits: the architectural events */
	ARCH_CYCLES, ARCH_INSTRUCTIONS, ARCH_REF_CYCLES, ARCH_LLC_REFS,
	ARCH_LLC_MISSES, ARCH_BRANCHES, ARCH_BRANCH_MISSES,
};

#define FIXED(n) ((n) + 1)
#define ARCH(n) ((n) + 1)

const struct pmu_event pmu_events[] = {
	{ "instructions", "instructions retired",
	  FIXED(0), ARCH(ARCH_INSTRUCTIONS), 0x00c0, 0x00c0, 0x00c0 },
	{ "cycles", "core cycles, not halted",
	  FIXED(1), ARCH(ARCH_CYCLES), 0x003c, 0x0076, 0x0076 },
	/* Fixed counter 2 only, as Linux: the general-counter 0x013c is
	 * CPU_CLK_UNHALTED.REF_XCLK, the bus/crystal clock, not TSC rate */
	{ "ref-cycles", "reference (TSC-rate) cycles, not halted",
	  FIXED(2), ARCH(ARCH_REF_CYCLES), 0, 0, 0 },
	{ "llc-references", "last-level cache references",
	  0, ARCH(ARCH_LLC_REFS), 0x4f2e, 0, 0 },
	{ "llc-misses", "last-level cache misses",
	  0, ARCH(ARCH_LLC_MISSES), 0x412e, 0, 0 },
	{ "l1d-loads", "L1 data cache accesses",
	  0, 0, 0, 0x0040, 0x0040 },
	{ "l1d-misses", "L1 data cache misses",
	  0, 0, 0, 0xc860, 0x0141 },
	{ "fills-dram", "demand L1D fills from DRAM (any node)",
	  0, 0, 0, 0x4843, 0 },
	{ "branches", "branch instructions retired",
	  0, ARCH(ARCH_BRANCHES), 0x00c4, 0x00c2, 0x00c2 },
	{ "branch-misses", "mispredicted branches retired",
	  0, ARCH(ARCH_BRANCH_MISSES), 0x00c5, 0x00c3, 0x00c3 },
};

const u32 pmu_nevents = ARRAY_SIZE(pmu_events);

const char *const pmu_event_names[] = {
	"instructions", "cycles", "ref-cycles", "llc-references", "llc-misses",
	"l1d-loads", "l1d-misses", "fills-dram", "branches", "branch-misses",
	NULL,
};

_Static_assert(ARRAY_SIZE(pmu_event_names) == ARRAY_SIZE(pmu_events) + 1,
	       "pmu_event_names follows pmu_events");

int pmu_event_index(const char *name, size_t len)
{
	for (u32 i = 0; i < pmu_nevents; i++)
		if (str_eq_n(name, len, pmu_events[i].name))
			return (int)i;
	return -1;
}

static const char no_intel_pmu[] = "no PMU: CPUID 0AH reports version 0";
static const char no_intel_counters[] = "no PMU: CPUID 0AH reports no counters";
#define NO_COUNTERS	"no core performance counters: a counter "
#define ON_HW		" (broken PMU hardware, Linux says)"
#define ON_HV		" under a hypervisor"
/* [faulted][hypervisor] */
static const char *const pmu_check_failed[2][2] = {
	{ NO_COUNTERS "did not keep a written value" ON_HW,
	  NO_COUNTERS "did not keep a written value" ON_HV },
	{ NO_COUNTERS "MSR faulted" ON_HW, NO_COUNTERS "MSR faulted" ON_HV },
};
static const char pmu_all_firmware[] = "no core performance counters free: "
	"the firmware left every general counter enabled";
static const char pmu_no_general[] = "no core performance counters: no general "
	"counter to test a written value on (fixed counters only)";
const char pmu_no_room[] = "the first 4 events that can be counted are "
	"sampled, by the kernel and the companion alike";
_Static_assert(PMU_MAX_SAMPLED == 4, "pmu_no_room says 4");

/* A plan on the boot CPU under watchdog=pmu: one general counter fewer,
 * as perf's "Try disabling the NMI watchdog" hint says of Linux's. */
static const char pmu_watchdog_skip[] =
	"no free counter: the NMI watchdog holds one (watchdog=hpet frees it)";
static const char pmu_fixed_only_skip[] =
	"Intel: ref-cycles needs fixed counter 2, which this CPU lacks";

void pmu_caps_none(struct pmu_caps *c, const char *why)
{
	memset(c, 0, sizeof(*c));
	c->none = why;
}

void pmu_caps_intel(struct pmu_caps *c, u32 family, u32 eax, u32 ebx,
		    u32 ecx, u32 edx)
{
	memset(c, 0, sizeof(*c));
	c->vendor = PMU_VENDOR_INTEL;
	c->family = family;
	c->version = eax & 0xff;
	if (!c->version) {
		c->none = no_intel_pmu;
		return;
	}
	c->ngeneral = (eax >> 8) & 0xff;
	c->general_width = (eax >> 16) & 0xff;
	c->arch_len = eax >> 24;
	c->arch_unavail = ebx;
	if (c->version >= 2) {
		u32 nfixed = edx & 0x1f;

		c->nfixed = nfixed;
		c->fixed_mask = (1u << nfixed) - 1;	/* nfixed < 32 */
		if (c->version >= 5)	/* ECX: which fixed counters exist */
			c->fixed_mask |= ecx;
		c->fixed_present = c->fixed_mask & 0xffff;
		c->fixed_mask &= (1u << PMU_MAX_FIXED) - 1;
		c->fixed_width = (edx >> 5) & 0xff;
		c->global_ctrl = true;
	}
	if (!c->ngeneral && !c->fixed_mask)
		c->none = no_intel_counters;
}

void pmu_caps_amd(struct pmu_caps *c, u32 family, u32 ext1_ecx,
		  u32 ext22_eax, u32 ext22_ebx)
{
	memset(c, 0, sizeof(*c));
	c->vendor = PMU_VENDOR_AMD;
	c->family = family;
	c->version = 1;
	c->amd_ext = ext1_ecx & (1u << 23);
	c->ngeneral = c->amd_ext ? 6 : 4;
	c->general_width = 48;
	if (ext22_eax & 1) {	/* PerfMonV2: NumCorePmc, PerfCntrGlobalCtl */
		c->version = 2;
		c->global_ctrl = true;
		if (ext22_ebx & 0xf)
			c->ngeneral = ext22_ebx & 0xf;
	}
}

static void emit(struct pmu_write *w, u32 *n, u32 msr, u64 val)
{
	if (*n < PMU_MAX_WRITES) {
		w[*n].msr = msr;
		w[*n].val = val;
		(*n)++;
	}
}

u32 pmu_sel_msr(const struct pmu_caps *c, u32 n)
{
	if (c->vendor == PMU_VENDOR_INTEL)
		return MSR_IA32_PERFEVTSEL0 + n;
	return c->amd_ext ? MSR_F15H_PERF_CTL0 + 2 * n : MSR_K7_EVNTSEL0 + n;
}

u32 pmu_ctr_msr(const struct pmu_caps *c, u32 n)
{
	if (c->vendor == PMU_VENDOR_INTEL)
		return MSR_IA32_PMC0 + n;
	return c->amd_ext ? MSR_F15H_PERF_CTR0 + 2 * n : MSR_K7_PERFCTR0 + n;
}

u32 pmu_global_msr(const struct pmu_caps *c)
{
	return c->vendor == PMU_VENDOR_INTEL ? MSR_IA32_PERF_GLOBAL_CTRL :
	       MSR_AMD64_PERF_CNTR_GLOBAL_CTL;
}

u64 pmu_global_kept(const struct pmu_caps *c)
{
	return c->reserved;	/* general counter n: bit n, both vendors */
}

static void firmware_uses(struct pmu_caps *c, u32 bit, u32 msr, u64 val)
{
	if (!c->fw.mask) {
		c->fw.msr = msr;
		c->fw.val = val;
	}
	c->fw.mask |= 1ULL << bit;
}

/*
 * The last general counter the firmware left alone (Linux's reg_safe),
 * or -1; -2 when a control MSR faulted.
 */
static int firmware_scan(struct pmu_caps *c, pmu_rdmsr_fn rd, void *ctx)
{
	int free = -1;
	u64 v;

	for (u32 n = 0; n < c->ngeneral && n < 32; n++) {
		if (!rd(ctx, pmu_sel_msr(c, n), &v))
			return -2;
		if (v & PMU_SEL_EN)
			firmware_uses(c, n, pmu_sel_msr(c, n), v);
		else
			free = (int)n;
	}
	if (c->vendor != PMU_VENDOR_INTEL || !c->fixed_present)
		return free;
	if (!rd(ctx, MSR_IA32_FIXED_CTR_CTRL, &v))
		return -2;
	/* every fixed counter CPUID reports, not only those hugezero uses */
	for (u32 n = 0; n < 16; n++)
		if ((c->fixed_present & (1u << n)) && (v & (0x3ULL << (4 * n))))
			firmware_uses(c, 32 + n, MSR_IA32_FIXED_CTR_CTRL, v);
	return free;
}

/*
 * Whether general counter @n keeps a value written to it: its old value
 * with the low 16 bits flipped, as Linux writes, so that the value read
 * back can only match by the write; bit 31 cleared, since Intel's legacy
 * 32-bit counter writes sign-extend it.  The old value is written back
 * (on Intel, its low 32 bits sign-extended; the counter is disabled).
 * 0: kept; 1: not kept; -1: an access faulted.
 */
static int counter_keeps(const struct pmu_caps *c, u32 n, pmu_rdmsr_fn rd,
			 pmu_wrmsr_fn wr, void *ctx)
{
	u32 msr = pmu_ctr_msr(c, n);
	u64 old, probe, got;
	bool read;

	if (!rd(ctx, msr, &old))
		return -1;
	probe = (old ^ 0xffff) & 0x7fffffffULL;
	if (!wr(ctx, msr, probe))
		return -1;
	read = rd(ctx, msr, &got);
	wr(ctx, msr, old);
	if (!read)
		return -1;
	return got == probe ? 0 : 1;
}

void pmu_caps_check(struct pmu_caps *c, bool hypervisor, pmu_rdmsr_fn rd,
		    pmu_wrmsr_fn wr, void *ctx)
{
	int free, kept;

	if (c->none)
		return;
	free = firmware_scan(c, rd, ctx);
	if (free == -2) {
		c->none = pmu_check_failed[1][hypervisor];
	} else if (free == -1) {
		/* Linux gives up too: no counter to test a write on */
		c->none = c->ngeneral ? pmu_all_firmware : pmu_no_general;
	} else {
		kept = counter_keeps(c, (u32)free, rd, wr, ctx);
		/* Linux: "PMU not available due to virtualization" under a
		 * hypervisor, "Broken PMU hardware" else */
		if (kept)
			c->none = pmu_check_failed[kept < 0][hypervisor];
	}
	if (c->none) {
		/* nothing is counted: no warning about counting over (the
		 * reason says when the firmware's counters are why) */
		memset(&c->fw, 0, sizeof(c->fw));
	}
}

const char *pmu_encoding_skip(u32 vendor, u32 family, const struct pmu_event *e)
{
	if (vendor == PMU_VENDOR_INTEL)
		return e->intel_fixed || e->intel_arch ? NULL :
		       "Intel: not an architectural event";
	if (vendor != PMU_VENDOR_AMD)
		return "no PMU hugezero knows";
	if (family >= 0x17 ? e->amd_sel : e->amd_k8_sel)
		return NULL;
	return family >= 0x17 || !e->amd_sel ? "AMD: no encoding for it" :
	       "AMD: no encoding before family 17h";
}

/* Place one encodable event: on a fixed counter, a general one, or a reason. */
static void place(const struct pmu_caps *c, struct pmu_slot *s,
		  u32 *fixed_used, u32 *general_used)
{
	const struct pmu_event *e = &pmu_events[s->event];
	u64 sel = 0;

	if (c->vendor == PMU_VENDOR_INTEL) {
		u32 f = e->intel_fixed;

		if (f && (c->fixed_mask & (1u << (f - 1))) &&
		    !(*fixed_used & (1u << (f - 1)))) {
			*fixed_used |= 1u << (f - 1);
			s->fixed = true;
			s->counter = f - 1;
			s->rdpmc = PMU_RDPMC_FIXED | s->counter;
			s->width = c->fixed_width;
			return;
		}
		if (!e->intel_sel) {	/* a fixed counter's event alone */
			s->skip = pmu_fixed_only_skip;
			return;
		}
		if (!e->intel_arch || e->intel_arch > c->arch_len ||
		    (c->arch_unavail & (1u << (e->intel_arch - 1)))) {
			s->skip = "Intel: CPUID 0AH EBX says this CPU lacks it";
			return;
		}
		sel = e->intel_sel;
	} else {
		sel = c->family >= 0x17 ? e->amd_sel : e->amd_k8_sel;
	}
	for (u32 n = 0; n < c->ngeneral && n < 32; n++) {
		if ((*general_used | c->reserved) & (1u << n))
			continue;
		*general_used |= 1u << n;
		s->counter = n;
		s->rdpmc = n;
		s->width = c->general_width;
		s->sel = sel | PMU_SEL_USR | PMU_SEL_OS;
		return;
	}
	s->skip = c->reserved ? pmu_watchdog_skip :
		  "no free counter: every general counter is taken";
}

static u32 plan_make(const struct pmu_caps *c, const char *const *names, u32 n,
		     u32 max, struct pmu_plan *p)
{
	u32 fixed_used = 0, general_used = 0, fixed_ctrl = 0;
	u64 keep = pmu_global_kept(c), global = keep;
	u32 global_msr = pmu_global_msr(c);

	memset(p, 0, sizeof(*p));
	p->fw = c->fw;
	for (u32 i = 0; i < n && p->nslots < PMU_MAX_EVENTS; i++) {
		struct pmu_slot *s = &p->slots[p->nslots++];

		s->name = names[i];
		s->event = pmu_event_index(names[i], strlen(names[i]));
		if (s->event < 0) {
			s->skip = "unknown event";
			continue;
		}
		for (u32 j = 0; j + 1 < p->nslots; j++)
			if (p->slots[j].event == s->event)
				s->skip = "listed twice";
		if (s->skip)
			continue;
		if (c->none || c->vendor == PMU_VENDOR_NONE) {
			s->skip = c->none ? c->none : "no PMU hugezero knows";
			continue;
		}
		/* Checked where the companion checks it: after the encoding,
		 * before a counter is sought */
		s->skip = pmu_encoding_skip(c->vendor, c->family,
					    &pmu_events[s->event]);
		if (!s->skip && p->ncounted == max)
			s->skip = pmu_no_room;
		if (s->skip)
			continue;
		place(c, s, &fixed_used, &general_used);
		if (!s->skip)
			p->ncounted++;
	}
	if (!p->ncounted)
		return 0;

	for (u32 i = 0; i < p->nslots; i++) {
		const struct pmu_slot *s = &p->slots[i];

		if (s->skip)
			continue;
		if (s->fixed) {
			fixed_ctrl |= 0x3u << (4 * s->counter);	/* OS | USR */
			global |= 1ULL << (32 + s->counter);
		} else {
			global |= 1ULL << s->counter;
		}
	}

	/* Stop (the watchdog's counter, if any, counting on) */
	if (c->global_ctrl)
		emit(p->writes, &p->nwrites, global_msr, keep);
	/* Configure: enabled under a global gate, else enabled at the start */
	if (c->vendor == PMU_VENDOR_INTEL && c->fixed_mask)
		emit(p->writes, &p->nwrites, MSR_IA32_FIXED_CTR_CTRL, fixed_ctrl);
	for (u32 i = 0; i < p->nslots; i++) {
		const struct pmu_slot *s = &p->slots[i];

		if (!s->skip && !s->fixed)
			emit(p->writes, &p->nwrites, pmu_sel_msr(c, s->counter),
			     s->sel | (c->global_ctrl ? PMU_SEL_EN : 0));
	}
	/* Clear */
	for (u32 i = 0; i < p->nslots; i++) {
		const struct pmu_slot *s = &p->slots[i];

		if (s->skip)
			continue;
		emit(p->writes, &p->nwrites, s->fixed ?
		     MSR_IA32_FIXED_CTR0 + s->counter : pmu_ctr_msr(c, s->counter), 0);
	}
	/* Start */
	if (c->global_ctrl) {
		emit(p->writes, &p->nwrites, global_msr, global);
	} else {
		for (u32 i = 0; i < p->nslots; i++) {
			const struct pmu_slot *s = &p->slots[i];

			if (!s->skip)
				emit(p->writes, &p->nwrites,
				     pmu_sel_msr(c, s->counter), s->sel | PMU_SEL_EN);
		}
	}

	/* Afterwards: gate off, then disarm each select */
	if (c->global_ctrl)
		emit(p->off, &p->noff, global_msr, keep);
	if (c->vendor == PMU_VENDOR_INTEL && c->fixed_mask)
		emit(p->off, &p->noff, MSR_IA32_FIXED_CTR_CTRL, 0);
	for (u32 i = 0; i < p->nslots; i++) {
		const struct pmu_slot *s = &p->slots[i];

		if (!s->skip && !s->fixed)
			emit(p->off, &p->noff, pmu_sel_msr(c, s->counter), 0);
	}
	return p->ncounted;
}

u32 pmu_plan_make(const struct pmu_caps *c, const char *const *names, u32 n,
		  struct pmu_plan *p)
{
	return plan_make(c, names, n, PMU_MAX_EVENTS, p);
}

u32 pmu_plan_make_sampled(const struct pmu_caps *c, const char *const *names,
			  u32 n, struct pmu_plan *p)
{
	return plan_make(c, names, n, PMU_MAX_SAMPLED, p);
}

u32 pmu_apply(const struct pmu_write *w, u32 n, pmu_wrmsr_fn wr, void *ctx)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (!wr(ctx, w[i].msr, w[i].val))
			break;
	return i;
}

u64 pmu_value(const struct pmu_slot *s, u64 raw)
{
	if (!s->width || s->width >= 64)
		return raw;
	return raw & ((1ULL << s->width) - 1);
}

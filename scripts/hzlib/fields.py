# SPDX-License-Identifier: GPL-2.0-only
"""Every record field the kernel and the companion write, and every column
of `parse --format csv` (and of its `--rows agg` and `--rows samples`),
declared once (docs/records.md).

A field is its record, its name, its unit, what it means, which side writes
it and the record format it first appeared in.  A `config` field is a
dimension unless it says why not (dims.py takes its bookkeeping from here).
A name with a capital placeholder (`REG_before`) is a pattern: one field
per value its regular expression allows.  docs/records.md's tables are
rendered from this (`scripts/hugezero fields --markdown`), and
tests/test_fields.py checks the C writers, the kept logs and the CSV
header against it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Iterable, Mapping

from .cnames import FOLIOS

# Units, as the tables show them.
TICKS = "TSC ticks"
BYTES = "bytes"
COUNT = "count"
TEXT = "text"
BOOL = "0/1"
HEX = "hex"
NS = "ns"
US = "µs"
MS = "ms"
KHZ = "kHz"
PPM = "ppm"
GIBPS_MILLI = "GiB/s × 1000"
PCT_X100 = "% × 100"
CPULIST = "cpulist"
NUMBER = "number"
LIST = "comma list"


def enum(*values: str) -> str:
    return "enum: " + ", ".join(values)


SIDES = ("kernel", "companion", "both", "none")


@dataclass(frozen=True)
class Field:
    record: str
    name: str
    unit: str
    meaning: str
    side: str = ""
    since: int = 0          # the record format it first appeared in
    until: int = 0          # the last format that wrote it (0: still written)
    why_not: str = ""       # config: why it is not a dimension ("": it is)
    renamed: Mapping[str, str] = field(default_factory=dict)  # old value: today's
    pattern: str = ""       # the placeholder's values, where the name has one

    @property
    def dimension(self) -> bool | None:
        """Whether a config field is a dimension; None for other records."""
        return (not self.why_not) if self.record == "config" else None

    def matches(self, name: str) -> bool:
        """Whether a field named @name in a record is this one."""
        if not self.pattern:
            return name == self.name
        rx = re.sub(r"[A-Z][A-Z0-9]*", lambda _: f"(?:{self.pattern})", self.name)
        return re.fullmatch(rx, name) is not None


@dataclass(frozen=True)
class Record:
    name: str
    side: str
    when: str
    since: int
    fields: tuple[Field, ...]


def F(name: str, unit: str, meaning: str, **kw: object) -> Field:
    return Field("", name, unit, meaning, **kw)  # type: ignore[arg-type]


def record(name: str, side: str, since: int, when: str, *fs: Field) -> Record:
    return Record(name, side, when, since, tuple(
        replace(f, record=name, side=f.side or side, since=f.since or since) for f in fs))


# The MSRs a kernel boost record reads (lib/boost.c boost_reg_names).
BOOST_REGS = "hwcr|misc_enable|perf_ctl|pm_enable|hwp_cap|hwp_request"

RECORDS: tuple[Record, ...] = (
    record(
        "boot", "both", 1, "first, once per boot",
        F("version", TEXT, "hugezero's version, one string for the kernel and the companion"),
        F("format", NUMBER, "the record format: what the records mean (\"Record formats\" above); "
          "a log whose boot record has none is format 1", since=2),
        F("loader", TEXT, "the boot loader's name (`GRUB 2.06-13+deb12u2`); the companion's "
          "`hugezero-linux`"),
        F("firmware", enum("bios", "uefi", "linux"),
          "how it was booted; `linux` for the companion"),
        F("cmdline", TEXT, "the boot command line (the companion's arguments), as given"),
        F("hugezero_git", TEXT, "the hugezero source it was built from: `git describe --always "
          "--dirty --abbrev=12`, a dirty tree's with 8 hex digits of its diff's SHA-256 after, "
          "`unknown` outside git; compare judges two boots against two trees only when it is "
          "one (docs/reading-results.md, \"Two trees\")", since=5),
        F("linux_tree", TEXT, "with `make LINUX=DIR`: the tree's version from its top Makefile, "
          "`VERSION.PATCHLEVEL.SUBLEVEL` and `EXTRAVERSION` (`6.12.118`); docs/linux-tree.md, "
          "\"Provenance\"", since=3),
        F("linux_tree_git", TEXT, "with `make LINUX=DIR` where DIR is the top of a git work tree: "
          "`git describe --dirty --always`", since=3),
        F("linux_tree_sha256", HEX, "with `make LINUX=DIR`: the SHA-256 of DIR's "
          "`arch/x86/lib/clear_page_64.S`", since=3),
        F("linux_tree_entry", TEXT, "with `make LINUX=DIR` "
          "where DIR has `mm/memory.c`: the zeroing entry `order=tree` runs, "
          "`clear_huge_page` in trees before `folio_zero_user` (6.1); docs/linux-tree.md",
          since=4),
        F("linux_tree_entry_sha256", HEX, "with it: the SHA-256 of the text extracted from DIR's "
          "`mm/memory.c` (the entry and what it reaches, not `clear_page_64.S`)", since=4),
    ),
    record(
        "machine", "both", 1, "once per boot, after `boot`",
        F("vendor", TEXT, "CPUID 0's vendor string (`AuthenticAMD`, `GenuineIntel`)"),
        F("family", HEX, "CPUID 1's family, extended family included"),
        F("model", HEX, "CPUID 1's model, extended model included"),
        F("stepping", NUMBER, "CPUID 1's stepping"),
        F("brand", TEXT, "the brand string (CPUID 80000002h-80000004h)"),
        F("microcode", HEX, "the microcode revision, or `n/a` under a hypervisor or where the MSR "
          "is unreadable"),
        F("hypervisor", TEXT, "CPUID 40000000h's signature, or `none`"),
        F("l1d", BYTES, "the L1 data cache (CPUID 4 / 8000001Dh / 80000005h)"),
        F("l2", BYTES, "the L2 cache"),
        F("l3", BYTES, "the L3 cache, 0 where there is none"),
        F("line", BYTES, "the cache line"),
        F("mem", BYTES, "RAM in the memory map (the companion: MemTotal)"),
        F("phys_bits", NUMBER, "physical address bits (CPUID 80000008h)"),
        F("features", LIST, "the CPUID features the primitives and timers depend on"),
        F("rethunk_linux", enum("none", "retbleed_return_thunk", "srso_return_thunk",
                                "srso_alias_return_thunk", "call_depth_return_thunk"),
          "the return thunk Linux's default mitigation puts under every kernel RET on this CPU "
          "(`bugs.c`; docs/hardware.md, \"Return thunks\"); what `rethunk=` defaults to", since=5),
        F("rethunk_why", TEXT, "why `rethunk_linux` is that one; `rethunk_assume=NAME: …` where a "
          "test named the CPU", since=5),
        F("fast_strings", enum("on", "off", "unknown", "n/a"), "IA32_MISC_ENABLE bit 0 as "
          "`prim_linux()` read it, as Linux's `early_init_intel()` does (Intel family 6 model >= "
          "0xd or family > 6; else `n/a`); `off` drops ERMS and REP_GOOD; `unknown`: unreadable "
          "(the companion: no `/dev/cpu/0/msr`), taken as on", since=5),
        F("linux_clear", TEXT, "kernel: the primitive Linux's `clear_page()` is on this CPU "
          "(`erms`, `rep`, `orig`), decided by `prim_linux()` (the companion: in `host`)",
          side="kernel", since=5),
        F("linux_clear_why", TEXT, "kernel: why, with what was read of IA32_MISC_ENABLE",
          side="kernel", since=5),
    ),
    record(
        "host", "companion", 1, "companion: once, after `timebase` (docs/companion.md, "
        "\"Host settings\")",
        F("kernel", TEXT, "`uname -r`"),
        F("clocksource", TEXT, "the current clock source"),
        F("thp_enabled", TEXT, "`/sys/kernel/mm/transparent_hugepage/enabled`, the mode chosen"),
        F("thp_defrag", TEXT, "`/sys/kernel/mm/transparent_hugepage/defrag`, the mode chosen"),
        F("hugetlb_2m_total", COUNT, "2M hugetlb pages in the pool"),
        F("hugetlb_2m_free", COUNT, "free 2M hugetlb pages"),
        F("hugetlb_1g_total", COUNT, "1G hugetlb pages in the pool"),
        F("hugetlb_1g_free", COUNT, "free 1G hugetlb pages"),
        F("cpu", NUMBER, "the CPU the companion was pinned to; absent with `cpus=`"),
        F("cpus", CPULIST, "with `cpus=`: where the processes ran (docs/companion.md)", since=2),
        F("root", BOOL, "whether it ran as root"),
        F("vm", BOOL, "whether the CPU reports a hypervisor"),
        F("mem_available", BYTES, "MemAvailable"),
        F("preempt", enum("none", "voluntary", "full", "lazy", "unknown"),
          "Linux's preemption model; on Linux 7.0 and later never `unknown`: a model no source "
          "gives is `full`, its source saying so", since=2),
        F("preempt_source", TEXT, "the file `preempt` was read from and what it said there, or why "
          "it is unknown", since=2),
        F("init_on_alloc", enum("0", "1", "unknown"), "whether the page allocator zeroes pages it "
          "hands out", since=2),
        F("init_on_alloc_source", TEXT, "where `init_on_alloc` was read and what it said, or why "
          "it is unknown", since=2),
        F("init_on_free", enum("0", "1", "unknown"), "whether the page allocator wipes pages freed",
          since=2),
        F("init_on_free_source", TEXT, "where `init_on_free` was read and what it said, or why it "
          "is unknown", since=2),
        F("linux_clear", TEXT, "the primitive Linux's `clear_page()` is on this CPU (`erms`, "
          "`rep`, `orig`), decided by `prim_linux()`", since=2),
        F("linux_clear_why", TEXT, "why `linux_clear` is that one, with what was read of "
          "IA32_MISC_ENABLE's fast strings (from format 5)", since=2),
        F("linux_batch", BYTES, "7.0's `PROCESS_PAGES_NON_PREEMPT_BATCH`", since=2),
        F("linux_radius", "pages", "7.0's `FOLIO_ZERO_LOCALITY_RADIUS`", since=2),
    ),
    record(
        "timebase", "both", 1, "once per boot, after `machine` (the companion's: "
        "CLOCK_MONOTONIC_RAW)",
        F("tsc_hz", "Hz", "the TSC's rate"),
        F("source", TEXT, "the reference the rate was taken from"),
        F("invariant", BOOL, "whether the TSC is invariant (CPUID 80000007h:EDX[8])"),
        F("disagreement_ppm", PPM, "the largest disagreement between precise references"),
        F("references", TEXT, "each reference's rate, `name:hz,...`"),
        F("overhead_min", TICKS, "the least of an empty `tsc_begin`/`tsc_end` pair: the same "
          "instructions as every timed region, the end read's MFENCE included"),
        F("overhead_median", TICKS, "the median of an empty timed pair: what every clear and "
          "access sample is net of (\"Net of the timer\")"),
        F("retries", TEXT, "kernel: `name:N,...`, calibration windows discarded because a gap "
          "between reference reads could have hidden a wrap, and measured again", side="kernel",
          since=2),
        F("outliers", TEXT, "kernel: references left out for disagreeing with the consensus, or "
          "`none`", side="kernel", since=2),
        F("consensus_ppm", PPM, "kernel: the largest disagreement among the references that agree",
          side="kernel", since=2),
    ),
    record(
        "boost", "both", 3, "the companion: one, after `host`; the kernel: one per CPU that is "
        "up, after `preset`, with `bench=fault` or `info`, or `boost=off`/`on` "
        "(docs/hardware.md, docs/companion.md, \"Boost\")",
        F("cpu", NUMBER, "kernel: the CPU", side="kernel"),
        F("asked", enum("firmware", "off", "on"), "`boost=`"),
        F("vendor", enum("amd", "intel", "other"), "kernel: whose paths were taken (Hygon as AMD)",
          side="kernel"),
        F("cpb", BOOL, "kernel, AMD: CPUID 80000007h:EDX[9]", side="kernel"),
        F("ida", BOOL, "kernel, Intel: CPUID 06H:EAX[1]", side="kernel"),
        F("hwp", BOOL, "kernel, Intel: CPUID 06H:EAX[7]", side="kernel"),
        F("assumed", BOOL, "kernel: 1 under the test-only `boost_assume=on`", side="kernel"),
        F("before", enum("on", "off", "none", "mixed", "unknown"), "the state found: `none`, no "
          "boost on this CPU (kernel); `mixed`, cpufreq policies differ (companion)"),
        F("after", enum("on", "off", "none", "mixed", "unknown"), "the state the run had, the "
          "same words"),
        F("tried", TEXT, "kernel: each path written, `hwcr`, `misc_enable`, `perf_ctl`, "
          "`hwp_request`, with `set`, `already`, `ignored`, `read-faulted`, `write-faulted`; "
          "`none`", side="kernel"),
        F("why", TEXT, "kernel: boost absent, or nothing took", side="kernel"),
        F("REG_before", HEX, "kernel: each MSR read before setting (`hwcr`, `misc_enable`, "
          "`perf_ctl`, `pm_enable`, `hwp_cap`, `hwp_request`), or `fault`", side="kernel",
          pattern=BOOST_REGS),
        F("REG_after", HEX, "kernel, where boost was set: each MSR read after, or `fault`",
          side="kernel", pattern=BOOST_REGS),
        F("hwp_guaranteed", NUMBER, "kernel, Intel with HWP enabled: HWP_CAPABILITIES bits 15:8, "
          "the guaranteed ratio", side="kernel"),
        F("eff_khz", KHZ, "each CPU of `cpus=` (the companion: the CPU it runs on), `boost=off|on`:"
          " a busy loop's effective frequency (APERF/MPERF against the TSC rate; the companion "
          "reads them from `/dev/cpu/N/msr`)"),
        F("nominal_khz", KHZ, "the nominal frequency, the TSC's rate"),
        F("ref", enum("tsc", "hwp-guaranteed"), "what `eff_khz` is held against: "
          "`hwp-guaranteed` (`hwp_guaranteed` × 100 MHz) where above nominal (kernel)"),
        F("ref_khz", KHZ, "that reference"),
        F("eff_why", TEXT, "why `eff_khz` is not measured: `cannot check: no APERF/MPERF …` with "
          "`boost=off|on`; with `check_by=perf-ctl` what IA32_PERF_CTL asked"),
        F("check", enum("ok", "over", "under", "unmeasured"), "`boost=off`: `over` is more than "
          "2 % above `ref_khz`; `boost=on` (from format 5): `under` is not more than 2 % above it, "
          "boost did not take effect; `unmeasured`: `eff_why` says why"),
        F("check_by", enum("aperf-mperf", "perf-ctl"), "how `check` was decided: APERF/MPERF over "
          "a busy loop, or, with `boost=on` on Intel without HWP and without APERF/MPERF, the "
          "ratio IA32_PERF_CTL asks against the base ratio", since=5),
        F("perf_ctl_ratio", NUMBER, "`check_by=perf-ctl`: IA32_PERF_CTL bits 15:8 as read after",
          since=5),
        F("base_ratio", NUMBER, "`check_by=perf-ctl`: the TSC's rate in 100 MHz units, rounded",
          since=5),
        F("source", TEXT, "companion: each file read, what it said, and the cpufreq driver",
          side="companion"),
    ),
    record(
        "cpu", "kernel", 2, "kernel: once per processor the MADT lists, after `timebase` "
        "(docs/smp.md)",
        F("cpu", NUMBER, "the logical number; absent for a processor that has none (disabled or "
          "beyond the limit)"),
        F("apic_id", NUMBER, "its APIC ID"),
        F("uid", NUMBER, "its ACPI processor UID"),
        F("node", NUMBER, "its NUMA node from the SRAT; 0 without one"),
        F("state", enum("up", "no-answer", "disabled", "over-max", "failed"),
          "`no-answer`: did not reach the kernel after INIT-SIPI-SIPI; `disabled` in the MADT; "
          "`over-max`: beyond the CPU limit; `failed`: its local APIC could not be set up, "
          "or it stopped answering once up (in TSC sync, or when given work) and was left out"),
        F("reason", TEXT, "for a CPU not up, why; for one up, what is off about it (its PAT, its "
          "timer)"),
        F("x2apic", BOOL, "the mode its APIC runs in (its IA32_APIC_BASE.EXTD)"),
        F("tsc_offset_ticks", "TSC ticks, signed", "its TSC minus CPU 0's at the same instant, "
          "from the ping-pong with the least round trip; 0 on CPU 0"),
        F("tsc_offset_err_ticks", TICKS, "half that round trip: the offset is known to within this, either way"),
        F("tsc_warps", COUNT, "times Linux's `check_tsc_warp()` loop saw this CPU's and CPU 0's "
          "TSC go backwards"),
    ),
    record(
        "watchdog", "kernel", 5, "kernel: once, after `timebase`, before the APs start "
        "(docs/hardware.md, \"The watchdog\")",
        F("source", enum("pmu", "hpet", "pit", "none"), "the NMI source: the boot CPU's cycle "
          "counter overflowing through LVT PC, or an HPET comparator or PIT channel 0 routed "
          "through the I/O APIC as an NMI to the boot CPU; `none` with `watchdog=off` or where "
          "none can be used"),
        F("why", TEXT, "how it is routed, or why there is none (the last source tried)"),
        F("pmu_why", TEXT, "why the PMU was not the source, where `watchdog=auto` or `=pmu` "
          "tried it"),
        F("hpet_why", TEXT, "why the HPET was not the source, where `watchdog=auto` or `=hpet` "
          "tried it: none, none that reaches an I/O APIC, its first NMIs, a millisecond "
          "apart, not heard (five of them: none in 200 ms, or fewer in 500 ms), or it not "
          "armed at its period"),
        F("gsi", NUMBER, "the I/O APIC input it drives (not the PMU's)"),
        F("period_us", "µs", "how often it fires"),
        F("stall_s", "s", "seconds without progress that end bring-up or TSC sync"),
    ),
    record(
        "hang", "kernel", 5, "kernel: once, before `end`, when the deadline or the watchdog ends "
        "a run (docs/hardware.md, \"The watchdog\")",
        F("phase", enum("boot", "bringup", "tsc-sync", "run"), "where the boot was"),
        F("by", enum("deadline", "watchdog"), "`watchdog`: its NMI found the hang, with no CPU "
          "left to see it; `deadline`: a CPU saw the deadline pass"),
        F("cpu", NUMBER, "the CPU named: waited on, hung, or busy"),
        F("busy", CPULIST, "the CPUs still in a pass (inside a configuration, or stopped as "
          "they changed which), read once they are stopped; `none`. Longer than a record's "
          "cpulist (127 characters): its first whole entries"),
        F("nbusy", COUNT, "how many CPUs `busy` has in all"),
        F("unstopped", CPULIST, "CPUs that did not stop within a second of their NMI; `none`"),
        F("why", TEXT, "the message, as printed"),
    ),
    record(
        "smp", "kernel", 2, "kernel: once, after the `cpu` records (docs/smp.md)",
        F("present", COUNT, "processors in the MADT"),
        F("up", COUNT, "CPUs running, the boot CPU included"),
        F("nodes", COUNT, "NUMA nodes with memory or CPUs; 1 without an SRAT"),
        F("slit", BOOL, "whether the firmware has a SLIT"),
        F("tsc_skew_ticks", TICKS, "the largest `|tsc_offset_ticks| + tsc_offset_err_ticks` over "
          "the CPUs up"),
        F("tsc_skew_bound_ticks", TICKS, "what an aggregate across CPUs tolerates: `tsc_skew_ns=` "
          "(1 µs by default)"),
        F("tsc_sync", enum("ok", "bad"), "`ok` when every CPU is within the bound"),
    ),
    record(
        "preset", "both", 2, "with `preset=` only, before the first configuration "
        "(docs/reproducing.md)",
        F("name", enum("seed-000", "seed-001", "seed-002"), "the preset"),
        F("seed", TEXT, "the thread it reproduces"),
        F("side", enum("hugezero", "linux"), "`hugezero` from the kernel, `linux` from the "
          "companion"),
        F("keys", TEXT, "what the preset expands to on that side, before the line's own keys"),
        F("status", enum("ok", "not-run"), "`not-run`: the machine cannot hold the preset's "
          "smallest region (`why` says so) and no configuration follows"),
        F("chose", TEXT, "the keys its sizing set, `key=value; …`, or `nothing: the line gave it "
          "all`"),
        F("why", TEXT, "from what it chose them"),
        F("scaled", TEXT, "what is smaller than in the seed, or `nothing`"),
        F("linux_clear", TEXT, "the primitive Linux's `clear_page()` is on this CPU, `erms` or "
          "`rep`; with `make LINUX=` a tree that has it, `linux-erms` or `linux-rep`"),
    ),
    record(
        "config", "both", 1, "per benchmark configuration, first: the configuration, every field "
        "of it, in the order written (\"Dimensions\" below)",
        F("cfg", NUMBER, "the configuration's number, from 1", why_not="the configuration's number "
          "within its boot"),
        F("name", TEXT, "`FOLIO.CLEAR.ORDER[.CHUNK]`, as the KTAP case; the companion's `bare.…` "
          "and `linux.FOLIO.BACKING`", why_not="FOLIO.CLEAR.ORDER[.CHUNK], made of dimensions"),
        F("bench", enum("fault", "bare", "linux-fault"), "the benchmark"),
        F("folio", enum(*FOLIOS), "the folio size"),
        F("clear", TEXT, "the primitive (`erms`, `avx2-nt`, a tree's `linux-erms`, …); `linux` in "
          "`linux-fault`"),
        F("tree_routine", TEXT, "where `clear` is a tree primitive (`make LINUX=`): the tree's "
          "routine (`clear_page_erms`, `__clear_pages_unrolled`, …)", since=3,
          why_not="a tree primitive's routine: follows from clear and the boot's tree"),
        F("tree_abi", enum("per-page", "range", "npages-rsi", "bytes-esi"), "a tree primitive's "
          "convention: once per 4K page, or once over the range (the last two named by "
          "`LINUX_ABI=`); docs/linux-tree.md", since=3,
          why_not="a tree primitive's convention: follows from clear and the boot's tree"),
        F("order", TEXT, "the clearing order (`contiguous-page`, `neighbourhood-last`, …); `tree`, "
          "the tree's own zeroing (`make LINUX=`); `linux` in `linux-fault`"),
        F("tree_entry", TEXT, "`order=tree`: the tree's "
          "zeroing entry it ran, the boot's `linux_tree_entry`; docs/linux-tree.md", since=4,
          why_not="order=tree's entry: follows from order and the boot's tree"),
        F("tree_entry_sha256", HEX, "`order=tree`: the SHA-256 of that entry's extracted text, the "
          "boot's `linux_tree_entry_sha256`", since=4,
          why_not="order=tree's text: follows from order and the boot's tree"),
        F("chunk", BYTES, "the order's chunk; 0 for orders without one"),
        F("radius", "pages", "the neighbourhood's radius; 0 unless `neighbourhood-last`"),
        F("size", BYTES, "the region used"),
        F("size_requested", BYTES, "what `size=` asked for",
          why_not="size= as asked; size, the bytes used, is the dimension"),
        F("folios", COUNT, "folios in the region", why_not="size / folio"),
        F("clamped", TEXT, "kernel, when `size` is less than `size_requested` under `clamp=on`: "
          "why (`the most that fit in free memory`, `the most one run records`, `the most one "
          "region maps`, `the most its CPUs' sample arrays hold`); docs/smp.md, \"Memory\"", side="kernel", since=2,
          why_not="why size is less than size= asked; size, the bytes used, is the dimension"),
        F("pa_min", NUMBER, "kernel, when it has folios: the lowest folio's physical address",
          side="kernel", since=2,
          why_not="where the firmware's memory map put the folios, not what was measured"),
        F("pa_max", NUMBER, "kernel: the highest folio's physical address (whether the folios lie "
          "above 4 GiB)", side="kernel", since=2,
          why_not="where the firmware's memory map put the folios, not what was measured"),
        F("backing", enum("hugetlb", "thp", "base"), "companion: what backs the region",
          side="companion"),
        F("touch", enum("seq", "reverse", "random"),
          "the order the workload touches the folios in"),
        F("offset", enum("first", "middle", "last", "random"), "which 4K page of the folio the "
          "fault touches (`random`: recorded as `page` samples)"),
        F("access", enum("none", "write", "read"), "the workload's access to the whole folio right "
          "after its fault"),
        F("cache", enum("cold", "warm", "wbinvd", "linux"), "the cache state before a pass; "
          "`linux` in `linux-fault`, where Linux picks the folios",
          renamed={"asis": "warm", "clflush": "cold"}),
        F("fill", enum("movq", "none"), "the pattern fill's primitive; `none` in `linux-fault`",
          since=2),
        F("llc", BYTES, "the last-level cache, 0 unknown", since=2,
          why_not="the machine's last-level cache (its machine record says it too)"),
        F("fits_llc", BOOL, "1 when `size` × `llc_regions` < 4 × `llc`: under `cache=warm` the "
          "run measures a cache, not memory. Every region of the group on this CPU's LLC counts",
          since=2, why_not="size against llc: follows from size and the machine"),
        F("llc_regions", COUNT, "only where more than one: the CPUs of the group (`cpus=`), this "
          "one included, that share this CPU's last-level cache, each with a region of `size` "
          "(CPUID 4 / 8000001Dh and the APIC IDs, as Linux's cacheinfo; the companion: sysfs "
          "`shared_cpu_list`; `lib/llc.c`)", since=3,
          why_not="the group's regions on this CPU's LLC: follows from cpus and the machine"),
        F("pte", enum("linux", "clean"), "the page-table entries: as Linux makes them on a write "
          "fault (Accessed and Dirty set), or left to the hardware", since=2),
        F("rethunk", enum("off", "on"), "`bench=fault` and `bare`: whether each primitive call "
          "returned through a return thunk; without `rethunk=`, `on` where Linux's default "
          "mitigation uses one on this CPU (docs/hardware.md, \"Return thunks\")", since=5),
        F("rethunk_thunk", enum("none", "retbleed_return_thunk", "srso_return_thunk",
                                "srso_alias_return_thunk", "call_depth_return_thunk"),
          "with it: the thunk, Linux's name; `none` with `rethunk=off`", since=5),
        F("preempt", enum("off", "none", "voluntary", "full", "lazy"), "the preemption model; "
          "`off`: no model", since=2),
        F("linux_offered", enum("yes", "no"), "`order=linux` only: whether x86 Linux 7.0 runs the "
          "plan it resolved to (`no` under `none` and `voluntary`, kept to measure 7.0's "
          "non-preemptible branch; docs/sched.md, \"order=linux in 7.0\")", since=3,
          why_not="whether x86 Linux 7.0 offers order=linux's model: follows from order and "
          "preempt"),
        F("kernel_fpu_save_ticks", TICKS, "kernel, a model and a SIMD primitive: what a fault pays "
          "once, the workload's FPU registers saved by its first `kernel_fpu_begin()` and loaded "
          "on the way back (median of 256; docs/sched.md, \"Kernel SIMD\")", side="kernel",
          since=3, why_not="a measurement of the machine (the user's FPU registers saved and "
          "loaded)"),
        F("kernel_fpu_call_ticks", TICKS, "kernel: what every primitive call pays, a "
          "`kernel_fpu_begin()`/`kernel_fpu_end()` pair that saves nothing, with the model up and "
          "interrupts on (median of 256)", side="kernel", since=3,
          why_not="a measurement of the machine (a kernel_fpu_begin/end pair that saves "
          "nothing)"),
        F("kernel_fpu_ticks", TICKS, "older logs: a `kernel_fpu_begin()`/`kernel_fpu_end()` pair "
          "that saved and restored on every call, as the kernel then did", side="kernel", since=2,
          until=2, why_not="a measurement of the machine (older logs: the SIMD begin/end pair)"),
        F("hz", "Hz", "kernel, with a model: the tick", side="kernel", since=2),
        F("probe", enum("none", "latency"), "with a model (and the companion's `linux-fault`): the "
          "competing task", since=2),
        F("probe_us", US, "with a probe: its period", since=2),
        F("probe_class", enum("normal", "rt"), "with a probe: its scheduling class", since=2),
        F("probe_policy", enum("SCHED_FIFO", "SCHED_OTHER"), "companion, with a probe: the policy "
          "it got", side="companion", since=2),
        F("cpl", enum("0", "3"), "the ring the workload runs in"),
        F("warmups", COUNT, "passes discarded before the measured ones (a dimension: what "
          "warm-ups leave behind, page tables, a hypervisor's first touch, changes what the "
          "measured passes see)"),
        F("runs", COUNT, "measured passes; `auto` with `runs=auto`",
          why_not="how many measured passes of the same measurement"),
        F("precision", "%", "`runs=auto`: the half-width of the mean's 95% interval to stop at, "
          "as given (`5`, `2.5`)", since=4,
          why_not="runs=auto: when to stop adding passes of the same measurement"),
        F("max_runs", COUNT, "`runs=auto`: the most measured passes", since=4,
          why_not="runs=auto: the most passes of the same measurement"),
        F("budget_s", "s", "`runs=auto`: the time allowed", since=4,
          why_not="runs=auto: the time allowed for passes of the same measurement"),
        F("interleave", enum("on", "off"), "`on`: the passes ran round by round with the other "
          "members of a round group; `off`: alone, in blocked order (docs/statistics.md, \"Round "
          "groups\")", since=4, why_not="whether the passes ran round by round with others: "
          "their order, not what one measured"),
        F("round_group", NUMBER, "with `interleave=on`: the `cfg` of the group's first member, "
          "shared by the configurations whose passes were interleaved; the host pairs their runs "
          "by `round`", since=4,
          why_not="which configurations' passes were interleaved together: their order"),
        F("verify", enum("full", "sample"), "the zero check after a pass",
          why_not="the zero check, after the timed pass"),
        F("samples", enum("all", "none"), "not written (raw samples are written or not); "
          "bookkeeping should a writer add it", side="none",
          why_not="whether raw samples are written, after the timed pass"),
        F("sample_lines_per_page", COUNT, "lines `verify` reads per 4K page: 64 for `full`, 1 for "
          "`sample`", since=2, why_not="how much the zero check reads, after the timed pass"),
        F("seed", NUMBER, "of every random choice"),
        F("inject", enum("none", "skip-line", "wrong-pa", "mark-zeroed", "overrun"), "the fault "
          "planted to prove the checks work"),
        F("inject_lines", COUNT, "with `inject=skip-line`: dirty lines planted per pass", since=2),
        F("inject_cpu", CPULIST, "with `inject=` and `inject_cpu=` (test-only): the CPUs it planted "
          "on, the others' passes clean", since=5,
          why_not="where a test plants its fault: every CPU's record says the same list"),
        F("prezero", enum("none", "request", "idle", "dedicated", "on-free"),
          "with `prezero=`: the pre-zeroing mode (docs/prezero.md)", since=2),
        F("prezero_clear", TEXT, "a mode other than `none`: the zeroer's primitive (`same` written "
          "as the configuration's own; `linux` in `linux-fault`)", since=2),
        F("prezero_order", TEXT, "a mode other than `none`: the zeroer's order, resolved likewise",
          since=2),
        F("prezero_n", NUMBER, "`request`: folios zeroed on request, or `all`", since=2),
        F("prezero_cpu", NUMBER, "`dedicated`: the zeroing CPU", since=2),
        F("prezero_pool", enum("shared", "apart"), "`dedicated`: whether the zeroer zeroes the "
          "workload's folios or its own", since=2),
        F("prezero_low", "% of the pool", "`idle`, `dedicated`: the low watermark, where zeroing "
          "starts", since=2),
        F("prezero_high", "% of the pool", "`idle`, `dedicated`: the high watermark, where it "
          "stops", since=2),
        F("prezero_idle_ms", MS, "`idle`, `dedicated`: the refill window before each pass's "
          "timed part", since=2),
        F("pmu", LIST, "with `pmu=`: the events asked for (docs/hardware.md, \"Counters\")",
          since=2),
        F("pmu_counted", LIST, "with `pmu=`: the events counted, or `none`", since=2,
          why_not="which pmu= events this machine's counters could count"),
        F("pmu_skip", TEXT, "with `pmu=`: why each other event is not counted, `EVENT,EVENT: "
          "reason; …` (events sharing a reason named together)", since=2,
          why_not="why the others could not: the machine's, not the configuration's"),
        F("pmu_bracket", TEXT, "companion, with `pmu=`: `EVENT:N,…`, what its read(2) pair alone "
          "counts, inside every sample", side="companion", since=2,
          why_not="what the companion's read(2) pair alone counts: a measurement of the "
          "machine"),
        F("pmu_firmware", HEX, "with `pmu=`, where the firmware left counters enabled: which (bit "
          "n: general counter n, bit 32 + n: fixed counter n)", since=2,
          why_not="counters the firmware left enabled: the machine's state"),
        F("pmu_firmware_msr", HEX, "the first such MSR", since=2,
          why_not="the first of them: the machine's state"),
        F("pmu_firmware_val", HEX, "what it held", since=2,
          why_not="the first of them: the machine's state"),
        F("freq", TEXT, "kernel: how the effective frequency is read (`aperf/mperf`), or why not",
          side="kernel", since=2,
          why_not="how this machine's effective frequency is read, or why not"),
        F("smi", TEXT, "kernel: how SMIs are counted (`msr_smi_count`), or why not", side="kernel",
          since=2, why_not="how this machine's SMIs are counted, or why not"),
        F("boost", enum("off", "on"), "`boost=` where it asked for one, on either side; absent "
          "with `firmware`, as every log before `boost=` (docs/hardware.md, \"Boost\")", since=3),
        F("boost_state", enum("on", "off", "none", "unknown"), "kernel: this CPU's boost after "
          "`boost=` (its `boost` record's `after`)", side="kernel", since=3,
          why_not="what this CPU's boost MSRs held after boost= set them: the machine's state"),
        F("boost_check", enum("ok", "over", "under", "unmeasured"), "kernel, `boost=off` (and "
          "`boost=on` from format 5): the effect check on this CPU (its `boost` record's `check`)",
          side="kernel", since=3,
          why_not="boost=off|on: whether the CPU stayed within 2% of nominal, or went above it, "
          "measured"),
        F("boost_eff_khz", KHZ, "kernel: the effective frequency the check measured",
          side="kernel", since=3,
          why_not="the CPU's effective frequency in the boost check: a measurement"),
        F("boost_ref", enum("tsc", "hwp-guaranteed"), "kernel: what the check held it against",
          side="kernel", since=3,
          why_not="what the boost check held boost_eff_khz against: the machine's"),
        F("cpus", CPULIST, "on several CPUs (docs/smp.md): the CPUs running this configuration at "
          "once (one `scale=` step), in canonical form", since=2),
        F("ncpus", COUNT, "how many they are", since=2,
          why_not="how many CPUs cpus lists: follows from cpus"),
        F("cpu", NUMBER, "the CPU these records are from", since=2,
          why_not="which member of the group these records are from, not what was measured"),
        F("apic_id", NUMBER, "kernel: its APIC ID", side="kernel", since=2,
          why_not="the machine's name for cpu"),
        F("node", NUMBER, "its NUMA node", since=2,
          why_not="cpu's NUMA node: follows from cpu and the machine"),
        F("mem_node", TEXT, "the node its folios came from, or `interleave`", since=2,
          why_not="where cpu's folios came from: follows from cpu, numa and the machine"),
        F("numa", enum("local", "remote", "interleave", "none"), "the NUMA policy; `none` on a "
          "machine of one node", since=2),
        F("group", NUMBER, "the concurrent configuration's number, from 1, shared by the config "
          "records of all CPUs that ran it together", since=2,
          why_not="the number of the concurrent configuration within its boot"),
    ),
    record(
        "run", "both", 1, "per pass of a configuration",
        F("cfg", NUMBER, "the configuration"),
        F("run", NUMBER, "the pass's number, from 0"),
        F("pass", enum("verify", "warmup", "measure"), "`verify`: an extra pass with no access, to "
          "check zeroing when `access=write` overwrites the folios; `warmup`: discarded"),
        F("round", NUMBER, "measured passes of a round group: the 0-based measured round it ran "
          "in", since=4),
        F("slot", NUMBER, "with `round`: its 0-based position in that round's seeded random order",
          since=4),
        F("access", enum("none", "write", "read"), "the pass's access"),
        F("faults", COUNT, "faults taken (bare: folios cleared)"),
        F("resched", COUNT, "resched points passed"),
        F("prim_calls", COUNT, "primitive calls made by the pass's faults that cleared a folio "
          "(not those served by a folio zeroed in advance): one per range of the plan, counted in "
          "`folio_zero()` outside the timer's reads", since=3),
        F("prim_calls_max", COUNT, "the most calls one fault made", since=3),
        F("rethunk_returns", COUNT, "`rethunk_count=1` (test-only): returns through a return "
          "thunk in the pass's clears, counted per CPU by the thunks themselves; "
          "`prim_calls` with `rethunk=on`, 0 with `off`", since=5),
        F("kernel_fpu_pairs", COUNT, "kernel: `kernel_fpu_begin()`/`kernel_fpu_end()` pairs the "
          "pass's clears paid, one per SIMD primitive call (`prim_calls` for `movntdq`, `avx2`, "
          "`avx2-nt`, `avx512`, `avx512-nt`), with a model or without; 0 for the others",
          side="kernel", since=5),
        F("fault_ticks", TICKS, "the faults' total, raw; absent in `bare`"),
        F("clear_ticks", TICKS, "the clears' total, raw; absent in `linux-fault`"),
        F("access_ticks", TICKS, "the accesses' total, raw, with `access=write|read`"),
        F("verify", enum("ok", "fail", "n/a"), "the zero check; `n/a` after a write access"),
        F("irqs", COUNT, "kernel: interrupts taken during the pass (0 without a model)",
          side="kernel", since=2),
        F("irq_ticks", TICKS, "kernel: ticks in interrupt handlers", side="kernel", since=2),
        F("switches", COUNT, "kernel: context switches", side="kernel", since=2),
        F("preemptions", COUNT, "kernel: switches on return from an interrupt", side="kernel",
          since=2),
        F("lazy_ticks", COUNT, "kernel: ticks that made the lazy model's pending request due, as "
          "Linux's `sched_tick()` does for `TIF_NEED_RESCHED_LAZY`", side="kernel", since=2),
        F("fpu_saves", COUNT, "kernel: the workload's FPU registers saved, by a fault's first "
          "`kernel_fpu_begin()` or a switch away from it (docs/sched.md, \"Kernel SIMD\")",
          side="kernel", since=3),
        F("fpu_restores", COUNT, "kernel: those registers loaded again on the way back to it",
          side="kernel", since=3),
        F("prezeroed_faults", COUNT, "a `prezero=` mode but `none`: faults served by a folio "
          "zeroed in advance (absent in the companion's `request`: Linux does not say)", since=2),
        F("prezero_by", enum("request", "idle", "dedicated", "free"), "who zeroed ahead", since=2),
        F("prezero_ticks", TICKS, "the zeroing ahead this pass, each folio's time summed "
          "(docs/prezero.md)", since=2),
        F("prezero_folios", COUNT, "folios zeroed ahead this pass", since=2),
        F("prezero_resched", COUNT, "kernel: resched points the zeroing ahead took", side="kernel",
          since=3),
        F("prezero_waits", COUNT, "kernel: faults that found no free folio while a zeroer held "
          "one, and waited for it", side="kernel", since=3),
        F("prezero_wait_ticks", TICKS, "kernel: the ticks they waited, raw (inside their fault "
          "windows: at most `fault_ticks`)", side="kernel", since=3),
        F("stime_us", US, "companion with `cpus=`: getrusage()'s system time over the timed part",
          side="companion", since=2),
        F("utime_us", US, "companion with `cpus=`: its user time", side="companion", since=2),
        F("eff_khz", KHZ, "kernel: the effective frequency over the pass, the TSC rate × "
          "ΔAPERF/ΔMPERF", side="kernel", since=2),
        F("smis", COUNT, "kernel, Intel: SMIs during the pass (MSR_SMI_COUNT)", side="kernel",
          since=2),
        F("wall_ns", NS, "companion's `linux-fault`: the pass's `mmap()` and touch loop on "
          "CLOCK_MONOTONIC, munmap outside: what `perf bench mem mmap` times a loop by",
          side="companion", since=3),
        F("probe_wakeups", COUNT, "with `probe=latency`: wake-ups the probe had", since=2),
        F("probe_expected", COUNT, "deadlines the pass passed, each owed one wake-up: the "
          "difference is the wake-ups lost", since=2),
        F("injected", COUNT, "`inject=skip-line`, passes whose zero check ran: dirty lines "
          "planted", since=2),
        F("injected_seen", COUNT, "those on lines `verify` reads", since=2),
        F("detected", COUNT, "dirty lines the verifier found", since=2),
    ),
    record(
        "samples", "both", 1, "per measured pass (unless `samples=none`), after its `run`; as "
        "many as the values need",
        F("cfg", NUMBER, "the configuration"),
        F("run", NUMBER, "the pass"),
        F("kind", TEXT, "`fault`: touch to return as the workload saw it; `clear`: inside the "
          "handler; `access`; `page`: the 4K page touched (`offset=random`); `probe`: a wake-up's "
          "lateness; `probe_fault`: the fault it fell in (2^64 − 1: none); `pmu.EVENT`: a "
          "counter's delta"),
        F("first", NUMBER, "the index of the first value"),
        F("v", LIST, "the values: TSC ticks, raw (`page`: page indexes; `pmu.EVENT`: counts)"),
        F("n", COUNT, "values in this record"),
    ),
    record(
        "summary", "both", 1, "per configuration, last: the writer's own figures, integer "
        "arithmetic and a cross-check (the host recomputes every number from the samples)",
        F("cfg", NUMBER, "the configuration"),
        F("status", enum("ok", "fail", "skip"), "how it ended"),
        F("reason", TEXT, "for `fail` and `skip`"),
        F("runs", COUNT, "measured passes; with `runs=auto` the rounds run"),
        F("stopped_by", enum("precision", "max_runs", "budget_s"), "`runs=auto`: what ended it",
          since=4),
        F("ci_pct_x100", PCT_X100, "`runs=auto`: the 95% interval's half-width reached, % of the "
          "mean", since=4),
        F("series", enum("ok", "drift", "bimodal", "drift,bimodal", "untested"), "the series "
          "flags of docs/statistics.md (\"Series a mean hides\"), from each measured pass's GiB/s "
          "× 10⁶ in the order run; `untested` below 6 passes", since=4),
        F("drift_s", NUMBER, "Mann–Kendall's S, signed (below 0 the passes fall), from 6 passes "
          "on", since=4),
        F("bimodal_sep_x100", NUMBER, "the gap test's largest separation of the sorted passes in "
          "two groups, in pooled within-group standard deviations × 100, from 8 passes on; `inf` "
          "where two groups without spread lie apart", since=4),
        F("net_of_ticks", TICKS, "what clear and access figures are net of", since=2),
        F("fault_net_of_ticks", TICKS, "what fault figures are net of: in `bench=fault` the two "
          "timer pairs inside a fault window, measured together; elsewhere `net_of_ticks`",
          since=2),
        F("gibps_milli_mean", GIBPS_MILLI, "the mean over measured passes of each pass's GiB/s"),
        F("gibps_stddev_pct_x100", PCT_X100, "their sample standard deviation, % of the mean"),
        F("clear_gibps_milli_mean", GIBPS_MILLI, "the same over the clearing alone"),
        F("fault_ns_median", NS, "the median over passes of each pass's median fault"),
        F("clear_ns_median", NS, "the same of the clear"),
        F("overhead_ns_median", NS, "the same of fault less clear"),
        F("access_ns_median", NS, "the same of the access"),
        F("resched_per_run", COUNT, "resched points a pass"),
        F("probe_ns_median", NS, "with a probe: the median over passes of each pass's median "
          "lateness", since=2),
        F("probe_ns_p99", NS, "the same of each pass's 99th percentile", since=2),
        F("probe_ns_p999", NS, "the same of each pass's 99.9th percentile", since=2),
        F("probe_ns_max", NS, "the largest over all passes", since=2),
        F("probe_lost", COUNT, "wake-ups owed and not had", since=2),
        F("perfbench_gibps_milli", GIBPS_MILLI, "companion's `linux-fault` with `access=none`, "
          "hugetlb only (from format 5; perf maps no other memory): `perf bench mem mmap`'s "
          "figure, the bytes of every pass (warm-ups in) over the sum of their `wall_ns` "
          "(lib/perfbench.c)", side="companion", since=3),
        F("perfbench_loops", COUNT, "the passes in it", side="companion", since=3),
        F("perfbench_first_gibps_milli", GIBPS_MILLI, "the first pass alone", side="companion",
          since=3),
        F("flagged", TEXT, "kernel: measured runs with an SMI or a frequency more than 2% from "
          "the median (`run 0: 1 SMI; …`); the host recomputes it", side="kernel", since=2),
    ),
    record(
        "agg", "both", 2, "on several CPUs: per pass of a group, what its CPUs did together "
        "(docs/smp.md)",
        F("group", NUMBER, "the group (the config records' `group`)"),
        F("run", NUMBER, "the pass"),
        F("pass", enum("verify", "warmup", "measure"), "as the run records'"),
        F("cpus", CPULIST, "the group's CPUs"),
        F("ncpus", COUNT, "how many"),
        F("bytes", BYTES, "the sum of the CPUs' regions"),
        F("refused", TEXT, "instead of the skews and `wall_ticks` where they cannot be trusted: "
          "why (TSC skew above the bound, a CPU that did not finish)"),
        F("start_skew_ticks", TICKS, "the last CPU's start less the first's, each as its CPU's TSC "
          "read it"),
        F("start_skew_corr_ticks", TICKS, "kernel: the same in CPU 0's time, each start less its "
          "CPU's `tsc_offset_ticks`", side="kernel"),
        F("start_skew_err_ticks", TICKS, "kernel: what that is known to, either way: the two largest "
          "`tsc_offset_err_ticks` of the group summed", side="kernel"),
        F("wall_ticks", TICKS, "the last finish less the first start"),
        F("stime_ticks", TICKS, "kernel: the sum of the CPUs' fault ticks (Linux's stime)",
          side="kernel"),
        F("utime_ticks", TICKS, "kernel: the sum of their access ticks (Linux's utime)",
          side="kernel"),
        F("stime_us", US, "companion, instead of `stime_ticks`: the sum over processes of "
          "getrusage()'s `ru_stime` over the pass", side="companion"),
        F("utime_us", US, "companion, instead of `utime_ticks`: the sum of `ru_utime`",
          side="companion"),
        F("slowest_cpu", NUMBER, "the CPU whose own finish less start was longest (absent where "
          "no CPU finished)"),
        F("slowest_ticks", TICKS, "its time"),
        F("fastest_cpu", NUMBER, "the CPU whose time was shortest"),
        F("fastest_ticks", TICKS, "its time"),
    ),
    record(
        "agg_summary", "both", 2, "on several CPUs: per group, after its passes (docs/smp.md)",
        F("group", NUMBER, "the group"),
        F("status", enum("ok", "fail", "skip", "refused"), "`fail`: some CPU's configuration "
          "failed"),
        F("reason", TEXT, "for a status other than `ok`"),
        F("runs", COUNT, "measured passes"),
        F("stopped_by", enum("precision", "max_runs", "budget_s"), "`runs=auto`: the rule that "
          "stopped every CPU's passes after the same round (docs/statistics.md, \"runs=auto in a "
          "group of CPUs\"); none when no member's series was left to stop", since=5),
        F("cpus", CPULIST, "the group's CPUs"),
        F("ncpus", COUNT, "how many"),
        F("gibps_milli_mean", GIBPS_MILLI, "total bytes over wall time, mean over measured passes"),
        F("gibps_stddev_pct_x100", PCT_X100, "its sample standard deviation, % of the mean"),
        F("stime_ns_mean", NS, "the summed stime, mean over passes (companion: from `stime_us`)"),
        F("stime_stddev_pct_x100", PCT_X100, "its standard deviation"),
        F("utime_ns_mean", NS, "the summed utime, mean over passes"),
        F("utime_stddev_pct_x100", PCT_X100, "its standard deviation"),
    ),
    record(
        "memrange", "kernel", 2, "`bench=info`: one per range of the memory map (docs/hardware.md, "
        "\"The hardware inventory\")",
        F("start", HEX, "the range's first byte"),
        F("end", HEX, "its end"),
        F("type", enum("usable", "acpi", "nvs", "reserved", "bad", "unknown"), "the memory map's "
          "type"),
        F("node", NUMBER, "its SRAT node, where the SRAT says"),
    ),
    record(
        "counters", "kernel", 2, "`bench=info`: the boot CPU's PMU (docs/hardware.md, \"The "
        "hardware inventory\")",
        F("pmu", enum("intel", "amd", "none"), "the PMU's vendor"),
        F("pmu_reason", TEXT, "with `none`: why"),
        F("pmu_version", NUMBER, "its version"),
        F("pmu_general", COUNT, "general counters"),
        F("pmu_width", "bits", "their width"),
        F("pmu_firmware", HEX, "counters the firmware left enabled (bit n: general counter n, bit "
          "32 + n: fixed counter n)"),
        F("pmu_firmware_msr", HEX, "the first such MSR"),
        F("pmu_firmware_val", HEX, "what it held"),
        F("pmu_fixed", COUNT, "Intel: fixed counters (CPUID 0AH EDX[4:0]; hugezero uses 0-2)"),
        F("pmu_fixed_width", "bits", "Intel: their width (EDX[12:5]), with fixed counters"),
        F("pmu_arch_events", COUNT, "Intel: architectural events EBX describes (EAX[31:24])"),
        F("pmu_arch_unavail", HEX, "Intel: CPUID 0AH EBX, a set bit an absent event"),
        F("pmu_ext_core", enum("yes", "no"), "AMD: PerfCtrExtCore (CPUID 80000001h ECX[23]): six "
          "counters at 0xc0010200"),
        F("pmu_perfmon_v2", enum("yes", "no"), "AMD: CPUID 80000022h EAX[0], the global enable"),
        F("freq", TEXT, "how the effective frequency is read (`aperf/mperf`), or why not"),
        F("smi", TEXT, "how SMIs are counted (`msr_smi_count`), or why not"),
    ),
    record(
        "console", "kernel", 2, "`bench=info`: the serial console (docs/hardware.md, \"Reading the "
        "serial console\")",
        F("io", HEX, "the UART's I/O base; 0 in MMIO"),
        F("mmio", HEX, "in MMIO: its physical address"),
        F("reg_bits", "bits", "in MMIO: a register's width"),
        F("baud", NUMBER, "the rate from divisor and clock, or `as-is` (the firmware's divisor "
          "kept)"),
        F("divisor", NUMBER, "the divisor"),
        F("clock", "Hz", "the UART's clock"),
        F("source", TEXT, "how it was chosen (`console=`, the ACPI SPCR table, COM1, the first "
          "that answers)"),
        F("reason", TEXT, "`console=auto`: why not the SPCR table's UART"),
        F("note", TEXT, "what of the SPCR table was not followed"),
    ),
    record(
        "interrupted", "companion", 3, "companion, stopped by a signal: just before `end` "
        "(docs/companion.md, \"Interrupted\")",
        F("signal", TEXT, "`SIGINT`, `SIGTERM`, `SIGHUP`; or a fault of the code running, "
          "`SIGSEGV`, `SIGBUS`, `SIGILL`, `SIGFPE` (a `linux-*` routine built with the wrong "
          "`LINUX_ABI=`?)"),
        F("cfg", TEXT, "the configurations it cut (their `config` out, their `summary` not), as "
          "ranges, `3`, `5-8`; `none` between configurations"),
        F("name", TEXT, "their name, or `none`"),
        F("restored", COUNT, "host settings put back (`nr_hugepages`, boost files)"),
        F("not_restored", COUNT, "those that could not be, each said on standard error"),
    ),
    record(
        "end", "both", 1, "last, once per boot",
        F("records", COUNT, "the records the boot wrote, `end` included"),
    ),
)


@dataclass(frozen=True)
class Missing:
    """What a config field an older log lacks counts as, where the older
    program's behaviour is known: by bench ("*": any), and why."""
    name: str
    by_bench: Mapping[str, str]
    note: str


MISSING: tuple[Missing, ...] = (
    Missing("bench", {"*": "fault"}, "`fault`"),
    Missing("pte", {"fault": "clean", "*": "linux"}, "`clean` for `bench=fault` (the kernel "
            "installed entries with Accessed and Dirty clear), `linux` for the companion's "
            "benches"),
    Missing("inject", {"*": "none"}, "`none` (and `inject_lines` means nothing with "
            "`inject=none`)"),
    Missing("cpus", {"fault": "0"}, "`0` for `bench=fault` (the kernel ran on its boot CPU, "
            "number 0); unrecorded for the companion's benches (one process, pinned by `cpu=` or "
            "where Linux ran it)"),
    Missing("numa", {"*": "none"}, "`none` (no NUMA policy)"),
    Missing("preempt", {"fault": "off"}, "`off` for `bench=fault` (before the scheduling models "
            "the kernel ran none, interrupts masked)"),
    Missing("prezero", {"fault": "none"}, "`none` for `bench=fault` (every fault cleared its own "
            "folio, as a kernel without `prezero=` still does); unrecorded for the companion's "
            "benches (what Linux zeroed ahead is Linux's)"),
)


@dataclass(frozen=True)
class Column:
    name: str
    unit: str
    meaning: str
    group: str          # see GROUPS


# The CSV's column groups, in the order they come: `row` always; the
# others only where a row has them (`counters`: per event any row's pmu
# names).  Newer dimensions, sorted, come between `row` and `zeroer`.
GROUPS = {
    "row": "always",
    "zeroer": "where a row's run records have them (newer kernel logs, `prezero=` other than "
              "`none`)",
    "counters": "for each event any row's `pmu` names, in the order first named",
    "perfbench": "where a row's run records carry `wall_ns` (the companion's `linux-fault`) "
    "and its backing is hugetlb",
    "newer": "where a row has them (newer logs)",
    "after": "always, after the dimensions",
}
# How docs/records.md's tables say a group.
WHEN = {"row": "always", "after": "always, after the dimensions"}

GBPS = "GiB/s"


def C(name: str, unit: str, meaning: str, group: str = "row") -> Column:
    return Column(name, unit, meaning, group)


def _dim(name: str) -> Column:
    """A dimension's column: its config field's unit."""
    f = next(f for f in _config if f.name == name)
    return C(name, f.unit, "the configuration's dimension (\"Dimensions\": defaults applied, "
             "empty where missing or not applicable)")


_config = next(r for r in RECORDS if r.name == "config").fields


CSV: tuple[Column, ...] = (
    C("folio", enum(*FOLIOS), "the folio size"),
    C("clear", TEXT, "the primitive"),
    C("order", TEXT, "the order"),
    C("chunk", "size", "the order's chunk as `32M`; empty for 0"),
    C("status", enum("ok", "skip", "fail", "damaged", "incomplete", "interrupted"), "`damaged`: "
      "records of it were lost; `incomplete`: no summary; `interrupted`: the companion's run was "
      "cut by a signal"),
    C("runs", COUNT, "measured passes"),
    C("gbps_mean", GBPS, "the mean of the measured passes' GB/s: the region's bytes over the sum "
      "of its faults' net times (the clearing's in `bare`)"),
    C("gbps_stddev_pct", "%", "between passes: the sample standard deviation (n − 1) of the "
      "per-pass GB/s, % of `gbps_mean`; empty for one pass (undefined), as in `--rows agg`"),
    C("fault_us_median", US, "over every fault of every measured pass, net of `fault_net_ticks`"),
    C("clear_us_median", US, "the clears', net of `net_ticks`"),
    C("access_us_median", US, "the accesses', net of `net_ticks`"),
    C("overhead_us_median", US, "of net fault less net clear"),
    C("fault_us_min", US, "the least fault"),
    C("fault_us_p99", US, "the faults' 99th percentile (nearest rank)"),
    C("fault_us_max", US, "the largest fault"),
    C("clear_gbps_mean", GBPS, "as `gbps_mean` over the clears alone"),
    C("resched_per_run", COUNT, "resched points in the first measured pass"),
    C("size", BYTES, "the region used"),
    C("folios", COUNT, "folios in the region"),
    _dim("touch"), _dim("offset"), _dim("access"), _dim("cache"), _dim("cpl"),
    C("cpu_brand", TEXT, "the machine record's brand string"),
    C("tsc_hz", "Hz", "the timebase record's TSC rate"),
    C("tsc_source", TEXT, "where it came from"),
    C("boot", NUMBER, "the boot within the log, from 0"),
    C("cfg", NUMBER, "the configuration within its boot"),
    C("reason", TEXT, "the summary's reason, and any damage"),
    _dim("bench"), _dim("backing"), _dim("radius"), _dim("pte"), _dim("fill"), _dim("seed"),
    _dim("preempt"), _dim("cpus"), _dim("prezero"), _dim("inject"), _dim("inject_lines"),
    C("roof", "ratio", "`gbps_mean` over the best `clear_gbps_mean` of any ok configuration of the "
      "same boot, folio size and cache state: how far from the fastest clearing measured there"),
    C("net_ticks", TICKS, "what clear and access samples are net of: the boot's "
      "`overhead_median`"),
    C("fault_net_ticks", TICKS, "what fault samples are net of: the summary's "
      "`fault_net_of_ticks` (both pairs of a kernel fault window)"),
    C("injected", COUNT, "dirty lines planted, over the passes whose zero check ran"),
    C("detected", COUNT, "dirty lines the verifier found"),
    C("probe_us_median", US, "the probe's lateness over every wake-up of the measured passes; "
      "empty without a probe"),
    C("probe_us_p99", US, "its 99th percentile"),
    C("probe_us_p999", US, "its 99.9th percentile"),
    C("probe_us_max", US, "its largest"),
    C("probe_lost", COUNT, "wake-ups owed and not had"),
    _dim("numa"),
    C("cpu", NUMBER, "the CPU the row's records are from (docs/smp.md); in a log without `cpu` "
      "the one CPU `cpus` lists, else empty"),
    C("ncpus", COUNT, "how many CPUs ran together"),
    C("node", NUMBER, "the CPU's node"),
    C("mem_node", TEXT, "its folios' node"),
    C("group", NUMBER, "its group"),
    C("apic_id", NUMBER, "its APIC ID"),
    *(_dim(k) for k in ("prezero_clear", "prezero_order", "prezero_n", "prezero_cpu",
                        "prezero_low", "prezero_high", "prezero_idle_ms")),
    C("prezeroed_pct", "%", "100 × the measured passes' `prezeroed_faults` over their `faults`; "
      "empty where the runs do not say (the companion's `request`)"),
    C("prezero_by", TEXT, "who zeroed ahead (the run records' `prezero_by`); `none` for "
      "`prezero=none`"),
    C("fault_ms_per_run", MS, "the pass's faults' total (`fault_ticks`), mean over measured "
      "passes, net of the timer: the time to fault the region"),
    C("inline_clear_ms_per_run", MS, "the pass's clears' total (`clear_ticks`): the zeroing the "
      "faulting task still did"),
    C("prezero_ms_per_run", MS, "the zeroing done ahead (`prezero_ticks`, a timer pair per "
      "folio off); 0 for `prezero=none`"),
    C("zeroing_ms_per_run", MS, "inline plus ahead: the zeroing's whole cost, wherever paid"),
    C("prezero_gbps", GBPS, "the rate of the zeroing ahead: `prezero_folios` × the folio size "
      "over `prezero_ticks`; empty for `none`"),
    C("flagged", TEXT, "the measured runs with an SMI or a frequency more than 2% off the median, "
      "computed by the host from the run records (docs/hardware.md, \"Frequency and SMIs\")"),
    C("kernel_flagged", TEXT, "the summary's own `flagged`, to show where it disagrees"),
    C("prezero_waits_per_run", COUNT, "faults that waited for a folio a zeroer held, mean per "
      "measured pass", "zeroer"),
    C("prezero_wait_ms_per_run", MS, "the time they waited (`prezero_wait_ticks`, raw: a wait is "
      "no timed pair)", "zeroer"),
    C("prezero_resched_per_run", COUNT, "`prezero_resched`, mean per measured pass", "zeroer"),
    C("pmu.EVENT_per_fault", COUNT, "the mean of the counter's delta around the clear over every "
      "measured fault; empty where the event was not counted (`pmu_skip` says why) and for a "
      "damaged configuration (docs/hardware.md, \"Counters\")", "counters"),
    C("pmu.EVENT_per_4k", COUNT, "that over the folio's 4 KiB pages", "counters"),
    C("perfbench_gbps", GBPS, "what `perf bench mem mmap` would print for the passes: every pass "
      "with `wall_ns` a loop, warm-ups in, all their bytes over the sum of their `wall_ns`; "
      "hugetlb rows only (perf maps no THP or base pages); empty with `access=write|read` and "
      "for a damaged configuration (docs/companion.md)", "perfbench"),
    C("perfbench_loops", COUNT, "how many loops", "perfbench"),
    C("perfbench_first_gbps", GBPS, "the first loop alone", "perfbench"),
    C("perfbench_measured_gbps", GBPS, "the measured passes alone", "perfbench"),
    C("linux_offered", enum("yes", "no"), "the config record's `linux_offered`", "newer"),
    C("prim_calls_per_fault", NUMBER, "the run records' `prim_calls` over their faults that "
      "cleared a folio", "newer"),
    C("prim_calls_max", COUNT, "the most calls one fault made", "newer"),
    C("linux_tree", TEXT, "the tree of a tree primitive's row or an `order=tree` row: its version "
      "and `git describe`", "newer"),
    C("linux_tree_sha256", HEX, "a tree primitive's row: that tree's `clear_page_64.S` hash",
      "newer"),
    C("tree_entry", TEXT, "an `order=tree` row: the tree's zeroing entry it ran "
      "(`folio_zero_user`, `clear_huge_page`)", "newer"),
    C("tree_entry_sha256", HEX, "an `order=tree` row: the hash of that entry's extracted text",
      "newer"),
)


# `parse --rows agg`: one row per group of CPUs that ran one configuration
# together (docs/smp.md), these columns, then every dimension of the group,
# then the `newer` columns where a row has them.
AGG: tuple[Column, ...] = (
    C("boot", NUMBER, "the boot within the log, from 0"),
    C("group", NUMBER, "the group within its boot (the config records' `group`)"),
    C("cpus", CPULIST, "the CPUs that ran together"),
    C("ncpus", COUNT, "how many"),
    C("folio", enum(*FOLIOS), "the folio size"),
    C("clear", TEXT, "the primitive"),
    C("order", TEXT, "the order"),
    C("chunk", "size", "the order's chunk as `32M`; empty for 0"),
    C("status", enum("ok", "skip", "fail", "refused", "damaged", "incomplete", "interrupted"),
      "the `agg_summary`'s; `damaged`: records of the group were lost (no figures then); "
      "`incomplete`: no `agg_summary`; `interrupted`: the companion's run was cut by a signal"),
    C("runs", COUNT, "measured passes"),
    C("refused_runs", COUNT, "those refused: no wall time to trust (their reasons in "
      "`refused`)"),
    C("gbps_mean", GBPS, "the mean over the passes not refused of each pass's total bytes over "
      "its wall time (first start to last finish), not net of the timer"),
    C("gbps_stddev_pct", "%", "their sample standard deviation (n − 1), % of `gbps_mean`; empty "
      "for one pass (undefined), as in the configurations' CSV"),
    C("stime_s_mean", "s", "the CPUs' summed stime (the kernel: fault ticks; the companion: "
      "`ru_stime`), mean over every measured pass"),
    C("stime_stddev_pct", "%", "its sample standard deviation, % of the mean; empty for one "
      "pass"),
    C("utime_s_mean", "s", "the summed utime (access ticks; `ru_utime`), mean over every "
      "measured pass"),
    C("utime_stddev_pct", "%", "its sample standard deviation, % of the mean; empty for one "
      "pass"),
    C("times_from", enum("ticks", "rusage"), "where stime and utime come from: `ticks` (the "
      "kernel: the CPUs' fault and access ticks) or `rusage` (the companion's getrusage())"),
    C("bytes", BYTES, "a pass's total over its CPUs"),
    C("start_skew_us_max", US, "the largest start skew over the measured passes, as the CPUs' "
      "TSCs read it (`start_skew_ticks`)"),
    C("tsc_hz", "Hz", "the timebase record's TSC rate"),
    C("refused", TEXT, "the refused passes' reasons, `; `-separated"),
    C("reason", TEXT, "the `agg_summary`'s reason, and any damage"),
    C("backing", TEXT, "the first CPU's `backing` (the companion's)"),
    C("start_skew_corr_us_max", US, "the largest start skew in CPU 0's time "
      "(`start_skew_corr_ticks`); empty for a log without it (an older kernel, the companion)"),
    C("start_skew_err_us_max", US, "what that is known to, either way (`start_skew_err_ticks`); "
      "empty likewise"),
    C("tree_entry", TEXT, "a group that ran `order=tree`: the tree's zeroing entry "
      "(the config records' `tree_entry`)", "newer"),
    C("tree_entry_sha256", HEX, "the hash of that entry's extracted text", "newer"),
    C("stopped_by", enum("precision", "max_runs", "budget_s"), "`runs=auto`: the `agg_summary`'s, "
      "the rule that stopped every CPU after the same round (docs/statistics.md, \"`runs=auto` "
      "in a group of CPUs\")", "newer"),
)

# `parse --rows samples`: one row per raw sample of every measured pass of
# an intact configuration: the `row` columns, every dimension, the `after`
# columns, any other dimension the log has, sorted, then the `newer`
# columns where a row has them.
SAMPLES: tuple[Column, ...] = (
    C("boot", NUMBER, "the boot within the log, from 0"),
    C("cfg", NUMBER, "the configuration within its boot"),
    C("name", TEXT, "the config record's `name`"),
    C("bench", enum("fault", "bare", "linux-fault"), "the configuration's bench"),
    C("folio", enum(*FOLIOS), "the folio size"),
    C("clear", TEXT, "the primitive"),
    C("order", TEXT, "the order"),
    C("chunk", "size", "the order's chunk as `32M`; empty for 0"),
    C("backing", TEXT, "the config record's `backing` (the companion's)"),
    C("run", NUMBER, "the measured pass"),
    C("kind", TEXT, "the samples record's `kind`"),
    C("index", NUMBER, "the sample's place among its pass's samples of its kind, from 0"),
    C("ticks", TICKS, "the sample as the record has it: raw (`page`: the page's index)"),
    C("us", US, "`ticks` in µs, raw; empty for `page`, `probe` and `probe_fault`"),
    C("net_us", US, "`ticks` less `timer_ticks`, clamped at 0, in µs (\"Net of the timer\"); "
      "empty where `us` is"),
    C("timer_ticks", TICKS, "what the sample is net of: the boot's `overhead_median`, or for a "
      "kernel fault the summary's `fault_net_of_ticks`; empty where `us` is"),
    C("cpu", NUMBER, "the CPU the sample is from (docs/smp.md); in a log without `cpu` the one "
      "CPU `cpus` lists, else empty", "after"),
    C("group", NUMBER, "its group; empty outside one", "after"),
    C("tree_entry", TEXT, "a sample of an `order=tree` configuration: the tree's zeroing entry "
      "(the config record's `tree_entry`)", "newer"),
    C("tree_entry_sha256", HEX, "the hash of that entry's extracted text", "newer"),
)

# Each CSV `parse --format csv` writes, by its --rows (docs/records.md's
# block of its columns is named so).
TABLES: dict[str, tuple[Column, ...]] = {"csv": CSV, "csv-agg": AGG, "csv-samples": SAMPLES}


def records() -> dict[str, Record]:
    return {r.name: r for r in RECORDS}


def fields_of(rtype: str) -> tuple[Field, ...]:
    r = records().get(rtype)
    return r.fields if r else ()


def lookup(rtype: str, name: str) -> Field | None:
    """The declared field @name of record @rtype (a pattern matches)."""
    return next((f for f in fields_of(rtype) if f.matches(name)), None)


def bookkeeping() -> dict[str, str]:
    """Config fields that are not dimensions, and why."""
    return {f.name: f.why_not for f in fields_of("config") if f.why_not}


def csv_names(group: str, table: str = "csv") -> list[str]:
    """The columns of @group of a CSV (TABLES), in their order."""
    return [c.name for c in TABLES[table] if c.group == group]


# --- rendering -------------------------------------------------------------

MARK = ("<!-- fields {0}: generated by scripts/hugezero fields {0} --markdown; "
        "edit scripts/hzlib/fields.py -->")
END = "<!-- end fields -->"
BLOCKS = ("records", "dimensions", "defaults", "csv", "csv-agg", "csv-samples")


def _cell(s: str) -> str:
    return s.replace("|", "\\|")


def _format(f: Field) -> str:
    """The formats that write @f: `3`, from 3 on; `2 only`, `2–3`."""
    if not f.until:
        return f"{f.since}"
    return f"{f.since} only" if f.until == f.since else f"{f.since}–{f.until}"


def record_table(r: Record) -> list[str]:
    out = [f"### `{r.name}`", "", f"{r.when[0].upper()}{r.when[1:]}.", "",
           "| field | unit | side | format | meaning |", "|---|---|---|---|---|"]
    for f in r.fields:
        name = f"`{f.name}`" + (" (not a dimension)" if f.dimension is False else "")
        side = "—" if f.side == "none" else f.side
        out.append(f"| {name} | {_cell(f.unit)} | {side} | {_format(f)} | {_cell(f.meaning)} |")
    return out


def markdown(block: str) -> str:
    """One generated block of docs/records.md (BLOCKS), or one record's
    table, without its markers."""
    if block == "records":
        lines: list[str] = []
        for r in RECORDS:
            lines += record_table(r) + [""]
        return "\n".join(lines[:-1]) + "\n"
    if block == "dimensions":
        return "\n".join(["| field | why not |", "|---|---|",
                          *(f"| `{k}` | {_cell(v)} |" for k, v in bookkeeping().items())]) + "\n"
    if block == "defaults":
        renamed = [f"| `{f.name}={old}` | `{new}` (an old name) |"
                   for f in fields_of("config") for old, new in f.renamed.items()]
        return "\n".join(["| missing field, or old value | taken as |", "|---|---|",
                          *(f"| `{m.name}` | {_cell(m.note)} |" for m in MISSING),
                          *renamed]) + "\n"
    if block in TABLES:
        lines = ["| column | unit | when | meaning |", "|---|---|---|---|"]
        for c in TABLES[block]:
            when = WHEN.get(c.group, c.group)
            lines.append(f"| `{c.name}` | {_cell(c.unit)} | {when} | {_cell(c.meaning)} |")
        return "\n".join(lines) + "\n"
    r = records().get(block)
    if r is None:
        raise KeyError(block)
    return "\n".join(record_table(r)) + "\n"


def marked(block: str) -> str:
    """@block between its markers, as docs/records.md holds it."""
    return f"{MARK.format(block)}\n{markdown(block)}{END}\n"


def blocks_in(text: str) -> dict[str, str]:
    """The generated blocks of a document, by name, without markers."""
    out = {}
    for m in re.finditer(r"<!-- fields (\S+): generated by [^\n]*-->\n(.*?)" + re.escape(END),
                         text, re.S):
        out[m.group(1)] = m.group(2)
    return out


def rewrite(text: str) -> str:
    """@text (docs/records.md) with each generated block made anew."""
    def block(m: re.Match[str]) -> str:
        return marked(m.group(1))
    return re.sub(r"<!-- fields (\S+): generated by [^\n]*-->\n.*?" + re.escape(END) + r"\n",
                  block, text, flags=re.S)


def describe(f: Field | Column, table: str = "csv") -> str:
    """One field or column (of @table) in words, for `hugezero fields
    RECORD.FIELD`."""
    if isinstance(f, Column):
        return (f"{table}.{f.name}\n  unit: {f.unit or '-'}\n  when: {GROUPS[f.group]}\n"
                f"  meaning: {f.meaning}\n")
    dim = ("" if f.dimension is None else
           "  dimension: yes\n" if f.dimension else f"  dimension: no, {f.why_not}\n")
    old = "".join(f"  older logs: {k} read as {v}\n" for k, v in f.renamed.items())
    return (f"{f.record}.{f.name}\n  unit: {f.unit}\n  side: {f.side}\n  format: {_format(f)}\n"
            f"{dim}{old}  meaning: {f.meaning}\n")


def listing(rtype: str | None = None) -> Iterable[str]:
    """`RECORD.FIELD  unit  side` lines, of one record or all, and the CSV."""
    for r in RECORDS:
        if rtype in (None, r.name):
            for f in r.fields:
                yield f"{r.name}.{f.name}\t{f.unit}\t{f.side}"
    for table, cols in TABLES.items():
        if rtype in (None, table):
            for c in cols:
                yield f"{table}.{c.name}\t{c.unit or '-'}\t{c.group}"


def command(what: str | None, md: bool) -> str:
    """What `hugezero fields [WHAT] [--markdown]` prints: every field, one
    record's (or the CSV's), one field in words; with --markdown the
    generated blocks of docs/records.md with their markers, or one block
    or record's table.  KeyError for a name not declared."""
    if what is None:
        return "".join(marked(b) + "\n" for b in BLOCKS)[:-1] if md else \
            "".join(line + "\n" for line in listing())
    rtype, _, name = what.partition(".")
    if not name:
        if md:
            return markdown(rtype)
        if rtype not in records() and rtype not in TABLES:
            raise KeyError(what)
        return "".join(line + "\n" for line in listing(rtype))
    if rtype in TABLES:
        col = next((c for c in TABLES[rtype] if c.name == name), None)
        if col is None:
            raise KeyError(what)
        return describe(col, rtype)
    f = lookup(rtype, name)
    if f is None:
        raise KeyError(what)
    return describe(f)

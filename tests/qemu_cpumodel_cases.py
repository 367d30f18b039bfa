# SPDX-License-Identifier: GPL-2.0-only
"""QEMU boots of the seeds' machines as QEMU models them: -cpu EPYC-Milan
(seed 001's Milan), EPYC-Genoa and Icelake-Server (its Icelake-X).

Each model boots twice.  `cpu-MODEL` runs the self-tests and a small
verified benchmark of every primitive; `cpu-MODEL-msr-gp` runs the
inventory (bench=info) with every vendor path's MSRs made to fault
(msr_gp=).  Their checks:

- the inventory names the vendor, family and model QEMU's model defines
  (target/i386/cpu.c, MODELS below), in the records and in `report`;
- the guest's CPUID (the kernel's raw "cpuid:" lines) is the model's, less
  what QEMU's TCG cannot emulate and warned of ("TCG doesn't support
  requested feature"): AVX-512 and CLZERO among them;
- the primitives offered are exactly those that CPUID allows, decoded
  here again (prims_allowed), and each one refused says which bit;
- each vendor path's "msr:" line (docs/hardware.md, "CPUID and MSR
  lines") shows its accesses through the guarded accessors and their
  outcome (VENDOR_PATHS), and under msr_gp= each faulting access is
  reported and the run still ends rc=0 (FAULTS).

A QEMU without the model (7.2 has no EPYC-Genoa) skips its boots, saying
so: `-cpu help` is asked once (hzlib.qemu.cpu_models).

Both boots ask boost=off with boost_assume=on (BOOST), so that the boost
path, which TCG's CPUID would leave with nothing to set, runs its writes:
TCG ignores AMD's HWCR write and keeps Intel's MISC_ENABLE one.  Its
outcome line names the model's vendor (boost_vendor).

A vendor path more: one entry in VENDOR_PATHS (its line in the plain
boot) and one in FAULTS (its MSRs and its line under msr_gp=); both boots
of every model then check it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from hzlib import ktap, qemu, records, results

from qemu_cases import Case, Check, all_of, expect_log, passes, run_report, skipped

# The features hugezero's primitives and vendor paths are chosen by:
# (leaf, subleaf, register, bit), as the SDM and the APM number them.
FEATURES = {
    "sse2": (0x1, 0, "edx", 26),
    "xsave": (0x1, 0, "ecx", 26),
    "avx": (0x1, 0, "ecx", 28),
    "avx2": (0x7, 0, "ebx", 5),
    "erms": (0x7, 0, "ebx", 9),
    "avx512f": (0x7, 0, "ebx", 16),
    "fsrm": (0x7, 0, "edx", 4),
    "pdpe1gb": (0x80000001, 0, "edx", 26),
    "perfctr_core": (0x80000001, 0, "ecx", 23),
    "clzero": (0x80000008, 0, "ebx", 0),
    "lfence_always_serializing": (0x80000021, 0, "eax", 2),
    "hwp": (0x6, 0, "eax", 7),
}


@dataclass(frozen=True)
class Model:
    """A QEMU CPU model as target/i386/cpu.c defines it (its v1, which
    the unversioned name is on q35): identity, and which of FEATURES it
    sets."""
    cpu: str
    brand: str
    vendor: str
    family: int
    model: int
    stepping: int
    features: frozenset[str]


MODELS = [
    Model("EPYC-Milan", "AMD EPYC-Milan Processor", "AuthenticAMD", 0x19, 0x01, 1,
          frozenset({"sse2", "xsave", "avx", "avx2", "erms", "fsrm", "pdpe1gb",
                     "perfctr_core", "clzero"})),
    Model("EPYC-Genoa", "AMD EPYC-Genoa Processor", "AuthenticAMD", 0x19, 0x11, 0,
          frozenset({"sse2", "xsave", "avx", "avx2", "erms", "fsrm", "pdpe1gb",
                     "perfctr_core", "clzero", "avx512f",
                     "lfence_always_serializing"})),
    # model 134 (0x86) in QEMU, not the Icelake-SP silicon's 0x6a
    Model("Icelake-Server", "Intel Xeon Processor (Icelake)", "GenuineIntel", 0x6, 0x86, 0,
          frozenset({"sse2", "xsave", "avx", "avx2", "erms", "pdpe1gb", "avx512f"})),
]


class Guest:
    """What the guest's CPU said of itself: the kernel's "cpuid:" lines."""

    def __init__(self, log: str) -> None:
        self.regs: dict[tuple[int, int], dict[str, int]] = {}
        for m in re.finditer(r"(?m)^cpuid: ([0-9a-f]{8})\.([0-9a-f]+): eax ([0-9a-f]{8}) "
                             r"ebx ([0-9a-f]{8}) ecx ([0-9a-f]{8}) edx ([0-9a-f]{8})", log):
            self.regs[(int(m.group(1), 16), int(m.group(2), 16))] = dict(
                zip(("eax", "ebx", "ecx", "edx"), (int(g, 16) for g in m.groups()[2:])))
        leaf0 = self.regs.get((0, 0), {})
        self.vendor = b"".join(leaf0.get(r, 0).to_bytes(4, "little")
                               for r in ("ebx", "edx", "ecx")).decode("ascii", "replace")

    def reg(self, leaf: int, sub: int, r: str) -> int:
        return self.regs.get((leaf, sub), {}).get(r, 0)

    def has(self, feature: str) -> bool:
        leaf, sub, r, bit = FEATURES[feature]
        return bool(self.reg(leaf, sub, r) >> bit & 1)

    @property
    def amd(self) -> bool:
        return self.vendor in ("AuthenticAMD", "HygonGenuine")


def prims_allowed(g: Guest) -> set[str]:
    """The primitives the guest's CPUID allows, decoded here on their own:
    SIMD state needs XSAVE, the instructions' bit and XCR0's components
    (CPUID 0DH:EAX: 1-2 SSE/YMM, 5-7 opmask/ZMM) the kernel enables."""
    xcr0 = g.reg(0xd, 0, "eax") if g.has("xsave") else 0
    ymm = g.has("avx") and xcr0 & 0x6 == 0x6
    want = {"orig", "rep"}
    if g.has("erms"):
        want.add("erms")
    if g.has("sse2"):
        want |= {"movnti", "movntdq"}
    if g.has("avx2") and ymm:
        want |= {"avx2", "avx2-nt"}
    if g.has("avx512f") and ymm and xcr0 & 0xe0 == 0xe0:
        want |= {"avx512", "avx512-nt"}
    if g.has("clzero"):
        want.add("clzero")
    return want


# The CPUID bit a refused primitive's reason names.
REFUSAL = {"erms": "CPUID 7.0:EBX[9]", "movnti": "CPUID 1:EDX[26]",
           "movntdq": "CPUID 1:EDX[26]", "avx2": "CPUID 7.0:EBX[5]",
           "avx2-nt": "CPUID 7.0:EBX[5]", "avx512": "CPUID 7.0:EBX[16]",
           "avx512-nt": "CPUID 7.0:EBX[16]", "clzero": "CPUID 80000008h:EBX[0]"}
ALL_PRIMS = ("orig", "rep", "erms", "movnti", "movntdq", "avx2", "avx2-nt",
             "avx512", "avx512-nt", "clzero")

# What QEMU's TCG dropped from the model, from its warnings.
TCG_DROPPED = re.compile(r"TCG doesn't support requested feature: CPUID\.([0-9A-F]+)H"
                         r"(?:_([0-9A-F]+)H)?:(E[ABCD]X)\.\S+ \[bit (\d+)\]")


def dropped(log: str) -> set[tuple[int, int, str, int]]:
    return {(int(m.group(1), 16), int(m.group(2) or "0", 16), m.group(3).lower(),
             int(m.group(4))) for m in TCG_DROPPED.finditer(log)}


def msr_line(log: str, path: str) -> str | None:
    m = re.search(rf"(?m)^msr: {re.escape(path)}: (.*?)\r?$", log)
    return m.group(1) if m else None


# Each vendor path: the regular expression its "msr:" line matches in a
# boot of this guest (the access list, "; ", the outcome).
HEX = r"0x[0-9a-f]+"
GUEST_NA = r"recorded n/a: a hypervisor's"


def lfence_line(g: Guest) -> str:
    if not g.amd:
        return r"none; serializing \(architectural\)"
    if g.has("lfence_always_serializing"):
        return r"none; serializing \(CPUID 80000021h:EAX\[2\]\)"
    return (r"rd 0xc0011029 ok(?:, wr 0xc0011029 ok, rd 0xc0011029 ok)?; "
            r"(?:serializing \(DE_CFG\[1\] (?:was )?set\)|NOT serializing: "
            r"DE_CFG\[1\] did not stay set)")


def microcode_line(g: Guest) -> str:
    access = r"rd 0x8b ok" if g.amd else r"wr 0x8b ok, rd 0x8b ok"
    return rf"{access}; revision {HEX}, {GUEST_NA}"


def misc_enable_line(g: Guest) -> str:
    if g.amd:
        return r"none; not read: not Intel"
    return rf"rd 0x1a0 ok; {HEX}: fast strings (?:on|OFF \(.*\))"


def pmu_msrs(g: Guest) -> str:
    """The counters' MSRs this guest's vendor detection probes."""
    if g.amd:
        return r"0xc001020[0-9a-b]" if g.has("perfctr_core") else r"0xc001000[0-7]"
    return r"0x(?:18[6-9a-d]|c[1-8]|4c[1-8]|38d)"


def pmu_line(g: Guest) -> str:
    if not g.amd and g.reg(0xa, 0, "eax") & 0xff == 0:
        return r"none; intel: none \(no PMU: CPUID 0AH reports version 0\)"
    one = rf"(?:rd|wr) {pmu_msrs(g)}(?:-{pmu_msrs(g)})? ok"
    return rf"{one}(?:, {one})*; {'amd' if g.amd else 'intel'}: .+"


# boost=off with CPUID's boost bit taken as set: lib/boost.c's
# boost_set() reads the state (boost_read()), tries each path (try_bits():
# read, and unless already as asked, write and read back), reads it again.
BOOST = ["boost=off", "boost_assume=on"]
NOT_AS_ASKED = r' why="not as asked after every path[^"]*"'


def boost_line(g: Guest) -> str:
    if g.amd:
        rd = "rd 0xc0010015 ok"
        return (rf"{rd}, {rd}, {rd}; vendor=amd asked=off before=off after=off "
                r"tried=hwcr:already|"
                rf"{rd}, {rd}, wr 0xc0010015 ok, {rd}, {rd}; vendor=amd asked=off "
                rf"before=on after=(?:off tried=hwcr:set|on tried=hwcr:ignored{NOT_AS_ASKED})")
    if g.has("hwp"):  # not under TCG: PM_ENABLE, then HWP's two, then the request
        return (r"rd 0x1a0 ok, rd 0x199 (?:ok|#GP), rd 0x770 .*; vendor=intel "
                r"asked=off .*")
    st, m = r"(?:on|unknown)", "rd 0x1a0 ok"
    read = rf"{m}, rd 0x199 (?:ok|#GP)"
    pc = r"rd 0x199 (?:#GP|ok, wr 0x199 (?:#GP|ok, rd 0x199 (?:ok|#GP)))"
    return (rf"{read}, {m}, {read}; vendor=intel asked=off before=off after=off "
            r"tried=misc_enable:already|"
            rf"{read}, {m}, wr 0x1a0 ok, {m}, {read}; vendor=intel asked=off before={st} "
            r"after=off tried=misc_enable:set|"
            rf"{read}, {m}, wr 0x1a0 ok, {m}, {pc}, {read}; vendor=intel asked=off "
            rf"before={st} after=\w+ tried=misc_enable:ignored,perf_ctl:[\w-]+"
            rf"(?:{NOT_AS_ASKED})?")


VENDOR_PATHS: dict[str, Callable[[Guest], str]] = {
    "lfence": lfence_line,
    "microcode": microcode_line,
    "misc_enable": misc_enable_line,
    "pmu": pmu_line,
    "boost": boost_line,
}


# Under msr_gp=: the MSR each path's first access goes to (None: the
# path makes none on this guest) and the line that must say it faulted.
def lfence_fault(g: Guest) -> tuple[int | None, str]:
    if not g.amd or g.has("lfence_always_serializing"):
        return None, lfence_line(g)
    return 0xc0011029, r"rd 0xc0011029 #GP; NOT serializing: a DE_CFG access faulted"


def microcode_fault(g: Guest) -> tuple[int | None, str]:
    return 0x8b, rf"{'rd' if g.amd else 'wr'} 0x8b #GP; unreadable: recorded n/a"


def misc_enable_fault(g: Guest) -> tuple[int | None, str]:
    if g.amd:
        return None, misc_enable_line(g)
    return 0x1a0, r"rd 0x1a0 #GP; unreadable: fast strings unknown"


def pmu_fault(g: Guest) -> tuple[int | None, str]:
    if not g.amd and g.reg(0xa, 0, "eax") & 0xff == 0:
        return None, pmu_line(g)
    msr = (0xc0010200 if g.has("perfctr_core") else 0xc0010000) if g.amd else 0x186
    return msr, (rf"rd {msr:#x} #GP; {'amd' if g.amd else 'intel'}: none \(no core "
                 r"performance counters: a counter MSR faulted under a hypervisor\)")


def boost_fault(g: Guest) -> tuple[int | None, str]:
    """Every read of the state faults, so each path is read-faulted and
    nothing is written; the state stays unknown, not as asked."""
    if g.amd:
        rd = "rd 0xc0010015 #GP"
        return 0xc0010015, (rf"{rd}, {rd}, {rd}; vendor=amd asked=off before=unknown "
                            rf"after=unknown tried=hwcr:read-faulted{NOT_AS_ASKED}")
    read = "rd 0x1a0 #GP, rd 0x199 #GP" + (", rd 0x770 #GP" if g.has("hwp") else "")
    return 0x1a0, (rf"{read}, rd 0x1a0 #GP, rd 0x199 #GP, {read}; vendor=intel asked=off "
                   r"before=unknown after=unknown tried=misc_enable:read-faulted,"
                   rf"perf_ctl:read-faulted{NOT_AS_ASKED}")


FAULTS: dict[str, Callable[[Guest], tuple[int | None, str]]] = {
    "lfence": lfence_fault,
    "microcode": microcode_fault,
    "misc_enable": misc_enable_fault,
    "pmu": pmu_fault,
    "boost": boost_fault,
}

# Every MSR a FAULTS entry may name, on any vendor: one boot line for all
# (at most MSR_GP_MAX, lib/msrtrace.h).  Boost's: HWCR, and Intel's
# MISC_ENABLE (with misc_enable's), PERF_CTL, PM_ENABLE, HWP's two.
MSR_GP = (0xc0011029, 0x8b, 0x1a0, 0xc0010000, 0xc0010200, 0x186,
          0xc0010015, 0x199, 0x770, 0x771, 0x774)


def identity(m: Model) -> Check:
    """The machine record and `report` name the model's vendor, family,
    model and stepping; the brand is the model's (its v1)."""
    def run(res: qemu.BootResult) -> str | None:
        boots = records.parse(res.log)
        mach = boots[0].first("machine") if boots else None
        if mach is None:
            return "no machine record"
        want = {"vendor": m.vendor, "family": f"{m.family:#x}", "model": f"{m.model:#x}",
                "stepping": str(m.stepping), "brand": m.brand}
        got = {k: mach.f.get(k) for k in want}
        if got != want:
            return f"machine record {got}, the model defines {want}"
        r = run_report(res)
        line = (f"machine: {m.brand} ({m.vendor} family {m.family:#x} model "
                f"{m.model:#x} stepping {m.stepping},")
        if r.returncode or line not in r.stdout:
            return f"report (rc {r.returncode}) lacks {line!r}"
        return None
    return run


def cpuid_is_the_model(m: Model) -> Check:
    """Each feature of FEATURES: in the guest exactly when the model sets
    it and TCG did not drop it (with its warning, which QEMU gives only
    for a feature the model asked for)."""
    def run(res: qemu.BootResult) -> str | None:
        g = Guest(ktap.clean(res.log))
        if g.vendor != m.vendor:
            return f"cpuid lines: vendor {g.vendor!r}, expected {m.vendor}"
        gone = dropped(res.log)
        for name, where in FEATURES.items():
            if where in gone and name not in m.features:
                return f"TCG dropped {name}, which the model is said to lack"
            want = name in m.features and where not in gone
            if g.has(name) != want:
                return (f"CPUID {name} {'set' if g.has(name) else 'clear'} in the guest; "
                        f"the model {'sets' if name in m.features else 'lacks'} it and "
                        f"TCG {'dropped' if where in gone else 'kept'} it")
        return None
    return run


def prims_as_cpuid(res: qemu.BootResult) -> str | None:
    """The benchmark ran exactly the primitives the guest's CPUID allows,
    verified, and skipped the others naming the CPUID bit."""
    g = Guest(ktap.clean(res.log))
    want = prims_allowed(g)
    boots = records.parse(res.log)
    if len(boots) != 1 or boots[0].problems or not boots[0].complete:
        return f"records damaged: {boots[0].problems[:3] if boots else 'none'}"
    rows = {r["clear"]: r for r in results.rows(boots)}
    if set(rows) != set(ALL_PRIMS):
        return f"rows for {sorted(rows)}, expected every primitive"
    ran = {p for p, r in rows.items() if r["status"] == "ok"}
    if ran != want:
        return f"ran {sorted(ran)}; the guest's CPUID allows {sorted(want)}"
    for p in ALL_PRIMS:
        r = rows[p]
        if p in want and not (r["gbps_mean"] and r["fault_us_median"] > 0):
            return f"{p}: no numbers"
        if p not in want and (r["status"] != "skip" or REFUSAL[p] not in str(r["reason"])):
            return f"{p}: {r['status']} {r['reason']!r}, expected a skip naming {REFUSAL[p]}"
    return None


def simd_selftests(res: qemu.BootResult) -> str | None:
    """The SIMD self-tests run what the guest has and skip what it lacks,
    with the reason: AVX-512 under TCG."""
    g = Guest(ktap.clean(res.log))
    why = skipped(res, "avx512_enabled")
    if not g.has("avx512f"):
        if why != "CPU lacks AVX-512F (CPUID 7.0:EBX[16] clear)":
            return f"avx512_enabled skip={why!r} on a guest without AVX-512F"
    elif why is not None:
        return f"avx512_enabled skipped ({why}) on a guest with AVX-512F"
    if skipped(res, "avx_enabled") is not None:
        return f"avx_enabled skipped: {skipped(res, 'avx_enabled')}"
    return None


def vendor_paths(res: qemu.BootResult) -> str | None:
    log = ktap.clean(res.log)
    g = Guest(log)
    for path, line in VENDOR_PATHS.items():
        got, want = msr_line(log, path), line(g)
        if got is None or not re.fullmatch(want, got):
            return f"msr: {path}: {got!r}, expected /{want}/"
    return None


def faults_reported(res: qemu.BootResult) -> str | None:
    """Each vendor path's faulting access named with its #GP, the run on."""
    log = ktap.clean(res.log)
    g = Guest(log)
    n = 0
    for path, fault in FAULTS.items():
        msr, want = fault(g)
        if msr is not None and msr not in MSR_GP:
            return f"{path}: MSR {msr:#x} is not in MSR_GP"
        n += msr is not None
        got = msr_line(log, path)
        if got is None or not re.fullmatch(want, got):
            return f"msr: {path}: {got!r}, expected /{want}/"
    if not n:
        return "no vendor path made an access to fault"
    return None


def counters_say_faulted(res: qemu.BootResult) -> str | None:
    """The inventory's counters record carries the PMU path's outcome."""
    g = Guest(ktap.clean(res.log))
    msr, _ = pmu_fault(g)
    boots = records.parse(res.log)
    c = boots[0].first("counters") if boots else None
    if c is None:
        return "no counters record"
    reason = c.f.get("pmu_reason", "")
    if msr is not None and "MSR faulted" not in reason:
        return f"counters pmu_reason {reason!r}: the fault not named"
    return None


def boost_vendor(m: Model) -> Check:
    """Every "boost: cpus=" outcome line names the model's vendor."""
    want = "amd" if m.vendor == "AuthenticAMD" else "intel"

    def run(res: qemu.BootResult) -> str | None:
        got = re.findall(r"(?m)^boost: cpus=\S+ vendor=(\w+) ", ktap.clean(res.log))
        if not got:
            return "no boost: outcome line"
        if set(got) != {want}:
            return f"boost: outcome lines say vendor={sorted(set(got))}, the model is {want}"
        return None
    return run


def linux_clear_as_read(faulted: bool) -> Check:
    """prim_linux() read IA32_MISC_ENABLE's fast strings on Intel, as
    early_init_intel() does, and said what it read (QEMU keeps bit 0 set):
    `on`, or `unknown` under msr_gp= (taken as on, the fault said); AMD
    reads nothing.  The kernel's machine record names clear_page() from
    it.  The bit found clear is tested on the host, through a fake reader
    (tests/host/test_prim_linux.c): no QEMU model clears it."""
    def run(res: qemu.BootResult) -> str | None:
        g = Guest(ktap.clean(res.log))
        boots = records.parse(res.log)
        mach = boots[0].first("machine") if boots else None
        if mach is None:
            return "no machine record"
        fs, why = mach.f.get("fast_strings"), mach.f.get("linux_clear_why", "")
        want = "n/a" if g.amd else ("unknown" if faulted else "on")
        if fs != want:
            return f"machine fast_strings={fs!r}, expected {want}"
        said = {"n/a": "IA32_MISC_ENABLE not read (not Intel)",
                "unknown": "IA32_MISC_ENABLE could not be read (RDMSR 0x1a0 raised vector 13)",
                "on": "fast strings (bit 0) on"}[want]
        if said not in why:
            return f"linux_clear_why {why!r} lacks {said!r}"
        clear = "erms" if g.has("erms") else "rep"
        if mach.f.get("linux_clear") != clear:
            return f"machine linux_clear={mach.f.get('linux_clear')!r}, expected {clear}"
        return None
    return run


BENCH = ["bench=fault", "folio=2M", "clear=all", "order=contiguous-page",
         "size=4M", "runs=1", "warmups=0"] + BOOST


def cases(m: Model) -> list[Case]:
    slug = m.cpu.lower()
    unable = lambda: qemu.cpu_model_missing(m.cpu)  # noqa: E731
    return [
        Case(f"cpu-{slug}", cpu=m.cpu, args=BENCH, unable=unable, check=all_of(
            passes, identity(m), cpuid_is_the_model(m), prims_as_cpuid,
            simd_selftests, vendor_paths, boost_vendor(m), linux_clear_as_read(False))),
        Case(f"cpu-{slug}-msr-gp", cpu=m.cpu, unable=unable,
             args=["bench=info", "selftest=off",
                   "msr_gp=" + ",".join(f"{x:#x}" for x in MSR_GP)] + BOOST,
             check=all_of(passes, expect_log(r"ok 1 info", "the inventory's case"),
                          expect_log(rf"hugezero: msr_gp: {len(MSR_GP)} MSRs made to fault",
                                     "the test-only key said"),
                          identity(m), faults_reported, counters_say_faulted,
                          boost_vendor(m), linux_clear_as_read(True))),
    ]


CASES = [c for m in MODELS for c in cases(m)]

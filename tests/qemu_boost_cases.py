# SPDX-License-Identifier: GPL-2.0-only
"""QEMU tests of boost= (docs/hardware.md, "Boost"): every CPU says what
it found and did, its records say the same, and the benchmark runs on.

QEMU's TCG reports no boost: CPUID 80000007h:EDX[9] (AMD's CPB) and
06H:EAX[1] (Intel's turbo) are clear on every model, so boost=off finds
nothing to set, says so and writes nothing; the MSRs are still read
through the guarded accessors (what QEMU does with HWCR and MISC_ENABLE
is in the records).  Each vendor's writes, a MISC_ENABLE that ignores a
write and a #GP on a write are the host tests' (tests/host/test_boost.c,
a fake MSR layer).
"""
from __future__ import annotations

import re

from hzlib import ktap, qemu, records

from qemu_cases import Case, Check, all_of, bench_ok, expect_log, passes, run_report, scalable

BENCH = ["bench=fault", "folio=2M", "clear=rep", "order=contiguous-page",
         "size=4M", "runs=1", "warmups=0", "selftest=off"]

STATE = r"(?:unknown|none|off|on)"
OUTCOME = (r"boost: cpus=(\S+) vendor=(amd|intel|other) asked=(\w+) before=(" + STATE +
           r") after=(" + STATE + r") tried=(\S+)(?: why=\"([^\"]*)\")?\r?$")


def outcomes(res: qemu.BootResult) -> list[re.Match[str]]:
    return list(re.finditer(OUTCOME, ktap.clean(res.log), re.M))


def said(asked: str, ncpus: int) -> Check:
    """The console: every CPU in one outcome line or another, as asked;
    one effect line per CPU of cpus=; the summary; a CPU left as found
    says why."""
    def run(res: qemu.BootResult) -> str | None:
        lines = outcomes(res)
        if not lines:
            return "no boost: outcome line"
        cpus: list[int] = []
        for m in lines:
            if m.group(3) != asked:
                return f"outcome line asked={m.group(3)}, expected {asked}"
            for part in m.group(1).split(","):
                lo, _, hi = part.partition("-")
                cpus += range(int(lo), int(hi or lo) + 1)
            if m.group(4) in ("none", "unknown") and not m.group(7):
                return f"state {m.group(4)} without a why: {m.group(0)}"
        if sorted(cpus) != list(range(ncpus)):
            return f"outcome lines name cpus {sorted(cpus)}, expected 0-{ncpus - 1}"
        log = ktap.clean(res.log)
        # TCG has no HWP: the reference is the TSC's rate
        if not re.search(r"boost: cpu=0 eff_khz=(?:\d+ nominal_khz=(\d+) ref=tsc "
                         r"ref_khz=\1\b|unmeasured)", log):
            return "no effect line for cpu 0 (eff_khz against ref=tsc, or unmeasured)"
        want = rf"boost: asked={asked} cpus={ncpus} as_asked=(\d+) not_as_asked=(\d+)"
        m = re.search(want, log)
        if not m or int(m.group(1)) + int(m.group(2)) != ncpus:
            return f"no summary line {want!r}"
        return None
    return run


def recorded(asked: str, ncpus: int) -> Check:
    """One boost record per CPU, before the first config record, saying
    what the console said; the config records carry boost= (unless
    firmware) and the CPU's state, and the effect check with off."""
    def run(res: qemu.BootResult) -> str | None:
        boots = records.parse(res.log)
        if len(boots) != 1 or boots[0].problems or not boots[0].complete:
            return f"records damaged: {boots[0].problems[:3] if boots else 'none'}"
        recs = boots[0].records
        boost = [r for r in recs if r.type == "boost"]
        if sorted(r.int("cpu") for r in boost) != list(range(ncpus)):
            return f"boost records for cpus {[r.f.get('cpu') for r in boost]}"
        first_cfg = next((i for i, r in enumerate(recs) if r.type == "config"), None)
        if first_cfg is None:
            return "no config record"
        if any(recs.index(r) > first_cfg for r in boost):
            return "a boost record after the first config record"
        by_cpu = {r.int("cpu"): r for r in boost}
        for m in outcomes(res):
            for r in boost:
                if str(r.int("cpu")) in m.group(1).split(",") or m.group(1) == f"0-{ncpus - 1}":
                    if (r.f.get("before"), r.f.get("after")) != (m.group(4), m.group(5)):
                        return f"cpu {r.f['cpu']}: record {r.f.get('before')}->" \
                               f"{r.f.get('after')}, console {m.group(4)}->{m.group(5)}"
        for r in boost:
            if r.f.get("asked") != asked:
                return f"boost record asked={r.f.get('asked')}"
            if r.f.get("vendor") == "amd" and "hwcr_before" not in r.f:
                return "an AMD CPU's record lacks hwcr_before (read or fault)"
            if r.f.get("vendor") == "intel" and "misc_enable_before" not in r.f:
                return "an Intel CPU's record lacks misc_enable_before"
        for c in (r for r in recs if r.type == "config"):
            want_boost = None if asked == "firmware" else asked
            if c.f.get("boost") != want_boost:
                return f"config boost={c.f.get('boost')}, expected {want_boost}"
            cpu = c.int("cpu") if "cpu" in c.f else 0
            if c.f.get("boost_state") != by_cpu[cpu].f.get("after"):
                return f"config boost_state={c.f.get('boost_state')}, cpu {cpu}'s " \
                       f"record after={by_cpu[cpu].f.get('after')}"
            if asked == "off" and c.f.get("boost_check") not in ("ok", "over", "unmeasured"):
                return f"config boost_check={c.f.get('boost_check')} with boost=off"
            if asked == "on" and c.f.get("boost_check") not in ("ok", "under", "unmeasured"):
                return f"config boost_check={c.f.get('boost_check')} with boost=on"
            if "boost_eff_khz" in c.f and c.f.get("boost_ref") != "tsc":
                return f"config boost_ref={c.f.get('boost_ref')}, expected tsc (no HWP)"
            if asked == "firmware" and "boost_check" in c.f:
                return f"config boost_check with boost={asked}"
        return None
    return run


def on_checked(res: qemu.BootResult) -> str | None:
    """boost=on is checked as boost=off is (lib/boost.c boost_check()):
    TCG has no APERF/MPERF, so the check cannot say whether boost took
    effect, and says so on the console and in the record; on Intel's path
    IA32_PERF_CTL's ratio may decide instead (check_by=perf-ctl).  The
    decision on real readings is tested on the host (tests/host/
    test_boost.c, boost_check_on_*)."""
    log = ktap.clean(res.log)
    boost = [r for r in records.parse(res.log)[0].records if r.type == "boost"]
    if not boost:
        return "no boost record"
    for r in boost:
        cpu, check, why = r.int("cpu"), r.f.get("check"), r.f.get("eff_why", "")
        if check == "unmeasured":
            if not why.startswith("cannot check: no APERF/MPERF"):
                return f"cpu {cpu}: check=unmeasured eff_why={why!r}"
            said = f"boost: cpu {cpu}: boost=on cannot check: no APERF/MPERF"
            if said not in log:
                return f"no console line {said!r}"
        elif r.f.get("check_by") != "perf-ctl" or check not in ("ok", "under"):
            return f"cpu {cpu}: check={check} check_by={r.f.get('check_by')}: TCG has no " \
                   "APERF/MPERF to measure with"
        elif check == "under" and f"boost: WARNING: cpu {cpu}: boost=on did not take " \
                "effect" not in log:
            return f"cpu {cpu}: check=under without its warning"
    return None


def report_shows(asked: str) -> Check:
    """report takes the records; boost=off|on heads the table as a
    dimension, firmware not at all (as every log before boost=)."""
    def run(res: qemu.BootResult) -> str | None:
        r = run_report(res)
        if r.returncode:
            return f"report rc {r.returncode}: {r.stderr[-300:]}"
        if asked == "firmware":
            shown = re.search(r"\bboost", r.stdout)
            return f"report shows {shown.group(0)} with boost=firmware" if shown else None
        if not re.search(rf"(?m)^bench=fault .* boost={asked}( |$)", r.stdout):
            return f"report's header lacks boost={asked}"
        if re.search(r"boost_(state|check|eff_khz)=", r.stdout):
            return "report heads rows with a boost_ bookkeeping field"
        return None
    return run


def wrote(tried: str, after: str, field: str, bit: int, kept: bool) -> Check:
    """boost_assume=on: the outcome line names the path and what it did,
    and the record's MSR after the write holds @bit or not as QEMU kept
    it."""
    def run(res: qemu.BootResult) -> str | None:
        lines = outcomes(res)
        if len(lines) != 1 or (lines[0].group(6), lines[0].group(5)) != (tried, after):
            return f"outcome {[m.group(0) for m in lines]}, expected tried={tried} after={after}"
        rec = next((r for r in records.parse(res.log)[0].records if r.type == "boost"), None)
        if rec is None or rec.f.get("assumed") != "1" or f"{field}_after" not in rec.f:
            return f"boost record lacks assumed=1 or {field}_after: {rec.f if rec else None}"
        if bool(int(rec.f[f"{field}_after"], 16) >> bit & 1) != kept:
            return f"{field}_after={rec.f[f'{field}_after']}: bit {bit} " \
                   f"{'clear' if kept else 'set'}"
        return None
    return run


def case(name: str, asked: str, n: int = 1, cpu: str = "max",
         extra: tuple[str, ...] = (), check: Check | None = None) -> Case:
    args = BENCH + ([f"boost={asked}"] if asked != "firmware" else []) + \
        (["cpus=all"] if n > 1 else []) + list(extra)
    return Case(name, cpu=cpu, smp=n, args=args,
                check=all_of(passes, bench_ok(n), said(asked, n), recorded(asked, n),
                             report_shows(asked), *([check] if check else [])))


CASES = [
    # QEMU's -cpu max: AMD's path, without CPB.
    case("boost-off", "off"),
    case("boost-on", "on", check=on_checked),
    case("boost-firmware", "firmware"),
    # Intel's path: MISC_ENABLE and PERF_CTL read, turbo absent.
    case("boost-off-intel", "off", cpu="max,vendor=GenuineIntel"),
    # boost_assume=on (test-only) takes CPUID's bit as set, so that the
    # writes run through the guarded accessors: TCG ignores a write to
    # HWCR (read back 0: "ignored", the CPU left as found, the run goes
    # on) and keeps MISC_ENABLE's.
    case("boost-off-amd-assumed", "off", extra=("boost_assume=on",),
         check=all_of(wrote("hwcr:ignored", "on", "hwcr", 25, False),
                      expect_log(r"boost: asked=off cpus=1 as_asked=0 not_as_asked=1",
                                 "the CPU counted as not set"))),
    case("boost-off-intel-assumed", "off", cpu="max,vendor=GenuineIntel",
         extra=("boost_assume=on",),
         check=wrote("misc_enable:set", "off", "misc_enable", 38, True)),
    case("boost-on-intel-assumed", "on", cpu="max,vendor=GenuineIntel",
         extra=("boost_assume=on",),
         check=all_of(wrote("misc_enable:already,perf_ctl:already", "on", "misc_enable", 38,
                            False), on_checked)),
]

SMP_CASES = [
    # Every CPU set and recorded, the check on each CPU of cpus=all.
    scalable(2, lambda n: case("boost-off-smp2", "off", n)),
]

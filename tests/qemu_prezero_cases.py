# SPDX-License-Identifier: GPL-2.0-only
"""QEMU tests of pre-zeroing (docs/prezero.md): every folio verified, a
zeroed one served without a clear, the clearing moved where each mode
says, and a folio marked zeroed that is not fails the run, named.
Correctness only: the bounds compare a run with another of the same boot."""
from __future__ import annotations

import re
from collections import defaultdict

from hzlib import qemu, records, results

from qemu_cases import Case, Check, all_of, expect_log, expect_rc, passes, scalable

BASE = ["bench=fault", "folio=2M", "size=16M", "runs=2", "warmups=1",
        "order=contiguous-page", "selftest=off"]


class Cfg:
    def __init__(self, rec: records.Record) -> None:
        self.rec = rec
        self.runs: list[records.Record] = []
        self.clear: list[int] = []

    @property
    def measured(self) -> list[records.Record]:
        return [r for r in self.runs if r.f["pass"] == "measure"]


def by_mode(res: qemu.BootResult) -> dict[str, Cfg] | str:
    boots = records.parse(res.log)
    if len(boots) != 1 or boots[0].problems or not boots[0].complete:
        return f"records damaged: {boots[0].problems[:3] if boots else 'none'}"
    cfgs: dict[int, Cfg] = {}
    for r in boots[0].records:
        if r.type == "config":
            cfgs[r.int("cfg")] = Cfg(r)
        elif r.type == "run":
            cfgs[r.int("cfg")].runs.append(r)
        elif r.type == "samples" and r.f["kind"] == "clear":
            cfgs[r.int("cfg")].clear += [int(x) for x in r.f["v"].split(",") if x]
    out: dict[str, Cfg] = {}
    for c in cfgs.values():
        out[f"{c.rec.f['prezero']}.{c.rec.f['clear']}"] = c
    return out


def verified(c: Cfg) -> str | None:
    if not c.runs or any(r.f["verify"] not in ("ok", "n/a") for r in c.runs) or \
            not any(r.f["verify"] == "ok" for r in c.runs):
        return f"{c.rec.f['name']}: zero check {[r.f['verify'] for r in c.runs]}"
    return None


def total(c: Cfg, key: str) -> int:
    return sum(r.int(key) for r in c.measured)


def best(c: Cfg, key: str) -> int:
    return min(r.int(key) for r in c.measured)


def request_takes_over(res: qemu.BootResult) -> str | None:
    """request: every fault served zeroed (clear 0), the zeroing done in
    the requester's context; the time to fault the region (the seed's VM
    start) drops by at least half of what none spends clearing."""
    cs = by_mode(res)
    if isinstance(cs, str):
        return cs
    for clear in ("erms", "avx2"):
        none, req = cs[f"none.{clear}"], cs[f"request.{clear}"]
        for c in (none, req):
            if verified(c):
                return verified(c)
        if any(r.int("prezeroed_faults") != r.int("faults") or r.f["prezero_by"] != "request"
               for r in req.runs):
            return f"request.{clear}: not every fault served zeroed"
        if any(req.clear) or not req.clear:
            return f"request.{clear}: clear samples {req.clear[:4]}, expected all 0"
        if not total(req, "prezero_ticks"):
            return f"request.{clear}: no zeroing time recorded for the requester"
        # Each side's fastest measured pass: a host stall (a descheduled
        # vCPU: 11.8M ticks for 8 pre-zeroed faults once, 0.11M the pass
        # before) lengthens one pass, never shortens one.
        drop = best(none, "fault_ticks") - best(req, "fault_ticks")
        if drop < best(none, "clear_ticks") // 2:
            return (f"{clear}: faulting the region took {best(req, 'fault_ticks')} "
                    f"ticks with request, {best(none, 'fault_ticks')} without (fastest "
                    f"passes): it did not drop by half of none's clearing "
                    f"({best(none, 'clear_ticks')})")
    return None


def served(mode: str, by: str, more_than: float) -> Check:
    """Every measured pass of @mode: more than @more_than of its faults
    served zeroed, by @by, who reports its time and folios."""
    def run(res: qemu.BootResult) -> str | None:
        cs = by_mode(res)
        if isinstance(cs, str):
            return cs
        mine = [c for k, c in cs.items() if k.startswith(mode + ".")]
        if not mine:
            return f"no prezero={mode} configuration"
        for c in mine:
            if verified(c):
                return verified(c)
            for r in c.measured:
                frac = r.int("prezeroed_faults") / max(r.int("faults"), 1)
                if r.f["prezero_by"] != by or frac <= more_than or \
                        not r.int("prezero_ticks") or not r.int("prezero_folios"):
                    return (f"{c.rec.f['name']} run {r.f['run']}: {r.f['prezeroed_faults']} "
                            f"of {r.f['faults']} faults zeroed ahead by {r.f['prezero_by']}, "
                            f"{r.f['prezero_ticks']} ticks: expected > {more_than:.0%} by {by}")
        return None
    return run


def moved_to_free(res: qemu.BootResult) -> str | None:
    """on-free: from the second pass every fault is served zeroed and its
    clear is 0; the zeroing is charged to unmap time (prezero_by=free)."""
    cs = by_mode(res)
    if isinstance(cs, str):
        return cs
    c = cs["on-free.erms"]
    if verified(c):
        return verified(c)
    first = c.runs[0]
    if first.int("prezeroed_faults") != 0 or not first.int("clear_ticks"):
        return f"on-free: the first pass had nothing zeroed ahead, yet {first.f}"
    for r in c.runs[1:]:
        if r.int("prezeroed_faults") != r.int("faults") or r.int("clear_ticks") or \
                r.f["prezero_by"] != "free" or not r.int("prezero_ticks"):
            return f"on-free run {r.f['run']}: {r.f}"
    return None


def nets_agree(res: qemu.BootResult) -> str | None:
    """The kernel's summary and the host tools net a pre-zeroed fault (one
    timer pair in its window) and an inline one (two) alike: most faults
    pre-zeroed, so the median is one of them and a pair counted twice
    would show."""
    boots = records.parse(res.log)
    if len(boots) != 1 or boots[0].problems:
        return f"records damaged: {boots[0].problems[:3] if boots else 'none'}"
    for c, row in results.pairs(boots[0]):
        s, hz = c.summary, results.tsc_hz(boots[0])
        if s is None or row["status"] != "ok" or not hz:
            return f"{c.name}: status {row['status']}, tsc_hz {hz}"
        pz = sum(r.int("prezeroed_faults") for r in c.measured)
        faults = sum(r.int("faults") for r in c.measured)
        if not 0 < pz < faults or pz * 2 <= faults:
            return f"{c.name}: {pz} of {faults} faults pre-zeroed: expected most, not all"
        if s.int("net_of_ticks") >= s.int("fault_net_of_ticks"):
            return f"{c.name}: a fault window's pairs cost no more than one: {s.f}"
        tick_ns = 1e9 / hz
        host_ns = float(row["fault_us_median"]) * 1e3
        if abs(host_ns - s.int("fault_ns_median")) > tick_ns + 1:
            return (f"{c.name}: fault median {s.int('fault_ns_median')} ns in the "
                    f"summary, {host_ns:.1f} ns from the samples")
        host_milli = float(row["gbps_mean"]) * 1e3
        if abs(host_milli - s.int("gibps_milli_mean")) > 1:
            return (f"{c.name}: {s.int('gibps_milli_mean')} milli-GB/s in the "
                    f"summary, {host_milli:.2f} from the samples")
    return None


def resched_points(res: qemu.BootResult) -> str | None:
    """request and on-free take resched points where Linux's code does
    (kernel/bench/prezero.c): request the plan's inside each folio (one
    unit a 4K page here: prezero_order=batched-pages with no chunk=) and
    one after each folio; on-free none inside, one after each 2M folio
    (mm/mmu_gather.c's batches of 512 pages).  Exact counts, under either
    model; nothing waited, no zeroer ran beside the faults."""
    boots = records.parse(res.log)
    if len(boots) != 1 or boots[0].problems:
        return f"records damaged: {boots[0].problems[:3] if boots else 'none'}"
    seen = set()
    for c in results.configs(boots[0]):
        mode, folios = c.rec.f["prezero"], c.rec.int("folios")
        want = {"request": folios * (512 + 1), "on-free": folios}[mode]
        for r in c.runs:
            if r.f.get("verify") != "ok":
                return f"{c.name} run {r.f['run']}: zero check {r.f.get('verify')}"
            got = r.int("prezero_resched", -1)
            if r.int("prezero_folios") != folios or got != want:
                return (f"{c.name} run {r.f['run']}: {got} resched points over "
                        f"{r.f.get('prezero_folios')} folios, expected {want} over {folios}")
            if r.int("prezero_waits", -1) != 0 or r.int("prezero_wait_ticks", -1) != 0:
                return f"{c.name} run {r.f['run']}: waits recorded without a zeroer beside: {r.f}"
        seen.add((mode, c.rec.f["preempt"]))
    want_seen = {(m, p) for m in ("request", "on-free") for p in ("none", "full")}
    return None if seen == want_seen else f"configurations {sorted(seen)}, expected {sorted(want_seen)}"


def waits_recorded(res: qemu.BootResult) -> str | None:
    """dedicated: every run says how many faults waited for the zeroer's
    folio and for how long; a wait is inside its fault's time, and a count
    of none has no time (whether a fault must wait is the host's timing:
    the self-test pool_counts_waits makes one wait for certain)."""
    boots = records.parse(res.log)
    if len(boots) != 1 or boots[0].problems:
        return f"records damaged: {boots[0].problems[:3] if boots else 'none'}"
    runs = [r for r in boots[0].records if r.type == "run" and
            r.f.get("prezero_by") == "dedicated"]
    if not runs:
        return "no run of prezero=dedicated"
    for r in runs:
        if "prezero_waits" not in r.f or "prezero_wait_ticks" not in r.f:
            return f"run {r.f['run']}: no prezero_waits or prezero_wait_ticks: {r.f}"
        n, t = r.int("prezero_waits"), r.int("prezero_wait_ticks")
        if (n == 0) != (t == 0) or n > r.int("faults") or t > r.int("fault_ticks"):
            return (f"run {r.f['run']}: {n} waits of {t} ticks, {r.f['faults']} faults "
                    f"of {r.f['fault_ticks']} ticks")
    return None


CASES = [
    # A SIMD zeroer under a model: its kernel_fpu brackets and resched
    # points, every folio verified.
    Case("prezero-resched-points",
         args=[*BASE, "clear=erms", "prezero=request,on-free", "prezero_clear=avx2",
               "prezero_order=batched-pages", "preempt=none,full", "runs=1"],
         check=all_of(passes, resched_points)),
    # runs=1: the summary's median of per-run medians is then the host's
    # median over every fault.
    Case("prezero-net-of-timer", args=[*BASE, "clear=erms", "prezero=request",
                                       "prezero_n=6", "runs=1"],
         check=all_of(passes, nets_agree)),
    Case("prezero-request", args=[*BASE, "clear=erms,avx2", "prezero=none,request"],
         check=all_of(passes, request_takes_over)),
    Case("prezero-on-free-idle",
         args=[*BASE, "clear=erms", "prezero=on-free,idle", "preempt=full",
               "prezero_high=90", "prezero_low=60", "prezero_idle_ms=200"],
         # How far the idle task gets in its window is the host's to say
         # (under TCG beside other boots, 2-4 of 8 folios in 50 ms): that
         # it served faults, each verified, is the kernel's.
         check=all_of(passes, moved_to_free, served("idle", "idle", 0.0))),
    # After access=write only the zeroing at free can be checked: it is.
    Case("prezero-on-free-write", args=[*BASE, "clear=erms", "prezero=on-free",
                                        "access=write"],
         check=all_of(passes, served("on-free", "free", 0.99))),
    # A zeroer the CPU cannot run is a skip with the reason, never a #UD.
    Case("prezero-clear-unsupported", args=[*BASE, "clear=erms", "prezero=request",
                                            "prezero_clear=avx512", "runs=1"],
         check=all_of(passes, expect_log(r"ok 1 request\.2M\.erms\.contiguous-page "
                                         r"# SKIP .*AVX-512", "the skip and its reason"))),
    Case("prezero-mark-zeroed", args=[*BASE, "clear=erms", "prezero=none",
                                      "inject=mark-zeroed", "runs=1", "warmups=0"],
         check=all_of(expect_rc(1), expect_log(
             r"# none\.2M\.erms\.contiguous-page: folio \d+ \(user va 0x[0-9a-f]+, "
             r"pa 0x[0-9a-f]+, fault page 0, taken as zeroed in advance\) not zero",
             "the folio named"), expect_log(r"not ok 1 none\.2M\.erms", "the case failed"))),
]

def interferes(res: qemu.BootResult) -> str | None:
    """prezero_pool=apart: the zeroing CPU works all through the pass on
    folios of its own, and gives the faults none (interference only)."""
    cs = by_mode(res)
    if isinstance(cs, str):
        return cs
    c = cs["dedicated.erms"]
    if verified(c) or verified(cs["none.erms"]):
        return verified(c) or verified(cs["none.erms"])
    if c.rec.f.get("prezero_pool") != "apart":
        return f"config says prezero_pool={c.rec.f.get('prezero_pool')}"
    for r in c.runs:
        if r.int("prezeroed_faults") or not r.int("prezero_folios") or \
                r.f["prezero_by"] != "dedicated" or not r.int("clear_ticks"):
            return f"dedicated apart run {r.f['run']}: {r.f}"
    return None


# A CPU of its own zeroes: two vCPUs, so the SMP phase.  At any count the
# zeroing CPU is the highest (kernel/bench/prezero.c zeroing_cpu()).
SMP_CASES = [
    scalable(2, lambda n: Case(
        "prezero-dedicated", smp=n,
        args=[*BASE, "clear=erms", "prezero=dedicated", "prezero_high=90",
              "prezero_low=60", "prezero_idle_ms=50"],
        # How far ahead the zeroer gets in 50 ms is the host's to say
        # (4 of 8 seen beside other boots): that it served faults, each
        # verified, is the kernel's.
        check=all_of(passes, served("dedicated", "dedicated", 0.0), waits_recorded,
                     expect_log(rf"prezero_cpu={n - 1}\b", "the zeroing CPU recorded")))),
    scalable(2, lambda n: Case(
        "prezero-interference", smp=n,
        args=[*BASE, "clear=erms", "prezero=none,dedicated", "prezero_pool=apart",
              "access=write"],
        check=all_of(passes, interferes))),
]


def zeroer_left_out(cpu: int) -> Check:
    """prezero=dedicated's CPU @cpu left out (it never took its work): its
    configuration fails naming it, and the verdict does too (rc 1), though
    it is not of cpus=."""
    why = re.escape("it did not take its work within 8000 ms of the IPI")
    return all_of(
        expect_rc(1),
        expect_log(rf"smp: cpu {cpu} \(APIC ID \d+\) left out: {why}", "the CPU left out"),
        expect_log(rf"dedicated\.2M\.erms\.contiguous-page: the pre-zeroing cpu {cpu} left "
                   rf"out: {why}", "the configuration failed, naming it"),
        expect_log(r"(?m)^\s*not ok \d+ dedicated\.2M\.erms\.contiguous-page",
                   "the configuration not ok"),
        expect_log(rf"# the pre-zeroing CPU of prezero=dedicated left out \(cpus {cpu}\): "
                   r"its configurations failed", "the verdict's diagnostic"),
        expect_log(r"hugezero: done rc=1", "the run's end"),
        lambda res: "the configuration failed more than once" if
        "contiguous-page: 1 more failures" in res.log else None)


LEFT_OUT = [*BASE, "clear=erms", "prezero=dedicated", "prezero_idle_ms=20", "runs=1",
            "warmups=0", "samples=none", "deadline_s=0"]

# The zeroer's CPU left out: the pass measured with no zeroer is no
# result, though that CPU is not of cpus=.  hang_at=zeroer: it takes
# every work but the zeroer's (the stop's bounded wait leaves it out);
# hang_at=idle: it never takes boost='s after the TSC sync, and the
# configuration finds it left out (at 2 CPUs: with more, another is free).
SMP_CASES += [
    scalable(2, lambda n: Case(
        "prezero-zeroer-left-out", smp=n, timeout=120,
        args=[*LEFT_OUT, "hang_at=zeroer", f"hang_cpu={n - 1}"],
        check=zeroer_left_out(n - 1))),
    Case("prezero-zeroer-left-out-idle", smp=2, timeout=120,
         fixed_cpus="at more CPUs another one is free to zero",
         args=[*LEFT_OUT, "hang_at=idle", "hang_cpu=1"], check=zeroer_left_out(1)),
]

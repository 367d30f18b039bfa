# SPDX-License-Identifier: GPL-2.0-only
"""QEMU boot tests: each boots the kernel one way and checks the outcome.

A case passes when its check() returns None, and fails with the string
it returns.  Cases that expect the kernel to fail (a bad command line, a
deliberate crash) check that it failed the right way, promptly.
"""
from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from typing import Callable

from hzlib import ktap, qemu, records, results, symbolize, paths

Check = Callable[[qemu.BootResult], "str | None"]


@dataclass
class Case:
    name: str
    firmware: str = "bios"
    media: str = "cdrom"
    cpu: str = "max"
    smp: int | str = 1             # a count, or a topology "6,sockets=2,cores=3"
    args: list[str] = field(default_factory=list)
    check: Check | None = None
    serial: bool = True
    timeout: float | None = None    # None: the runner's default
    machine: str = "q35"
    accel: str = "tcg"              # qemu.ACCELS: tcg-single for hundreds of vCPUs
    stall: qemu.Stall | None = None
    mem: str = "4G"
    extra: tuple[str, ...] = ()     # more QEMU arguments (-numa, -object)
    # Why this QEMU cannot run the case (checked before booting), or None.
    unable: Callable[[], "str | None"] | None = None
    # A case of several CPUs says how it boots at another count (HZ_SMP,
    # the --smp 8 check), one of the two: at_cpus(n) builds it for n CPUs,
    # its check as strict at n as the case's own is at its count (raising
    # ValueError where n means nothing for it); or fixed_cpus says why its
    # count is part of what it tests (a topology, a CPU numbered on purpose).
    at_cpus: Callable[[int], "Case"] | None = None
    fixed_cpus: str | None = None

    @property
    def multi(self) -> bool:
        """More than one CPU: a count above 1 or a topology."""
        return not isinstance(self.smp, int) or self.smp > 1

    def at(self, n: int, timeout: float = 240.0) -> "Case":
        """This case booted with n CPUs, named NAME@n, its timeout (or
        @timeout, the runner's default) scaled with the count; one that
        cannot be, a skip saying why."""
        if n == self.smp:
            return self
        if self.at_cpus is None:
            why = self.fixed_cpus or "neither at_cpus nor fixed_cpus given"
            return dataclasses.replace(self, unable=lambda: f"not booted at {n} CPUs: {why}")
        try:
            c = self.at_cpus(n)
        except ValueError as e:
            why = str(e)
            return dataclasses.replace(self, unable=lambda: f"not booted at {n} CPUs: {why}")
        assert isinstance(self.smp, int) and c.smp == n
        return dataclasses.replace(c, name=f"{self.name}@{n}", at_cpus=self.at_cpus,
                                   timeout=(c.timeout or timeout) * max(1.0, n / self.smp))


def scalable(n: int, make: Callable[[int], Case]) -> Case:
    """The case make(n), which boots at another count m as make(m)."""
    return dataclasses.replace(make(n), at_cpus=make)


def passes(res: qemu.BootResult) -> str | None:
    ok, why = qemu.verdict(res)
    return None if ok else why


def has(res: qemu.BootResult, pattern: str) -> bool:
    return re.search(pattern, ktap.clean(res.log)) is not None


def skipped(res: qemu.BootResult, case: str) -> str | None:
    for r in res.run.cases:
        if r.name == case:
            return r.skip
    return None


def all_of(*checks: Check) -> Check:
    def run(res: qemu.BootResult) -> str | None:
        for c in checks:
            why = c(res)
            if why:
                return why
        return None
    return run


def report_log(log: str) -> subprocess.CompletedProcess[str]:
    """scripts/hugezero report on @log (a boot's, the companion's), as a
    user would run it."""
    with tempfile.NamedTemporaryFile("w", suffix=".log") as f:
        f.write(log)
        f.flush()
        return subprocess.run([sys.executable, str(paths.ROOT / "scripts" / "hugezero"),
                               "report", f.name], capture_output=True, text=True)


def run_report(res: qemu.BootResult) -> subprocess.CompletedProcess[str]:
    """scripts/hugezero report on the boot's log."""
    return report_log(res.log)


def expect_log(pattern: str, what: str) -> Check:
    return lambda res: None if has(res, pattern) else f"log lacks {what} ({pattern!r})"


def pit_retried_or_given_up(res: qemu.BootResult) -> str | None:
    """The stalled PIT measured again with its retries, agreeing with the
    others; or, where a loaded host stops the vCPU for more than a wrap
    window after window, given up for that reason with the other two
    references agreeing.  Either is right; what the host's load does is
    not the kernel's to decide."""
    retried = all_of(expect_log(r"(?m)tsc: pit +ref .* retries [1-9]\d*$",
                                "the PIT measured, with its retries"),
                     expect_log(r"3 precise references, 3 agree", "the PIT agreeing"))
    given_up = all_of(expect_log(r"tsc: pit +unusable: \d+ windows in a row discarded, "
                                 r"the last: a \d+ us gap", "the PIT given up"),
                      expect_log(r"2 precise references, 2 agree", "the other two agreeing"))
    why = retried(res)
    return None if why is None or given_up(res) is None else why


def expect_rc(rc: int) -> Check:
    def run(res: qemu.BootResult) -> str | None:
        if res.timed_out:
            return f"timed out; expected a prompt end with rc={rc}"
        if res.run.rc != rc:
            return f"kernel said rc={res.run.rc}, expected {rc}"
        if res.debug_exit_code != rc:
            return f"isa-debug-exit code {res.debug_exit_code}, expected {rc}"
        return None
    return run


def no_1g(res: qemu.BootResult) -> str | None:
    why = skipped(res, "map_1g")
    if not why or "1 GiB pages" not in why:
        return f"map_1g not skipped for lack of 1G pages (skip={why!r})"
    if not has(res, r"direct_map: \d+ addresses checked: 0 in 1G"):
        return "direct map used 1G leaves on a CPU without them"
    return None


def uses_1g(res: qemu.BootResult) -> str | None:
    if skipped(res, "map_1g") is not None:
        return "map_1g skipped on a CPU with 1G pages"
    if not has(res, r"direct_map: \d+ addresses checked: [1-9]\d* in 1G"):
        return "direct map has no 1G leaves"
    return None


def symbolizes(func: str) -> Check:
    def run(res: qemu.BootResult) -> str | None:
        lines = symbolize.symbolize(res.log, paths.ELF)
        if not any(func in line for line in lines[:1]):
            return f"rip does not symbolize to {func}: {lines[:2]}"
        return None
    return run


def pit_agrees_or_stalled(res: qemu.BootResult) -> str | None:
    """The PIT, measured beside the PM timer and agreeing with it; or, on
    a host loaded enough that every window of its 55 ms wrap had a stall
    in it, unusable for exactly that reason."""
    if has(res, r"tsc: pit +unusable: \d+ windows in a row discarded"):
        return None
    if has(res, r"frequency \d+ Hz from pmtimer; 2 precise references, 2 agree"):
        return None
    return "neither the PM timer and the PIT agreeing nor the PIT stalled out"


APIC_LINE = r"apic: (x2apic|xapic) id \d+, timer (tsc-deadline|one-shot) \(\d+ Hz\)"


def apic_as_cpuid(res: qemu.BootResult) -> str | None:
    """The APIC and timer the kernel chose are what CPUID offers: x2APIC
    and TSC-deadline where the machine record lists them, else xAPIC and
    the one-shot count; and the timer self-tests ran on it."""
    log = ktap.clean(res.log)
    m = re.search(APIC_LINE, log)
    f = re.search(r" features=(\S*)", log)
    if not m or not f:
        return "no apic: line or no features in the machine record"
    feats = f.group(1).split(",")
    want = ("x2apic" if "x2apic" in feats else "xapic",
            "tsc-deadline" if "tsc_deadline" in feats else "one-shot")
    if m.groups() != want:
        return f"apic {m.groups()}, but CPUID offers {want}"
    for case in ("ktimer_fires", "tick_rate", "irq_exit_hook"):
        if skipped(res, case) is not None:
            return f"timer case {case} skipped: {skipped(res, case)}"
    return None


def timer_skipped_without_apic(res: qemu.BootResult) -> str | None:
    for case in ("ktimer_fires", "tick_rate", "irq_exit_hook"):
        why = skipped(res, case)
        if not why or "no local APIC" not in why:
            return f"{case} not skipped for lack of an APIC (skip={why!r})"
    return None


def madt_line(n: int) -> str:
    """The MADT line of n processors, all enabled, APIC IDs 0..n-1 (the
    kernel cuts a long list: then a prefix of it and ",...")."""
    ids = [str(i) for i in range(n)]
    whole = ",".join(ids)
    cut = "|".join(re.escape(",".join(ids[:k])) + r",\.\.\." for k in range(1, n))
    return (rf"acpi: MADT: {n} processors, {n} enabled, APIC IDs "
            rf"(?:{re.escape(whole)}{'|' + cut if len(whole) > 100 else ''});")


NO_CPU = ("CLZERO", "AVX-512F")     # what QEMU's -cpu max lacks


def bench_ok(expect_configs: int) -> Check:
    """Records intact, one summary per configuration, every folio verified:
    status ok, or skip for a primitive QEMU's CPU lacks, with the reason."""
    def run(res: qemu.BootResult) -> str | None:
        boots = records.parse(res.log)
        if len(boots) != 1 or boots[0].problems or not boots[0].complete:
            return f"records damaged: {boots[0].problems[:3] if boots else 'none'}"
        rows = results.rows(boots)
        if len(rows) != expect_configs:
            return f"{len(rows)} configurations, expected {expect_configs}"
        for r in rows:
            if r["status"] == "skip" and any(n in str(r["reason"]) for n in NO_CPU):
                continue
            if r["status"] != "ok":
                return f"{r['folio']} {r['clear']} {r['order']}: {r['status']} {r['reason']}"
            if not r["gbps_mean"] or not r["fault_us_median"] > 0:
                return f"{r['folio']} {r['clear']} {r['order']}: no numbers"
        return None
    return run


CASES = [
    # The APIC mode and timer CPUID offers: under QEMU 7.2's TCG xAPIC and
    # one-shot, from 9.0 on x2APIC with -cpu max; TSC-deadline needs KVM.
    Case("bios-cdrom", "bios", "cdrom", check=all_of(passes, uses_1g,
                                                     apic_as_cpuid)),
    Case("bios-usb", "bios", "usb", check=passes),
    Case("uefi-cdrom", "uefi", "cdrom", check=all_of(
        passes, expect_log(r"UEFI boot", "a UEFI boot"))),
    Case("uefi-usb", "uefi", "usb", check=all_of(passes, uses_1g, apic_as_cpuid)),
    Case("bios-pxe", "bios", "pxe", check=passes),
    Case("uefi-pxe", "uefi", "pxe", check=all_of(
        passes, expect_log(r"UEFI boot", "a UEFI boot"))),
    Case("bios-cdrom-qemu64", "bios", "cdrom", cpu="qemu64",
         check=all_of(passes, no_1g, apic_as_cpuid)),
    # No local APIC at all: said so, the timer cases skip, the rest runs.
    Case("no-apic", cpu="max,-apic", check=all_of(
        passes, expect_log(r"apic: unusable: no local APIC \(CPUID 1:EDX\[9\] clear\)",
                           "the APIC reported missing"),
        timer_skipped_without_apic)),
    Case("uefi-usb-qemu64", "uefi", "usb", cpu="qemu64",
         check=all_of(passes, no_1g)),
    scalable(2, lambda n: Case("bios-smp2", smp=n, check=all_of(passes, expect_log(
        madt_line(n), "every processor from the MADT")))),
    # No HPET: the TSC is still calibrated, against the PM timer and the PIT.
    # A server's many SSDTs: 100 more tables (header-only, QEMU sums
    # them) than QEMU's own, past the 64 once kept; every one read.
    Case("acpi-many-tables", args=["selftest=on"],
         extra=tuple(a for i in range(100) for a in (
             "-acpitable", f"sig=SSDT,oem_id=HZTEST,oem_table_id=HZSSDT{i:02d},"
             "data=/dev/null")),
         check=all_of(passes, expect_log(
             r"acpi: (XSDT|RSDT) lists (1\d\d) tables, \2 used",
             "every table of a root listing 100+ read"))),
    # A memory map longer than hugezero keeps (4096; memmap_keep=
    # lowers it, test-only) ends the boot before it is used, rc 3.
    Case("memmap-too-long", args=["memmap_keep=2", "selftest=off"],
         check=all_of(expect_rc(3), expect_log(
             r"hugezero: FATAL: memory: the e820 memory map has \d+ entries, more than "
             r"the 2 hugezero keeps \(MEMMAP_MAX_INPUT, docs/hardware.md\): the boot ends",
             "the FATAL line"),
             lambda res: "the boot went on past the map" if "hugezero: done rc=3" not in
             res.log or "tsc:" in res.log.split("FATAL: memory")[1] else None)),
    Case("no-hpet", machine="q35,hpet=off", check=all_of(
        passes, expect_log(r"tsc: hpet +unusable: no HPET table in ACPI",
                           "the HPET reported unusable"),
        expect_log(r"frequency \d+ Hz from pmtimer", "calibration from the PM timer"),
        pit_agrees_or_stalled)),
    # QEMU stopped for 0.3 s as the PIT's windows start: its clocks run on,
    # the PIT wraps five times unseen.  That window is measured again and
    # the PIT still agrees.  (1 s windows: the stop has 3 s to land, even
    # when the harness sees the console line late on a loaded host.)
    Case("calib-stall", args=["calib_ms=1000", "selftest=off"],
         # Twice, 1.1 s apart: one stop still lands in a window when the
         # harness reads the line late beside another boot on the 2 cores.
         stall=qemu.Stall(r"tsc: pit +measuring: .*\n", 0.3, times=2, every=0.8),
         check=all_of(
             passes, expect_log(r"tsc: pit +run \d: window discarded: a \d+ us "
                                r"gap between two reads may hide a 54924 us wrap",
                                "a discarded PIT window"),
             pit_retried_or_given_up)),
    # Stopped for 80 ms every 30 ms through the PIT's windows, as the old
    # calibration failed once under load: every window it keeps must be
    # right, and if none was, the PIT is unusable for that reason.
    # The stalls outlast the calibration: the self-tests after it would
    # see them too (full_rep_stosb's probe then fires before its REP
    # STOSB starts), and they are not what this case is about.
    Case("calib-stalls", args=["selftest=off"],
         stall=qemu.Stall(r"tsc: pit +measuring: .*\n", 0.08, times=30, every=0.03),
         check=all_of(passes, expect_log(r"tsc: pit +run \d: window discarded",
                                         "a discarded PIT window"))),
    Case("bad-key", args=["bogus=1"], check=all_of(
        expect_rc(1),
        expect_log(r"cmdline error: unknown key 'bogus' \(in 'bogus=1'\)",
                   "the message naming 'bogus'"),
        expect_log(r"not ok \d+ boot_args_valid", "a failed boot_args_valid case"))),
    Case("bad-value", args=["calib_ms=fast"], check=all_of(
        expect_rc(1), expect_log(r"key 'calib_ms': 'fast' is not a number",
                                 "the message naming calib_ms"))),
    Case("missing-uart", args=["console=ttyS3"], check=all_of(
        passes, expect_log(r"console: ttyS3 \(0x2e8\) not present; using ttyS0",
                           "the fallback message"))),
    Case("crash-pf", args=["crash=pf", "selftest=off"], check=all_of(
        expect_rc(3),
        expect_log(r"unexpected exception 14 \(#PF page fault\)", "the #PF dump"),
        expect_log(r"cr2 0xdead0000", "CR2 in the dump"),
        expect_log(r"bt #1 0x", "a backtrace"),
        symbolizes("crash_on_purpose"))),
    # No UART at all: nothing to read, but the run must still end, rc=0.
    Case("no-uart", serial=False, check=lambda res: None
         if not res.timed_out and res.debug_exit_code == 0 else
         f"timed_out={res.timed_out} debug-exit={res.debug_exit_code}"),
    # A hang must end at the harness's timeout with a clear verdict.
    # (On a loaded machine the timeout may even come before the KTAP start.)
    Case("hang-times-out", args=["crash=hang", "selftest=off"], timeout=6,
         check=lambda res: None if res.timed_out and not qemu.verdict(res)[0]
         and "timeout" in qemu.verdict(res)[1] else
         f"not reported as a hang: {qemu.verdict(res)[1]}"),
    # The benchmark: every primitive x order on 4K and 2M folios, verified.
    Case("bench-matrix", args=["bench=fault", "folio=4K,2M", "clear=all",
                               "order=all", "size=4M", "runs=2", "access=write",
                               "selftest=off"],
         check=all_of(passes, bench_ok(100))),
    Case("bench-1g", args=["bench=fault", "folio=1G", "clear=rep,avx2-nt",
                           "order=converging-page,neighbourhood-last",
                           "size=1G", "runs=1", "warmups=0", "selftest=off"],
         check=all_of(passes, bench_ok(4))),
    Case("bench-1g-without-pdpe1gb", cpu="qemu64", args=[
        "bench=fault", "folio=1G,2M", "clear=rep", "order=contiguous-page",
        "size=1G", "runs=1", "warmups=0", "selftest=off"],
         check=all_of(passes, expect_log(
             r"ok 2 1G\.rep\.contiguous-page # SKIP CPU lacks 1 GiB pages",
             "1G skipped for lack of pdpe1gb"),
             expect_log(r"(?m)ok 1 2M\.rep\.contiguous-page$", "2M still measured"))),
    Case("bench-ring0-random", args=[
        "bench=fault", "folio=2M", "clear=movnti", "order=all", "chunk=2M,8M",
        "size=16M", "touch=random", "offset=random", "cache=wbinvd", "cpl=0",
        "access=read", "verify=sample", "selftest=off"],
         check=all_of(passes, bench_ok(7))),
    Case("bench-clflush-clamp", args=[
        "bench=fault", "folio=1G", "clear=erms", "order=contiguous-page",
        "size=64G", "runs=1", "warmups=0", "cache=clflush", "selftest=off"],
         check=all_of(passes, bench_ok(1), expect_log(
             r"size=64G of 1G folios clamped to \dG", "the clamp message"))),
    Case("bench-refused", args=["bench=fault", "folio=2M", "size=3M"],
         check=all_of(expect_rc(1), expect_log(
             r"size=3072K is not a whole number of 2M folios", "the refusal"))),
    Case("bench-key-without-bench", args=["folio=2M"], check=all_of(
        expect_rc(1), expect_log(r"key 'folio' is a benchmark key, but no "
                                 r"bench= was given", "the refusal"))),
    Case("crash-stack", args=["crash=stack", "selftest=off"], check=all_of(
        expect_rc(3),
        expect_log(r"unexpected exception 8 \(#DF double fault\)",
                   "a #DF report of the stack overflow"))),
]

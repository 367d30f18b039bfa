# SPDX-License-Identifier: GPL-2.0-only
"""QEMU tests of the lab entries (docs/hardware.md): the inventory, and
deadline_s=: a run never leaves a
machine hung.  Each hang ends at the deadline with what it was doing, the
KTAP stream closed as failed and rc=4 (RC_DEADLINE), well before the
harness's own timeout."""
from __future__ import annotations

import re

from hzlib import qemu, records

from qemu_cases import (Case, Check, all_of, expect_log, expect_rc, passes, run_report,
                        scalable)

RC_DEADLINE = 4


def ended_by_deadline(how: str, during: str) -> Check:
    return all_of(
        expect_rc(RC_DEADLINE),
        expect_log(rf"hugezero: deadline_s=\d+ passed \((?:{how})\) {during}; "
                   r"stopping the run", f"the deadline's message ({how})"),
        expect_log(r"(?m)^not ok \d+ deadline\r?$", "the KTAP stream closed failed"),
        expect_log(r"hugezero: done rc=4", "the run's end"),
        lambda res: None if not qemu.verdict(res)[0] else "verdict: passed",
    )


def inventory(res: qemu.BootResult) -> str | None:
    """bench=info: its records parsed by report into the inventory."""
    r = run_report(res)
    want = ("inventory (bench=info):", "usable 4.0G", "(hole)",
            "counters: pmu none (", "console:  io 0x3f8 at 115200 baud, chosen from ")
    missing = [w for w in want if w not in r.stdout]
    return f"report (rc {r.returncode}) lacks {missing}" if r.returncode or missing else None


def once(res: qemu.BootResult) -> str | None:
    """The deadline ended the run once: one message, one end."""
    n = len(re.findall(r"hugezero: deadline_s=\d+ passed", res.log))
    d = len(re.findall(r"hugezero: done rc=", res.log))
    return None if (n, d) == (1, 1) else f"{n} deadline messages, {d} ends"


CASES = [
    # The inventory entry: what a lab operator checks, as records.
    Case("inventory", args=["bench=info", "selftest=off"],
         check=all_of(passes, expect_log(r"ok 1 info", "the inventory's case"), inventory)),
    # Stuck with interrupts on: the boot CPU's own timer.
    Case("deadline-hang-irq", args=["crash=hang-irq", "selftest=off", "deadline_s=2"],
         timeout=90, check=ended_by_deadline("the boot CPU's timer", "outside any benchmark")),
    # A benchmark too long for its deadline, interrupts masked while it
    # measures: the check between passes names the configuration.
    Case("deadline-bench", args=["bench=fault", "folio=2M", "size=16M", "clear=erms",
                                 "order=contiguous-page", "runs=1000", "warmups=0",
                                 "samples=none", "selftest=off", "deadline_s=2"],
         timeout=90, check=ended_by_deadline(
             "checked between passes", r"during 2M\.erms\.contiguous-page on cpu 0, fault \d+")),
]

IDLE_AP = r"the watch timer of cpu \d+"

# Hung with interrupts masked: only another CPU can say so; an idle AP
# ends the run itself, stopping the boot CPU with an NMI.  (The checks
# hold at any count.)
SMP_CASES = [
    scalable(2, lambda n: Case(
        "deadline-hang-masked-smp2", smp=n,
        args=["crash=hang", "selftest=off", "deadline_s=2"], timeout=90,
        check=ended_by_deadline(IDLE_AP, "outside any benchmark"))),
    # Interrupts on with a watcher too: both can fire, the run ends once
    # (rc 4, one message).  The boot CPU's timer comes first unless its
    # vCPU is held off 100 ms on a loaded host: either may be named.
    scalable(2, lambda n: Case(
        "deadline-hang-irq-smp2", smp=n,
        args=["crash=hang-irq", "selftest=off", "deadline_s=2"], timeout=90,
        check=all_of(ended_by_deadline(f"the boot CPU's timer|{IDLE_AP}",
                                       "outside any benchmark"), once))),
    # The boot CPU queued for the console lock, which another CPU holds
    # for good: the old NMI path deadlocked here.  The waiter itself ends
    # the run, stops the holder and takes the console over (with more
    # CPUs an idle one's timer may come first, a tenth of a second after
    # the deadline as the waiter's loose watch).
    scalable(2, lambda n: Case(
        "deadline-hold-console-smp2", smp=n,
        args=["crash=hold-console", "selftest=off", "deadline_s=2"], timeout=90,
        check=all_of(
            ended_by_deadline(r"cpu 0 waiting for the console lock on cpu 1" +
                              ("" if n == 2 else f"|{IDLE_AP}"),
                              r"on cpu \d+, outside any benchmark|outside any benchmark"),
            once, expect_log(r"crash=hold-console requested", "the hold"),
            lambda res: "the queued line was printed" if
            "this line waits for the console" in res.log else None))),
    # Every CPU busy (cpus=all), one hung inside a timed pass with
    # interrupts masked: the others, waiting at the barrier after it,
    # end the run and name it.
    scalable(2, lambda n: Case(
        "deadline-hang-cpu-all-smp2", smp=n,
        args=["bench=fault", "cpus=all", "hang_cpu=1", "folio=2M", "size=8M",
              "clear=erms", "order=contiguous-page", "runs=2", "warmups=0",
              "selftest=off", "deadline_s=3"], timeout=120,
        check=all_of(ended_by_deadline(r"cpu \d+ waiting at a barrier on cpu 1",
                                       r"during 2M\.erms\.contiguous-page "
                                       r"on cpu 1, fault \d+"), once))),
]


def left_out_fails(cpu: int, why: str, record_says: bool = True) -> Check:
    """@cpu left out of the run by a bounded wait, named with @why on the
    console and in its cpu record (state failed; not with @record_says
    false: one left out after the cpu records were written), the run
    going on without it and failing (rc 1) with the verdict naming it."""
    def record(res: qemu.BootResult) -> str | None:
        if not record_says:
            return None
        boots = records.parse(res.log)
        recs = boots[0].records if boots else []
        c = next((r for r in recs if r.type == "cpu" and r.f.get("cpu") == str(cpu)), None)
        if c is None or c.f.get("state") != "failed" or why not in c.f.get("reason", ""):
            return f"cpu {cpu}'s record {c.f if c else None}: expected failed, {why!r}"
        return None
    return all_of(
        expect_rc(1), record,
        expect_log(rf"smp: cpu {cpu} \(APIC ID \d+\) left out: {re.escape(why)}",
                   "the CPU left out, with why"),
        expect_log(rf"cpus=: cpu {cpu} left out: {re.escape(why)}", "cpus= leaving it out"),
        expect_log(rf"# 1 CPU of cpus= that this machine has left out \(cpus {cpu}\): "
                   r"the run has fewer CPUs than asked", "the verdict's diagnostic"),
        expect_log(r"hugezero: done rc=1", "the run's end"))


def watchdog_ended(phase: str, how: str, stall: int = 10) -> Check:
    """Ended by the NMI watchdog: its message, rc 4, the `hang` record
    naming the phase, and the source it armed with its progress bound,
    @stall s (10 at the real answer bound; answer_ms=1000 makes it 4)."""
    return all_of(
        expect_rc(RC_DEADLINE),
        expect_log(r"watchdog: (hpet|pit): ", "the watchdog armed"),
        expect_log(rf"@hz1 \d+ watchdog source=\w+ .* stall_s={stall}\b",
                   f"the watchdog record, stall_s={stall}"),
        expect_log(rf"hugezero: (?:{how}); stopping the run", f"the watchdog's message ({how})"),
        expect_log(rf"\bhang\b.*\bphase={phase}\b.*\bby=watchdog\b", f"a hang record, phase {phase}"),
        expect_log(r"hugezero: done rc=4", "the run's end"),
        lambda res: None if not qemu.verdict(res)[0] else "verdict: passed",
    )


def hang_busy(cpus: str, n: int) -> Check:
    """The `hang` record lists the CPUs still in a pass, and their count."""
    def run(res: qemu.BootResult) -> str | None:
        boots = records.parse(res.log)
        h = next((r for r in (boots[0].records if boots else []) if r.type == "hang"), None)
        if h is None or (h.f.get("busy"), h.f.get("nbusy")) != (cpus, str(n)):
            return f"hang record {h.f if h else None}: expected busy={cpus} nbusy={n}"
        return None
    return run


def pit_not_hpet(why: str) -> Check:
    """The HPET passed over for @why (a regex), said and recorded, and
    the PIT taken instead."""
    return all_of(
        expect_log(rf"watchdog: not the HPET: {why}", "why not the HPET"),
        expect_log(r"@hz1 \d+ watchdog source=pit why=\"PIT channel 0 \(ISA IRQ0\) on GSI 2, "
                   rf"[^\"]*\" pmu_why=\"[^\"]*\" hpet_why=\"{why}\" gsi=2 ",
                   "the watchdog record"))


# A hang of every CPU with interrupts masked, and hangs before the
# deadline is set: only the NMI watchdog, which needs no CPU, ends them.
WATCHDOG = r"the (?:hpet|pit) NMI watchdog"
SMP_CASES += [
    scalable(4, lambda n: Case("watchdog-hang-all", smp=n,
         args=["bench=fault", "cpus=all", "hang_cpu=all", "folio=2M", "size=8M",
               "clear=erms", "order=contiguous-page", "runs=2", "warmups=0",
               "selftest=off", "deadline_s=3"], timeout=120,
         check=all_of(watchdog_ended("run", rf"deadline_s=3 passed \({WATCHDOG}\) during "
                                     r"2M\.erms\.contiguous-page on cpu \d+, fault \d+"),
                      once, hang_busy(f"0-{n - 1}", n)))),
    # The boot CPU hung in bring-up or TSC sync, deadline_s=0: the
    # watchdog's progress bound still ends it: 10 s at the real answer
    # bound, 4 s under answer_ms=1000 (it follows the waits' bound, at
    # least the AP start timeout's 2 s), as the hangs below take it to
    # spare make test the seconds.
    *(scalable(2, lambda n, at=at, phase=phase, answer=answer, stall=stall: Case(
        f"watchdog-hang-{at}-bsp", smp=n,
        args=[f"hang_at={at}", "hang_cpu=0", "selftest=off", "deadline_s=0", *answer],
        timeout=120,
        check=watchdog_ended(phase, rf"hung \({WATCHDOG}: no progress in {phase} for "
                             rf"{stall} s\) on the boot CPU", stall)))
      for at, phase, answer, stall in (("bringup", "bringup", ["answer_ms=1000"], 4),
                                       ("tsc-sync", "tsc-sync", [], 10))),
    # An AP hung once it checked in, or inside the TSC ping-pong: the
    # boot CPU's bounded wait leaves it out with why (and INIT), the
    # others run, and the verdict fails (cpus=all asked for it).  The
    # TSC sync's at the real bound, 8 s; the others at the test-only
    # answer_ms=2000, so that make test does not wait 8 s for each.
    *(scalable(2, lambda n, at=at, why=why, answer=answer: Case(
        f"waits-hang-{at}-ap", smp=n,
        args=[f"hang_at={at}", "hang_cpu=1", "bench=fault", "cpus=all", "folio=2M",
              "size=2M", "clear=erms", "order=contiguous-page", "runs=1", "warmups=0",
              "samples=none", "selftest=off", "deadline_s=0", *answer],
        timeout=120, check=left_out_fails(1, why)))
      for at, why, answer in (
          ("bringup", "it did not take its TSC sync work within 2000 ms of the IPI",
           ["answer_ms=2000"]),
          ("tsc-sync", "no answer to the TSC sync's ping 1 of 2000 within 8000 ms", []))),
    # An AP that stops taking work once its TSC is measured (hung, with
    # interrupts masked, in its idle loop): an IPI delivered says nothing
    # (x2APIC's ICR has no delivery status), so the CPU that gave it the
    # work waits for its answer (8 s; here answer_ms=2000), leaves it out
    # with why, and the run goes on without it; the verdict fails.  Its
    # first work after the sync is the deadline's watch timer (deadline_start()), or with
    # deadline_s=0 boost= setting (smp_run(): nothing runs until every
    # CPU asked took its part, then again without it); xAPIC and x2APIC.
    *(scalable(2, lambda n, name=name, cpu=cpu, deadline=deadline: Case(
        name, smp=n, cpu=cpu,
        unable=qemu.tcg_x2apic_missing if "+x2apic" in cpu else None,
        args=["hang_at=idle", "hang_cpu=1", "bench=fault", "cpus=all", "folio=2M",
              "size=2M", "clear=erms", "order=contiguous-page", "runs=1", "warmups=0",
              "samples=none", "selftest=off", f"deadline_s={deadline}",
              "answer_ms=2000"],
        timeout=120,
        check=all_of(
            expect_log(r"apic: {} id 0,".format("x2apic" if "+x2apic" in cpu else "xapic"),
                       "the APIC mode asked for"),
            left_out_fails(1, "it did not take its work within 2000 ms of the IPI",
                           record_says=False),
            expect_log(r"(?m)^\s*ok \d+ (?:cpus[\d,-]+\.)?2M\.erms\.contiguous-page",
                       "the run without it"))))
      for name, cpu, deadline in (("waits-hang-idle-ap", "max,-x2apic", 0),
                                  ("waits-hang-idle-ap-x2apic", "max,+x2apic", 0),
                                  ("waits-hang-idle-ap-deadline-x2apic", "max,+x2apic", 600))),
    # No HPET: auto falls back to the PIT on ISA IRQ0.
    scalable(2, lambda n: Case("watchdog-pit", smp=n, machine="q35,hpet=off",
         args=["hang_at=tsc-sync", "hang_cpu=0", "selftest=off", "answer_ms=1000"],
         timeout=120,
         check=all_of(watchdog_ended("tsc-sync", r"hung \(the pit NMI watchdog: no progress in "
                                     r"tsc-sync for 4 s\) on the boot CPU", 4),
                      expect_log(r"watchdog: pit: PIT channel 0 \(ISA IRQ0\) on GSI 2",
                                 "the PIT on ISA IRQ0's GSI")))),
]
CASES += [
    # Each timer is heard before it is taken (its first NMIs a millisecond
    # apart, within 200 ms): an HPET whose NMI never comes (its I/O APIC
    # input masked) gives way to the PIT, said and recorded, and the PIT
    # then ends a hang of the boot CPU.
    Case("watchdog-deaf-hpet", timeout=120,
         args=["watchdog_fault=deaf-hpet", "hang_at=tsc-sync", "hang_cpu=0", "selftest=off",
               "deadline_s=0", "answer_ms=1000"],
         check=all_of(
             watchdog_ended("tsc-sync", r"hung \(the pit NMI watchdog: no progress in "
                            r"tsc-sync for 4 s\) on the boot CPU", 4),
             pit_not_hpet(r"HPET comparator \d+'s NMI on GSI \d+ did not come within 200 ms"))),
    # Neither heard: none, each reason recorded, the warning, the boot
    # goes on.
    Case("watchdog-deaf-all", args=["watchdog_fault=deaf-all", "selftest=off"],
         check=all_of(
             passes, expect_log(r"hugezero: WARNING: no NMI watchdog", "the warning"),
             expect_log(r"@hz1 \d+ watchdog source=none why=\"PIT channel 0's NMI on GSI 2 "
                        r"\(ISA IRQ0\) did not come within 200 ms\" pmu_why=\"[^\"]*\" "
                        r"hpet_why=\"HPET comparator \d+'s NMI on GSI \d+ did not come within "
                        r"200 ms\" stall_s=", "the watchdog record"))),
    # Firmware that left the HPET in legacy replacement mode, which takes
    # IRQ0 from the PIT: turned off before the PIT is used, it is heard.
    Case("watchdog-pit-hpet-legacy", timeout=120,
         args=["watchdog=pit", "watchdog_fault=hpet-legacy", "hang_at=tsc-sync", "hang_cpu=0",
               "selftest=off", "deadline_s=0", "answer_ms=1000"],
         check=all_of(
             watchdog_ended("tsc-sync", r"hung \(the pit NMI watchdog: no progress in "
                            r"tsc-sync for 4 s\) on the boot CPU", 4),
             expect_log(r"watchdog: the HPET was in legacy replacement mode, which takes IRQ0 "
                        r"from the PIT: turned off", "legacy replacement turned off"))),
    # No NMI source at all: said, with a warning, and the boot goes on.
    Case("watchdog-off", args=["watchdog=off", "selftest=off"],
         check=all_of(passes, expect_log(r"watchdog: none: watchdog=off", "no source"),
                      expect_log(r"@hz1 \d+ watchdog source=none", "the watchdog record"))),
    # watchdog=pmu where the PMU is no PMU (TCG's counters keep no value):
    # none, the PMU's reason recorded, the warning, and the boot goes on.
    # The counter's own path is tested on a fake PMU (tests/host/
    # test_pmu_nmi.c); auto's fall-back to the HPET by every other case.
    Case("watchdog-pmu-absent", args=["watchdog=pmu", "selftest=off"],
         check=all_of(passes,
                      expect_log(r"watchdog: none: PMU: no core performance counters",
                                 "the PMU's reason"),
                      expect_log(r"hugezero: WARNING: no NMI watchdog", "the warning"),
                      expect_log(r"@hz1 \d+ watchdog source=none why=\"PMU: [^\"]*\" "
                                 r"stall_s=", "the watchdog record"))),
    # One NMI from elsewhere as the HPET (its line masked) is heard: not
    # the five of a source heard, even listened to for 500 ms, so the PIT
    # is taken, said and recorded.
    Case("watchdog-stray-nmi", args=["watchdog_fault=stray-nmi", "selftest=off"],
         check=all_of(
             passes,
             pit_not_hpet(r"HPET comparator \d+'s NMI on GSI \d+ came 1 time within 500 ms "
                          r"at 1 ms, not 5"))),
    # An HPET heard at a millisecond but not armed at its second (stopped
    # once set to it): not taken; the PIT is, said and recorded.
    Case("watchdog-unarmed-hpet", args=["watchdog_fault=unarmed-hpet", "selftest=off"],
         check=all_of(
             passes,
             pit_not_hpet(r"HPET comparator \d+ not armed at 1 s: match 0x[0-9a-f]+, main "
                          r"counter 0x[0-9a-f]+"))),
]


def deaf_writer(res: qemu.BootResult) -> str | None:
    """crash=deaf-writer: CPU 1 swallowed the stop's NMI and was writing a
    line when the run ended.  Its line is cut where the takeover found it
    and marked; its second half and everything it wrote after never
    reach the wire; the drop is counted; the run fails, naming it; every
    record is intact."""
    log = res.log.replace("\r", "")
    if not re.search(r"(?m)this CPU missed the stop; from here ~cut$", log):
        return "the deaf CPU's line is not cut and marked where the takeover found it"
    if "DROPPED" in log or "still writes" in log:
        return "the deaf CPU wrote after the takeover"
    boots = records.parse(res.log)
    if len(boots) != 1 or boots[0].problems or not boots[0].complete:
        return f"records damaged: {boots[0].problems[:3] if boots else 'none'}"
    return None


def cut_record(res: qemu.BootResult) -> str | None:
    """crash=cut-record: a fault halfway through writing a record.  The
    cut record ends with the marker on a line of its own, the register
    dump starts on the next, and the host reads the record as cut off and
    lost (a gap), never glued to the dump."""
    log = res.log.replace("\r", "")
    m = re.search(r"(?m)^(@hz1 \d+ hang .*) ~cut\n(.*)$", log)
    if not m:
        return "no cut record ended with the marker"
    if "@hz1" in m.group(2) or not m.group(2).startswith("hugezero"):
        return f"the line after the cut record is not the dump's: {m.group(2)!r}"
    boots = records.parse(res.log)
    probs = boots[0].problems if boots else []
    if not any("record cut off as the run ended" in p for p in probs) or not boots[0].gaps:
        return f"the host does not read it as cut and lost: {probs[:3]}"
    return None


def stream_writer(res: qemu.BootResult) -> str | None:
    """crash=stream-writer: CPU 1 writes 4 KiB lines back to back as the
    run ends.  The stop's NMI halts it mid-line (nearly always): that line
    is ended with the marker, and every record after starts a line of
    its own; the run passes, every record intact."""
    log = res.log.replace("\r", "")
    lines = re.findall(r"(?m)^hugezero: crash=stream-writer: x.*$", log)
    if not lines:
        return "CPU 1 wrote no line"
    for ln in lines:
        if len(ln) != 4095 and not ln.endswith(" ~cut"):
            return f"a line cut at {len(ln)} bytes and not marked: ...{ln[-60:]!r}"
    glued = re.findall(r"(?m)^.+@hz1 .*$", log)
    if glued:
        return f"a record glued to another line: {glued[0][:80]!r}...{glued[0][-80:]!r}"
    boots = records.parse(res.log)
    if len(boots) != 1 or boots[0].problems or not boots[0].complete:
        return f"records damaged: {boots[0].problems[:3] if boots else 'none'}"
    return None


# The console at the end of a run (docs/smp.md, "Waiting, and ending a
# run early"): a writer that missed the stop, a record cut by a fault, a
# writer stopped by the NMI in the middle of a line.
SMP_CASES += [
    scalable(2, lambda n: Case(
        "console-deaf-writer", smp=n, args=["crash=deaf-writer", "selftest=off"],
        timeout=90,
        check=all_of(
            expect_rc(1), deaf_writer,
            expect_log(r"hugezero: 1 of \d+ other CPUs did not stop within a second "
                       r"of their NMI \(cpus 1\)", "the CPU that did not stop"),
            expect_log(r"hugezero: console: [1-9]\d* writes \(\d+ bytes\) of other CPUs "
                       r"dropped after the takeover", "the drop counted"),
            expect_log(r"hugezero: verdict: cpus 1 did not stop at the end of the run: "
                       r"it fails", "the verdict")))),
    scalable(2, lambda n: Case(
        "console-cut-record", smp=n, args=["crash=cut-record", "selftest=off"],
        timeout=90, check=all_of(expect_rc(3), cut_record))),
    scalable(2, lambda n: Case(
        "console-stream-writer", smp=n, args=["crash=stream-writer", "selftest=off"],
        timeout=90, check=all_of(passes, stream_writer))),
]

# SPDX-License-Identifier: GPL-2.0-only
"""QEMU tests of the lab entries (docs/hardware.md): the inventory, and
deadline_s=: a run never leaves a
machine hung.  Each hang ends at the deadline with what it was doing, the
KTAP stream closed as failed and rc=4 (RC_DEADLINE), well before the
harness's own timeout."""
from __future__ import annotations

import re

from hzlib import qemu

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


def watchdog_ended(phase: str, how: str) -> Check:
    """Ended by the NMI watchdog: its message, rc 4, the `hang` record
    naming the phase, and the source it armed."""
    return all_of(
        expect_rc(RC_DEADLINE),
        expect_log(r"watchdog: (hpet|pit): ", "the watchdog armed"),
        expect_log(rf"hugezero: (?:{how}); stopping the run", f"the watchdog's message ({how})"),
        expect_log(rf"\bhang\b.*\bphase={phase}\b.*\bby=watchdog\b", f"a hang record, phase {phase}"),
        expect_log(r"hugezero: done rc=4", "the run's end"),
        lambda res: None if not qemu.verdict(res)[0] else "verdict: passed",
    )


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
                      once))),
    *(scalable(2, lambda n, at=at, cpu=cpu, phase=phase: Case(
        f"watchdog-hang-{at}-{'bsp' if cpu == 0 else 'ap'}", smp=n,
           args=[f"hang_at={at}", f"hang_cpu={cpu}", "selftest=off", "deadline_s=0"],
           timeout=120,
           check=watchdog_ended(phase, rf"hung \({WATCHDOG}: no progress in {phase} for \d+ s\)"
                                + (" on the boot CPU" if cpu == 0 else r", waiting on cpu 1"))))
      # An AP hung once it checked in is found where the boot first waits
      # on it: in TSC sync.
      for at, cpu, phase in (("bringup", 0, "bringup"), ("bringup", 1, "tsc-sync"),
                             ("tsc-sync", 1, "tsc-sync"))),
    # No HPET: auto falls back to the PIT on ISA IRQ0.
    scalable(2, lambda n: Case("watchdog-pit", smp=n, machine="q35,hpet=off",
         args=["hang_at=tsc-sync", "hang_cpu=0", "selftest=off"], timeout=120,
         check=all_of(watchdog_ended("tsc-sync", r"hung \(the pit NMI watchdog: no progress in "
                                     r"tsc-sync for \d+ s\) on the boot CPU"),
                      expect_log(r"watchdog: pit: PIT channel 0 \(ISA IRQ0\) on GSI 2",
                                 "the PIT on ISA IRQ0's GSI")))),
]
CASES += [
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
]

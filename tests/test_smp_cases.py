# SPDX-License-Identifier: GPL-2.0-only
"""The QEMU cases of several CPUs at another count (HZ_SMP, make
test-smp8): each says how it boots at another count or why it cannot,
and the checks built for a count fail a boot with a CPU or a group
member missing at that count, as they do at the case's own."""
from __future__ import annotations

import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from hzlib import ktap, qemu  # noqa: E402

import qemu_bench_cases  # noqa: E402
import qemu_cases  # noqa: E402
import qemu_deadline_cases  # noqa: E402
import qemu_lab_cases  # noqa: E402
import qemu_preset_cases  # noqa: E402
import qemu_prezero_cases  # noqa: E402
import qemu_sched_cases  # noqa: E402
import qemu_smp_cases as smp  # noqa: E402
from synth import Log, kernel_config  # noqa: E402

ALL = (qemu_cases.CASES + qemu_bench_cases.CASES + qemu_bench_cases.SMP_CASES +
       qemu_sched_cases.CASES + smp.CASES +
       qemu_prezero_cases.CASES + qemu_prezero_cases.SMP_CASES +
       qemu_deadline_cases.CASES + qemu_deadline_cases.SMP_CASES +
       qemu_lab_cases.CASES + qemu_preset_cases.CASES + qemu_preset_cases.SMP_CASES)
MS = 1_000_000


def boot(text: str) -> qemu.BootResult:
    return qemu.BootResult(text, 0, False, ktap.parse(text), 1.0)


def machine(n: int, down: tuple[int, ...] = (), members: int | None = None) -> str:
    """A boot of @n CPUs, those of @down left out for no answer, one group
    of every CPU up (or of the first @members) at once, every pass
    verified."""
    log = Log()
    for c in range(n):
        state = ('state=no-answer reason="no answer to the STARTUP IPIs within 2000 ms"'
                 if c in down else "state=up x2apic=0 tsc_offset_ticks=0 "
                 "tsc_offset_err_ticks=0 tsc_warps=0")
        log.add("cpu", f"cpu={c} apic_id={c} uid={c} node=0 {state}")
    log.add("smp", f"present={n} up={n - len(down)} nodes=1 slit=0 tsc_skew_ticks=0 "
            "tsc_skew_bound_ticks=1000 tsc_sync=ok")
    up = [c for c in range(n) if c not in down]
    runs = [{"fault": [MS, MS], "clear": [MS // 2, MS // 2]}]
    log.group(kernel_config(), {c: runs for c in up[:members]}, [10 * MS],
              run_extra="verify=ok", corr=(5, 0))
    return log.text()


class DeclaredTest(unittest.TestCase):
    def test_every_case_of_several_cpus_says_how_it_scales(self) -> None:
        for c in ALL:
            with self.subTest(case=c.name):
                if not c.multi:
                    self.assertIsNone(c.at_cpus)
                    continue
                self.assertNotEqual(c.at_cpus is None, c.fixed_cpus is None,
                                    "exactly one of at_cpus and fixed_cpus")
                self.assertTrue(c.at_cpus is None or isinstance(c.smp, int))

    def test_at_another_count(self) -> None:
        for c in ALL:
            if not c.multi:
                continue
            with self.subTest(case=c.name):
                self.assertIs(c.at(c.smp), c)  # type: ignore[arg-type]
                at8 = c.at(8)
                if c.at_cpus is None:
                    self.assertIn(c.fixed_cpus or "?", at8.unable() if at8.unable else "")
                    continue
                self.assertEqual((at8.name, at8.smp), (f"{c.name}@8", 8))
                self.assertGreaterEqual(at8.timeout or 0, (c.timeout or 240))
                # Built again for 8: the same case but for its count.
                again = c.at_cpus(c.smp)  # type: ignore[arg-type]
                self.assertEqual((again.name, again.args, again.firmware, again.extra),
                                 (c.name, c.args, c.firmware, c.extra))

    def test_a_count_that_means_nothing_is_a_skip(self) -> None:
        (numa,) = [c for c in smp.CASES if c.name == "numa2-local"]
        self.assertIn("even count", numa.at(7).unable())  # type: ignore[misc]
        self.assertEqual(numa.at(8).extra[5], "node,nodeid=0,cpus=0-3,memdev=m0")


class StrictTest(unittest.TestCase):
    """At 2, 4 and 8 CPUs the count's own boot passes; a CPU missing, a
    group member missing, or a boot of fewer CPUs fails."""

    def test_cpus_up(self) -> None:
        for n in (2, 4, 8):
            with self.subTest(n=n):
                self.assertIsNone(smp.cpus_up(n, list(range(n)))(boot(machine(n))))
                self.assertIn("expected", smp.cpus_up(n)(boot(machine(n, down=(n - 1,)))))
                self.assertIn("expected", smp.cpus_up(n)(boot(machine(n // 2))))

    def test_groups_ok(self) -> None:
        for n in (2, 4, 8):
            with self.subTest(n=n):
                ok = smp.groups_ok(n, 1, cpus=smp.all_cpus(n))
                self.assertIsNone(ok(boot(machine(n))))
                self.assertIn("members, expected", ok(boot(machine(n, members=n - 1))))
                self.assertIn("members, expected", ok(boot(machine(n // 2))))

    def test_no_answer(self) -> None:
        for n in (3, 8):
            with self.subTest(n=n):
                ok = qemu_cases.all_of(smp.no_answer(n), smp.groups_ok(
                    n - 1, 1, cpus=smp.cpulist.format([0, *range(2, n)])))
                self.assertIsNone(ok(boot(machine(n, down=(1,)))))
                self.assertIn("cpu 1's record", ok(boot(machine(n))))
                self.assertIn(f"expected {n - 1} of {n} up", ok(boot(machine(n, down=(1, 2)))))
                self.assertIn("members, expected", ok(boot(machine(n, (1,), members=n - 2))))

    def test_madt_line(self) -> None:
        line = "acpi: MADT: {} processors, {} enabled, APIC IDs {}; local APIC at 0xfee00000"
        for n in (2, 8):
            ids = ",".join(map(str, range(n)))
            self.assertIsNone(qemu_cases.expect_log(qemu_cases.madt_line(n), "")(
                boot(line.format(n, n, ids))))
            self.assertIsNotNone(qemu_cases.expect_log(qemu_cases.madt_line(n), "")(
                boot(line.format(n, n - 1, ids))))
            self.assertIsNotNone(qemu_cases.expect_log(qemu_cases.madt_line(2 * n), "")(
                boot(line.format(n, n, ids))))


if __name__ == "__main__":
    unittest.main()

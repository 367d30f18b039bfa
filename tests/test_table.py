# SPDX-License-Identifier: GPL-2.0-only
"""`scripts/hugezero table`: the seeds' tables from preset= logs, on
synthetic logs whose figures are known (1 GHz TSC: 1,000,000 ticks a ms)."""
from __future__ import annotations

import io
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

from hzlib import records, table  # noqa: E402
from synth import Log, kernel_config, prezero_log  # noqa: E402


def preset(name: str, side: str = "hugezero") -> str:
    return (f'name={name} seed="{name[5:]}: a thread" side={side} keys="bench=fault" '
            'chose="size=4M" why="half the free memory" scaled="4 MiB, not 64 GiB" '
            'linux_clear=erms')


def render(*logs: Log, fmt: str = "text") -> tuple[int, str]:
    out = io.StringIO()
    boots = [b for log in logs for b in records.parse(log.text())]
    return table.write(boots, fmt, out), out.getvalue()


class TableTest(unittest.TestCase):
    def test_no_preset_is_an_error(self) -> None:
        rc, t = render(prezero_log())
        self.assertEqual(rc, 1)
        self.assertIn("no preset record", t)

    def test_seed_002_total_and_per_page(self) -> None:
        log = prezero_log()
        # The preset record goes before the first configuration.
        first = log.lines[3:]
        log.lines = log.lines[:3]
        log.add("preset", preset("seed-002"))
        for line in first:
            rtype, body = line.split(" ", 3)[2], line.split(" ", 3)[3].rsplit(" #", 1)[0]
            log.add(rtype, body)
        # A mode this machine cannot run: its reason, not a crash.
        log.add("config", f"cfg=4 {kernel_config(name='dedicated.2M.erms.contiguous-page', prezero='dedicated')}")
        log.add("summary", 'cfg=4 status=skip reason="one CPU" runs=0')
        rc, t = render(log)
        self.assertEqual(rc, 0, t)
        self.assertRegex(t, r"prezero=dedicated .*skip: one CPU")
        # none: 2.2 ms a pass over 2 folios.
        self.assertIn("prezero=none (no model, erms, contiguous-page):\n"
                      "  \tTotal time: 0.002200 seconds\n"
                      "  \tAvg time per 2MB page: 0.001100 seconds", t)
        # on-free: faults 0.06 ms; 2.0 ms zeroed at unmap, every fault served.
        self.assertIn("Total time: 0.000060 seconds", t)
        self.assertIn("Zeroed ahead: 0.002000 seconds by free, 100% of the faults", t)
        self.assertIn("smaller than the seed: 4 MiB, not 64 GiB", t)

    def test_seed_000_stime_utime(self) -> None:
        log = Log(timebase="tsc_hz=1000000000 source=hpet invariant=1 overhead_median=0")
        log.add("preset", preset("seed-000"))
        log.smp(2)
        passes = [{"fault": [1000000, 1000000], "access": [500000, 500000]},
                  {"fault": [1200000, 1200000], "access": [500000, 500000]}]
        for order in ("contiguous-page", "neighbourhood-last"):
            log.group(kernel_config(name=f"2M.erms.{order}", order=order, access="write"),
                      {0: passes, 1: passes}, walls=[4000000, 4000000])
        rc, t = render(log)
        self.assertEqual(rc, 0, t)
        # stime: 4 and 4.8 ms a pass over both CPUs: 4.40 +- 12.86%; utime 2 ms.
        self.assertRegex(t, r"neighbourhood-last +4\.40 \( \+- 12\.86% \) +2\.00 "
                            r"\( \+- 0\.00% \)")
        self.assertIn("as vm-scalability's stime and utime", t)
        rc, md = render(log, fmt="markdown")
        self.assertRegex(md, r"\| neighbourhood-last \| 4\.40 \( \+- 12\.86% \) \|")

    def seed_001_log(self, orders: tuple[str, ...] = ("converging-page", "contiguous-page")
                     ) -> Log:
        log = Log()
        log.add("preset", preset("seed-001"))
        # 2 passes of 2 folios of 2M: erms converging 1 and 1.1 ms a fault,
        # contiguous half that (+100%); avx2's contiguous a third (+200%).
        slow = [{"fault": [1000000] * 2}, {"fault": [1100000] * 2}]
        # In the writers' order, lib/preempt.h's: the table keeps it.
        for model in ("none", "full"):
            for clear, div in (("erms", 2), ("avx2", 3)):
                for order in orders:
                    d = div if order == "contiguous-page" else 1
                    log.config(kernel_config(name=f"{model}.{clear}.{order}", clear=clear,
                                             order=order, preempt=model),
                               [{"fault": [t // d for t in r["fault"]]} for r in slow])
        return log

    def test_seed_001_before_after_change(self) -> None:
        rc, t = render(self.seed_001_log())
        self.assertEqual(rc, 0, t)
        # 4 MiB in 2 and 2.2 ms: 1.95 and 1.78 GiB/s, 1.86 +- 6.73%; the
        # change with its interval (Fieller's, Welch's t at 1.8 to 2.0 degrees of
        # freedom: scipy.stats.ttest_ind(b, r * a) has p = 0.05 at either end).
        row = (r"pg-sz=2MB +1\.86 \+- +6\.73% +3\.73 \+- +6\.73% +\+100\.0% +"
               r"(\[ \+44\.3, \+177\.1\] +p=0\.027|no scipy) +avx2 +5\.59 \+- ")
        self.assertRegex(t, r"preempt=none\n\n.*converging-page \(erms\).*\n *" + row)
        # The seed's order: none before full.
        self.assertLess(t.index("preempt=none"), t.index("preempt=full"))
        rc, md = render(self.seed_001_log(), fmt="markdown")
        self.assertRegex(md, r"\| pg-sz=2MB \| 1\.86 \+- +6\.73% \| 3\.73 ")

    def test_seed_001_one_order_says_why(self) -> None:
        rc, t = render(self.seed_001_log(orders=("contiguous-page",)))
        self.assertEqual(rc, 0, t)
        self.assertIn("nothing to compare: --a order=converging-page: no configuration", t)

    def test_not_run_is_said_and_fails(self) -> None:
        log = Log()
        log.add("preset", 'name=seed-001 seed="001: a thread" side=hugezero keys="bench=fault" '
                'status=not-run chose="" why="half the free memory (1 of 3 MiB) holds not one '
                '2M folio" scaled="" linux_clear=erms')
        rc, t = render(log)
        self.assertEqual(rc, 1, t)
        self.assertIn("seed-001, hugezero: the preset did not run\n  not run: half the free "
                      "memory (1 of 3 MiB) holds not one 2M folio", t)
        self.assertNotIn("nothing to compare", t)

    def test_boost_in_each_sides_header(self) -> None:
        # No boost record (a log from before it): no line.
        self.assertNotIn("boost", render(self.seed_001_log())[1])
        src = "/sys/devices/system/cpu/cpufreq/boost: 0 (acpi-cpufreq)"
        for bodies, says in (
                # The companion's, one for the host.
                ([f'asked=off before=on after=off source="{src}"'],
                 f"boost: off (found on, set by boost=off): {src}"),
                ([f'asked=off before=off after=off source="{src}"'],
                 f"boost: off (as found, as boost=off asks): {src}"),
                (['asked=off before=unknown after=unknown source="no control"'],
                 "boost: unknown (boost=off asked; not set): no control"),
                (['asked=firmware before=on after=on source="x"'], "boost: on (as found): x"),
                # The kernel's, one a CPU, grouped by what they say.
                ([f"cpu={c} asked=off vendor=amd before=on after=off tried=hwcr:set "
                  f"check={'over' if c == 3 else 'ok'}" for c in range(4)],
                 "boost: off (found on, set by boost=off) on CPUs 0-2; off (found on, set "
                 "by boost=off; the clock ran more than 2% over nominal) on CPU 3"),
                # boost=on checked: not in effect, or not checkable.
                (["cpu=0 asked=on vendor=amd before=off after=on tried=hwcr:set "
                  "check=under check_by=aperf-mperf"],
                 "boost: on (found off, set by boost=on; it did not take effect: the clock "
                 "ran no more than 2% over nominal) on CPU 0"),
                ([f'asked=on before=off after=on source="{src}" check=unmeasured '
                  'eff_why="cannot check: no APERF/MPERF (CPUID 06H:ECX[0] clear)"'],
                 f"boost: on (found off, set by boost=on; whether it took effect could not "
                 f"be checked): {src}"),
                (['cpu=0 asked=off vendor=other before=none after=none tried=none '
                  'why="no boost on this CPU"'],
                 "boost: none (boost=off asked; not set): no boost on this CPU on CPU 0")):
            # The boost records after the first three, as either side's.
            log = Log()
            for body in bodies:
                log.add("boost", body)
            for line in self.seed_001_log().lines[3:]:
                rtype, rest = line.split(" ", 3)[2], line.split(" ", 3)[3].rsplit(" #", 1)[0]
                log.add(rtype, rest)
            rc, t = render(log)
            self.assertEqual(rc, 0, t)
            self.assertIn(f"\n  {says}\n", t)

    def test_a_boot_given_twice_counts_once(self) -> None:
        once = render(self.seed_001_log())[1]
        rc, twice = render(self.seed_001_log(), self.seed_001_log())
        self.assertEqual(rc, 0, twice)
        self.assertTrue(twice.startswith("table: 1 boot(s) given more than once, counted once\n"))
        self.assertEqual(twice.split("\n", 1)[1], once)


if __name__ == "__main__":
    unittest.main()

# SPDX-License-Identifier: GPL-2.0-only
"""The counters (pmu=) in report, compare and the CSV: per configuration
and counted event, the mean per fault and per 4 KiB page of the delta
around each clear, the LLC miss rate, and the events skipped with their
reason."""
from __future__ import annotations

import csv
import io
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

from hzlib import compare, records, report, results  # noqa: E402
from synth import Log, kernel_config, pmu_config  # noqa: E402

RUNS = [{"fault": [2000, 2000], "clear": [1000, 1000]}] * 2


def text(log: Log) -> str:
    out = io.StringIO()
    report.write(records.parse(log.text()), out)
    return out.getvalue()


class CountersReportTest(unittest.TestCase):
    def test_per_fault_per_page_and_llc_rate(self) -> None:
        log = Log().config(kernel_config(
            pmu="instructions,llc-references,llc-misses,l1d-loads",
            pmu_counted="instructions,llc-references,llc-misses",
            pmu_skip='"l1d-loads: Intel: not an architectural event"'), RUNS)
        for run in (0, 1):
            for kind, v in (("instructions", "1024000,1024000"),
                            ("llc-references", "4000,6000"), ("llc-misses", "100,400")):
                log.add("samples", f"cfg=1 run={run} kind=pmu.{kind} first=0 v={v} n=2")
        t = text(log)
        self.assertIn("counters around each clear (pmu=)", t)
        # 2M folios: 512 pages; 1024000 instructions per fault = 2000 per page.
        self.assertRegex(t, r"2M\.erms\.contiguous-page +instructions +1024000\.0 +2000\.00")
        self.assertRegex(t, r"llc-references +5000\.0 +9\.77")
        self.assertRegex(t, r"llc miss rate +5\.00%")     # 250 of 5000
        self.assertRegex(t, r"l1d-loads +skipped: Intel: not an architectural event")

    def test_companion_bracket_shown(self) -> None:
        """The companion's pmu_bracket: what its read(2) pair alone counts,
        shown under the configuration's events, not subtracted."""
        t = text(pmu_config(Log(), {"instructions": [5000, 5000], "cycles": [9000, 9000]},
                            pmu_bracket="instructions:700,cycles:1100"))
        self.assertRegex(t, r"1G\.erms\.contiguous-page +\(read pair\) +an empty bracket "
                            r"\(its read\(2\) pair alone\) counts instructions 700, cycles 1100: "
                            r"inside each figure, not subtracted")
        self.assertRegex(t, r"instructions +5000\.0")

    def test_skip_reasons_shared(self) -> None:
        """pmu_skip names events that share a reason together."""
        from hzlib import counters
        self.assertEqual(counters.skipped({"pmu_skip": "instructions,cycles: no PMU; "
                                                       "l1d-loads: Intel: not architectural"}),
                         {"instructions": "no PMU", "cycles": "no PMU",
                          "l1d-loads": "Intel: not architectural"})

    def test_firmware_counters_warned(self) -> None:
        """Counters the firmware had left enabled (pmu_caps_check()): the
        kernel counted over them, and report says so once, with the MSR."""
        log = Log()
        for name in ("2M.erms.contiguous-page", "2M.rep.contiguous-page"):
            log = pmu_config(log, {"instructions": [10, 10]}, name=name, folio="2M",
                             size=str(4 << 20), pmu_firmware="0x200000001",
                             pmu_firmware_msr="0x186", pmu_firmware_val="0x43003c")
        t = text(log)
        self.assertEqual(t.count("WARNING: the firmware had left counters 0x200000001 "
                                 "enabled"), 1, t)
        self.assertIn("MSR 0x186 was 0x43003c", t)
        self.assertNotIn("firmware had left", text(pmu_config(Log(), {"instructions": [1, 1]})))

    def test_no_pmu_no_table(self) -> None:
        self.assertNotIn("counters around each clear", text(Log().config(kernel_config(), RUNS)))


# 1G folios: 262144 pages of 4 KiB.
PAGES_1G = 262144
SKIP_L1D = "l1d-loads: Intel: not an architectural event"


class CountersCsvTest(unittest.TestCase):
    def log(self) -> Log:
        log = pmu_config(Log(), {"instructions": [545000000, 545000000]}, skip=SKIP_L1D)
        return log.config(kernel_config(), RUNS)

    def test_columns_per_fault_per_4k(self) -> None:
        rows = results.rows(records.parse(self.log().text()))
        cols = results.csv_columns(rows)
        self.assertEqual(cols[-4:], ["pmu.instructions_per_fault", "pmu.instructions_per_4k",
                                     "pmu.l1d-loads_per_fault", "pmu.l1d-loads_per_4k"])
        self.assertEqual(rows[0]["pmu.instructions_per_fault"], 545e6)
        self.assertAlmostEqual(rows[0]["pmu.instructions_per_4k"], 545e6 / PAGES_1G)
        self.assertNotIn("pmu.l1d-loads_per_fault", rows[0])
        self.assertNotIn("pmu.instructions_per_fault", rows[1])

    def test_csv_cells_empty_where_not_counted(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            p = Path(d) / "x.log"
            p.write_text(self.log().text())
            out = subprocess.run([sys.executable, str(ROOT / "scripts/hugezero"), "parse",
                                  str(p), "--format", "csv"],
                                 capture_output=True, text=True, check=True).stdout
        counted, plain = list(csv.DictReader(io.StringIO(out)))
        self.assertEqual((counted["pmu.instructions_per_fault"],
                          counted["pmu.instructions_per_4k"], counted["pmu.l1d-loads_per_fault"],
                          counted["pmu.l1d-loads_per_4k"]), ("545000000.0", "2079.01", "", ""))
        self.assertEqual((plain["pmu.instructions_per_fault"], plain["pmu"]), ("", ""))

    def test_counter_samples_are_no_times(self) -> None:
        """--rows samples: a pmu.EVENT sample is a count, with no us or
        net_us made of it as if it were TSC ticks."""
        srows = results.sample_rows(records.parse(self.log().text()))
        pmu = [r for r in srows if str(r["kind"]).startswith("pmu.")]
        self.assertTrue(pmu)
        self.assertEqual({(r["us"], r["net_us"], r["timer_ticks"]) for r in pmu}, {("", "", "")})
        timed = [r for r in srows if r["kind"] == "fault"]
        self.assertTrue(timed and all(r["us"] != "" for r in timed))


NO_COUNTER = "cycles: no free counter: every general counter is taken"


class CountersCompareTest(unittest.TestCase):
    """A 1G fault's counters before (A) and after (B)."""

    def compare(self, a: Log, b: Log) -> tuple[compare.Comparison, str]:
        with tempfile.TemporaryDirectory() as d:
            pa, pb = Path(d) / "a.log", Path(d) / "b.log"
            pa.write_text(a.text())
            pb.write_text(b.text())
            out = io.StringIO()
            self.assertEqual(compare.write(str(pa), str(pb), out), 0)
            return compare.compare(compare.load(str(pa)), compare.load(str(pb))), out.getvalue()

    def sides(self) -> tuple[Log, Log]:
        asked = "instructions,llc-references,llc-misses,l1d-loads,cycles"
        a = pmu_config(Log(), {"instructions": [545000000] * 2, "llc-references": [4000, 6000],
                               "llc-misses": [100, 400], "l1d-loads": [7000000] * 2},
                       skip=NO_COUNTER, pmu=asked)
        b = pmu_config(Log(), {"instructions": [11000000] * 2, "llc-references": [4000, 6000],
                               "llc-misses": [50, 50]},
                       skip=f"{SKIP_L1D}; {NO_COUNTER}", pmu=asked)
        return a, b

    def test_per_fault_per_4k_and_change(self) -> None:
        cmp, t = self.compare(*self.sides())
        self.assertIn("counters around each clear (pmu=)", t)
        self.assertRegex(t, r"folio=1G .* instructions +545000000\.0 +11000000\.0 +2079\.01 "
                         r"+41\.96 +-98\.0%")
        self.assertRegex(t, r"llc miss rate +5\.00% +1\.00%")
        ch = {c.event: c for c in cmp.pairs[0].counters}
        self.assertEqual(ch["instructions"].per_fault, (545e6, 11e6))
        self.assertAlmostEqual(ch["instructions"].change_pct, -97.98165, places=4)
        self.assertEqual(cmp.pairs[0].llc_miss_pct, (5.0, 1.0))

    def test_skipped_and_one_side_only(self) -> None:
        cmp, t = self.compare(*self.sides())
        # Counted on A only: A's figures, B's reason, no change.
        self.assertRegex(t, r"l1d-loads +7000000\.0 +- +26\.70 +- +"
                         r"B: skipped: Intel: not an architectural event\n")
        # Skipped on both: the reason, never a 0.
        self.assertRegex(t, r"cycles +- +- +- +- +A and B: skipped: no free counter")
        ch = {c.event: c for c in cmp.pairs[0].counters}
        self.assertEqual(ch["l1d-loads"].why, ("", "skipped: Intel: not an architectural event"))
        self.assertNotRegex(t, r"cycles +0")

    def test_no_pmu_no_table(self) -> None:
        plain = Log().config(kernel_config(), RUNS)
        self.assertNotIn("counters around each clear", self.compare(plain, plain)[1])


if __name__ == "__main__":
    unittest.main()

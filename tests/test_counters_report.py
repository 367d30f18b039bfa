# SPDX-License-Identifier: GPL-2.0-only
"""report's counters table (pmu=): per configuration and counted event,
the mean per fault and per 4 KiB page of the delta around each clear, the
LLC miss rate, and the events skipped with their reason."""
from __future__ import annotations

import io
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

from hzlib import records, report  # noqa: E402
from synth import Log, kernel_config  # noqa: E402

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
        self.assertIn("skipped: l1d-loads: Intel: not an architectural event", t)

    def test_no_pmu_no_table(self) -> None:
        self.assertNotIn("counters around each clear", text(Log().config(kernel_config(), RUNS)))


if __name__ == "__main__":
    unittest.main()

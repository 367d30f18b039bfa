# SPDX-License-Identifier: GPL-2.0-only
"""Runs flagged for an SMI or an effective frequency more than 2% off the
median are found on the host from the run records (`smis`, `eff_khz`),
not only taken from the kernel summary's `flagged`, and report says
where the kernel's summary disagrees."""
from __future__ import annotations

import io
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

from hzlib import records, report, results  # noqa: E402
from synth import Log, kernel_config  # noqa: E402

RUNS = [{"fault": [2000, 2000], "clear": [1000, 1000]}] * 3
# Run 1: 2 SMIs; run 2: 3120000 kHz, 4% off the median 3000000.
EXTRA = ["smis=0 eff_khz=3000000", "smis=2 eff_khz=3000000",
         "smis=0 eff_khz=3120000"]


def text(log: Log) -> str:
    out = io.StringIO()
    report.write(records.parse(log.text()), out)
    return out.getvalue()


def row(log: Log) -> dict[str, object]:
    return results.rows(records.parse(log.text()))[0]


class FlaggedOnHost(unittest.TestCase):
    def test_no_flagged_field_both_runs_flagged(self) -> None:
        log = Log().config(kernel_config(runs="3"), RUNS, run_extra=EXTRA)
        want = "run 1: 2 SMIs; run 2: 3120000 kHz, 4.0% off the median"
        self.assertEqual(row(log)["flagged"], want)
        t = text(log)
        self.assertIn(f"flagged: {want}", t)
        self.assertIn("the kernel's summary flagged none", t)

    def test_agrees_with_kernel(self) -> None:
        want = "run 1: 2 SMIs; run 2: 3120000 kHz, 4.0% off the median"
        log = Log().config(kernel_config(runs="3"), RUNS, run_extra=EXTRA,
                           summary=f'flagged="{want}"')
        t = text(log)
        self.assertIn(f"flagged: {want}", t)
        self.assertNotIn("kernel's summary", t)

    def test_kernel_disagrees(self) -> None:
        log = Log().config(kernel_config(runs="3"), RUNS, run_extra=EXTRA,
                           summary='flagged="run 0: 1 SMI"')
        t = text(log)
        self.assertIn("flagged: run 1: 2 SMIs", t)
        self.assertIn("the kernel's summary flagged otherwise: run 0: 1 SMI", t)

    def test_within_tolerance_not_flagged(self) -> None:
        log = Log().config(kernel_config(runs="3"), RUNS, run_extra=[
            "smis=0 eff_khz=3000000", "smis=0 eff_khz=3060000", "smis=0 eff_khz=2990000"])
        self.assertEqual(row(log)["flagged"], "")
        self.assertNotIn("flagged", text(log))


if __name__ == "__main__":
    unittest.main()

# SPDX-License-Identifier: GPL-2.0-only
"""The companion's runs=auto (docs/statistics.md, "runs=auto: the
contract"): bench=bare's passes go on until the rule stops them, the
records say which limit did, and report reads them; the limits without
runs=auto are refused.  Correctness only: no speed is asserted."""
from __future__ import annotations

import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from hzlib import paths, records  # noqa: E402
from qemu_bench_cases import auto_stopped  # noqa: E402

EXE = paths.COMPANION
BARE = ["bench=bare", "folio=2M", "clear=erms", "order=contiguous-page", "warmups=0",
        "samples=none", "runs=auto"]


def run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, timeout=120)


def parsed(r: subprocess.CompletedProcess[str]) -> list[records.Record]:
    boots = records.parse(r.stdout)
    assert len(boots) == 1 and boots[0].complete and not boots[0].problems, r.stderr
    return boots[0].records


class RunsAuto(unittest.TestCase):
    def setUp(self) -> None:
        self.assertTrue(EXE.exists(), f"{EXE} is missing: make build/hugezero-linux")

    def test_stops_at_precision_or_max_runs_and_report_reads_it(self) -> None:
        r = run([*BARE, "size=4M", "precision=2.5", "max_runs=8"])
        self.assertEqual(r.returncode, 0, r.stderr)
        recs = parsed(r)
        self.assertIsNone(auto_stopped(recs, 8))
        cfg = next(x for x in recs if x.type == "config")
        self.assertEqual((cfg.f["precision"], cfg.f["budget_s"]), ("2.5", "0"))
        with tempfile.NamedTemporaryFile("w", suffix=".log") as f:
            f.write(r.stdout)
            f.flush()
            rep = subprocess.run([sys.executable, str(ROOT / "scripts" / "hugezero"),
                                  "report", f.name], capture_output=True, text=True)
        self.assertEqual(rep.returncode, 0, rep.stderr)
        self.assertIn("runs=auto precision=2.5%: stopped by ", rep.stdout)
        # the kernel's half-width is the host's
        self.assertNotIn("the record says", rep.stdout)
        self.assertNotIn("NOT within precision", rep.stdout)

    def test_budget_stops_before_max_runs(self) -> None:
        # 1000 passes of 64M take far longer than a second on any machine
        # that takes more than a millisecond a pass: the budget stops them.
        r = run([*BARE, "size=64M", "precision=0.01", "max_runs=1000", "budget_s=1"])
        self.assertEqual(r.returncode, 0, r.stderr)
        s = next(x for x in parsed(r) if x.type == "summary")
        self.assertEqual(s.f.get("stopped_by"), "budget_s", s.f)
        self.assertTrue(1 <= s.int("runs") < 1000, s.f)

    def test_runs_n_logs_unchanged(self) -> None:
        r = run([*BARE[:-1], "size=4M", "runs=2"])
        recs = parsed(r)
        cfg = next(x for x in recs if x.type == "config")
        s = next(x for x in recs if x.type == "summary")
        self.assertEqual(cfg.f["runs"], "2")
        for k in ("precision", "max_runs", "budget_s"):
            self.assertNotIn(k, cfg.f)
        for k in ("stopped_by", "ci_pct_x100"):
            self.assertNotIn(k, s.f)

    def test_limits_without_runs_auto_refused(self) -> None:
        for line, said in ((["precision=5"], "precision= says when runs=auto stops"),
                           (["runs=4", "max_runs=9"], "max_runs= says when runs=auto"),
                           (["budget_s=9"], "budget_s= says when runs=auto"),
                           (["runs=auto", "cpus=0-1"], "runs=auto runs one CPU at a time"),
                           (["runs=auto", "precision=0"], "is not a percentage")):
            r = run(["bench=bare", *line])
            self.assertEqual(r.returncode, 2, line)
            self.assertIn(said, r.stderr)
            self.assertEqual(r.stdout, "")


if __name__ == "__main__":
    unittest.main()

# SPDX-License-Identifier: GPL-2.0-only
"""Logs written by the build before primitives, orders, models and keys
were each declared once (commit 7f1d1a3): a benchmark boot, an SMP boot
and a companion run, in tests/data/before-one-declaration/, with what that
build's `report` and `parse --format csv` printed for them.  Today's
tools must print the same: nothing a user sees changed, but for wordings
changed on purpose, each in a commit of its own to these files (issue
30: report's GB/s column with its n, and the legend of its +-)."""
from __future__ import annotations

import subprocess
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "before-one-declaration"
HZ = [sys.executable, str(ROOT / "scripts" / "hugezero")]


class OldLogs(unittest.TestCase):
    def run_tool(self, *args: str) -> str:
        r = subprocess.run([*HZ, *args], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout

    def test_report_and_parse_as_before(self) -> None:
        names = sorted(p.stem for p in DATA.glob("*.log"))
        self.assertEqual(names, ["companion-bare", "kernel-bench", "kernel-smp"])
        for name in names:
            log = str(DATA / f"{name}.log")
            with self.subTest(log=name, tool="report"):
                self.assertEqual(self.run_tool("report", log),
                                 (DATA / f"{name}.report").read_text())
            with self.subTest(log=name, tool="parse"):
                self.assertEqual(self.run_tool("parse", log, "--format", "csv"),
                                 (DATA / f"{name}.csv").read_text())


if __name__ == "__main__":
    unittest.main()

# SPDX-License-Identifier: GPL-2.0-only
"""The companion's series flags (docs/statistics.md, "Series a mean
hides"): every summary of a configuration that ran measured passes says
`series`, with Mann-Kendall's `drift_s` and the gap test's
`bimodal_sep_x100` where each could run, computed in C (lib/series.c);
report holds them to series.py on the same passes and says where they
differ.  Correctness only: no speed is asserted."""
from __future__ import annotations

import subprocess
import sys
import unittest
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

from hzlib import paths, records, results, series  # noqa: E402
from qemu_cases import report_log  # noqa: E402

EXE = paths.COMPANION
BARE = ["bench=bare", "folio=2M", "clear=erms", "order=contiguous-page", "warmups=0",
        "size=4M"]


def companion(args: list[str]) -> str:
    r = subprocess.run([str(EXE), *args], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout


def report(log: str) -> str:
    r = report_log(log)
    assert r.returncode == 0, r.stderr
    return r.stdout


def summary(log: str) -> records.Record:
    boots = records.parse(log)
    assert len(boots) == 1 and boots[0].complete and not boots[0].problems
    return next(r for r in boots[0].records if r.type == "summary")


def resealed(log: str, old: str, new: str) -> str:
    """@log with @old replaced by @new in its summary, the checksum
    recomputed: a writer that computed otherwise."""
    out = []
    for line in log.splitlines():
        if " summary " in line and old in line:
            body = line.rsplit("#", 1)[0].replace(old, new)
            line = f"{body}#{zlib.crc32(body.encode()):08x}"
        out.append(line)
    return "\n".join(out) + "\n"


class SeriesFields(unittest.TestCase):
    def setUp(self) -> None:
        self.assertTrue(EXE.exists(), f"{EXE} is missing: make build/hugezero-linux")

    def test_fields_agree_with_the_host(self) -> None:
        for args in (["runs=12", "samples=none"], ["runs=9"],
                     ["runs=auto", "precision=0.01", "max_runs=10", "samples=none"]):
            log = companion([*BARE, *args])
            s = summary(log)
            boot = records.parse(log)[0]
            cfg = results.configs(boot)[0]
            x = [v for _, v in results.run_gibps_micro_of(boot, cfg)]
            self.assertEqual(len(x), s.int("runs"), args)
            mine = series.check(x)
            self.assertEqual(s.f["series"], mine.word, args)
            self.assertEqual(s.int("drift_s"), mine.s, args)
            self.assertIsNotNone(mine.sep)
            self.assertEqual(s.f["bimodal_sep_x100"], str(int(series.sep_x100(mine.sep))))
            self.assertIn(s.f["series"], ("ok", "drift", "bimodal", "drift,bimodal"))
            rep = report(log)
            self.assertNotIn("the record's series check said", rep, args)
            # a writer whose S were off by one is caught
            bad = resealed(log, f"drift_s={s.f['drift_s']} ",
                           f"drift_s={s.int('drift_s') + 2} ")
            self.assertIn(f"the record's series check said {s.f['series']} "
                          f"(S={s.int('drift_s') + 2}, ", report(bad))

    def test_what_too_few_passes_say(self) -> None:
        s = summary(companion([*BARE, "runs=3", "samples=none"]))
        self.assertEqual(s.f["series"], "untested")
        self.assertNotIn("drift_s", s.f)
        self.assertNotIn("bimodal_sep_x100", s.f)
        # 6 passes: Mann-Kendall runs, the gap test (8) does not
        log = companion([*BARE, "runs=6", "samples=none"])
        s = summary(log)
        self.assertIn(s.f["series"], ("ok", "drift"))
        self.assertTrue(s.f["drift_s"].lstrip("-").isdigit(), s.f)
        self.assertNotIn("bimodal_sep_x100", s.f)
        self.assertNotIn("the record's series check said", report(log))


if __name__ == "__main__":
    unittest.main()

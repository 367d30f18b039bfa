# SPDX-License-Identifier: GPL-2.0-only
"""The companion's pmu= (hosted/perf.c, perf_event_open): the same config
fields and pmu.EVENT samples as the kernel's, read by report and parse.
Where the host exposes a PMU every counted event has a positive count per
fault and per clear; where it exposes none (a VM without one, as the
machine this was written on) every event is skipped with the reason and
the run still succeeds.  Correctness only."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from hzlib import counters, paths, records, results  # noqa: E402

EXE = paths.COMPANION
EVENTS = ["instructions", "cycles"]
# Linux registers its core PMU as cpu (cpu_core on Intel's hybrids).
HAS_PMU = any(Path(f"/sys/bus/event_source/devices/{d}").exists() for d in ("cpu", "cpu_core"))


def vendor() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("vendor_id"):
            return line.split(":", 1)[1].strip()
    return ""


def run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, timeout=300)


class CompanionPmuTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        if not EXE.exists():
            raise unittest.SkipTest(f"{EXE} is missing: make build/hugezero-linux")
        # Both sides: Linux's fault (THP, one fault a folio) and the bare clear.
        cls.r = run(["bench=split", "folio=2M", "backing=thp", "size=8M", "clear=erms",
                     "order=contiguous-page", "runs=2", "warmups=0",
                     "pmu=" + ",".join(EVENTS)])
        cls.boots = records.parse(cls.r.stdout)

    def configs(self) -> list[records.Record]:
        return [x for b in self.boots for x in b.records if x.type == "config"]

    def test_runs_and_records_what_each_event_became(self) -> None:
        self.assertEqual(self.r.returncode, 0, self.r.stderr[-500:])
        self.assertEqual(len(self.boots), 1)
        self.assertTrue(self.boots[0].complete and not self.boots[0].problems,
                        self.boots[0].problems[:3])
        cs = self.configs()
        self.assertEqual({c.f["bench"] for c in cs}, {"linux-fault", "bare"})
        for c in cs:
            self.assertEqual(c.f["pmu"], ",".join(EVENTS))
            counted = [e for e in c.f["pmu_counted"].split(",") if e != "none"]
            skip = counters.skipped(c.f)
            # Every event asked for is either counted or skipped with a reason.
            self.assertEqual(sorted(counted + list(skip)), sorted(EVENTS), c.f)
            self.assertTrue(all(skip.values()), skip)
            if not HAS_PMU:
                self.assertEqual(counted, [])
                for ev in EVENTS:
                    self.assertEqual(skip[ev], "perf_event_open: no hardware PMU exposed "
                                     "by this host (ENOENT)")
        summ = [x for b in self.boots for x in b.records if x.type == "summary"]
        self.assertTrue(summ and all(s.f["status"] == "ok" for s in summ),
                        [s.f for s in summ])

    def test_samples_where_counted(self) -> None:
        samples = [x for b in self.boots for x in b.records
                   if x.type == "samples" and x.f["kind"].startswith("pmu.")]
        cs = self.configs()
        counted = {(c.int("cfg"), e) for c in cs
                   for e in c.f["pmu_counted"].split(",") if e != "none"}
        if not HAS_PMU:
            self.assertEqual(samples, [], "no PMU, no pmu.* samples")
            self.assertEqual(counted, set())
            self.assertIn("pmu: skip instructions: perf_event_open: no hardware PMU",
                          self.r.stderr)
            return
        got = {(s.int("cfg"), s.f["kind"][4:]) for s in samples}
        self.assertEqual(got, counted)
        rows = [r for r in results.rows(self.boots) if r["status"] == "ok"]
        for r in rows:
            for ev in r["pmu"].split(","):
                if f"pmu.{ev}_per_fault" in r:
                    self.assertGreater(r[f"pmu.{ev}_per_fault"], 0, (r["bench"], ev))
        for s in samples:
            v = [int(x) for x in s.f["v"].split(",")]
            self.assertTrue(all(x > 0 for x in v), (s.f["kind"], v))

    def test_report_and_parse_read_it(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            log = Path(d) / "pmu.log"
            log.write_text(self.r.stdout)
            rep = subprocess.run([sys.executable, str(ROOT / "scripts" / "hugezero"), "report",
                                  str(log)], capture_output=True, text=True, timeout=120)
            csv = subprocess.run([sys.executable, str(ROOT / "scripts" / "hugezero"), "parse",
                                  str(log), "--format", "csv"], capture_output=True, text=True,
                                 timeout=120)
        self.assertEqual((rep.returncode, csv.returncode), (0, 0), rep.stderr + csv.stderr)
        self.assertIn("counters around each clear (pmu=)", rep.stdout)
        # A linux-fault row's counters bracket the whole fault: said once.
        self.assertEqual(rep.stdout.count("bench=linux-fault rows: around the whole fault"), 1)
        for name in ("linux.2M.thp", "bare.2M.erms.contiguous-page"):
            for ev in EVENTS:
                self.assertRegex(rep.stdout, rf"{re.escape(name)} +{ev} ")
        if any(c.f["pmu_counted"] != "none" for c in self.configs()):
            self.assertIn("pmu.instructions_per_fault", csv.stdout.splitlines()[0])
        if not HAS_PMU:
            self.assertIn("skipped: perf_event_open: no hardware PMU exposed by this host",
                          rep.stdout)

    def test_each_process_of_a_group_its_own(self) -> None:
        r = run(["bench=linux-fault", "cpus=0,1", "folio=2M", "backing=thp", "size=4M",
                 "runs=1", "warmups=0", "pmu=instructions"])
        self.assertEqual(r.returncode, 0, r.stderr[-300:])
        cs = [x for b in records.parse(r.stdout) for x in b.records if x.type == "config"]
        self.assertTrue(cs)
        for c in cs:
            self.assertEqual(c.f["pmu"], "instructions")
            self.assertIn(c.f["pmu_counted"], ("none", "instructions"))
            if c.f["pmu_counted"] == "none":
                self.assertIn("instructions", counters.skipped(c.f))

    def test_not_allowed_to_count_the_kernel(self) -> None:
        # exclude_kernel=0 needs perf_event_paranoid <= 1 or CAP_PERFMON:
        # as nobody, Linux refuses before it looks for a PMU.
        paranoid = int(Path("/proc/sys/kernel/perf_event_paranoid").read_text())
        if os.geteuid() != 0 or paranoid < 2 or not shutil.which("setpriv"):
            self.skipTest("needs root (to run as nobody) and perf_event_paranoid >= 2")
        r = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                            str(EXE), "bench=bare", "folio=2M", "size=4M", "clear=erms",
                            "order=contiguous-page", "runs=1", "warmups=0",
                            "pmu=" + ",".join(EVENTS)],
                           capture_output=True, text=True, timeout=120)
        if r.returncode != 0 and "Permission denied" in r.stderr:
            self.skipTest(f"nobody cannot run {EXE}")
        self.assertEqual(r.returncode, 0, r.stderr[-300:])
        (c,) = [x for b in records.parse(r.stdout) for x in b.records if x.type == "config"]
        self.assertEqual(c.f["pmu_counted"], "none")
        want = (f"perf_event_open: EACCES: needs /proc/sys/kernel/perf_event_paranoid "
                f"<= 1 (is {paranoid}) or CAP_PERFMON")
        # One reason for every event: said once, the events named together.
        self.assertEqual(c.f["pmu_skip"], f"{','.join(EVENTS)}: {want}")

    def test_events_the_vendor_lacks_skip_as_in_the_kernel(self) -> None:
        # Whatever the host exposes, the encodings are lib/pmu.c's.
        v = vendor()
        if v not in ("GenuineIntel", "AuthenticAMD", "HygonGenuine"):
            self.skipTest(f"vendor {v!r}")
        ev, why = (("l1d-loads", "Intel: not an architectural event") if v == "GenuineIntel"
                   else ("llc-misses", "AMD: no encoding for it"))
        r = run(["bench=bare", "folio=2M", "size=4M", "clear=erms", "order=contiguous-page",
                 "runs=1", "warmups=0", f"pmu=instructions,{ev}"])
        self.assertEqual(r.returncode, 0, r.stderr[-300:])
        (c,) = [x for b in records.parse(r.stdout) for x in b.records if x.type == "config"]
        self.assertEqual(counters.skipped(c.f).get(ev), why, c.f["pmu_skip"])


if __name__ == "__main__":
    unittest.main()

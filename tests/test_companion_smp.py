# SPDX-License-Identifier: GPL-2.0-only
"""The companion's cpus=: one pinned process per CPU, their records numbered
by one writer, and the group records of docs/smp.md.  Correctness only:
that every record arrives intact and the aggregates add up, never how fast
anything was."""
from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import tempfile
import unittest
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from hzlib import paths, records, report  # noqa: E402

EXE = paths.COMPANION
THP = Path("/sys/kernel/mm/transparent_hugepage/enabled")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(EXE), *args], capture_output=True, text=True,
                          timeout=120)


def thp_usable() -> bool:
    try:
        return "[never]" not in THP.read_text()
    except OSError:
        return False


def one_boot(test: unittest.TestCase, r: subprocess.CompletedProcess[str]) -> records.Boot:
    test.assertEqual(r.returncode, 0, r.stderr[-500:])
    boots = records.parse(r.stdout)
    test.assertEqual(len(boots), 1)
    test.assertEqual(boots[0].problems, [], "damaged records")
    test.assertTrue(boots[0].complete)
    return boots[0]


def of_type(boot: records.Boot, rtype: str) -> list[records.Record]:
    return [x for x in boot.records if x.type == rtype]


class CompanionSmpTest(unittest.TestCase):
    def setUp(self) -> None:
        self.assertTrue(EXE.exists(), f"{EXE} is missing: make build/hugezero-linux")

    def need_cpus_0_1(self) -> None:
        if not {0, 1} <= os.sched_getaffinity(0):
            self.skipTest("needs CPUs 0 and 1 online and in this process's "
                          f"affinity mask (have {sorted(os.sched_getaffinity(0))})")

    def check_group(self, boot: records.Boot, passes: int, measured: int) -> None:
        """Config records of CPUs 0 and 1 in one group; per pass an agg whose
        bytes, stime_us and utime_us are the sums of its processes'; an
        agg_summary over the measured ones."""
        configs = of_type(boot, "config")
        self.assertEqual(sorted(c.int("cpu") for c in configs), [0, 1])
        self.assertEqual({c.f["group"] for c in configs}, {"1"})
        self.assertTrue(all(c.f["cpus"] == "0-1" and c.int("ncpus") == 2 and
                            c.f["numa"] in ("none", "local") for c in configs))
        self.assertEqual(len({c.int("cfg") for c in configs}), 2, "cfg numbers not unique")
        size = {c.int("cfg"): c.int("size") for c in configs}
        by_run: dict[int, list[records.Record]] = defaultdict(list)
        for r in of_type(boot, "run"):
            self.assertIn(r.int("cfg"), size)
            self.assertIn("stime_us", r.f)
            self.assertIn("utime_us", r.f)
            by_run[r.int("run")].append(r)
        aggs = of_type(boot, "agg")
        self.assertEqual(len(aggs), passes)
        host = boot.first("host")
        assert host is not None
        if host.f["clocksource"] != "tsc":
            # The CPUs' TSCs are compared only where Linux trusts them.
            self.assertTrue(all("clocksource" in a.f.get("refused", "") for a in aggs))
            return
        for a in aggs:
            runs = by_run[a.int("run")]
            self.assertEqual(len(runs), 2, f"run {a.f['run']}: one run record per CPU")
            self.assertEqual(a.f["group"], "1")
            self.assertEqual(a.f["pass"], runs[0].f["pass"])
            self.assertEqual(a.int("bytes"), sum(size.values()))
            self.assertEqual(a.int("stime_us"), sum(r.int("stime_us") for r in runs))
            self.assertEqual(a.int("utime_us"), sum(r.int("utime_us") for r in runs))
            self.assertNotIn("refused", a.f, a.f.get("refused"))
            self.assertLessEqual(a.int("start_skew_ticks"), a.int("wall_ticks"))
            self.assertLessEqual(a.int("fastest_ticks"), a.int("slowest_ticks"))
            self.assertLessEqual(a.int("slowest_ticks"), a.int("wall_ticks"))
            self.assertIn(a.int("slowest_cpu"), (0, 1))
        (summary,) = of_type(boot, "agg_summary")
        self.assertEqual(summary.f["group"], "1")
        self.assertEqual(summary.f["status"], "ok", summary.f.get("reason"))
        self.assertEqual(summary.int("runs"), measured)
        kept = [a for a in aggs if a.f["pass"] == "measure"]
        self.assertAlmostEqual(summary.int("stime_ns_mean"),
                               sum(a.int("stime_us") for a in kept) * 1000 / len(kept),
                               delta=1)
        self.assertIn("gibps_milli_mean", summary.f)
        # Each process's configuration ends in its own summary, after which
        # the group's comes: the parent waited for both.
        self.assertEqual([s.f["status"] for s in of_type(boot, "summary")], ["ok", "ok"])
        last = max(x.seq for x in of_type(boot, "summary"))
        self.assertGreater(summary.seq, last)

    def test_linux_fault_on_two_cpus(self) -> None:
        """As vm-scalability's usemem -n 2: each process faults and writes
        its own anonymous region (THP; hugetlb pages may not be reserved)."""
        self.need_cpus_0_1()
        if not thp_usable():
            self.skipTest(f"transparent huge pages are off ({THP}); "
                          "test_linux_fault_base_pages runs base pages")
        r = run("bench=linux-fault", "cpus=0,1", "folio=2M", "backing=thp",
                "size=8M", "access=write", "runs=2")
        boot = one_boot(self, r)
        host = boot.first("host")
        assert host is not None
        self.assertEqual(host.f.get("cpus"), "0-1")
        self.assertNotIn("cpu", host.f, "the parent is not pinned")
        # verify (access=write), one warm-up, two measured
        self.check_group(boot, passes=4, measured=2)

    def test_linux_fault_base_pages(self) -> None:
        self.need_cpus_0_1()
        r = run("bench=linux-fault", "cpus=0,1", "folio=4K", "backing=base",
                "size=1M", "access=write", "runs=2")
        boot = one_boot(self, r)
        self.check_group(boot, passes=4, measured=2)
        self.check_report(boot, r.stdout)

    def check_report(self, boot: records.Boot, log: str) -> None:
        """report: each process's own stime and utime (its run records'
        getrusage, mean per measured pass, ms) and the seed-shaped sums."""
        out = io.StringIO()
        report.write(records.parse(log), out)
        text = out.getvalue()
        runs = defaultdict(list)
        cpu_of = {c.int("cfg"): c.f["cpu"] for c in of_type(boot, "config")}
        for x in of_type(boot, "run"):
            if x.f["pass"] == "measure":
                runs[cpu_of[x.int("cfg")]].append(x)
        for cpu, rs in runs.items():
            st = sum(x.int("stime_us") for x in rs) / len(rs) / 1e3
            ut = sum(x.int("utime_us") for x in rs) / len(rs) / 1e3
            line = next(ln for ln in text.splitlines()
                        if ln.split()[:2] == ["1", cpu] and "linux" in ln)
            # Printed to 0.01 ms: a mean on a rounding tie (0.295) may print
            # either way, as report computes it in seconds, so compare values.
            m = re.search(r"\| +([\d.]+) +([\d.]+)$", line)
            self.assertIsNotNone(m, line)
            assert m is not None
            self.assertAlmostEqual(float(m.group(1)), st, delta=0.005 + 1e-9, msg=line)
            self.assertAlmostEqual(float(m.group(2)), ut, delta=0.005 + 1e-9, msg=line)
        self.assertIn("getrusage() ru_stime and ru_utime of the processes", text)
        self.assertRegex(text, r"\norder +stime \(\w+\) +utime \(\w+\) +GB/s")

    def test_bare_on_two_cpus(self) -> None:
        self.need_cpus_0_1()
        r = run("bench=bare", "cpus=0,1", "folio=2M", "size=4M", "runs=1",
                "warmups=0", "clear=rep", "order=contiguous-page")
        boot = one_boot(self, r)
        self.assertTrue(all(x.f["verify"] == "ok" for x in of_type(boot, "run")))
        self.check_group(boot, passes=1, measured=1)

    def test_llc_regions_from_sysfs_cacheinfo(self) -> None:
        """fits_llc counts every region of the group on a CPU's LLC, from
        sysfs cacheinfo (a fake tree under HUGEZERO_HOST_ROOT): CPUs 0 and
        1 on one L3, two regions each; on an L3 each, one (and no
        llc_regions field).  fits_llc follows against the L3 CPUID gives."""
        self.need_cpus_0_1()
        for shared, regions in (("0-1", "2"), (None, None)):
            with tempfile.TemporaryDirectory() as root:
                for cpu in (0, 1):
                    for i, (level, kind) in enumerate((("1", "Data"), ("1", "Instruction"),
                                                       ("2", "Unified"), ("3", "Unified"))):
                        d = Path(root, f"sys/devices/system/cpu/cpu{cpu}/cache/index{i}")
                        d.mkdir(parents=True)
                        (d / "level").write_text(level + "\n")
                        (d / "type").write_text(kind + "\n")
                        (d / "shared_cpu_list").write_text(
                            (shared if level == "3" and shared else str(cpu)) + "\n")
                r = subprocess.run([str(EXE), "bench=bare", "cpus=0,1", "folio=2M",
                                    "size=4M", "runs=1", "warmups=0", "clear=rep",
                                    "order=contiguous-page"],
                                   capture_output=True, text=True, timeout=120,
                                   env={**os.environ, "HUGEZERO_HOST_ROOT": root})
            boot = one_boot(self, r)
            cfgs = of_type(boot, "config")
            self.assertEqual(len(cfgs), 2)
            for c in cfgs:
                self.assertEqual(c.f.get("llc_regions"), regions, c.f)
                want = int(0 < c.int("llc") and c.int("size") * int(regions or 1) <
                           4 * c.int("llc"))
                self.assertEqual(c.int("fits_llc"), want, c.f)

    def test_cpu_not_there_is_left_out(self) -> None:
        r = run("bench=linux-fault", "cpus=0,99", "folio=4K", "backing=base",
                "size=64K", "runs=1", "warmups=0")
        self.assertIn("cpu 99 is not online", r.stderr)
        self.assertIn("left out", r.stderr)
        boot = one_boot(self, r)
        configs = of_type(boot, "config")
        self.assertEqual([(c.int("cpu"), c.f["cpus"], c.int("ncpus")) for c in configs],
                         [(0, "0", 1)])
        self.assertEqual(len(of_type(boot, "agg_summary")), 1)

    def test_no_cpu_left_is_an_error(self) -> None:
        r = run("bench=linux-fault", "cpus=99,100", "folio=4K", "size=64K")
        self.assertEqual(r.returncode, 2)
        self.assertIn("none of these CPUs can run here", r.stderr)
        self.assertEqual(r.stdout, "")

    def test_cpu_and_cpus_refused(self) -> None:
        r = run("bench=linux-fault", "cpus=0", "cpu=0", "folio=4K", "size=64K")
        self.assertEqual(r.returncode, 2)
        self.assertIn("cpu= pins one process; cpus= runs one per CPU", r.stderr)
        self.assertEqual(r.stdout, "")

    def test_cpus_list_too_long_for_records_refused(self) -> None:
        # Every other CPU of 1024, written out and again: 4096+ characters.
        evens = ",".join(str(c) for c in range(0, 1024, 2))
        long = ",".join([evens] * 3)
        self.assertGreaterEqual(len(long), 4096)
        r = run("bench=linux-fault", f"cpus={long}", "folio=4K", "size=64K")
        self.assertEqual(r.returncode, 2)
        self.assertIn("cpus= lists its CPUs in 2004 characters, more than the 127 "
                      "records keep", r.stderr)
        self.assertEqual(r.stdout, "")

    def test_scale_step_too_large_is_skipped(self) -> None:
        r = run("bench=linux-fault", "cpus=0", "scale=1,2", "folio=4K",
                "backing=base", "size=64K", "runs=1", "warmups=0")
        self.assertIn("scale=2: cpus= has 1 CPUs that can run: step skipped", r.stderr)
        boot = one_boot(self, r)
        self.assertEqual([c.f["cpus"] for c in of_type(boot, "config")], ["0"])

    def test_numa_remote_on_one_node_skips(self) -> None:
        if Path("/sys/devices/system/node/node1").exists():
            self.skipTest("this machine has more than one NUMA node")
        r = run("bench=linux-fault", "cpus=0", "numa=remote", "folio=4K",
                "backing=base", "size=64K")
        boot = one_boot(self, r)
        (s,) = of_type(boot, "summary")
        self.assertEqual(s.f["status"], "skip")
        self.assertIn("one NUMA node", s.f["reason"])
        (g,) = of_type(boot, "agg_summary")
        self.assertEqual(g.f["status"], "skip")
        (c,) = of_type(boot, "config")
        self.assertEqual(c.f["numa"], "none")


if __name__ == "__main__":
    unittest.main()

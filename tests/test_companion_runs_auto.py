# SPDX-License-Identifier: GPL-2.0-only
"""The companion's runs=auto (docs/statistics.md, "runs=auto: the
contract"): bench=bare's passes go on until the rule stops them, the
records say which limit did, and report reads them; the limits without
runs=auto are refused.  With cpus= the processes agree after each round
("runs=auto in a group of CPUs"): every CPU's configurations run the same
rounds.  Correctness only: no speed is asserted."""
from __future__ import annotations

import os
import subprocess
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

from hzlib import paths, records  # noqa: E402
from qemu_bench_cases import auto_stopped  # noqa: E402
from qemu_cases import report_log  # noqa: E402

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
        rep = report_log(r.stdout)
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
                           (["runs=auto", "precision=0"], "is not a percentage")):
            r = run(["bench=bare", *line])
            self.assertEqual(r.returncode, 2, line)
            self.assertIn(said, r.stderr)
            self.assertEqual(r.stdout, "")


class RunsAutoGroup(unittest.TestCase):
    """cpus=0-1: two processes, their passes in step."""

    def setUp(self) -> None:
        self.assertTrue(EXE.exists(), f"{EXE} is missing: make build/hugezero-linux")
        if not {0, 1} <= os.sched_getaffinity(0):
            self.skipTest("needs CPUs 0 and 1 online and in this process's "
                          f"affinity mask (have {sorted(os.sched_getaffinity(0))})")

    def same_rounds(self, recs: list[records.Record], members: int, max_runs: int) -> None:
        """Every CPU's every configuration stopped after the same round by
        one rule, each of its rounds recorded, an agg record per measured
        round of each group and the group's agg_summary naming the rule."""
        self.assertIsNone(auto_stopped(recs, max_runs))
        cfgs = [r for r in recs if r.type == "config"]
        self.assertEqual(sorted({c.int("cpu") for c in cfgs}), [0, 1])
        self.assertEqual(len(cfgs), 2 * members)
        summ = {r.f["cfg"]: r for r in recs if r.type == "summary"}
        asum = {r.f["group"]: r for r in recs if r.type == "agg_summary"}
        self.assertEqual(len(asum), members)
        for g, a in asum.items():
            ends = {(summ[c.f["cfg"]].f["runs"], summ[c.f["cfg"]].f["stopped_by"])
                    for c in cfgs if c.f["group"] == g}
            self.assertEqual(len(ends), 1, f"group {g}'s CPUs stopped apart: {ends}")
            n, stop = ends.pop()
            self.assertEqual((a.f["runs"], a.f.get("stopped_by")), (n, stop), a.f)
            aggs = [r for r in recs if r.type == "agg" and r.f["group"] == g
                    and r.f["pass"] == "measure"]
            self.assertEqual(len(aggs), int(n))

    def test_bare_interleaved(self) -> None:
        r = run([*BARE, "clear=erms,rep", "size=4M", "precision=5%", "max_runs=6",
                 "cpus=0-1"])
        self.assertEqual(r.returncode, 0, r.stderr[-500:])
        recs = parsed(r)
        self.same_rounds(recs, 2, 6)
        cfgs = [c for c in recs if c.type == "config"]
        self.assertEqual({c.f["interleave"] for c in cfgs}, {"on"})
        # the measured passes of each CPU come round by round
        for cpu in ("0", "1"):
            ids = {c.f["cfg"] for c in cfgs if c.f["cpu"] == cpu}
            rounds = [x.int("round") for x in recs if x.type == "run"
                      and x.f["cfg"] in ids and x.f["pass"] == "measure"]
            self.assertEqual(rounds, sorted(rounds), f"cpu {cpu}: {rounds}")

    def test_interleave_runs_n(self) -> None:
        """interleave=on with cpus= and runs=N: each process runs the
        round group in the order seed= draws from the CPUs' group, the
        same on both, each pass's agg record under its own group."""
        r = run([*BARE[:-1], "clear=erms,rep,movnti", "size=4M", "runs=3", "cpus=0-1"])
        self.assertEqual(r.returncode, 0, r.stderr[-500:])
        recs = parsed(r)
        cfgs = [c for c in recs if c.type == "config"]
        self.assertEqual({c.f["interleave"] for c in cfgs}, {"on"})
        orders = {}
        for cpu in ("0", "1"):
            mine = {c.f["cfg"]: c.f["group"] for c in cfgs if c.f["cpu"] == cpu}
            ran = [x for x in recs if x.type == "run" and x.f["cfg"] in mine
                   and x.f["pass"] == "measure"]
            self.assertEqual([(x.f["round"], x.f["slot"]) for x in ran],
                             [(str(k), str(i)) for k in range(3) for i in range(3)])
            orders[cpu] = [mine[x.f["cfg"]] for x in ran]
        self.assertEqual(orders["0"], orders["1"], "the CPUs ran different orders")
        aggs = [x.f["group"] for x in recs if x.type == "agg" and x.f["pass"] == "measure"]
        self.assertEqual(aggs, orders["0"], "agg records under each pass's own group")
        asum = [x for x in recs if x.type == "agg_summary"]
        self.assertEqual(sorted(a.f["group"] for a in asum), sorted(set(orders["0"])))
        # refused: where Linux's clocksource is not the TSC (a VM)
        self.assertTrue(all(a.f["status"] in ("ok", "refused") and a.f["runs"] == "3"
                            for a in asum), [a.f for a in asum])

    def test_bare_blocked(self) -> None:
        r = run([*BARE, "size=4M", "precision=5%", "max_runs=5", "cpus=0-1",
                 "interleave=off"])
        self.assertEqual(r.returncode, 0, r.stderr[-500:])
        self.same_rounds(parsed(r), 1, 5)

    def test_linux_fault(self) -> None:
        # THP alone: hugetlb is mapped MAP_NORESERVE as perf bench does,
        # and modules beside this one draw on the same pool, so a fault
        # there can meet an empty pool (SIGBUS) on a loaded machine.
        r = run(["bench=linux-fault", "folio=2M", "size=4M", "runs=auto", "max_runs=5",
                 "warmups=0", "samples=none", "cpus=0-1", "backing=thp"])
        self.assertEqual(r.returncode, 0, r.stderr[-500:])
        recs = parsed(r)
        groups = len([x for x in recs if x.type == "agg_summary"])
        self.assertGreater(groups, 0, "no backing ran")
        self.same_rounds(recs, groups, 5)

    def test_report_reads_every_cpu(self) -> None:
        r = run([*BARE, "size=4M", "precision=5%", "max_runs=4", "cpus=0-1"])
        self.assertEqual(r.returncode, 0, r.stderr[-500:])
        rep = report_log(r.stdout)
        self.assertEqual(rep.returncode, 0, rep.stderr)
        self.assertEqual(rep.stdout.count("runs=auto precision=5%: stopped by "), 2,
                         rep.stdout[-800:])
        # and under the group's aggregate, the rule that stopped both
        self.assertRegex(rep.stdout, r"runs=auto: every CPU stopped by "
                         r"(precision|max_runs) after the same \d+ rounds")
        self.assertNotIn("NOT within precision", rep.stdout)


if __name__ == "__main__":
    unittest.main()

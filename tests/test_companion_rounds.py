# SPDX-License-Identifier: GPL-2.0-only
"""The companion's round groups (docs/companion.md, "Round groups"):
interleave=on runs a folio size's bare matrix round by round and the
split's fault in the bare clearing's group; interleave=off keeps the
blocked order; split pairs the overhead by round, and the plain loops
run after each measured round (--round-hook) pair with the companion's.
Correctness only: no speed is asserted."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from hzlib import paths, records  # noqa: E402

EXE = paths.COMPANION
PLAIN = paths.BUILD / "hugezero-plain"
MATRIX = ["bench=bare", "folio=2M", "size=8M", "clear=erms,rep",
          "order=contiguous-page,converging-page", "runs=3", "warmups=1", "samples=none"]
SPLIT = ["bench=split", "folio=2M", "size=8M", "backing=hugetlb", "clear=erms,rep",
         "order=converging-page,contiguous-page", "runs=4", "warmups=1"]
ROOT_ONLY = "hugetlb pages are reserved only as root"


def run(args: list[str], hook: str | None = None) -> subprocess.CompletedProcess[str]:
    pre = ["--round-hook", hook] if hook else []
    return subprocess.run([str(EXE), *pre, *args], capture_output=True, text=True,
                          timeout=300)


def parsed(r: subprocess.CompletedProcess[str]) -> list[records.Record]:
    boots = records.parse(r.stdout)
    assert len(boots) == 1 and boots[0].complete and not boots[0].problems, r.stderr
    return boots[0].records


def split_text(log: str, plain: str | None = None) -> str:
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "bench.log"
        p.write_text(log)
        extra = []
        if plain is not None:
            (Path(d) / "plain.log").write_text(plain)
            extra = ["--plain", str(Path(d) / "plain.log")]
        r = subprocess.run([sys.executable, str(ROOT / "scripts" / "hugezero"), "split",
                            str(p), *extra], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


class RoundGroups(unittest.TestCase):
    def setUp(self) -> None:
        self.assertTrue(EXE.exists(), f"{EXE} is missing: make build/hugezero-linux")

    def measured(self, recs: list[records.Record]) -> list[records.Record]:
        return [x for x in recs if x.type == "run" and x.f["pass"] == "measure"]

    def test_interleave_on_runs_rounds_each_member_once(self) -> None:
        r = run(MATRIX)
        self.assertEqual(r.returncode, 0, r.stderr)
        recs = parsed(r)
        cfgs = [x for x in recs if x.type == "config"]
        self.assertEqual(len(cfgs), 4)
        self.assertEqual({c.f["interleave"] for c in cfgs}, {"on"})
        self.assertEqual({c.f["round_group"] for c in cfgs}, {cfgs[0].f["cfg"]})
        runs = [x for x in recs if x.type == "run"]
        self.assertTrue(all(x.f["verify"] == "ok" for x in runs))
        self.assertTrue(all(s.f["status"] == "ok" for s in recs if s.type == "summary"))
        rounds: dict[int, list[records.Record]] = {}
        for x in self.measured(recs):
            rounds.setdefault(x.int("round"), []).append(x)
        self.assertEqual(sorted(rounds), [0, 1, 2])
        for k, xs in rounds.items():
            # each member once a round, slots 0..n-1 in the order run
            self.assertEqual(sorted(x.f["cfg"] for x in xs), sorted(c.f["cfg"] for c in cfgs))
            self.assertEqual([x.int("slot") for x in xs], [0, 1, 2, 3], k)
        self.assertEqual(r.stderr.count("ok   bare.2M."), 4, r.stderr)

    def test_interleave_off_is_blocked(self) -> None:
        r = run([*MATRIX, "interleave=off"])
        self.assertEqual(r.returncode, 0, r.stderr)
        recs = parsed(r)
        self.assertEqual({c.f["interleave"] for c in recs if c.type == "config"}, {"off"})
        self.assertFalse(any("round_group" in c.f for c in recs if c.type == "config"))
        runs = [x for x in recs if x.type == "run"]
        self.assertFalse(any("round" in x.f for x in runs))
        order = [x.f["cfg"] for x in runs]
        # every pass of a configuration before the next one's
        self.assertEqual(order, sorted(order, key=int))

    def test_split_group_pairs_fault_and_bare(self) -> None:
        if os.geteuid() != 0:
            self.skipTest(ROOT_ONLY)
        r = run(SPLIT)
        self.assertEqual(r.returncode, 0, r.stderr)
        recs = parsed(r)
        cfgs = [x for x in recs if x.type == "config"]
        lead = cfgs[0]
        self.assertEqual((lead.f["bench"], lead.f["backing"]), ("linux-fault", "hugetlb"))
        group = [c for c in cfgs if c.f.get("round_group") == lead.f["cfg"]]
        self.assertEqual({c.f["bench"] for c in group}, {"linux-fault", "bare"})
        self.assertTrue(all(c.f["backing"] == "hugetlb" for c in group))
        # Linux's own primitive (erms or rep) in both orders, and erms's
        # contiguous-page (the plain loops'): 3, or 4 where rep is Linux's
        self.assertIn(len(group), (3, 4))
        self.assertTrue(all(s.f["status"] == "ok" for s in recs if s.type == "summary"))
        text = split_text(r.stdout)
        self.assertIn("Linux's overhead per fault (hugetlb)", text)
        self.assertIn("paired over 4 rounds", text)

    def test_each_backing_leads_its_own_for_split_runs(self) -> None:
        """hugetlb's fault leads the bare matrix's first group over the
        hugetlb region, THP's a group of Linux's own primitive over a THP
        region, each for split_runs= rounds (their config records say so)
        while the rest of the matrix runs runs=: split pairs both
        overheads by round, each with its own memory kind, and gives the
        median's interval."""
        if os.geteuid() != 0:
            self.skipTest(ROOT_ONLY)
        args = [*SPLIT, "backing=hugetlb,thp", "clear=all", "order=all", "split_runs=7"]
        r = run(args)
        self.assertEqual(r.returncode, 0, r.stderr)
        recs = parsed(r)
        cfgs = [x for x in recs if x.type == "config"]
        leads = [c for c in cfgs if c.f["bench"] == "linux-fault"]
        self.assertEqual([c.f["backing"] for c in leads], ["hugetlb", "thp"])
        ran = {s.f["cfg"] for s in recs if s.type == "summary" and s.f["status"] == "ok"}
        n = {c: 0 for c in ran}
        for x in self.measured(recs):
            n[x.f["cfg"]] += 1
        led = set()
        for lead in leads:
            group = [c for c in cfgs if c.f.get("round_group") == lead.f["cfg"]]
            self.assertEqual({c.f["backing"] for c in group}, {lead.f["backing"]})
            self.assertEqual({n[c.f["cfg"]] for c in group if c.f["cfg"] in ran}, {7})
            self.assertEqual({c.f["runs"] for c in group}, {"7"})
            led |= {c.f["cfg"] for c in group}
        # THP's: its fault and Linux's own primitive in the five orders.
        thp = [c for c in cfgs if c.f.get("round_group") == leads[1].f["cfg"]]
        self.assertEqual(len(thp), 6)
        self.assertEqual(len({c.f["clear"] for c in thp[1:]}), 1)
        # hugetlb's: its fault, Linux's own in the five orders, erms's and
        # clzero's contiguous-page (one of them Linux's own where it is erms).
        self.assertIn(len(led) - 6, (7, 8))
        self.assertEqual({v for c, v in n.items() if c not in led}, {4})
        self.assertEqual({s.f["status"] for s in recs if s.type == "summary"} - {"ok", "skip"},
                         set())
        text = split_text(r.stdout)
        for backing in ("hugetlb", "thp"):
            part = text[text.index(f"Linux's overhead per fault ({backing})"):]
            self.assertIn("paired over 7 rounds", part.split("\n")[1])
            self.assertIn("median of the 7 rounds' differences", part)

    def test_split_runs_refused_elsewhere(self) -> None:
        for extra, why in ((["bench=bare", "split_runs=5"], "means nothing"),
                           (["bench=split", "runs=auto", "split_runs=5"], "runs=auto decides"),
                           (["bench=split", "interleave=off", "split_runs=5"], "no fault leads"),
                           (["bench=split", "cpus=0", "split_runs=5"], "no fault leads")):
            r = run(extra)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn(why, r.stderr)

    def test_plain_loops_pair_by_round(self) -> None:
        if os.geteuid() != 0:
            self.skipTest(ROOT_ONLY)
        self.assertTrue(PLAIN.exists(), f"{PLAIN} is missing: make build/hugezero-plain")
        with tempfile.TemporaryDirectory() as d:
            plain = Path(d) / "plain.log"
            r = run(SPLIT, f"{PLAIN} 8 >> {plain}")
            self.assertEqual(r.returncode, 0, r.stderr)
            lines = plain.read_text().splitlines()
        recs = parsed(r)
        lead = next(x for x in recs if x.type == "config")
        # one plain line after each measured round of the fault's group
        self.assertEqual([ln.split(" round=")[1].split()[0] for ln in lines],
                         ["0", "1", "2", "3"])
        self.assertTrue(all(f"round_group={lead.f['cfg']} " in ln for ln in lines))
        self.assertNotIn("--round-hook", r.stderr)
        text = split_text(r.stdout, "\n".join(lines) + "\n")
        harness = text[text.index("harness check"):]
        self.assertIn("interval paired by round", harness)
        self.assertIn("mmap + touch, hugetlb 2M", harness)
        self.assertEqual(harness.count("(paired over 4 rounds)"), 2, harness)

    def test_a_hook_that_never_runs_is_said(self) -> None:
        """bench=bare has no split group: the hook cannot run, and the
        companion says so rather than leave the harness check empty."""
        r = run(MATRIX, "exit 3")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("--round-hook never ran", r.stderr)
        self.assertNotIn("did not exit 0", r.stderr)

    def test_plain_lines_without_rounds_read_as_before(self) -> None:
        r = run(MATRIX)
        text = split_text(r.stdout, "plain cpu=1 backing=hugetlb size=8388608 "
                          "erms_2m_gibps=10.0 touch_hugetlb_2m_gibps=5.0\n")
        self.assertIn("mean of 1 runs around the companion", text)


if __name__ == "__main__":
    unittest.main()

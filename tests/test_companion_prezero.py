# SPDX-License-Identifier: GPL-2.0-only
"""The companion's prezero=request: Li Zhe's zeroable_hugepages driven
through a fake sysfs tree (HUGEZERO_HOST_ROOT: this host's kernel has no
such file), and the skips where it cannot run.  Correctness only."""
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
NODE = "sys/devices/system/node/node0/hugepages/hugepages-2048kB/zeroable_hugepages"


def run(args: list[str], root: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if root:
        env["HUGEZERO_HOST_ROOT"] = root
    return subprocess.run([str(EXE), *args], capture_output=True, text=True,
                          timeout=120, env=env)


def configs(out: str) -> dict[str, tuple[records.Record, list[records.Record], records.Record]]:
    (b,) = records.parse(out)
    cfg = {r.int("cfg"): r for r in b.records if r.type == "config"}
    runs = {k: [r for r in b.records if r.type == "run" and r.int("cfg") == k] for k in cfg}
    summ = {r.int("cfg"): r for r in b.records if r.type == "summary"}
    return {c.f["name"]: (c, runs[k], summ[k]) for k, c in cfg.items()}


class CompanionPrezeroTest(unittest.TestCase):
    def setUp(self) -> None:
        self.assertTrue(EXE.exists(), f"{EXE} is missing: make build/hugezero-linux")

    def test_request_through_a_fake_zeroable_file(self) -> None:
        with tempfile.TemporaryDirectory() as root:
            f = Path(root) / NODE
            f.parent.mkdir(parents=True)
            f.write_text("9\n")
            r = run(["bench=linux-fault", "folio=2M", "size=8M", "runs=1",
                     "warmups=0", "backing=hugetlb", "prezero=request"], root)
            cs = configs(r.stdout)
            c, runs, s = cs["request.linux.2M.hugetlb"]
            if s.f["status"] == "skip" and "hugetlb" in s.f.get("reason", ""):
                self.skipTest(f"no hugetlb pages here: {s.f['reason']}")
            self.assertEqual(s.f["status"], "ok", s.f)
            self.assertEqual(c.f["prezero"], "request")
            self.assertEqual(c.f["prezero_n"], "all")
            for x in runs:
                self.assertEqual(x.f["prezero_by"], "request")
                # The file said 9 could be zeroed: the region's 4 asked for.
                self.assertEqual(x.int("prezero_folios"), 4)
                self.assertNotIn("prezeroed_faults", x.f, "Linux does not say which")
            self.assertEqual(f.read_text(), "4\n", "the request written to the file")

    def test_skips_and_refusals(self) -> None:
        with tempfile.TemporaryDirectory() as root:
            r = run(["bench=linux-fault", "folio=2M", "size=4M", "runs=1",
                     "warmups=0", "backing=hugetlb,thp", "prezero=none,request"], root)
            cs = configs(r.stdout)
            self.assertIn("no zeroable_hugepages for 2048kB pages",
                          cs["request.linux.2M.hugetlb"][2].f["reason"])
            self.assertIn("thp pages have none", cs["request.linux.2M.thp"][2].f["reason"])
            self.assertEqual(cs["none.linux.2M.thp"][0].f["prezero"], "none")
        for args, want in ((["bench=linux-fault", "prezero=idle"], "are the kernel's"),
                           (["bench=bare", "prezero=request"], "bench=linux-fault")):
            r = run(args)
            self.assertNotEqual(r.returncode, 0)
            self.assertIn(want, r.stderr + r.stdout)


if __name__ == "__main__":
    unittest.main()

# SPDX-License-Identifier: GPL-2.0-only
"""order=tree of Debian's linux-source-6.12 and -7.2 (docs/linux-tree.md,
"order=tree"): built with make LINUX=, run in QEMU and the companion's
bare mode, verified and recorded.  A module of its own so that it runs
beside test_linux_tree (tests/run.py's slow modules).  Trees that are not
unpacked skip naming the package (fail under HZ_REQUIRE_LINUX_SOURCE=1)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

from hzlib import paths  # noqa: E402
from test_linux_tree import BOTH, bare, boot_line, build, record  # noqa: E402


class DebianTreeZero(unittest.TestCase):
    """order=tree: Debian's 6.12 and 7.2 trees' own folio_zero_user(),
    compiled over lib/tree_shim.h, in the kernel (2M and 1G, none and
    full) and the companion's bare mode, every folio verified, each
    configuration recorded with the tree's version, entry and sha."""

    def tree(self, version: str) -> Path:
        t = paths.BUILD / f"linux-source-{version}"
        if not (t / "mm/memory.c").is_file():
            why = f"{t}/mm/memory.c is not unpacked (package linux-source-{version})"
            if os.environ.get("HZ_REQUIRE_LINUX_SOURCE") == "1":
                self.fail(f"HZ_REQUIRE_LINUX_SOURCE=1, but {why}")
            self.skipTest(f"{why}: scripts/setup.sh --linux-source")
        return t

    def check(self, version: str) -> None:
        tree = self.tree(version)
        r, out = build(tree, f"linux-{version}")
        self.assertEqual(r.returncode, 0, r.stdout[-1500:] + r.stderr[-1500:])
        m = json.loads((out / "linux-tree" / "tree_memory.json").read_text())
        self.assertIn(f"order=tree: {m['entry']} over lib/tree_shim.h", r.stdout)
        log = boot_line(out / "hugezero.elf", [
            "bench=fault", *BOTH, "clear=erms", "order=tree", "preempt=none,full",
            "runs=1", "warmups=0", "selftest=off"])
        err = bare(out, "erms", *BOTH, "order=tree")
        for folio in ("2M", "1G"):
            for model in ("none", "full"):
                self.assertRegex(log, rf"ok \d+ {model}\.{folio}\.erms\.tree\r?\n")
            self.assertIn(f"ok   bare.{folio}.erms.tree", err)
        for text in (log, err):
            b = record(text, "boot")
            self.assertIn(f" linux_tree_entry={m['entry']} linux_tree_entry_sha256={m['sha256']}",
                          b)
            self.assertIn(f" linux_tree={m['version']} ", b)
            record(text, "config", " order=tree ",
                   f" tree_entry={m['entry']} tree_entry_sha256={m['sha256']} ")
        runs = re.findall(r"@hz1 \d+ run [^\n]*", log + err)
        self.assertEqual(len(runs), 6)
        self.assertTrue(all(" verify=ok " in r for r in runs), runs)

    def test_6_12(self) -> None:
        self.check("6.12")

    def test_7_2(self) -> None:
        self.check("7.2")

    def test_without_a_tree_refused(self) -> None:
        """A build with no tree's zeroing refuses order=tree, saying how."""
        r = subprocess.run([str(paths.BUILD / "hugezero-linux"), "bench=bare",
                            "order=tree"], capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("order=tree runs a Linux tree's own folio_zero_user(), and this "
                      "build has none: build with make LINUX=DIR", r.stderr)


if __name__ == "__main__":
    unittest.main()

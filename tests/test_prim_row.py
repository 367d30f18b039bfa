# SPDX-License-Identifier: GPL-2.0-only
"""A primitive is one row of lib/prims.h and one routine in clear_body.inc.

Built with make HZ_TEST_PRIM=1 (into build/test-prim), the test row's
primitive, test-stosq, must be accepted by clear=, be part of clear=all,
appear in the help text, the config records, report, compare, parse and
plot, in the kernel (booted in QEMU) and in the companion -- with its name
written nowhere else in the sources."""
from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from hzlib import image, qemu, records  # noqa: E402

NAME, ROUTINE = "test-stosq", "clear_test_stosq"
BUILD = ROOT / "build" / "test-prim"
HZ = [sys.executable, str(ROOT / "scripts" / "hugezero")]


def sources() -> list[Path]:
    """Every source outside tests/ and docs/ that names things."""
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.split()
    return [ROOT / f for f in out if not f.startswith(("tests/", "docs/"))
            and f.endswith((".c", ".h", ".asm", ".inc", ".py", "Makefile", ".cfg"))
            or f == "scripts/hugezero"]


class PrimRow(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        r = subprocess.run(["make", "--no-print-directory", "HZ_TEST_PRIM=1",
                            f"BUILD={BUILD}", f"{BUILD}/hugezero.elf",
                            f"{BUILD}/hugezero-linux"], cwd=ROOT,
                           capture_output=True, text=True)
        if r.returncode:
            raise AssertionError(f"make HZ_TEST_PRIM=1 failed:\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
        cls.tmp = tempfile.TemporaryDirectory(prefix="hz-prim-")
        cls.dir = Path(cls.tmp.name)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def test_named_once(self) -> None:
        where = {str(p.relative_to(ROOT)) for p in sources()
                 if NAME in p.read_text(errors="replace")}
        self.assertEqual(where, {"lib/prims.h"})
        where = {str(p.relative_to(ROOT)) for p in sources()
                 if ROUTINE in p.read_text(errors="replace")}
        self.assertEqual(where, {"lib/prims.h", "arch/x86_64/clear_body.inc"})
        # The other names too: each primitive's clear= word in one file
        # (erms, avx2, clzero are also CPUID flags' names, /proc/cpuinfo's,
        # which the machine record lists: another thing, not checked).
        for word in ("avx2-nt", "avx512-nt", "movntdq", "movnti"):
            where = {str(p.relative_to(ROOT)) for p in sources()
                     if re.search(rf'"{word}"', p.read_text(errors="replace"))}
            self.assertEqual(where, {"lib/prims.h"}, word)

    def companion(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(BUILD / "hugezero-linux"), *args],
                              capture_output=True, text=True, timeout=300)

    def test_companion(self) -> None:
        r = self.companion("clear=")
        self.assertIn(NAME, r.stderr, "the help text")
        r = self.companion("bench=bare", "folio=2M", "size=4M", "clear=all",
                           "order=contiguous-page", "runs=1", "warmups=0")
        self.assertEqual(r.returncode, 0, r.stderr[-500:])
        cfgs = [x for b in records.parse(r.stdout) for x in b.records
                if x.type == "config" and x.f.get("clear") == NAME]
        self.assertEqual(len(cfgs), 1, "clear=all has it once")
        log = self.dir / "companion.log"
        log.write_text(r.stdout)
        self.tools(log, "bare")

    def test_kernel(self) -> None:
        iso = image.build_iso(["bench=fault", "folio=2M", "size=4M", "clear=all",
                               "order=contiguous-page", "runs=1", "warmups=0",
                               "selftest=off"], elf=BUILD / "hugezero.elf",
                              cache=BUILD / "images")
        log = self.dir / "kernel.log"
        res = qemu.boot(qemu.BootSpec(iso, timeout=240), log_file=log)
        ok, why = qemu.verdict(res)
        self.assertTrue(ok, why)
        self.assertRegex(res.log, rf"ok \d+ 2M\.{NAME}\.contiguous-page")
        self.tools(log, "fault")

    def tools(self, log: Path, bench: str) -> None:
        rep = subprocess.run([*HZ, "report", str(log)], capture_output=True, text=True)
        self.assertEqual(rep.returncode, 0, rep.stderr)
        self.assertIn(NAME, rep.stdout, "report")
        csv = subprocess.run([*HZ, "parse", str(log), "--format", "csv"],
                             capture_output=True, text=True)
        self.assertIn(f",{NAME},", csv.stdout, "parse")
        cmp = subprocess.run([*HZ, "compare", str(log), "--a", f"clear={NAME}",
                              "--b", "clear=rep"], capture_output=True, text=True)
        self.assertEqual(cmp.returncode, 0, cmp.stdout[-800:] + cmp.stderr[-800:])
        self.assertIn(NAME, cmp.stdout, "compare")
        out = self.dir / f"plot-{bench}"
        plot = subprocess.run([*HZ, "plot", str(log), "-o", str(out)],
                              capture_output=True, text=True)
        if "matplotlib" in plot.stderr and plot.returncode:
            self.skipTest("python3-matplotlib is not installed: " + plot.stderr.strip())
        self.assertEqual(plot.returncode, 0, plot.stderr)
        from hzlib import plot as hzplot, results
        rows = results.rows(records.parse(log.read_text()))
        self.assertIn(NAME, hzplot.first_seen(rows, "clear"), "plot's primitives")


if __name__ == "__main__":
    unittest.main()

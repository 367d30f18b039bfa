# SPDX-License-Identifier: GPL-2.0-only
"""Every timed region's end read waits for its stores.

The SDM's recipe: MFENCE immediately before RDTSCP (and MFENCE; LFENCE
before an end RDTSC).  A compiler or an edit that drops the MFENCE would
silently move the tail of a clear into the fault overhead; this reads the
instructions of the built kernel and companion back and fails if any
RDTSCP is not preceded by MFENCE.
"""
from __future__ import annotations

import re
import subprocess
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from hzlib import paths  # noqa: E402

BUILD = paths.BUILD
BINARIES = [BUILD / "hugezero.elf", BUILD / "hugezero-linux"]
INSN = re.compile(r"^\s*[0-9a-f]+:\s+([a-z][a-z0-9.]*)")


def mnemonics(binary: Path) -> list[str]:
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", str(binary)],
                         capture_output=True, text=True, check=True).stdout
    return [m.group(1) for line in out.splitlines() if (m := INSN.match(line))]


def unfenced(ms: list[str]) -> list[int]:
    return [i for i, m in enumerate(ms) if m == "rdtscp" and (i == 0 or ms[i - 1] != "mfence")]


class EndReadsWaitForStores(unittest.TestCase):
    def test_every_rdtscp_follows_mfence(self) -> None:
        for b in BINARIES:
            with self.subTest(binary=b.name):
                if not b.exists():
                    self.fail(f"{b} is missing: run make first")
                ms = mnemonics(b)
                self.assertGreater(ms.count("rdtscp"), 0, f"{b.name} has no RDTSCP")
                bad = unfenced(ms)
                self.assertEqual(bad, [], f"{b.name}: RDTSCP without MFENCE "
                                 f"before it at instruction {bad[:5]}")

    def test_the_check_can_fail(self) -> None:
        self.assertEqual(unfenced(["lfence", "rdtscp", "mfence", "rdtscp"]), [1])


if __name__ == "__main__":
    unittest.main()

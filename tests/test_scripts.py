# SPDX-License-Identifier: GPL-2.0-only
"""Tests of the host scripts' parsing, without booting anything."""
from __future__ import annotations

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

from hzlib import image, ktap, qemu, symbolize  # noqa: E402

GOOD = """\x1b[2J\x1b[0;37mGRUB junk\r
hugezero 0.1: loader 'GRUB'\r
KTAP version 1\r
1..2\r
    KTAP version 1\r
    # Subtest: a\r
    1..2\r
    ok 1 x\r
    ok 2 y # SKIP no 1G pages\r
ok 1 a\r
    KTAP version 1\r
    # Subtest: b\r
    1..1\r
    ok 1 z\r
ok 2 b\r
hugezero: done rc=0\r
"""


def result(log: str, status: int | None = 1, timed_out: bool = False) -> qemu.BootResult:
    return qemu.BootResult(log, status, timed_out, ktap.parse(log), 1.0)


class KtapTest(unittest.TestCase):
    def test_complete_run(self) -> None:
        run = ktap.parse(GOOD)
        self.assertTrue(run.complete)
        self.assertTrue(run.passed)
        self.assertEqual([r.name for r in run.cases], ["x", "y", "z"])
        self.assertEqual(run.cases[1].skip, "no 1G pages")

    def test_failure_and_truncation(self) -> None:
        bad = GOOD.replace("    ok 1 z", "    not ok 1 z")
        self.assertFalse(ktap.parse(bad).passed)
        cut = GOOD.split("ok 2 b")[0]
        run = ktap.parse(cut)
        self.assertFalse(run.complete)

    def test_last_boot_counts(self) -> None:
        two = GOOD.replace("ok 1 x", "not ok 1 x") + GOOD
        self.assertTrue(ktap.parse(two).passed)


class VerdictTest(unittest.TestCase):
    def test_pass(self) -> None:
        ok, _ = qemu.verdict(result(GOOD))
        self.assertTrue(ok)

    def test_timeout_messages(self) -> None:
        ok, why = qemu.verdict(result("GRUB only", None, True))
        self.assertFalse(ok)
        self.assertIn("never started", why)
        ok, why = qemu.verdict(result(GOOD.split("ok 2 b")[0], None, True))
        self.assertIn("never said 'hugezero: done'", why)

    def test_debug_exit_code_checked(self) -> None:
        ok, why = qemu.verdict(result(GOOD, status=(3 << 1) | 1))
        self.assertFalse(ok)
        self.assertIn("code 3", why)

    def test_rc_without_ktap(self) -> None:
        ok, why = qemu.verdict(result("hugezero: done rc=0\n"))
        self.assertFalse(ok)


class ImageTest(unittest.TestCase):
    def test_args_quoted(self) -> None:
        cfg = image.grub_cfg(["bogus=1", "a b"])
        self.assertIn("multiboot2 /boot/hugezero.elf bogus=1 'a b'", cfg)

    def test_unsafe_args_refused(self) -> None:
        with self.assertRaises(image.ImageError):
            image.grub_cfg(["x}\nmenuentry evil {"])


class SymbolizeTest(unittest.TestCase):
    def test_addresses(self) -> None:
        log = ("  rip 0xffffffff8100eb04 cs 0x8\n"
               "  bt #0 0xffffffff8100eb04\n  bt #1 0xffffffff8100b011\n")
        self.assertEqual(symbolize.addresses(log),
                         [("rip", "0xffffffff8100eb04"),
                          ("#0", "0xffffffff8100eb04"),
                          ("#1", "0xffffffff8100b011")])


if __name__ == "__main__":
    unittest.main()

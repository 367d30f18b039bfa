# SPDX-License-Identifier: GPL-2.0-only
"""The report's console line from bench=info's console record: an I/O
port at a baud rate, an MMIO UART, a baud rate left as is, and why the
SPCR table's UART was not used."""
from __future__ import annotations

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

from hzlib.inventory import console_line  # noqa: E402


class ConsoleLine(unittest.TestCase):
    def test_io_port(self) -> None:
        self.assertEqual(
            console_line({"io": "0x3f8", "baud": "115200", "divisor": "1",
                          "source": "console= on the command line"}),
            "console:  io 0x3f8 at 115200 baud, chosen from console= on the "
            "command line")

    def test_mmio_as_is(self) -> None:
        line = console_line({"io": "0x0", "mmio": "0xfe030000", "reg_bits": "32",
                             "baud": "as-is", "divisor": "13",
                             "source": "the ACPI SPCR table",
                             "note": "baud code 5 not known"})
        self.assertIn("mmio 0xfe030000 (32-bit registers) at the firmware's "
                      "baud rate (as is, divisor 13)", line)
        self.assertTrue(line.endswith("; SPCR: baud code 5 not known"))

    def test_reason(self) -> None:
        line = console_line({"io": "0x3f8", "baud": "115200",
                             "source": "COM1 (console=auto, no usable SPCR)",
                             "reason": "the ACPI SPCR table's UART at MMIO "
                                       "0xfedc9000 (32-bit registers) does not answer"})
        self.assertIn("; SPCR not used: the ACPI SPCR table's UART at MMIO "
                      "0xfedc9000", line)


if __name__ == "__main__":
    unittest.main()

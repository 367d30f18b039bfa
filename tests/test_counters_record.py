#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""bench=info's counters record in report: every CPUID field the kernel
writes (Intel's fixed counters and EBX mask, AMD's PerfCtrExtCore and
PerfMonV2) is shown, not only the general counters."""
from __future__ import annotations

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

from hzlib.inventory import counters_line  # noqa: E402


class CountersLine(unittest.TestCase):
    def test_intel(self) -> None:
        line = counters_line({
            "pmu": "intel", "pmu_version": "5", "pmu_general": "8", "pmu_width": "48",
            "pmu_fixed": "4", "pmu_fixed_width": "48", "pmu_arch_events": "7",
            "pmu_arch_unavail": "0x10", "freq": "aperf/mperf", "smi": "msr_smi_count"})
        self.assertEqual(line, "counters: pmu intel version 5, 8 general counters of 48 bits, "
                         "4 fixed of 48 bits, 7 architectural events (EBX absent mask 0x10); "
                         "frequency aperf/mperf; SMIs msr_smi_count")

    def test_intel_version1(self) -> None:
        line = counters_line({"pmu": "intel", "pmu_version": "1", "pmu_general": "2",
                              "pmu_width": "40", "pmu_fixed": "0", "pmu_arch_events": "7",
                              "pmu_arch_unavail": "0x0", "freq": "x", "smi": "y"})
        self.assertIn("40 bits, 0 fixed, 7 architectural", line)

    def test_amd(self) -> None:
        line = counters_line({"pmu": "amd", "pmu_version": "2", "pmu_general": "6",
                              "pmu_width": "48", "pmu_ext_core": "yes",
                              "pmu_perfmon_v2": "yes", "freq": "aperf/mperf", "smi": "no"})
        self.assertIn("6 general counters of 48 bits, PerfCtrExtCore yes, PerfMonV2 yes;", line)

    def test_firmware_counters(self) -> None:
        line = counters_line({"pmu": "amd", "pmu_version": "2", "pmu_general": "6",
                              "pmu_width": "48", "pmu_firmware": "0x1",
                              "pmu_firmware_msr": "0xc0010200",
                              "pmu_firmware_val": "0x430076", "freq": "a", "smi": "b"})
        self.assertIn("; the firmware had left counters 0x1 enabled (MSR 0xc0010200 "
                      "was 0x430076: counted over, as Linux does); frequency a", line)

    def test_none(self) -> None:
        line = counters_line({"pmu": "none", "pmu_reason": "no core performance counters",
                              "freq": "a", "smi": "b"})
        self.assertEqual(line, "counters: pmu none (no core performance counters); "
                         "frequency a; SMIs b")


if __name__ == "__main__":
    unittest.main()

# SPDX-License-Identifier: GPL-2.0-only
"""The CPU-model boots' own logic, without booting: which models a QEMU
has (and the skip when it lacks one), what TCG dropped, and the
primitives a guest's CPUID allows (tests/qemu_cpumodel_cases.py)."""
from __future__ import annotations

import os
import stat
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from hzlib import qemu  # noqa: E402
import qemu_cpumodel_cases as cm  # noqa: E402

HELP_72 = """\
Available CPUs:
x86 486                   (alias configured by machine type)
x86 EPYC-Milan            (alias configured by machine type)
x86 EPYC-Milan-v1         AMD EPYC-Milan Processor
x86 Icelake-Server        (alias configured by machine type)

Recognized CPUID flags:
  3dnow 3dnowext 3dnowprefetch abm ace2 acpi adx aes amd-no-ssb
"""
HELP_10 = """\
Available CPUs:
  EPYC-Genoa            (alias configured by machine type)
  EPYC-Genoa-v1         AMD EPYC-Genoa Processor
  EPYC-Milan            (alias configured by machine type)
  Icelake-Server        (alias configured by machine type)

Recognized CPUID flags:
  avx2 avx512f clzero
"""


def cpuid_log(**regs: tuple[int, int, int, int]) -> str:
    """Console lines as kernel/cpulog.c prints them: leaf_sub=(a, b, c, d)."""
    lines = []
    for key, (a, b, c, d) in regs.items():
        leaf, sub = key.lstrip("l").split("_")
        lines.append(f"cpuid: {int(leaf, 16):08x}.{int(sub, 16):x}: eax {a:08x} "
                     f"ebx {b:08x} ecx {c:08x} edx {d:08x}")
    return "\n".join(lines) + "\n"


AMD = (0xd, 0x68747541, 0x444d4163, 0x69746e65)   # "AuthenticAMD", max leaf 0xd


class CpuHelp(unittest.TestCase):
    def test_both_forms_and_flags_left_out(self) -> None:
        self.assertEqual(qemu.parse_cpu_help(HELP_72),
                         {"486", "EPYC-Milan", "EPYC-Milan-v1", "Icelake-Server"})
        got = qemu.parse_cpu_help(HELP_10)
        self.assertIn("EPYC-Genoa", got)
        self.assertNotIn("avx2", got)

    def test_missing_model_is_a_skip_naming_the_version(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            exe = Path(d) / "qemu-system-x86_64"
            exe.write_text("#!/bin/sh\n"
                           "if [ \"$1\" = --version ]; then echo 'QEMU emulator version 7.2.22'; "
                           f"else cat <<'EOF'\n{HELP_72}EOF\nfi\n")
            exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
            why = qemu.cpu_model_missing("EPYC-Genoa", str(exe))
            self.assertEqual(why, "QEMU 7.2.22 has no CPU model EPYC-Genoa (`-cpu help`); "
                                  "a newer one: scripts/setup.sh --backports")
            self.assertIsNone(qemu.cpu_model_missing("EPYC-Milan", str(exe)))
            # asked once: the answer is kept even when the QEMU is gone
            os.unlink(exe)
            self.assertIsNone(qemu.cpu_model_missing("Icelake-Server", str(exe)))


class Decoding(unittest.TestCase):
    def test_tcg_warnings(self) -> None:
        log = ("qemu-system-x86_64: warning: TCG doesn't support requested feature: "
               "CPUID.07H:EBX.avx512f [bit 16]\n"
               "qemu-system-x86_64: warning: TCG doesn't support requested feature: "
               "CPUID.80000008H:EBX.clzero [bit 0]\n")
        self.assertEqual(cm.dropped(log), {cm.FEATURES["avx512f"], cm.FEATURES["clzero"]})

    def test_prims_follow_cpuid_and_xcr0(self) -> None:
        # SSE2, XSAVE, AVX; AVX2, ERMS, AVX-512F; CLZERO; XCR0 x87|SSE|YMM
        full = dict(l0_0=AMD, l1_0=(0, 0, 1 << 26 | 1 << 28, 1 << 26),
                    l7_0=(0, 1 << 5 | 1 << 9 | 1 << 16, 0, 0),
                    l80000008_0=(0, 1, 0, 0), ld_0=(0x7, 0, 0, 0))
        g = cm.Guest(cpuid_log(**full))
        self.assertTrue(g.amd)
        self.assertEqual(cm.prims_allowed(g), {"orig", "rep", "erms", "movnti", "movntdq",
                                               "avx2", "avx2-nt", "clzero"})
        g = cm.Guest(cpuid_log(**{**full, "ld_0": (0xe7, 0, 0, 0)}))
        self.assertIn("avx512", cm.prims_allowed(g))
        # no XSAVE: no YMM state, no AVX2 whatever leaf 7 says
        g = cm.Guest(cpuid_log(**{**full, "l1_0": (0, 0, 1 << 28, 1 << 26)}))
        self.assertNotIn("avx2", cm.prims_allowed(g))
        self.assertEqual(set(cm.ALL_PRIMS) - cm.prims_allowed(g), set(cm.REFUSAL) - {
            "erms", "movnti", "movntdq", "clzero"})

    def test_every_fault_msr_is_in_the_boot_line(self) -> None:
        for log in (cpuid_log(l0_0=AMD), cpuid_log(l0_0=AMD, l80000001_0=(0, 0, 1 << 23, 0)),
                    cpuid_log(l0_0=(0xd, 0x756e6547, 0x6c65746e, 0x49656e69),
                              la_0=(0x04300802, 0, 0, 0))):
            g = cm.Guest(log)
            for path, fault in cm.FAULTS.items():
                msr, _ = fault(g)
                self.assertTrue(msr is None or msr in cm.MSR_GP, f"{path}: {msr}")
        self.assertLessEqual(len(cm.MSR_GP), 16)   # lib/msrtrace.h MSR_GP_MAX

    def test_boost_lines_as_the_boots_print_them(self) -> None:
        """The lines of one run (build/test-logs), and what they must not be."""
        why = ' why="not as asked after every path (tried= says what each did); the run goes on"'
        amd = cm.Guest(cpuid_log(l0_0=AMD))
        intel = cm.Guest(cpuid_log(l0_0=(0xd, 0x756e6547, 0x6c65746e, 0x49656e69)))
        hw = "rd 0xc0010015 ok"
        ok_amd = (f"{hw}, {hw}, wr 0xc0010015 ok, {hw}, {hw}; vendor=amd asked=off "
                  f"before=on after=on tried=hwcr:ignored{why}")
        ok_intel = ("rd 0x1a0 ok, rd 0x199 ok, rd 0x1a0 ok, wr 0x1a0 ok, rd 0x1a0 ok, "
                    "rd 0x1a0 ok, rd 0x199 ok; vendor=intel asked=off before=on after=off "
                    "tried=misc_enable:set")
        self.assertRegex(ok_amd, f"^(?:{cm.boost_line(amd)})$")
        self.assertRegex(ok_intel, f"^(?:{cm.boost_line(intel)})$")
        self.assertNotRegex(ok_intel, f"^(?:{cm.boost_line(amd)})$")
        # a write with no read back is not what try_bits() does
        self.assertNotRegex(ok_amd.replace(f"wr 0xc0010015 ok, {hw}", "wr 0xc0010015 ok"),
                            f"^(?:{cm.boost_line(amd)})$")
        gp = "rd 0xc0010015 #GP"
        msr, want = cm.boost_fault(amd)
        self.assertEqual(msr, 0xc0010015)
        self.assertRegex(f"{gp}, {gp}, {gp}; vendor=amd asked=off before=unknown "
                         f"after=unknown tried=hwcr:read-faulted{why}", f"^(?:{want})$")
        self.assertEqual(cm.boost_fault(intel)[0], 0x1a0)


if __name__ == "__main__":
    unittest.main()

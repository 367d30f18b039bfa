# SPDX-License-Identifier: GPL-2.0-only
"""Tests of the host scripts' parsing, without booting anything."""
from __future__ import annotations

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from hzlib import image, ktap, qemu, symbolize  # noqa: E402

from synth import record  # noqa: E402

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


def fake_qemu(d: Path, banner: str) -> Path:
    """A qemu-system-x86_64 that only answers --version, in @d/usr/bin."""
    exe = d / "usr" / "bin" / "qemu-system-x86_64"
    exe.parent.mkdir(parents=True)
    exe.write_text(f"#!/bin/sh\necho '{banner}'\n")
    exe.chmod(0o755)
    return exe


class QemuSelectTest(unittest.TestCase):
    def test_default_is_path(self) -> None:
        import shutil
        system = shutil.which("qemu-system-x86_64")
        if not system:
            self.skipTest("no qemu-system-x86_64 on PATH")
        self.assertEqual(qemu.executable({}), system)
        self.assertEqual(qemu.data_args({}), [])
        self.assertIsNone(qemu.child_env({}))

    def test_override(self) -> None:
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            exe = fake_qemu(Path(d), "QEMU emulator version 10.0.2 (Debian)")
            env = {"HZ_QEMU": str(exe), "HZ_QEMU_DATA": f"{d}/usr:{d}"}
            self.assertEqual(qemu.executable(env), str(exe))
            self.assertEqual(qemu.data_args(env), ["-L", f"{d}/usr", "-L", d])
            self.assertIsNone(qemu.child_env(env))     # no modules beside it
            mods = Path(d) / "usr" / "lib" / "x86_64-linux-gnu" / "qemu"
            mods.mkdir(parents=True)
            self.assertEqual(qemu.child_env(env)["QEMU_MODULE_DIR"], str(mods))
            self.assertIsNone(qemu.child_env({**env, "QEMU_MODULE_DIR": "/x"}))
            with self.assertRaises(qemu.QemuError):
                qemu.data_args({"HZ_QEMU_DATA": f"{d}/none"})
            with self.assertRaises(qemu.QemuError):
                qemu.executable({"HZ_QEMU": f"{d}/none"})

    def test_x2apic_by_version(self) -> None:
        import tempfile
        self.assertEqual(qemu.parse_version(
            "QEMU emulator version 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)"), (7, 2, 22))
        self.assertEqual(qemu.parse_version("QEMU emulator version 9.0"), (9, 0, 0))
        self.assertIsNone(qemu.parse_version("bash: qemu: not found"))
        with tempfile.TemporaryDirectory() as d:
            for banner, why in (("QEMU emulator version 8.2.2", "8.2.2 < 9.0"),
                                ("QEMU emulator version 9.0.0", None),
                                ("QEMU emulator version 10.0.2 (Debian)", None),
                                ("no banner", "version unknown")):
                sub = Path(d) / banner.replace(" ", "_")
                exe = str(fake_qemu(sub, banner))
                got = qemu.tcg_x2apic_missing(exe)
                self.assertEqual(qemu.tcg_has_x2apic(exe), why is None, banner)
                if why:
                    self.assertIn(why, got or "")


if __name__ == "__main__":
    unittest.main()


def small_log() -> str:
    lines = [
        record(1, "boot", 'version=0.2 firmware=bios cmdline="bench=fault"'),
        record(2, "machine", 'vendor=AuthenticAMD brand="AMD EPYC 9654" l1d=32768 mem=1024'),
        record(3, "timebase", "tsc_hz=1000000000 source=hpet invariant=1"),
        record(4, "config", "cfg=1 name=2M.erms.contiguous-page folio=2M clear=erms "
               "order=contiguous-page chunk=0 size=4194304 folios=2 touch=seq "
               "offset=first access=none cache=asis cpl=3"),
        record(5, "run", "cfg=1 run=0 pass=measure faults=2 resched=0 "
               "fault_ticks=2000000 clear_ticks=1000000"),
        record(6, "samples", "cfg=1 run=0 kind=fault first=0 v=900000,1100000 n=2"),
        record(7, "samples", "cfg=1 run=0 kind=clear first=0 v=500000,500000 n=2"),
        record(8, "summary", "cfg=1 status=ok runs=1"),
        record(9, "end", "records=9"),
    ]
    return "\r\n".join(["noise", *lines, "KTAP version 1"]) + "\r\n"


class RecordsTest(unittest.TestCase):
    def test_valid_log(self) -> None:
        from hzlib import records, results
        boots = records.parse(small_log())
        self.assertEqual(len(boots), 1)
        self.assertEqual(boots[0].problems, [])
        self.assertTrue(boots[0].complete)
        self.assertEqual(boots[0].first("machine").f["brand"], "AMD EPYC 9654")
        (row,) = results.rows(boots)
        # 4 MiB in 2 ms of a 1 GHz TSC: 1.953125 GiB/s
        self.assertAlmostEqual(row["gbps_mean"], 4 / 1024 / 0.002)
        self.assertAlmostEqual(row["fault_us_median"], 1000.0)
        self.assertAlmostEqual(row["overhead_us_median"], 500.0)
        self.assertEqual(row["status"], "ok")

    def test_changed_character_is_rejected(self) -> None:
        from hzlib import records, results
        log = small_log().replace("v=900000", "v=980000")
        boots = records.parse(log)
        self.assertTrue(any("checksum" in p for p in boots[0].problems))
        self.assertTrue(any("records 6..6 missing" in p for p in boots[0].problems))
        (row,) = results.rows(boots)
        self.assertNotEqual(row["status"], "ok")

    def test_cut_off_log_is_incomplete(self) -> None:
        from hzlib import records
        log = small_log()
        boots = records.parse(log[: log.index("@hz1 8 ")])
        self.assertFalse(boots[0].complete)
        self.assertTrue(any("no 'end' record" in p for p in boots[0].problems))

    def test_record_cut_by_the_end_is_named_and_lost(self) -> None:
        """A record the kernel cut at the run's end (its writer stopped or
        faulted), ended " ~cut" before the dump: read as cut off, not as
        noise, its number a gap, the dump not glued to it."""
        from hzlib import records
        log = small_log()
        start = log.index("@hz1 8 ")
        end = log.index("\r\n", start)
        cut = log[:start + 12] + " ~cut\r\nhugezero: exception 6 (#UD) on cpu 0" + log[end:]
        boots = records.parse(cut)
        probs = boots[0].problems
        self.assertTrue(any("record cut off as the run ended" in p for p in probs), probs)
        self.assertEqual(boots[0].gaps, [(8, 8)])
        self.assertFalse(boots[0].complete)

    def test_two_boots_and_quotes(self) -> None:
        from hzlib import records
        boots = records.parse(small_log() + small_log())
        self.assertEqual(len(boots), 2)
        self.assertTrue(all(b.complete and not b.problems for b in boots))
        self.assertEqual(records.unquote(r'"a \"b\" \\ \x41"'), 'a "b" \\ A')


class SplitTest(unittest.TestCase):
    def test_split_of_a_companion_log(self) -> None:
        import io
        from hzlib import records, split
        common = ("folio=2M chunk=0 size=4194304 folios=2 touch=seq offset=first "
                  "access=none cache=asis cpl=3")
        lines = [
            record(1, "boot", "version=0.2 loader=hugezero-linux firmware=linux"),
            record(2, "machine", 'vendor=AuthenticAMD brand=X features=erms,avx2'),
            record(3, "timebase", "tsc_hz=1000000000 source=clock_monotonic_raw"),
            record(4, "host", "kernel=6.18.0 cpu=1 vm=0 clocksource=tsc"),
            record(5, "config", f"cfg=1 name=linux.2M.hugetlb bench=linux-fault "
                   f"clear=linux order=linux backing=hugetlb {common}"),
            record(6, "run", "cfg=1 run=0 pass=measure faults=2 fault_ticks=200000"),
            record(7, "samples", "cfg=1 run=0 kind=fault first=0 v=100000,100000 n=2"),
            record(8, "summary", "cfg=1 status=ok runs=1"),
            record(9, "config", f"cfg=2 name=bare.2M.erms.converging-page bench=bare "
                   f"clear=erms order=converging-page backing=hugetlb {common}"),
            record(10, "run", "cfg=2 run=0 pass=measure faults=2 clear_ticks=160000"),
            record(11, "samples", "cfg=2 run=0 kind=clear first=0 v=80000,80000 n=2"),
            record(12, "summary", "cfg=2 status=ok runs=1"),
            record(13, "end", "records=13"),
        ]
        boots = records.parse("\n".join(lines) + "\n")
        self.assertEqual(boots[0].problems, [])
        out = io.StringIO()
        self.assertEqual(split.write(boots, out), 0)
        text = out.getvalue()
        self.assertIn("Linux demand fault, hugetlb", text)
        self.assertIn("bare, Linux's own: erms + converging-page", text)
        self.assertIn("Linux's overhead per fault (hugetlb): 100.0 - 80.0 = 20.0 us, 20%", text)
        s = split.linux_strategy(boots[0])
        self.assertEqual((s.order, s.prim), ("converging-page", "erms"))


DATA = Path(__file__).resolve().parent / "data"


class CompareTest(unittest.TestCase):
    def test_welch_p_value(self) -> None:
        from hzlib import compare
        # t = -1.0954, df = 6: p = 0.31533 (numerical integration of the t density)
        self.assertAlmostEqual(compare.welch([1, 2, 3, 4], [2, 3, 4, 5]), 0.31533, places=4)
        # Far apart: p tiny.  Same values: p = 1.
        self.assertLess(compare.welch([10, 10.1, 9.9], [20, 20.2, 19.8]), 1e-4)
        self.assertEqual(compare.welch([5, 5], [5, 5]), 1.0)
        self.assertIsNone(compare.welch([1], [2, 3]))

    def test_compare_table(self) -> None:
        import io
        from hzlib import compare
        out = io.StringIO()
        compare.write(str(DATA / "kernel-bench.log"), str(DATA / "kernel-bench.log"), out)
        text = out.getvalue()
        self.assertIn("folio=2M clear=erms order=neighbourhood-last chunk=32M", text)
        # A log against itself: no change, an interval about 0 (Fieller's at
        # 2 runs a side: 4.95 +- 3.44% gives -14.1% .. +16.4%).
        self.assertIn("+0.0% [ -14.1,  +16.4] ~ (p=1.00)", text)
        out = io.StringIO()
        compare.write(str(DATA / "kernel-bench.log"), str(DATA / "companion-split.log"), out)
        self.assertIn("only in A:", out.getvalue())
        self.assertIn("only in B:", out.getvalue())

    def compare_with(self, lines: list[str]) -> tuple[int, str]:
        import io
        import tempfile
        from hzlib import compare
        with tempfile.TemporaryDirectory() as d:
            b = Path(d) / "b.log"
            b.write_text("\n".join(lines) + "\n")
            out = io.StringIO()
            rc = compare.write(str(DATA / "kernel-bench.log"), str(b), out)
        return rc, out.getvalue()

    def test_compare_says_what_a_cut_off_log_lost(self) -> None:
        """A log cut off before its last summary: the configuration that
        never ended is named as left out, the boot as damaged, exit 1."""
        lines = (DATA / "kernel-bench.log").read_text().splitlines()
        cut = next(i for i, ln in enumerate(lines) if " summary cfg=4 " in ln)
        rc, text = self.compare_with(lines[:cut])
        self.assertEqual(rc, 1)
        self.assertIn("left out of B, not compared:", text)
        self.assertIn("boot 0 damaged: boot cut off: no 'end' record", text)
        self.assertRegex(text, r"\n  incomplete boot 0 cfg=4 bench=fault folio=\S+ .*no summary record")
        self.assertIn("WARNING: a measurement is missing", text)
        self.assertNotIn("left out of A", text)

    def test_compare_lists_a_skip_and_exits_0(self) -> None:
        """A configuration the kernel skipped is a defined outcome: listed
        with its reason, not damage."""
        import re
        lines = (DATA / "kernel-bench.log").read_text().splitlines()
        i = next(i for i, ln in enumerate(lines) if " summary cfg=4 " in ln)
        seq = int(lines[i].split()[1])
        lines[i] = record(seq, "summary", 'cfg=4 status=skip runs=0 reason="no room"')
        rc, text = self.compare_with(lines)
        self.assertEqual(rc, 0, text)
        self.assertRegex(text, r"\n  skip boot 0 cfg=4 bench=fault .*: no room\n")
        self.assertNotIn("WARNING", text)
        self.assertEqual(len(re.findall("left out of", text)), 1)

    def test_compare_one_damaged_log_against_itself(self) -> None:
        """One log on both sides: its losses listed once."""
        import io
        import tempfile
        from hzlib import compare
        lines = (DATA / "kernel-bench.log").read_text().splitlines()
        with tempfile.TemporaryDirectory() as d:
            b = Path(d) / "b.log"
            b.write_text("\n".join(lines[:-4]) + "\n")
            out = io.StringIO()
            rc = compare.write(str(b), None, out, ["clear=rep"],
                               ["clear=erms"])
        self.assertEqual(rc, 1)
        self.assertIn("left out of A and B, not compared:", out.getvalue())


class ExportTest(unittest.TestCase):
    def test_sample_rows(self) -> None:
        from hzlib import records, results
        boots = records.parse((DATA / "kernel-bench.log").read_text())
        rows = results.sample_rows(boots)
        # 4 configurations x 2 measured runs x (fault, clear, page) x 4 folios
        self.assertEqual(len(rows), 4 * 2 * 3 * 4)
        self.assertLessEqual(set(rows[0]), set(results.sample_columns(rows)))
        self.assertLessEqual(set(results.SAMPLE_COLUMNS), set(rows[0]))


class PlotTest(unittest.TestCase):
    def test_figures_written(self) -> None:
        import tempfile
        from hzlib import plot, records
        try:
            plot.pyplot()
        except plot.PlotError as e:
            self.skipTest(str(e))
        boots = records.parse((DATA / "kernel-bench.log").read_text())
        with tempfile.TemporaryDirectory() as d:
            paths = plot.write(boots, Path(d))
            names = sorted(p.name for p in paths)
            self.assertEqual(names, ["gbps.png", "gbps.svg", "latency-cdf.png",
                                     "latency-cdf.svg", "split.png", "split.svg"])
            self.assertTrue(all(p.stat().st_size > 1000 for p in paths))

# SPDX-License-Identifier: GPL-2.0-only
"""LAVA's job logs read like serial logs (scripts/hzlib/lavalog.py), on the
logs of tests/data/lava: lava-run's log stream and a server's output.yaml
of real jobs (make.sh there made them), whole and with seeded damage --
lost lines, cut lines, lines joined, a mangled mapping, a changed or
non-UTF-8 character, interleaved lines that are not the console.  Damage
gives damaged records, never a wrong number: every configuration still
read as ok has exactly the runs of the whole log.  And `table` of two jobs
on two QEMU CPU models prints a section per machine, each naming its job."""
from __future__ import annotations

import importlib.util
import io
import json
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from hzlib import display, lavalog, records, report, results, table  # noqa: E402

DATA = ROOT / "tests" / "data" / "lava"
HZ = [sys.executable, str(ROOT / "scripts" / "hugezero")]
FAULT = DATA / "fault-2M.lava-run.yaml"
MILAN = DATA / "seed-001-milan.lava-run.yaml"
ICELAKE = DATA / "seed-001-icelake.output.yaml"


def text(p: Path) -> str:
    return p.read_text(encoding="utf-8", errors="replace")


def server_form(stream: str) -> str:
    """lava-run's stream as a server stores it: each line an item, "- "
    before it (lava_scheduler_app's logs API)."""
    return "".join(f"- {ln}\n" for ln in stream.splitlines())


def runs(boots: list[records.Boot]) -> dict[str, tuple[str, list[float]]]:
    """Each configuration's status and per-run GB/s, by its cfg number."""
    return {str(r["cfg"]): (str(r["status"]), list(r["gbps_runs"]))  # type: ignore[call-overload]
            for r in results.rows(boots)}


def line_of(log: str, needle: str) -> int:
    return next(i for i, ln in enumerate(log.split("\n")) if needle in ln)


class Whole(unittest.TestCase):
    """The stored logs, undamaged."""

    def test_stream_and_server_forms_read_alike(self) -> None:
        stream = text(FAULT)
        for form, log in ((lavalog.STREAM, stream), (lavalog.SERVER, server_form(stream))):
            with self.subTest(form=form):
                self.assertEqual(lavalog.form_of(log), form)
                boots, job = lavalog.boots(log)
                assert job is not None
                self.assertEqual(job.problems, [])
                self.assertEqual(len(boots), 1)
                self.assertEqual(boots[0].problems, [])
                self.assertTrue(boots[0].complete)
                self.assertEqual((job.job_id, job.dispatcher, job.result),
                                 ("101", "2023.01", "pass"))
                self.assertEqual(job.device, "qemu-system-x86_64 -m 512 -machine pc "
                                 "-cpu EPYC-Milan -smp 1")
                # ShellLogger's \" undone: the quoted fields are the line's own.
                self.assertEqual(boots[0].first("boot").f["cmdline"],  # type: ignore[union-attr]
                                 "bench=fault folio=2M size=4M runs=2 warmups=0 "
                                 "selftest=off clear=erms order=contiguous-page")
                ((status, gbps),) = runs(boots).values()
                self.assertEqual((status, len(gbps)), ("ok", 2))

    def test_server_log_as_stored(self) -> None:
        boots, job = lavalog.boots(text(ICELAKE))
        assert job is not None
        self.assertEqual((job.form, job.job_id, job.problems), (lavalog.SERVER, "202", []))
        self.assertIn("-cpu Icelake-Server", job.device)
        self.assertTrue(boots[0].complete and not boots[0].problems)
        self.assertEqual(len(runs(boots)), 8)
        self.assertTrue(all(s == "ok" for s, _ in runs(boots).values()))

    def test_report_names_the_job(self) -> None:
        out = io.StringIO()
        report.write(lavalog.boots(text(FAULT))[0], out)
        self.assertIn("\nLAVA job 101 (lava-dispatcher 2023.01, lava-run log stream): "
                      "device qemu-system-x86_64 -m 512 -machine pc -cpu EPYC-Milan "
                      "-smp 1; LAVA's result pass\n", out.getvalue())

    def test_parse_json_carries_the_job_and_compare_reads_it(self) -> None:
        r = subprocess.run([*HZ, "parse", str(FAULT)], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        (boot,) = json.loads(r.stdout)["boots"]
        self.assertEqual(boot["lava"]["job"], "101")
        from hzlib import compare
        with tempfile.TemporaryDirectory() as d:
            with_json = Path(d) / "lava-parse.json"
            with_json.write_text(r.stdout)
            (b,) = compare.load(str(with_json))
        self.assertEqual(b.lava, boot["lava"])

    def test_a_serial_log_is_not_taken_for_one(self) -> None:
        serial = text(ROOT / "tests" / "data" / "kernel-bench.log")
        self.assertIsNone(lavalog.form_of(serial))
        boots, job = lavalog.boots(serial)
        self.assertIsNone(job)
        self.assertTrue(boots[0].complete)
        self.assertIsNone(boots[0].lava)

    def test_lavacli_without_raw_is_named(self) -> None:
        """lavacli's default output (time, then message; no levels; the
        console's quotes as LAVA escaped them) is no LAVA log: read as a
        serial log its quoted records do not read, and the reader says why."""
        plain = "".join(f"{str(e['dt']).split('.')[0]} {e['msg']}\n"
                        for e in (lavalog.entry(ln)[0] for ln in text(FAULT).splitlines()))
        with tempfile.TemporaryDirectory() as d:
            log = Path(d) / "lavacli.txt"
            log.write_text(plain)
            r = subprocess.run([*HZ, "report", str(log)], capture_output=True, text=True)
        self.assertEqual(r.returncode, 1)
        self.assertIn("lavacli.txt: looks like `lavacli jobs logs` without --raw", r.stderr)
        self.assertIn("malformed record", r.stderr)

    def test_without_lavas_own_lines(self) -> None:
        """Only target lines left: the console still reads; the job's id,
        dispatcher and device are said to be unknown, not guessed."""
        only = "\n".join(ln for ln in text(FAULT).splitlines() if '"lvl": "target"' in ln)
        boots, job = lavalog.boots(only)
        assert job is not None
        self.assertTrue(boots[0].complete)
        self.assertEqual(boots[0].lava, {"form": lavalog.STREAM, "job": "unknown",
                                         "dispatcher": "unknown",
                                         "result": "not in the log"})
        self.assertIn("device not in the log", lavalog.describe(boots[0].lava))

    def test_a_device_not_named_is_unknown(self) -> None:
        """A log that does not name its device is of the machine its CPU
        says: the same as a log of that CPU that names one, and named
        without a device."""
        whole = lavalog.boots(text(FAULT))[0][0]
        only = lavalog.boots("\n".join(ln for ln in text(FAULT).splitlines()
                                        if '"lvl": "target"' in ln))[0][0]
        self.assertIn("device", whole.lava or {})
        self.assertNotIn("device", only.lava or {})
        key = display.machine_key
        self.assertTrue(display.same_machine(key(whole), key(only)))
        self.assertTrue(display.same_machine(key(only), key(only)))
        named = display.machine_names([only, whole])
        self.assertEqual(named[0], display.machine_name(only))
        self.assertNotIn("not in the log", " ".join(named))
        other = lavalog.boots(text(ICELAKE))[0][0]
        self.assertFalse(display.same_machine(key(only), key(other)), "another CPU")


class Parser(unittest.TestCase):
    """The forms LAVA writes (lava_common/log.py's dump(): yaml.dump with
    default_style='"'), and nothing else."""

    def test_forms(self) -> None:
        e, end = lavalog.entry('{"dt": "t", "lvl": "results", "msg": {"a": ! "1", '
                               '"e": [! "1", "x"], "f": "\\xE9\\L\\a\\ttab\\\\ \\"q\\"", '
                               '"g": {}, "h": [], "u": "\\uFFFD\\U0001F600\\N\\0"}}')
        self.assertEqual(e["msg"], {"a": "1", "e": ["1", "x"], "f": 'é\u2028\x07\ttab\\ "q"',
                                    "g": {}, "h": [], "u": "\ufffd\U0001F600\x85\0"})
        e, _ = lavalog.entry('{"dt": "t", "lvl": "feedback", "msg": "m", "ns": "common"}')
        self.assertEqual(e["ns"], "common")

    def test_refused(self) -> None:
        for bad, why in (('{"dt": "t", "lvl": "target", "msg": "cut', "cut off"),
                         ('{"dt": "t", "lvl": "target", "msg": "a"', "cut off"),
                         ('{"dt": "t", "lvl": "target", "msg" "a"}', "': ' expected"),
                         ('{"dt": "t", "lvl": "target"}', "not dt, lvl, msg"),
                         ('{"dt": "t", "lvl": "target", "msg": "a", "x": "b"}', "not dt, lvl, msg"),
                         ('{"dt": "t", "lvl": "target", "msg": "\\q"}', "escape"),
                         ('{"dt": "t", "lvl": "target", "msg": "\\x4"}', "escape"),
                         ('{"dt": "t", "lvl": "target", "msg": "\ufffd"}', "unescaped"),
                         ('{"dt": "t", "lvl": "target", "msg": a}', "a value expected"),
                         ('{"dt": "t", "lvl": ! "1", "msg": "a"}', "not a string"),
                         ('{"dt": "t", "dt": "t", "lvl": "x", "msg": "a"}', "twice")):
            with self.subTest(line=bad), self.assertRaisesRegex(lavalog.EntryError, why):
                lavalog.entry(bad)

    def test_console_quotes(self) -> None:
        # a="b \"c\"" as ShellLogger writes it: a \ before every ".
        self.assertEqual(lavalog.console_text('a=\\"b \\\\"c\\\\"\\"'), 'a="b \\"c\\""')
        with self.assertRaisesRegex(lavalog.EntryError, "unescaped"):
            lavalog.console_text('a="b"')


class Damaged(unittest.TestCase):
    """Seeded damage, in both forms: what the records held is missing or
    damaged, never different."""

    whole: dict[str, tuple[str, list[float]]] = {}

    @classmethod
    def setUpClass(cls) -> None:
        cls.stream = text(MILAN)
        cls.whole = runs(lavalog.boots(cls.stream)[0])
        assert len(cls.whole) == 8 and all(s == "ok" for s, _ in cls.whole.values())

    def read(self, lines: list[str]) -> list[tuple[records.Boot, lavalog.Job]]:
        """@lines as a lava-run stream and as a server's output.yaml."""
        out = []
        for log in ("\n".join(lines) + "\n", server_form("\n".join(lines))):
            boots, job = lavalog.boots(log)
            assert job is not None
            self.assertEqual(len(boots), 1)
            out.append((boots[0], job))
        return out

    def check(self, lines: list[str], lost: set[str], problem: str = "",
              boot_problem: str = "") -> None:
        """The configurations @lost are not ok, every other one is as in
        the whole log; @problem among the LAVA lines not read, and
        @boot_problem among the boot's."""
        for boot, job in self.read(lines):
            with self.subTest(form=job.form):
                got = runs([boot])
                for name, (status, gbps) in self.whole.items():
                    if name in lost:
                        # Damaged, or gone with its config record.
                        self.assertNotEqual(got.get(name, ("gone", []))[0], "ok", name)
                    else:
                        self.assertEqual(got[name], (status, gbps), name)
                if problem:
                    self.assertTrue(any(problem in p for p in job.problems), job.problems)
                else:
                    self.assertEqual(job.problems, [])
                if boot_problem:
                    self.assertTrue(any(boot_problem in p for p in boot.problems), boot.problems)
                self.assertEqual(bool(lost), bool(boot.problems))

    def record_line(self, seq: int) -> tuple[list[str], int, str]:
        """The stream's lines, the index of record @seq's target line,
        and its configuration's number."""
        lines = self.stream.split("\n")
        i = line_of(self.stream, f'"msg": "@hz1 {seq} ')
        cfg = re.search(r" cfg=(\d+) ", lines[i])
        return lines, i, cfg.group(1) if cfg else ""

    def test_lost_line(self) -> None:
        lines, i, name = self.record_line(12)
        del lines[i]
        self.check(lines, {name}, boot_problem="records 12..12 missing")

    def test_lost_end(self) -> None:
        lines, i, _ = self.record_line(len(self.stream.split('"msg": "@hz1 ')) - 1)
        self.assertIn(" end records=", lines[i])
        del lines[i]
        for boot, _ in self.read(lines):
            self.assertFalse(boot.complete)
            self.assertIn("boot cut off: no 'end' record", boot.problems)

    def test_cut_line(self) -> None:
        """A line cut inside its message (a log cut off, a lost tail)."""
        lines, i, name = self.record_line(26)
        lines[i] = lines[i][:lines[i].index(" v=") + 6]
        self.check(lines, {name}, f"line {i + 1}: not an entry as LAVA writes it (cut off",
                   "records 26..26 missing")

    def test_cut_line_joined_to_the_next(self) -> None:
        """A cut line that lost its newline: the next entry is still read."""
        lines, i, name = self.record_line(26)
        lines[i:i + 2] = [lines[i][:lines[i].index(" v=") + 6] + lines[i + 1]]
        self.assertIn('"msg": "@hz1 27 ', lines[i])
        self.check(lines, {name}, f"line {i + 1}: not an entry", "records 26..26 missing")

    def test_joined_whole_lines(self) -> None:
        """Two whole entries on one line: both read, nothing lost."""
        lines, i, _ = self.record_line(20)
        lines[i:i + 2] = [lines[i] + lines[i + 1]]
        for boot, job in self.read(lines):
            self.assertEqual((job.problems, boot.problems), ([], []))
            self.assertEqual(runs([boot]), self.whole)

    def test_text_around_whole_entries(self) -> None:
        """Another line's tail before or after a whole entry: the entry is
        read, the stray text named."""
        lines, i, _ = self.record_line(27)
        lines[i] = "0 kind=fault" + lines[i] + '", "lvl": "target"}'
        for boot, job in self.read(lines):
            self.assertEqual(boot.problems, [])
            self.assertEqual(runs([boot]), self.whole)
            self.assertEqual([p.split(",")[0] for p in job.problems],
                             [f"line {i + 1}: text before the entry",
                              f"line {i + 1}: text after the entry"])

    def test_item_without_its_dash(self) -> None:
        """An output.yaml line that lost its "- ": read, and named."""
        server = server_form(self.stream).split("\n")
        i = line_of(server_form(self.stream), '"msg": "@hz1 27 ')
        server[i] = server[i][2:]
        boots, job = lavalog.boots("\n".join(server))
        self.assertEqual(runs(boots), self.whole)
        self.assertEqual([p.split(",")[0] for p in job.problems],  # type: ignore[union-attr]
                         [f"line {i + 1}: no '- ' before the entry"])

    def test_mangled_mapping(self) -> None:
        lines, i, name = self.record_line(30)
        lines[i] = lines[i].replace('"lvl": "target", ', '"lvl": "target" ', 1)
        self.check(lines, {name}, "', ' or '}' expected", "records 30..30 missing")

    def test_changed_character_in_a_record(self) -> None:
        """A change that keeps the form: the record's CRC catches it."""
        lines, i, name = self.record_line(21)
        self.assertRegex(lines[i], r" v=\d")
        lines[i] = re.sub(r" v=(\d)", lambda m: f" v={(int(m.group(1)) + 1) % 10}", lines[i], 1)
        self.check(lines, {name}, boot_problem="checksum mismatch")

    def test_not_utf8(self) -> None:
        """A byte that is not UTF-8 in the file, and the replacement
        character pexpect put in a console line (codec_errors="replace")."""
        raw = MILAN.read_bytes()
        i = raw.index(b'"msg": "@hz1 21 ')
        raw = raw[:i + 20] + b"\xff" + raw[i + 20:]
        lines = raw.decode("utf-8", errors="replace").split("\n")
        _, _, name = self.record_line(21)
        self.check(lines, {name}, "unescaped", "records 21..21 missing")
        lines, i, name = self.record_line(22)
        lines[i] = lines[i].replace(" n=", " \\uFFFDn=", 1)
        self.check(lines, {name}, boot_problem="records 22..22 missing")

    def test_line_too_long(self) -> None:
        """What lava_common/log.py's dump() writes for a line of 10**6
        characters or more."""
        lines, i, name = self.record_line(40)
        lines[i] = re.sub(r'"msg": ".*"}$', '"msg": "<line way too long ...>"}', lines[i])
        self.check(lines, {name}, boot_problem="records 40..40 missing")

    def test_interleaved_lines(self) -> None:
        """LAVA's own lines and lines that are no entry at all (another
        program's on lava-run's stderr) between the console's: the
        console reads whole, the strangers are named."""
        lines = self.stream.split("\n")
        mixed: list[str] = []
        for k, ln in enumerate(lines):
            mixed.append(ln)
            if '"lvl": "target"' in ln and k % 3 == 0:
                mixed.append('{"dt": "t", "lvl": "debug", "msg": "@hz1 1 boot cmdline=\\"x\\" '
                             '#00000000"}')
                mixed.append('{"dt": "t", "lvl": "feedback", "ns": "other", "msg": "@hz1 2 x"}')
        mixed.insert(len(mixed) // 2, "Traceback (most recent call last):")
        self.check(mixed, set(), "line ")
        for _, job in self.read(mixed):
            self.assertEqual(len(job.problems), 1)

    def test_many_bad_lines_counted(self) -> None:
        lines = self.stream.split("\n")
        lines[5:5] = ["noise"] * (lavalog.MAX_SAID + 3)
        for _, job in self.read(lines):
            self.assertEqual(len(job.problems), lavalog.MAX_SAID + 1)
            self.assertEqual(job.problems[-1], "3 more lines not LAVA log entries, left out")

    def test_the_command_says_so(self) -> None:
        """report exits 1 on a damaged LAVA log and names the line LAVA's
        reader left out."""
        lines, i, _ = self.record_line(20)
        lines[i] = lines[i][:-10]
        with tempfile.TemporaryDirectory() as d:
            bad = Path(d) / "lava-damaged.yaml"
            bad.write_text("\n".join(lines))
            r = subprocess.run([*HZ, "report", str(bad)], capture_output=True, text=True)
        self.assertEqual(r.returncode, 1)
        self.assertIn(f"lava-damaged.yaml: lava-run log stream: line {i + 1}: not an entry "
                      "as LAVA writes it (cut off", r.stderr)
        self.assertIn("boot 0: records 20..20 missing", r.stderr)
        self.assertIn("damaged", r.stdout)


class Lab(unittest.TestCase):
    """Done when: `table` of two LAVA job logs from two QEMU CPU models
    (-cpu EPYC-Milan, lava-run's stream; -cpu Icelake-Server, a server's
    output.yaml) prints one section per machine."""

    def test_a_section_per_machine(self) -> None:
        r = subprocess.run([*HZ, "table", str(MILAN), str(ICELAKE)],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        heads = re.findall(r"^seed-001, hugezero, (.*): (\d+) boot\(s\)$", r.stdout, re.M)
        self.assertEqual(heads, [("AMD EPYC-Milan Processor (LAVA job 201)", "1"),
                                 ("Intel Xeon Processor (Icelake) (LAVA job 202)", "1")])
        self.assertEqual(len(re.findall(r"^seed-001 hugezero, preempt=none$", r.stdout, re.M)), 2)
        milan, icelake = r.stdout.split("\nseed-001, hugezero, Intel")
        self.assertIn("LAVA job 201 (lava-dispatcher 2023.01, lava-run log stream): device "
                      "qemu-system-x86_64 -m 512 -machine pc -cpu EPYC-Milan -smp 1", milan)
        self.assertIn("LAVA job 202 (lava-dispatcher 2023.01, LAVA job log (output.yaml)): "
                      "device qemu-system-x86_64 -m 512 -machine pc -cpu Icelake-Server", icelake)
        self.assertNotIn("Intel", milan)
        self.assertNotIn("EPYC", icelake)

    def test_sections_are_not_pooled(self) -> None:
        """Each machine's section is its log's own table, figure for figure."""
        both = io.StringIO()
        table.write(lavalog.boots(text(MILAN))[0] + lavalog.boots(text(ICELAKE))[0], "text", both)
        for log in (MILAN, ICELAKE):
            alone = io.StringIO()
            table.write(lavalog.boots(text(log))[0], "text", alone)
            rows = re.findall(r"^  pg-sz=.*$", alone.getvalue(), re.M)
            self.assertEqual(len(rows), 2)
            for row in rows:
                self.assertIn(row, both.getvalue())

    def test_one_machine_unnamed_as_before(self) -> None:
        out = io.StringIO()
        table.write(lavalog.boots(text(MILAN))[0], "text", out)
        self.assertIn("\nseed-001, hugezero: 1 boot(s)\n", out.getvalue())
        self.assertIn("  LAVA job 201 (", out.getvalue())

    @unittest.skipIf(importlib.util.find_spec("matplotlib") is None,
                     "no matplotlib for this python: run with /usr/bin/python3")
    def test_plot_of_two_jobs(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            r = subprocess.run([*HZ, "plot", str(MILAN), str(ICELAKE), "-o", d,
                                "--kind", "gbps"], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertTrue((Path(d) / "gbps.svg").stat().st_size > 0)
            svg = (Path(d) / "gbps.svg").read_text()
        self.assertIn("EPYC-Milan", svg)
        self.assertIn("Icelake", svg)

    def test_compare_of_two_jobs(self) -> None:
        r = subprocess.run([*HZ, "compare", str(MILAN), str(ICELAKE)],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("contiguous-page", r.stdout)


class Redact(unittest.TestCase):
    """A connection command's secrets never reach a report or a table."""

    def test_secrets(self) -> None:
        for cmd, want in (
                ("ipmitool -I lanplus -H bmc -U lava -P s3cret sol activate",
                 "ipmitool -I lanplus -H bmc -U lava -P *** sol activate"),
                ("ipmitool -I lanplus -H bmc -U lava -f /etc/pw sol activate",
                 "ipmitool -I lanplus -H bmc -U lava -f /etc/pw sol activate"),
                ("telnet ser2net.lab 7011", "telnet ser2net.lab 7011"),
                ("conmux --password=abc server01", "conmux --password=*** server01")):
            self.assertEqual(lavalog.redact(cmd), want)


if __name__ == "__main__":
    unittest.main()

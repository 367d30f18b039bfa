# SPDX-License-Identifier: GPL-2.0-only
"""scripts/hugezero lava job: LAVA job definitions (docs/lab.md).

Without LAVA: the jobs' YAML, their timeouts, bad inputs, and the KTAP
monitors run on consoles by a stand-in of lava-dispatcher's monitor
loop (MonitorSim, fed in chunks that cut lines).  With LAVA's lava-run
(scripts/setup.sh --lab) and root: the x86 jobs validated against the
device dictionary of docs/lab.md, BIOS and UEFI, and qemu jobs run by
lava-run itself: a default boot, a failing case, a crash, a benchmark.
"""
from __future__ import annotations

import dataclasses

import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from hzlib import image, lava, paths, qemu  # noqa: E402

HUGEZERO = ROOT / "scripts" / "hugezero"
LOGS = paths.BUILD / "test-logs"
LAB_MD = ROOT / "docs" / "lab.md"

try:
    import yaml
except ImportError:         # python3-yaml comes with lava-dispatcher
    yaml = None


def hugezero(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(HUGEZERO), *args],
                          capture_output=True, text=True, timeout=300)


def need_built(t: unittest.TestCase) -> None:
    for p in (paths.ELF, lava.COMPANION):
        if not p.exists():
            t.skipTest(f"{p} not built ({paths.make_command(p.parent)})")


# The lab's parts, each a probe returning what is missing or None.  The
# programs are found where scripts/setup.sh --lab looks (HZ_SETUP_LAVA_RUN,
# HZ_SETUP_TFTPD, HZ_SETUP_TFTPD_DEFAULT point them elsewhere: a test of a
# half-installed machine), else as lava-dispatcher finds them (PATH).
def _program(env: str, name: str, package: str) -> str | None:
    given = os.environ.get(env)
    path = given or shutil.which(name)
    if path and os.path.isfile(path) and os.access(path, os.X_OK):
        return None
    return f"{name} {'at ' + given if given else 'on PATH'} (package {package})"


def _tftpd_directory() -> str | None:
    """lava-dispatcher's tftpd_dir(): TFTP_DIRECTORY of tftpd-hpa's settings."""
    conf = Path(os.environ.get("HZ_SETUP_TFTPD_DEFAULT") or "/etc/default/tftpd-hpa")
    try:
        m = re.search(r'(?m)^\s*TFTP_DIRECTORY\s*=\s*"?([^"\n]*)"?', conf.read_text())
    except OSError:
        return f"{conf} (package tftpd-hpa)"
    if not m or not Path(m.group(1)).is_dir():
        return f"the TFTP directory of {conf} (package tftpd-hpa: TFTP_DIRECTORY=)"
    return None


LAB_PARTS = {
    "lava-run": lambda: _program("HZ_SETUP_LAVA_RUN", "lava-run", "lava-dispatcher"),
    "python3-yaml": lambda: None if yaml is not None else
    "python3-yaml (package python3-yaml, a dependency of lava-dispatcher)",
    "tftpd-hpa": lambda: _program("HZ_SETUP_TFTPD", "in.tftpd", "tftpd-hpa")
    or _tftpd_directory(),
    "root": lambda: None if os.geteuid() == 0 else "root (lava-run runs jobs as root only)",
}


def lab_missing(*parts: str) -> str | None:
    """What of the lab's @parts (LAB_PARTS' names) this machine lacks,
    named, or None.  Where HZ_REQUIRE_LAB=1 (.ci/run, which installs
    them) a missing part is a failure: AssertionError."""
    lacks = [why for p in parts if (why := LAB_PARTS[p]())]
    if not lacks:
        return None
    why = (f"missing {'; '.join(lacks)}: scripts/setup.sh --lab installs "
           f"{'it' if len(lacks) == 1 else 'them'}")
    if os.environ.get("HZ_REQUIRE_LAB") == "1":
        raise AssertionError(f"HZ_REQUIRE_LAB=1, but {why}")
    return why


def need_lab(*parts: str) -> None:
    """Skip (unittest.SkipTest) unless every one of @parts is here."""
    why = lab_missing(*parts)
    if why:
        raise unittest.SkipTest(why)


def case_id(name: str) -> str:
    """As lava-dispatcher's monitor names a case."""
    return re.sub(r"\W+", "_", name.strip().lower())


def ktap_cases(console: str) -> list[tuple[str, str, str]]:
    """(definition, case, result) the monitors should record for each
    KTAP result line of @console: a suite's lines in the suite, the
    rest and the done line in "hugezero"."""
    out, suite = [], None
    for raw in console.replace("\r", "").split("\n"):
        m = re.match(r"\s*# Subtest: (\S+)", raw)
        if m:
            suite = m.group(1)
            continue
        m = re.match(r"(\s*)(ok|not ok) \d+ ([^#]*?)\s*(#\s*SKIP.*)?$", raw)
        if m:
            indent, ok, name, skip = m.groups()
            res = "skip" if skip else "pass" if ok == "ok" else "fail"
            if indent or name == suite:
                out.append((suite or "?", case_id(name), res))
            else:
                out.append((lava.LAST, case_id(name), res))
            if not indent:
                suite = None
            continue
        m = re.search(r"hugezero: done rc=(-?\d+)", raw)
        if m:
            out.append((lava.LAST, "done", "pass" if m.group(1) == "0" else "fail"))
    return out


class MonitorSim:
    """lava-dispatcher's TestMonitorAction over a console arriving in
    chunks: per monitor, expect its start, then end or pattern; pexpect
    takes the earliest match (a tie: the first pattern, `end`), drops the
    buffer through it, and waits for more data when nothing matches."""

    def __init__(self, mons: list[dict], chunks: list[str]) -> None:
        self.mons, self.chunks, self.buf = mons, list(chunks), ""
        self.results: list[tuple[str, str, str, str]] = []

    def expect(self, pats: list[str]) -> int | None:
        comp = [re.compile(p, re.DOTALL) for p in pats]
        while True:
            best = None
            for i, c in enumerate(comp):
                m = c.search(self.buf)
                if m and (best is None or m.start() < best[1].start()):
                    best = (i, m)
            if best:
                self.buf = self.buf[best[1].end():]
                self.match = best[1]
                return best[0]
            if not self.chunks:
                return None         # EOF, or a timeout on a live console
            self.buf += self.chunks.pop(0)

    def run(self) -> list[str]:
        ended = []
        for mon in self.mons:
            if self.expect([mon["start"]]) is None:
                break
            while True:
                i = self.expect([mon["end"], mon["pattern"]])
                if i is None:
                    return ended
                if i == 0:
                    ended.append(mon["name"])
                    break
                g = self.match.groupdict()
                res = mon["fixupdict"].get(g["result"], g["result"])
                self.results.append((mon["name"], case_id(g["test_case_id"]), res,
                                     g["test_case_id"].strip()))
        return ended


def cut(text: str, seed: int) -> list[str]:
    """@text in chunks of 1 to 40 characters: lines arrive in pieces."""
    rnd, out, i = random.Random(seed), [], 0
    while i < len(text):
        n = rnd.randint(1, 40)
        out.append(text[i:i + n])
        i += n
    return out


def line(**kw: object) -> lava.Line:
    base = dict(args=[], bench="none", selftest=True, crash="none", preset="none",
                deadline_s=3600, cpus="0", steps=1, size=64 << 20, runs=3, warmups=1,
                configs=0)
    base.update(kw)
    return lava.Line(**base)  # type: ignore[arg-type]


SUITES = ["boot", "cmdline"]
CONSOLE = """\x1b[2JGRUB ok 1 not a result\r
hugezero 0.3: loader 'GRUB'\r
KTAP version 1\r
1..3\r
    KTAP version 1\r
    # Subtest: boot\r
    1..3\r
    ok 1 bootinfo_valid\r
hugezero: memory: a diagnostic inside a suite\r
    # boot: a note\r
    ok 2 acpi_tables # SKIP no ACPI here\r
    not ok 3 console_present\r
not ok 1 boot\r
    KTAP version 1\r
    # Subtest: cmdline\r
    1..1\r
    ok 1 boot\r
ok 2 cmdline\r
    KTAP version 1\r
    # Subtest: fault\r
    1..2\r
@hz1 6 config cfg=1 name=2M.rep.contiguous-page ok 1 #00000000\r
    ok 1 2M.erms.contiguous-page\r
    not ok 2 2M.rep.contiguous-page\r
not ok 3 fault\r
hugezero: 2 passed, 2 failed, 1 skipped\r
@hz1 18 end records=18 #c868e757\r
hugezero: done rc=1\r
"""


class MonitorTest(unittest.TestCase):
    """The monitors on consoles, cut into chunks as a serial line gives them."""

    def sim(self, console: str, ln: lava.Line, seed: int) -> MonitorSim:
        s = MonitorSim(lava.monitors(ln, SUITES), cut(console, seed))
        self.ended = s.run()
        return s

    def test_every_result_line_one_case(self) -> None:
        ln = line(bench="fault", configs=2)
        for seed in range(200):
            s = self.sim(CONSOLE, ln, seed)
            got = [r[:3] for r in s.results]
            self.assertEqual(got, ktap_cases(CONSOLE), seed)
            self.assertEqual(self.ended, ["boot", "cmdline", "fault", "hugezero"])
        names = [(r[0], r[1]) for r in s.results]
        self.assertEqual(len(names), len(set(names)), "case ids are unique")
        self.assertIn(("boot", "acpi_tables", "skip", "acpi_tables"), s.results)
        self.assertIn(("fault", "2m_rep_contiguous_page", "fail", "2M.rep.contiguous-page"),
                      s.results)
        self.assertIn(("hugezero", "done", "fail", "done"), s.results)
        # The same leaf name in two suites: two cases.
        self.assertIn(("cmdline", "boot", "pass", "boot"), s.results)
        self.assertIn(("boot", "boot", "fail", "boot"), s.results)

    def test_done_rc_0_passes_any_other_fails(self) -> None:
        for rc, want in (("0", "pass"), ("3", "fail"), ("10", "fail"), ("-1", "fail")):
            con = CONSOLE.replace("done rc=1", f"done rc={rc}")
            s = self.sim(con, line(bench="fault"), 1)
            self.assertEqual(s.results[-1][:3], ("hugezero", "done", want), rc)

    def test_a_crash_inside_a_suite_still_ends_with_done(self) -> None:
        con = CONSOLE[:CONSOLE.index("    ok 2 acpi_tables")] + (
            "hugezero: unexpected exception 14 (#PF page fault) on cpu 0\r\n"
            "    not ok 2 acpi_tables\r\n"
            "    # stopped inside boot.acpi_tables by an unexpected exception\r\n"
            "hugezero: fatal: unexpected exception; stopping the run\r\n"
            "hugezero: done rc=3\r\n")
        s = self.sim(con, line(bench="fault"), 2)
        self.assertEqual([r[:3] for r in s.results], [
            ("boot", "bootinfo_valid", "pass"), ("boot", "acpi_tables", "fail"),
            ("hugezero", "done", "fail")])
        self.assertEqual(self.ended[-1], "hugezero")

    def test_a_deadline_is_a_failed_case(self) -> None:
        con = CONSOLE[:CONSOLE.index("    ok 1 2M.erms")] + (
            "hugezero: deadline_s=3 passed (checked between passes) during "
            "2M.erms.contiguous-page on cpu 0, fault 3; stopping the run\r\n"
            "    # aborted: deadline\r\n"
            "not ok 3 fault\r\n"
            "not ok 4 deadline\r\n"
            "hugezero: done rc=4\r\n")
        s = self.sim(con, line(bench="fault"), 3)
        self.assertEqual([r[:3] for r in s.results][-3:], [
            ("fault", "fault", "fail"), ("hugezero", "deadline", "fail"),
            ("hugezero", "done", "fail")])

    def test_no_suites(self) -> None:
        con = ("KTAP version 1\r\n1..0\r\n# self-tests off (selftest=off)\r\n"
               "hugezero: crash=pf requested: raising it now\r\nhugezero: done rc=3\r\n")
        s = self.sim(con, line(selftest=False), 4)
        self.assertEqual([r[:3] for r in s.results], [("hugezero", "done", "fail")])

    def test_suites_are_the_kernels(self) -> None:
        names = lava.selftest_suites()
        self.assertEqual(names[:2], ["boot", "cmdline"])
        src = (ROOT / "kernel" / "selftest" / "selftest.c").read_text()
        self.assertEqual(len(names), src.count("&suite_"))
        mons = lava.monitors(line(bench="fault"))
        self.assertEqual([m["name"] for m in mons], names + ["fault", "hugezero"])
        self.assertEqual([m["name"] for m in lava.monitors(line(selftest=False))],
                         ["hugezero"])


class TimeoutTest(unittest.TestCase):
    """A hung machine ends its job: every timeout is finite and follows
    the line's work and deadline_s."""

    def test_console_bounds_a_configuration(self) -> None:
        """samples=all over a 115200-baud console: a server's many CPUs
        printing every fault's times take longer than the clearing, and
        the monitors' wait for the next line must cover it."""
        seed000 = line(bench="fault", configs=4, size=2 << 30, runs=5, warmups=1,
                       cpus="all", min_folio=2 << 20)
        quiet = line(bench="fault", configs=4, size=2 << 30, runs=5, warmups=1,
                     cpus="all", min_folio=2 << 20, samples="none")
        few = lava.config_seconds(seed000, "x86", server_cpus=8)
        many = lava.config_seconds(seed000, "x86", server_cpus=384)
        self.assertGreater(many, 20 * few / 2, "grows with the server's CPUs")
        self.assertGreater(lava.console_seconds(seed000, "x86", server_cpus=384),
                           1000 * 5 * 2 * 11 * 384 // 11520 // 2)
        self.assertEqual(lava.console_seconds(quiet, "x86", server_cpus=384), 0)
        _, _, boot, _ = lava.timeouts(seed000, "x86", 1, 384)
        self.assertGreaterEqual(boot["minutes"] * 60, min(many, 3600 + lava.DEADLINE_GRACE_S),
                                "or the kernel's deadline ends the run first")
        unbounded = dataclasses.replace(seed000, deadline_s=0)
        _, _, boot, _ = lava.timeouts(unbounded, "x86", 1, 384)
        self.assertGreaterEqual(boot["minutes"] * 60, many)

    def test_deadline_bounds_the_run(self) -> None:
        big = line(bench="fault", configs=80, size=16 << 30, runs=5, warmups=1)
        t = lava.run_seconds(big, "x86")
        self.assertEqual(t, 3600 + lava.DEADLINE_GRACE_S)
        self.assertLess(lava.run_seconds(line(bench="fault", configs=80, size=16 << 30,
                                              deadline_s=600), "x86"), t)
        # No deadline: the work alone, still finite.
        self.assertGreater(lava.run_seconds(line(bench="fault", configs=80, size=16 << 30,
                                                 deadline_s=0), "x86"), t)

    def test_more_work_more_time(self) -> None:
        small = lava.run_seconds(line(bench="fault", configs=4, size=16 << 20), "qemu")
        big = lava.run_seconds(line(bench="fault", configs=4, size=1 << 30), "qemu")
        self.assertLess(small, big)
        self.assertLess(lava.run_seconds(line(), "qemu"), 3600,
                        "self-tests only: far under the default deadline")
        self.assertLess(lava.run_seconds(line(selftest=False, bench="info"), "qemu"),
                        lava.run_seconds(line(bench="info"), "qemu"))

    def test_boot_timeout_covers_one_configuration(self) -> None:
        # The monitors wait for one line as long as the boot action's timeout.
        ln = line(bench="fault", configs=2, size=64 << 30, runs=5, deadline_s=0)
        _, _, boot, test = lava.timeouts(ln, "x86", 1)
        self.assertGreaterEqual(boot["minutes"] * 60, lava.config_seconds(ln, "x86"))
        self.assertGreaterEqual(test["minutes"], boot["minutes"])


class JobTest(unittest.TestCase):
    def setUp(self) -> None:
        need_lab("python3-yaml")
        need_built(self)

    def job(self, *args: str) -> dict:
        r = hugezero("lava", "job", *args)
        self.assertEqual(r.returncode, 0, r.stderr)
        return yaml.safe_load(r.stdout)

    def test_qemu_job(self) -> None:
        j = self.job("--device-type", "qemu", "--cpu", "EPYC-Milan", "--smp", "4",
                     "--mem", "8G", "--", "selftest=off", "bench=info")
        self.assertEqual(j["device_type"], "qemu")
        self.assertEqual(j["context"]["memory"], 8192)
        self.assertTrue(j["context"]["no_kvm"])
        self.assertEqual(j["context"]["extra_options"],
                         ["-machine q35", "-cpu EPYC-Milan", "-smp 4"])
        deploy, boot, test = (a[k] for a, k in zip(j["actions"], ("deploy", "boot", "test")))
        self.assertEqual(deploy["to"], "tmpfs")
        img = deploy["images"]["hugezero"]
        self.assertIn("media=cdrom", img["image_arg"])
        self.assertIn("file={hugezero}", img["image_arg"])
        self.assertTrue(Path(img["url"][len("file://"):]).exists())
        self.assertEqual((boot["method"], boot["media"]), ("qemu", "tmpfs"))
        self.assertEqual([m["name"] for m in test["monitors"]], ["hugezero"])
        for m in test["monitors"]:
            for k in ("start", "end", "pattern"):
                re.compile(m[k])
        self.assertEqual(lava.to_yaml(j), hugezero("lava", "job", "--device-type", "qemu",
                         "--cpu", "EPYC-Milan", "--smp", "4", "--mem", "8G", "--",
                         "selftest=off", "bench=info").stdout, "read back, written the same")

    def test_x86_job_bios_and_uefi(self) -> None:
        for fw, ext in (("bios", ".0"), ("uefi", ".efi")):
            j = self.job("--device-type", "x86", "--firmware", fw, "--", "preset=seed-001")
            deploy, boot, test = (a[k] for a, k in zip(j["actions"],
                                                       ("deploy", "boot", "test")))
            self.assertEqual(deploy["to"], "tftp")
            self.assertTrue(deploy["kernel"]["url"].endswith(ext))
            self.assertEqual(boot["method"], "ipxe")
            self.assertIn("kernel tftp://{SERVER_IP}/{KERNEL}", boot["commands"])
            self.assertEqual(test["monitors"][-2]["name"], "fault")
            self.assertLessEqual(test["timeout"]["minutes"] * 60,
                                 3600 + lava.DEADLINE_GRACE_S + lava.END_S + 60)
        img = Path(j["actions"][0]["deploy"]["kernel"]["url"][len("file://"):])
        self.assertEqual(img.read_bytes()[:2], b"MZ", "a UEFI application")

    def test_image_url(self) -> None:
        j = self.job("--device-type", "x86", "--image-url",
                     "http://lab.example/hz/seed-001.efi", "--firmware", "uefi",
                     "--", "preset=seed-001")
        self.assertEqual(j["actions"][0]["deploy"]["kernel"]["url"],
                         "http://lab.example/hz/seed-001.efi")
        j = self.job("--device-type", "x86", "--image-url", "http://lab.example/hz/",
                     "--", "preset=seed-001")
        url = j["actions"][0]["deploy"]["kernel"]["url"]
        self.assertRegex(url, rf"^http://lab\.example/hz/lava-{image.build_name(paths.ELF)}-"
                         rf"{image.kernel_hash(paths.ELF)}-[0-9a-f]{{12}}\.0$")
        self.assertTrue((paths.BUILD / "images" / url.rsplit("/", 1)[1]).exists(),
                        "the file to put there")


class BuildsTest(unittest.TestCase):
    """lava job packs the image of the build it is given ($HZ_BUILD, or
    --elf) and checks its line with that build's companion; the images
    of several builds lie side by side in one cache, named by build."""

    def setUp(self) -> None:
        need_built(self)
        self.tmp = tempfile.TemporaryDirectory(prefix="hz-builds-")
        self.t = Path(self.tmp.name)
        for build, extra in (("base", b""), ("patched", b"\0a patched kernel")):
            (self.t / build).mkdir()
            (self.t / build / "hugezero.elf").write_bytes(paths.ELF.read_bytes() + extra)
            shutil.copy(lava.COMPANION, self.t / build / "hugezero-linux")

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def job(self, build: str, *args: str, elf: bool = False) -> subprocess.CompletedProcess:
        """lava job of @build's kernel: named by --elf (@elf) from the
        build "cache", or by HZ_BUILD."""
        env = {**os.environ, "HZ_BUILD": str(self.t / ("cache" if elf else build))}
        more = ["--elf", str(self.t / build / "hugezero.elf")] if elf else []
        return subprocess.run([sys.executable, str(HUGEZERO), "lava", "job", *more, *args],
                              capture_output=True, text=True, timeout=300, env=env)

    def name(self, build: str) -> str:
        """The start of @build's images' names: lava-BUILD-KERNEL-."""
        elf = self.t / build / "hugezero.elf"
        return f"lava-{image.build_name(elf)}-{image.kernel_hash(elf)}-"

    def test_side_by_side(self) -> None:
        cache = self.t / "cache" / "images"
        got = {b: lava.build_netimage(["selftest=off"], "bios",
                                      self.t / b / "hugezero.elf", cache)
               for b in ("base", "patched")}
        for b, img in got.items():
            self.assertTrue(img.name.startswith(self.name(b)), img.name)
        self.assertNotEqual(self.name("base"), self.name("patched"))
        # The base kernel rebuilt: only the base build's older image goes.
        with open(self.t / "base" / "hugezero.elf", "ab") as f:
            f.write(b"\0rebuilt")
        again = lava.build_netimage(["selftest=off"], "bios",
                                    self.t / "base" / "hugezero.elf", cache)
        self.assertTrue(again.name.startswith(self.name("base")))
        self.assertEqual(sorted(p.name for p in cache.glob("lava-*")),
                         sorted([again.name, got["patched"].name]))
        # An image of the old naming (no build) is stale.
        old = cache / ("lava-" + "0" * 12 + "-" + "1" * 12 + ".0")
        old.write_bytes(b"")
        lava.build_netimage(["selftest=on"], "bios", self.t / "patched" / "hugezero.elf",
                            cache)
        self.assertFalse(old.exists())
        self.assertTrue(again.exists() and got["patched"].exists())

    def test_isos_side_by_side(self) -> None:
        cache = self.t / "cache" / "images"
        isos = [image.build_iso(["selftest=off"], self.t / b / "hugezero.elf", cache)
                for b in ("base", "patched")]
        self.assertTrue(all(p.exists() for p in isos), isos)
        self.assertEqual([p.name.split("-")[1].split(".")[0] for p in isos], ["base", "patched"])

    def test_each_job_names_its_own(self) -> None:
        for elf in (False, True):
            urls = {}
            for b in ("base", "patched"):
                r = self.job(b, "--device-type", "x86", "--image-url", "http://lab/hz/",
                             "--", "preset=seed-001", elf=elf)
                self.assertEqual(r.returncode, 0, r.stderr)
                urls[b] = re.search(r"(?m)^ +url: '?([^'\s]+)'?$", r.stdout).group(1)
                self.assertTrue(urls[b].startswith("http://lab/hz/" + self.name(b)), urls[b])
                where = self.t / ("cache" if elf else b) / "images"
                self.assertTrue((where / urls[b].rsplit("/", 1)[1]).exists(), (elf, where))
            if elf:
                self.assertEqual(len(list((self.t / "cache" / "images").glob("lava-*"))), 2,
                                 "one cache holds both")

    def test_line_checked_by_the_builds_companion(self) -> None:
        script = self.t / "patched" / "hugezero-linux"
        script.write_text("#!/bin/sh\necho 'hugezero-linux: the patched parser refuses' >&2\n"
                          "exit 2\n")
        for elf in (False, True):
            r = self.job("patched", "--device-type", "qemu", "--", "selftest=off", elf=elf)
            self.assertNotEqual(r.returncode, 0)
            self.assertIn("bad boot line 'selftest=off': the patched parser refuses", r.stderr)
            self.assertEqual(self.job("base", "--device-type", "qemu", "--",
                                      "selftest=off", elf=elf).returncode, 0)
        script.unlink()
        r = self.job("patched", "--device-type", "x86", "--", "selftest=off")
        self.assertIn(f"{script} missing: run make BUILD={self.t / 'patched'}", r.stderr)


class NetImageBootTest(unittest.TestCase):
    """The x86 job's image boots through iPXE: QEMU's NIC ROM is iPXE,
    which chain-loads the boot file its DHCP names from QEMU's TFTP, as
    the job's `kernel tftp://...` and `boot` do on a server."""

    def test_bios_and_uefi(self) -> None:
        need_built(self)
        LOGS.mkdir(parents=True, exist_ok=True)
        for fw in ("bios", "uefi"):
            with self.subTest(firmware=fw):
                self.boots(fw)

    def boots(self, fw: str) -> None:
        if fw == "uefi" and qemu.ovmf_missing():
            self.skipTest(str(qemu.ovmf_missing()))
        img = lava.build_netimage(["selftest=off"], fw)
        with tempfile.TemporaryDirectory() as tmp:
            # Where the pxe media of qemu.boot serves its boot file from.
            sub = "i386-pc/core.0" if fw == "bios" else "x86_64-efi/core.efi"
            dst = Path(tmp) / "boot" / "grub" / sub
            dst.parent.mkdir(parents=True)
            shutil.copy(img, dst)
            spec = qemu.BootSpec(Path(tmp), firmware=fw, media="pxe", timeout=240)
            res = qemu.boot(spec, log_file=LOGS / f"lava-netimage-{fw}.log")
        ok, why = qemu.verdict(res)
        self.assertTrue(ok, f"{fw}: {why}")
        self.assertIn(f"{'BIOS' if fw == 'bios' else 'UEFI'} boot", res.log)
        self.assertIn("cmdline 'selftest=off'", res.log)


class BadInputTest(unittest.TestCase):
    def setUp(self) -> None:
        need_built(self)

    def refused(self, want: str, *args: str) -> None:
        r = hugezero("lava", "job", *args)
        self.assertNotEqual(r.returncode, 0, args)
        self.assertEqual(r.stdout, "", "no job written")
        self.assertIn(want, r.stderr, args)

    def test_unknown_device_type(self) -> None:
        self.refused("invalid choice: 'arm64'", "--device-type", "arm64")

    def test_bad_boot_line(self) -> None:
        self.refused("unknown key 'bogus' (in 'bogus=1')", "--device-type", "qemu", "--",
                     "bogus=1")
        self.refused("key 'exit': 'sometimes' is not one of auto|qemu|halt|reboot",
                     "--device-type", "x86", "--", "exit=sometimes")
        self.refused("key 'cpu' has no meaning in the kernel", "--device-type", "x86",
                     "--", "cpu=3")
        self.refused("preset", "--device-type", "x86", "--", "preset=seed-999")

    def test_bad_options(self) -> None:
        self.refused("--firmware bios", "--device-type", "qemu", "--firmware", "uefi")
        self.refused("memory 'lots'", "--device-type", "qemu", "--mem", "lots")
        self.refused("--smp 'x'", "--device-type", "qemu", "--smp", "x")
        self.refused("docs/lab.md", "--device-type", "x86", "--device-out", "/dev/null")
        self.refused("--cpu, --smp: the qemu device type's", "--device-type", "x86",
                     "--cpu", "EPYC-Milan", "--smp", "4", "--", "preset=seed-001")
        self.refused("--server-cpus: an x86 server's", "--device-type", "qemu",
                     "--server-cpus", "8")
        self.refused("no -no-reboot", "--device-type", "qemu", "--", "exit=reboot")

    def test_long_job_warned(self) -> None:
        r = hugezero("lava", "job", "--device-type", "x86", "--", "deadline_s=0",
                     "bench=fault", "size=1T", "runs=1000", "selftest=off")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertRegex(r.stderr, r"warning: the job's timeout is \d+ h")
        r = hugezero("lava", "job", "--device-type", "x86", "--", "deadline_s=0",
                     "bench=fault", "size=64M", "selftest=off")
        self.assertIn("warning: deadline_s=0: the kernel never ends a hung run", r.stderr)


def lab_dictionary() -> str:
    """The device dictionary of docs/lab.md: its YAML block that starts
    with the line `# server01.yaml`."""
    m = re.search(r"```yaml\n(# server01\.yaml\n.*?)```", LAB_MD.read_text(), re.S)
    if not m:
        raise AssertionError("docs/lab.md has no ```yaml block starting '# server01.yaml'")
    return m.group(1)


def lava_run(job: Path, device: Path, out: Path, job_id: int, validate: bool = False,
             timeout: float = 600) -> tuple[int, list[dict], str]:
    """lava-run's status, its log stream (one mapping a line, on stderr)
    and that stream's text."""
    cmd = ["lava-run", "--job-id", str(job_id), "--device", str(device),
           "--output-dir", str(out), str(job)]
    if validate:
        cmd.insert(1, "--validate")
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                       env=qemu.child_env())
    entries = []
    for ln in r.stderr.splitlines():
        if ln.startswith("{"):
            entries.append(yaml.load(ln, Loader=getattr(yaml, "CSafeLoader",
                                                          yaml.SafeLoader)))
    return r.returncode, entries, r.stderr


def results(entries: list[dict]) -> list[dict]:
    return [e["msg"] for e in entries if e.get("lvl") == "results"]


def console(entries: list[dict]) -> str:
    return "".join(str(e["msg"]) + "\n" for e in entries if e.get("lvl") == "target")


class LabDictionaryTest(unittest.TestCase):
    """Done when: the x86 job of preset=seed-001 validates against the
    device dictionary in docs/lab.md, BIOS and UEFI.  A TFTP deploy's
    validation runs in.tftpd and reads TFTP_DIRECTORY (tftp.py)."""

    def setUp(self) -> None:
        need_lab("lava-run", "python3-yaml", "tftpd-hpa", "root")

    def test_validates(self) -> None:
        need_built(self)
        with tempfile.TemporaryDirectory() as tmp:
            t = Path(tmp)
            dev = t / "server01.yaml"
            dev.write_text(lab_dictionary())
            for i, fw in enumerate(("bios", "uefi")):
                job = t / f"{fw}.yaml"
                r = hugezero("lava", "job", "--device-type", "x86", "--firmware", fw,
                             "-o", str(job), "--", "preset=seed-001")
                self.assertEqual(r.returncode, 0, r.stderr)
                rc, ents, text = lava_run(job, dev, t / "out", 90000 + os.getpid() % 1000 * 10 + i,
                                          validate=True, timeout=120)
                self.assertEqual(rc, 0, f"{fw}: {text[-3000:]}")
                self.assertIn({"case": "job", "definition": "lava", "result": "pass"},
                              results(ents), fw)


# lava-run on qemu jobs: (name, boot line).  Small boots; 12-30 s each.
RUNS = {
    "default": [],
    "failing": ["bench=fault", "folio=2M", "clear=rep", "order=contiguous-page",
                "size=16M", "runs=1", "selftest=off", "inject=skip-line", "inject_lines=64"],
    "crash": ["crash=pf", "selftest=off"],
    "bench": ["bench=fault", "folio=2M", "clear=rep,erms", "order=contiguous-page,"
              "converging-page", "size=16M", "runs=1", "selftest=off"],
}


class LavaRunTest(unittest.TestCase):
    """lava-run itself on hugezero's qemu jobs (deployed to tmpfs: no
    TFTP), two at a time."""
    runs: dict[str, tuple[int, list[dict], str]] = {}

    @classmethod
    def setUpClass(cls) -> None:
        need_lab("lava-run", "python3-yaml", "root")
        for p in (paths.ELF, lava.COMPANION):
            if not p.exists():
                raise unittest.SkipTest(f"{p} not built ({paths.make_command(p.parent)})")
        cls.tmp = tempfile.TemporaryDirectory()
        t = Path(cls.tmp.name)
        LOGS.mkdir(parents=True, exist_ok=True)

        def one(item: tuple[int, str]) -> tuple[str, tuple[int, list[dict], str]]:
            i, name = item
            job, dev = t / f"{name}.yaml", t / f"{name}-device.yaml"
            r = hugezero("lava", "job", "--device-type", "qemu",
                         "--device-out", str(dev), "-o", str(job), "--", *RUNS[name])
            if r.returncode:
                return name, (r.returncode, [], r.stderr)
            res = lava_run(job, dev, t / f"out-{name}", 80000 + os.getpid() % 1000 * 10 + i)
            (LOGS / f"lava-{name}.log").write_text(res[2])
            return name, res

        with ThreadPoolExecutor(max_workers=2) as ex:
            cls.runs = dict(ex.map(one, enumerate(RUNS)))

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def run_of(self, name: str) -> tuple[list[dict], dict[tuple[str, str], str]]:
        rc, ents, text = self.runs[name]
        self.assertEqual(rc, 0, f"lava-run {name}: {text[-3000:]}")
        res = results(ents)
        self.assertIn({"case": "job", "definition": "lava", "result": "pass"}, res,
                      f"{name}: the job itself completes")
        cases = [(r["definition"], r["case"], r["result"]) for r in res
                 if r["definition"] != "lava"]
        self.assertEqual(cases, ktap_cases(console(ents)),
                         f"{name}: one case per KTAP line of the console, in order")
        named = {(d, c): r for d, c, r in cases}
        self.assertEqual(len(named), len(cases), f"{name}: case ids unique")
        return ents, named

    def test_default_boot_passes(self) -> None:
        _, cases = self.run_of("default")
        self.assertEqual(cases[("hugezero", "done")], "pass")
        self.assertGreater(len(cases), 50)
        self.assertEqual([k for k, v in cases.items() if v == "fail"], [])
        self.assertIn("skip", cases.values(), "# SKIP lines are skips")
        suites = {d for d, _ in cases}
        self.assertTrue(set(lava.selftest_suites()) <= suites)

    def test_failing_case_fails(self) -> None:
        _, cases = self.run_of("failing")
        self.assertEqual(cases[("fault", "2m_rep_contiguous_page")], "fail",
                         "the configuration that failed verification, named")
        self.assertEqual(cases[("fault", "fault")], "fail")
        self.assertEqual(cases[("hugezero", "done")], "fail")

    def test_crash_fails(self) -> None:
        ents, cases = self.run_of("crash")
        self.assertEqual(cases, {("hugezero", "done"): "fail"})
        self.assertIn("unexpected exception 14", console(ents))

    def test_benchmark_reads_back(self) -> None:
        _, cases = self.run_of("bench")
        configs = {c: r for (d, c), r in cases.items() if d == "fault" and c != "fault"}
        self.assertEqual(len(configs), 4)
        self.assertEqual(set(configs.values()), {"pass"})
        self.assertEqual(cases[("hugezero", "done")], "pass")
        log = LOGS / "lava-bench.log"
        r = hugezero("report", str(log))
        self.assertEqual(r.returncode, 0, "no damaged record: " + r.stderr)
        r = hugezero("parse", str(log))
        self.assertEqual(r.returncode, 0, r.stderr)
        got = json.loads(r.stdout)
        self.assertEqual(len(got["configs"]), 4)
        self.assertEqual({c["status"] for c in got["configs"]}, {"ok"},
                         "every configuration verified")
        self.assertEqual([b["problems"] for b in got["boots"]], [[]])


if __name__ == "__main__":
    unittest.main()

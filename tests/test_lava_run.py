# SPDX-License-Identifier: GPL-2.0-only
"""scripts/hugezero lava run against a fake LAVA server (docs/lab.md,
"The lab in one command", "Exit statuses").

The fake is the standard library's XML-RPC server on 127.0.0.1, in a
thread, answering the methods lava run calls as lava-server 2023.01
does (lavaapi.py names them): HTTP 401 "Invalid token" for a token it
does not know, a fault for a submission without a user, job states
that move on at each show, output.yaml served by line ranges, and the
cases as CSV.  What it serves back are real logs of lava-run
(tests/data/lava), their results lines made the job's cases as a server
makes them.  Needs the kernel and companion built (the line is checked
and the ISO made as for a real server); runs everywhere else.
"""
from __future__ import annotations

import base64
import csv
import io
import itertools
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import xmlrpc.client
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable
from unittest import mock
from xmlrpc.server import SimpleXMLRPCRequestHandler, SimpleXMLRPCServer

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from hzlib import lava, lavaapi, lavalog, lavarun, paths  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))
import labjobs  # noqa: E402
import test_lava  # noqa: E402

HUGEZERO = ROOT / "scripts" / "hugezero"
DATA = ROOT / "tests" / "data" / "lava-run"
FAULT = DATA / "fault.lava-run.yaml"
CRASH = DATA / "crash.lava-run.yaml"
SKIP = DATA / "skip.lava-run.yaml"
MILAN = DATA / "seed-001-milan.lava-run.yaml"
ICELAKE = DATA / "seed-001-icelake.lava-run.yaml"
FAULT_LINE = ["bench=fault", "folio=2M", "size=8M", "clear=erms,rep",
              "order=contiguous-page", "runs=2", "selftest=off"]
SKIP_LINE = ["bench=fault", "folio=2M", "size=4M", "clear=avx512,erms",
             "order=contiguous-page", "runs=2", "selftest=off"]
SEED_LINE = ["preset=seed-001", "folio=2M", "size=4M", "runs=2", "warmups=0",
             "selftest=off", "clear=erms,rep"]
USER, TOKEN = "lab", "s3cret"


def server_form(text: str) -> str:
    """A lava-run stream as a server stores it (output.yaml): `- ` before
    each line (tests/data/lava/README.md)."""
    return "".join(ln if ln.startswith("- ") else "- " + ln
                   for ln in text.splitlines(keepends=True) if ln.strip())


def cases_csv(log: str, job: str) -> str:
    """The job's cases as results.get_testjob_results_csv writes them:
    one row per results line of the log."""
    out = io.StringIO()
    cols = ["job", "suite", "result", "measurement", "unit", "duration", "timeout",
            "logged", "level", "metadata", "url", "name", "id", "log_start_line",
            "log_end_line"]
    w = csv.DictWriter(out, cols, quoting=csv.QUOTE_ALL, extrasaction="ignore")
    w.writeheader()
    for ln in log.splitlines():
        e, _ = lavalog.entry(ln[2:].rstrip("\r"))
        if e["lvl"] == "results" and isinstance(e["msg"], dict):
            m = e["msg"]
            w.writerow({"job": job, "suite": m["definition"], "result": m["result"],
                        "name": m["case"], "level": m.get("level", "")})
    return out.getvalue()


@dataclass
class Script:
    """What a job does on the fake server: shows queued, then running,
    then finished with @health (never, with @hang)."""
    log: str = ""
    health: str = "Complete"
    comment: str = ""
    queued: int = 1
    running: int = 1
    hang: bool = False


@dataclass
class FakeJob:
    id: str
    definition: str
    script: Script
    device: str
    shows: int = 0
    canceled: bool = False
    state: str = "Submitted"
    health: str = "Unknown"


@dataclass
class FakeLava:
    """The server's side: devices (hostname, health, tags) of type qemu,
    and a Script per device (or '*')."""
    devices: list[tuple[str, str, list[str]]]
    scripts: dict[str, Script]
    jobs: dict[str, FakeJob] = field(default_factory=dict)
    user: str | None = None
    calls: list[str] = field(default_factory=list)
    turn: int = 0
    dtype: str = "qemu"

    def methods(self) -> dict[str, object]:
        return {
            "system.version": lambda: "2023.01",
            "system.whoami": lambda: self.user,
            "scheduler.devices.list": self.dev_list,
            "scheduler.devices.show": self.dev_show,
            "scheduler.jobs.submit": self.submit,
            "scheduler.jobs.show": self.show,
            "scheduler.jobs.cancel": self.cancel,
            "scheduler.jobs.logs": self.logs,
            "results.get_testjob_results_csv": self.results,
        }

    def dev_list(self, show_all: bool = False) -> list[dict]:
        return [{"hostname": h, "type": self.dtype, "health": hl, "state": "Idle",
                 "current_job": None, "pipeline": True} for h, hl, _ in self.devices]

    def dev_show(self, host: str) -> dict:
        for h, hl, tags in self.devices:
            if h == host:
                return {"hostname": h, "device_type": self.dtype, "health": hl,
                        "state": "Idle", "tags": tags}
        raise xmlrpc.client.Fault(404, f"Device '{host}' was not found.")

    def submit(self, definition: str) -> int:
        if self.user is None:
            raise xmlrpc.client.Fault(401, "Authentication with user and token "
                                      "required for this API.")
        m = re.search(r"(?m)^tags:\n *- (\S+)", definition)
        usable = [h for h, hl, tags in self.devices if hl in ("Good", "Unknown")
                  and (not m or m.group(1) in tags)]
        dev = usable[self.turn % len(usable)]
        self.turn += 1
        jid = str(100 + len(self.jobs))
        self.jobs[jid] = FakeJob(jid, definition, self.scripts.get(dev) or
                                 self.scripts["*"], dev)
        return int(jid)

    def job(self, jid: str) -> FakeJob:
        if jid not in self.jobs:
            raise xmlrpc.client.Fault(404, f"Job '{jid}' was not found.")
        return self.jobs[jid]

    def show(self, jid: str) -> dict:
        j = self.job(jid)
        j.shows += 1
        s = j.script
        if j.canceled:
            j.state, j.health = ("Canceling", "Unknown") if j.state != "Canceling" else (
                "Finished", "Canceled")
        elif j.state != "Finished":
            if j.shows > s.queued:
                j.state = "Running"
            if j.shows > s.queued + s.running and not s.hang:
                j.state, j.health = "Finished", s.health
        running = j.state in ("Running", "Canceling", "Finished")
        return {"id": jid, "state": j.state, "health": j.health,
                "device": j.device if running else None, "device_type": self.dtype,
                "failure_comment": j.script.comment if j.health == "Incomplete" else None,
                "submitter": self.user, "description": "", "health_check": False}

    def cancel(self, jid: str) -> bool:
        self.calls.append(f"cancel {jid}")
        self.job(jid).canceled = True
        return True

    def logs(self, jid: str, start: int = 0, end: int | None = None) -> list:
        j = self.job(jid)
        lines = j.script.log.splitlines(keepends=True)
        if j.state == "Submitted":
            lines = []
        elif j.state != "Finished":
            lines = lines[:len(lines) // 2]
        data = "".join(lines[start:end])
        return [j.state == "Finished", xmlrpc.client.Binary((data or "[]").encode())]

    def results(self, jid: str) -> str:
        return cases_csv(self.job(jid).script.log, jid)


class Handler(SimpleXMLRPCRequestHandler):
    rpc_paths = ("/RPC2",)

    def do_POST(self) -> None:
        fake = self.server.fake  # type: ignore[attr-defined]
        fake.user = None
        auth = self.headers.get("Authorization")
        if auth:
            user, _, secret = base64.b64decode(auth.split(" ", 1)[1]).decode().partition(":")
            if (user, secret) != (USER, TOKEN):
                body = b"Invalid token"
                self.send_response(401)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            fake.user = user
        super().do_POST()

    def log_message(self, *args: object) -> None:
        pass


def need_built(t: unittest.TestCase) -> None:
    for p in (paths.ELF, lava.COMPANION):
        if not p.exists():
            t.skipTest(f"{p} not built ({paths.make_command(p.parent)})")


class Base(unittest.TestCase):
    def setUp(self) -> None:
        need_built(self)
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)
        self.servers: list[SimpleXMLRPCServer] = []

    def tearDown(self) -> None:
        for s in self.servers:
            s.shutdown()
            s.server_close()
        self.tmp.cleanup()

    def serve(self, fake: FakeLava) -> str:
        s = SimpleXMLRPCServer(("127.0.0.1", 0), Handler, allow_none=True,
                               logRequests=False)
        s.fake = fake  # type: ignore[attr-defined]
        for name, fn in fake.methods().items():
            s.register_function(fn, name)
        threading.Thread(target=s.serve_forever, daemon=True).start()
        self.servers.append(s)
        return f"http://127.0.0.1:{s.server_address[1]}/"

    def run_cli(self, url: str, *args: str, token: str = TOKEN,
                line: list[str] = FAULT_LINE,
                env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
        tf = self.dir / "token"
        tf.write_text(token + "\n")
        cmd = [sys.executable, str(HUGEZERO), "lava", "run", "--url", url,
               "--token-file", str(tf), "--username", USER, "--device-type", "qemu",
               "--poll", "0.02", "-o", str(self.dir / "out"), *args, "--", *line]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)

    def no_traceback(self, r: subprocess.CompletedProcess) -> None:
        self.assertNotIn("Traceback", r.stderr)


def failing(fake: FakeLava, method: str, when: Callable[[str], bool],
            fault: xmlrpc.client.Fault) -> None:
    """@fake's @method raising @fault for an argument @when holds of."""
    real = getattr(fake, method)

    def call(arg: str) -> object:
        if when(arg):
            raise fault
        return real(arg)
    setattr(fake, method, call)


def one_device(script: Script, health: str = "Good") -> FakeLava:
    return FakeLava([("qemu01", health, [])], {"*": script})


class RunTest(Base):
    def test_all_ok_prints_the_report(self) -> None:
        log = server_form(FAULT.read_text())
        fake = one_device(Script(log))
        r = self.run_cli(self.serve(fake))
        self.assertEqual(r.returncode, 0, r.stderr)
        for prim in ("erms", "rep"):
            self.assertRegex(r.stdout, rf"(?m)^2M +contiguous-page +{prim} +ok ")
        self.assertIn("device qemu01", r.stdout, "the device LAVA ran it on")
        err = r.stderr
        for want in ("job 100: submitted", "job 100: queued (Submitted)",
                     "job 100 on qemu01: running", "job 100 on qemu01: finished: Complete",
                     "job 100 on qemu01: ok ("):
            self.assertIn(want, err)
        # One progress line per change, not per poll.
        self.assertEqual(err.count(": running"), 1, err)
        out = self.dir / "out"
        self.assertEqual((out / "job-100.log").read_text(), log, "the raw log, whole")
        self.assertIn('"100","hugezero","pass"', (out / "job-100.results.csv").read_text())
        self.assertIn("device_type: qemu", (out / "job-100.definition.yaml").read_text())
        self.assertEqual(fake.calls, [], "nothing canceled")

    def fake_make(self, rc: int) -> tuple[dict[str, str], Path]:
        """A make first on PATH that records its arguments and exits @rc."""
        bin_dir, calls = self.dir / "bin", self.dir / "make.calls"
        bin_dir.mkdir(exist_ok=True)
        make = bin_dir / "make"
        make.write_text(f'#!/bin/sh\necho "$@" >> {calls}\necho made\n'
                        f'echo "cc: error: planted" >&2\nexit {rc}\n')
        make.chmod(0o755)
        return {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"}, calls

    def test_the_build_is_made_first(self) -> None:
        fake = one_device(Script(server_form(FAULT.read_text())))
        url = self.serve(fake)
        env, calls = self.fake_make(0)
        r = self.run_cli(url, env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertRegex(calls.read_text(), rf"(?m)^--no-print-directory -C {ROOT} -j\d+ "
                         rf"all iso BUILD={paths.BUILD}$")
        self.assertNotIn("planted", r.stderr, "make's output shown only on failure")
        self.assertIn(f"building: {paths.make_command(paths.BUILD)} all iso", r.stderr)
        calls.unlink()
        env, calls = self.fake_make(2)
        r = self.run_cli(url, env=env)
        self.no_traceback(r)
        self.assertEqual(r.returncode, lavarun.EXIT_USAGE, r.stderr)
        self.assertIn("cc: error: planted", r.stderr)
        self.assertIn("make failed (exit status 2): nothing was submitted", r.stderr)
        self.assertEqual(len(fake.jobs), 1, "nothing submitted after a failed make")

    def test_the_tree_and_its_abi_given_again(self) -> None:
        """A build made with make LINUX=T LINUX_ABI=A is made again with
        both: the tree alone may not build (its routine's name does not
        say its convention)."""
        with tempfile.TemporaryDirectory() as tmp:
            build = Path(tmp)
            (build / "linux-tree").mkdir()
            (build / "linux-tree.stamp").write_text("/src/linux-rfc\n")
            (build / "linux-tree" / "linux-abi").write_text("npages-rsi\n")
            said: list[str] = []
            ran: list[list[str]] = []

            def make(cmd: list[str], **_: object) -> subprocess.CompletedProcess:
                ran.append(cmd)
                return subprocess.CompletedProcess(cmd, 0, "", "")
            o = lavarun.Options("qemu", [], elf=build / "hugezero.elf")
            with mock.patch.object(lavarun.paths, "BUILD", build), \
                    mock.patch.object(lavarun.paths, "ELF", build / "hugezero.elf"), \
                    mock.patch.object(lavarun.subprocess, "run", make):
                lavarun.make_build(o, said.append)
                self.assertEqual(ran[-1][-2:], ["LINUX=/src/linux-rfc", "LINUX_ABI=npages-rsi"])
                self.assertTrue(said[-1].endswith(" all iso LINUX=/src/linux-rfc "
                                                  "LINUX_ABI=npages-rsi"), said)
                (build / "linux-tree" / "linux-abi").write_text("\n")    # none given
                lavarun.make_build(o, said.append)
                self.assertEqual(ran[-1][-1], "LINUX=/src/linux-rfc")

    def test_a_skipped_configuration_passes(self) -> None:
        fake = one_device(Script(server_form(SKIP.read_text())))
        r = self.run_cli(self.serve(fake), line=SKIP_LINE)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertRegex(r.stdout, r"(?m)^2M +contiguous-page +erms +ok ")
        self.assertRegex(r.stdout, r"(?m)^2M +contiguous-page +avx512 +skip")
        self.assertIn("job 100 on qemu01: ok (", r.stderr)
        self.assertIn("; 1 configuration(s) skipped: 2M.avx512.contiguous-page (CPU lacks "
                      "AVX-512F", r.stderr)

    def test_log_fetched_in_chunks(self) -> None:
        log = server_form(FAULT.read_text())
        old = lavarun.LOG_CHUNK
        fake = one_device(Script(log))
        url = self.serve(fake)
        fake.jobs["100"] = FakeJob("100", "", fake.scripts["*"], "qemu01",
                                   state="Finished")
        lavarun.LOG_CHUNK = 7
        try:
            got = lavarun.fetch_log(lavaapi.Server(lavaapi.from_url(
                url, None, None)), "100")
        finally:
            lavarun.LOG_CHUNK = old
        self.assertEqual(got, log)

    def test_repeat_runs_the_job_again(self) -> None:
        fake = one_device(Script(server_form(FAULT.read_text())))
        r = self.run_cli(self.serve(fake), "--repeat", "2")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(len(fake.jobs), 2)
        self.assertIn("job 101 on qemu01: ok", r.stderr)
        self.assertEqual(r.stdout.count("== boot "), 2, r.stdout)

    def test_crash_is_a_failed_case(self) -> None:
        fake = one_device(Script(server_form(CRASH.read_text())))
        r = self.run_cli(self.serve(fake), line=["crash=pf", "selftest=off"])
        self.no_traceback(r)
        self.assertEqual(r.returncode, lavarun.EXIT_CASE, r.stderr)
        self.assertIn("job 100 on qemu01: failed case: failed: hugezero/done; the console: "
                      "'hugezero: unexpected exception 14 (#PF page fault) on cpu 0'; "
                      "the console: 'hugezero: fatal: unexpected exception; stopping the "
                      "run'; the console: 'hugezero: done rc=3'", r.stderr)

    def test_incomplete_is_infrastructure(self) -> None:
        why = "InfrastructureError: Unable to fetch file:///nowhere.iso"
        fake = one_device(Script("".join(server_form(CRASH.read_text())
                                         .splitlines(keepends=True)[:20]),
                                 health="Incomplete", comment=why))
        r = self.run_cli(self.serve(fake))
        self.no_traceback(r)
        self.assertEqual(r.returncode, lavarun.EXIT_INFRA, r.stderr)
        self.assertIn(f"job 100 on qemu01: infrastructure error: LAVA's health "
                      f"Incomplete: {why}", r.stderr)
        self.assertEqual(r.stdout, "", "no report of a job that did not complete")

    def test_timeout_cancels(self) -> None:
        # Running from the first poll: the message names the device
        # whenever the 0.5 s run out, however late the first answer.
        fake = one_device(Script(server_form(FAULT.read_text()), hang=True, queued=0))
        r = self.run_cli(self.serve(fake), "--timeout", "0.5")
        self.no_traceback(r)
        self.assertEqual(r.returncode, lavarun.EXIT_TIMEOUT, r.stderr)
        self.assertEqual(fake.calls, ["cancel 100"])
        self.assertIn("job 100 on qemu01: canceled on the server", r.stderr)
        self.assertRegex(r.stderr, r"job 100 on qemu01: timeout: not finished after "
                         r"\d+ s \(Running on qemu01\); canceled on the server")
        self.assertEqual(r.stdout, "")

    def test_a_missed_poll_is_asked_again(self) -> None:
        fake = one_device(Script(server_form(FAULT.read_text()), queued=3))
        real = fake.show

        def busy_once(jid: str) -> dict:
            if fake.jobs[jid].shows == 1 and not fake.calls:
                fake.calls.append("busy")
                raise xmlrpc.client.Fault(500, "database busy")
            return real(jid)
        fake.show = busy_once  # type: ignore[method-assign]
        r = self.run_cli(self.serve(fake))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("the server says: database busy (fault 500); asking again", r.stderr)

    def test_polls_missed_for_a_while(self) -> None:
        """Missed polls are allowed for a time (MISS_S), not a count: ten
        at --poll 0.02 are a server busy for a moment."""
        fake = one_device(Script(server_form(FAULT.read_text())))
        shows = itertools.count()
        failing(fake, "show", lambda jid: next(shows) < 10,
                xmlrpc.client.Fault(500, "database busy"))
        r = self.run_cli(self.serve(fake))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr.count("asking again"), 1, "said once a streak")

    def test_server_gone_after_a_timeout(self) -> None:
        """The cancel's wait meets a server gone: still a timeout (5)."""
        fake = one_device(Script(server_form(FAULT.read_text()), hang=True))
        failing(fake, "show", lambda jid: bool(fake.calls), xmlrpc.client.Fault(500, "gone"))
        r = self.run_cli(self.serve(fake), "--timeout", "0.5")
        self.no_traceback(r)
        self.assertEqual(r.returncode, lavarun.EXIT_TIMEOUT, r.stderr)
        self.assertIn("not waiting for the canceled job(s) to finish", r.stderr)

    sig = signal.SIGINT

    def test_interrupted_cancels(self) -> None:
        fake = one_device(Script(server_form(FAULT.read_text()), hang=True))
        url = self.serve(fake)
        tf = self.dir / "token"
        tf.write_text(TOKEN)
        # Python takes SIGINT only if it was not ignored (a test run in
        # the background): given its handler first, then lava run.
        p = subprocess.Popen([sys.executable, "-c", SIGINT_THEN_RUN, str(HUGEZERO), "lava",
                              "run", "--url", url, "--token-file", str(tf), "--username", USER,
                              "--device-type", "qemu", "--poll", "0.02", "-o",
                              str(self.dir / "out"), "--", *FAULT_LINE],
                             stderr=subprocess.PIPE, text=True)
        until = time.monotonic() + 120
        while not ("100" in fake.jobs and fake.jobs["100"].shows > 3):
            if time.monotonic() > until or p.poll() is not None:
                p.kill()
                self.fail("the job was never polled 3 times: " + p.communicate()[1][-2000:])
            time.sleep(0.01)
        p.send_signal(self.sig)
        _, err = p.communicate(timeout=60)
        self.assertEqual(p.returncode, lavarun.EXIT_INTERRUPTED, err)
        self.assertEqual(fake.calls, ["cancel 100"])
        self.assertNotIn("Traceback", err)

    def test_terminated_cancels(self) -> None:
        """A run in the background ignores SIGINT; SIGTERM cancels too."""
        self.sig = signal.SIGTERM
        self.test_interrupted_cancels()

    def test_damaged_log_is_an_incomplete_log(self) -> None:
        lines = server_form(FAULT.read_text()).splitlines(keepends=True)
        target = [i for i, ln in enumerate(lines) if '"lvl": "target"' in ln and "@hz1" in ln]
        del lines[target[len(target) // 2]]
        fake = one_device(Script("".join(lines)))
        r = self.run_cli(self.serve(fake))
        self.no_traceback(r)
        self.assertEqual(r.returncode, lavarun.EXIT_LOG, r.stderr)
        self.assertIn("job 100 on qemu01: incomplete log: log: ", r.stderr)

    def test_worst_status_wins(self) -> None:
        fake = FakeLava([("qemu01", "Good", ["qemu01"]), ("qemu02", "Good", ["qemu02"])],
                        {"qemu01": Script(server_form(CRASH.read_text())),
                         "qemu02": Script(server_form(CRASH.read_text()),
                                          health="Incomplete", comment="boom")})
        r = self.run_cli(self.serve(fake), "--count", "2",
                         line=["crash=pf", "selftest=off"])
        self.assertEqual(r.returncode, lavarun.EXIT_INFRA, r.stderr)
        self.assertIn("on qemu01: failed case", r.stderr)
        self.assertIn("on qemu02: infrastructure error", r.stderr)


class PresetTest(Base):
    def fake(self, second: Script | None = None) -> FakeLava:
        return FakeLava([("qemu01", "Good", ["fast", "qemu01"]),
                         ("qemu02", "Good", ["fast", "qemu02"]),
                         ("qemu03", "Maintenance", ["qemu03"])],
                        {"qemu01": Script(server_form(MILAN.read_text())),
                         "qemu02": second or Script(server_form(ICELAKE.read_text()))})

    def test_one_section_per_device(self) -> None:
        fake = self.fake()
        r = self.run_cli(self.serve(fake), "--count", "2", line=SEED_LINE)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual({j.device for j in fake.jobs.values()}, {"qemu01", "qemu02"})
        for j in fake.jobs.values():
            self.assertRegex(j.definition, rf"(?m)^tags:\n *- {j.device}\n",
                             "pinned by its own tag")
        heads = re.findall(r"(?m)^seed-001, hugezero, device (qemu0\d), (.*) \(LAVA job \d+\): "
                           r"1 boot", r.stdout)
        self.assertEqual(heads, [("qemu01", "AMD EPYC-Milan Processor"),
                                 ("qemu02", "Intel Xeon Processor (Icelake)")],
                         "each section headed by the device LAVA ran it on")
        self.assertIn("device qemu01 (", r.stdout)
        self.assertIn("device qemu02", r.stdout)

    def test_a_failed_job_stays_out_of_the_table(self) -> None:
        fake = self.fake(Script(server_form(CRASH.read_text())))
        r = self.run_cli(self.serve(fake), "--count", "2", line=SEED_LINE)
        self.assertEqual(r.returncode, lavarun.EXIT_CASE, r.stderr)
        self.assertIn("device qemu01", r.stdout)
        self.assertNotIn("qemu02", r.stdout)
        self.assertIn("left out of the table: job 101 on qemu02", r.stderr)

    def test_count_past_the_usable_devices(self) -> None:
        r = self.run_cli(self.serve(self.fake()), "--count", "3", line=SEED_LINE)
        self.assertEqual(r.returncode, lavarun.EXIT_USAGE)
        self.assertIn("--count 3: ", r.stderr)
        self.assertIn("2 usable device(s) of type qemu (qemu01, qemu02)", r.stderr)

    def test_device_pinned_and_refused(self) -> None:
        fake = self.fake()
        r = self.run_cli(self.serve(fake), "--device", "qemu02")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual([j.device for j in fake.jobs.values()], ["qemu02"])
        r = self.run_cli(self.serve(self.fake()), "--device", "qemu03")
        self.assertEqual(r.returncode, lavarun.EXIT_USAGE)
        self.assertIn("device qemu03 is Maintenance", r.stderr)
        r = self.run_cli(self.serve(self.fake()), "--device", "qemu09")
        self.assertIn("no device 'qemu09' of type qemu", r.stderr)

    def test_a_device_without_a_tag_of_its_own(self) -> None:
        fake = FakeLava([("a", "Good", ["x"]), ("b", "Good", ["x"])],
                        {"*": Script(server_form(FAULT.read_text()))})
        r = self.run_cli(self.serve(fake), "--device", "a")
        self.assertEqual(r.returncode, lavarun.EXIT_USAGE)
        self.assertIn("device a has no tag of its own", r.stderr)
        self.assertEqual(fake.jobs, {})


class JobTest(Base):
    def test_qemu_options_in_the_job(self) -> None:
        fake = one_device(Script(server_form(FAULT.read_text())))
        r = self.run_cli(self.serve(fake), "--cpu", "EPYC-Milan", "--smp", "2")
        self.assertEqual(r.returncode, 0, r.stderr)
        d = fake.jobs["100"].definition
        self.assertIn("- '-cpu EPYC-Milan'", d)
        self.assertIn("- '-smp 2'", d)
        self.assertIn("url: 'file://", d, "a worker on this machine: file://")

    def test_x86_fetches_from_image_url(self) -> None:
        if shutil.which("grub-mkstandalone") is None:
            self.skipTest("grub-mkstandalone missing (scripts/setup.sh)")
        fake = FakeLava([("server01", "Good", [])],
                        {"*": Script(server_form(FAULT.read_text()))}, dtype="x86")
        url = self.serve(fake)
        tf = self.dir / "token"
        tf.write_text(TOKEN)
        base = [sys.executable, str(HUGEZERO), "lava", "run", "--url", url,
                "--token-file", str(tf), "--username", USER, "--device-type", "x86",
                "--poll", "0.02", "-o", str(self.dir / "out")]
        for opts, want in ((["--cpu", "max"], "--cpu: the qemu device type's"),
                           ([], "--image-url BASE/")):
            r = subprocess.run(base + opts + ["--", *FAULT_LINE], capture_output=True,
                               text=True, timeout=120)
            self.assertEqual(r.returncode, lavarun.EXIT_USAGE)
            self.assertIn(want, r.stderr)
            self.assertNotIn("lava-server 2023.01", r.stderr, "refused before the server")
        self.assertEqual(fake.jobs, {})
        r = subprocess.run(base + ["--firmware", "uefi", "--image-url",
                                   "http://192.0.2.1:8080/", "--", *FAULT_LINE],
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        d = fake.jobs["100"].definition
        self.assertRegex(d, r"url: 'http://192\.0\.2\.1:8080/lava-[^']*\.efi'")
        self.assertIn("method: ipxe", d)
        self.assertRegex(r.stderr, r"image lava-\S+\.efi: serve \S+/images/lava-\S+\.efi "
                         r"as http://192\.0\.2\.1:8080/")


class BadInputTest(Base):
    def test_unknown_identity(self) -> None:
        conf = self.dir / "conf"
        conf.mkdir()
        (conf / "lavacli.yaml").write_text("lab:\n  uri: http://127.0.0.1:9/RPC2\n")
        r = subprocess.run([sys.executable, str(HUGEZERO), "lava", "run", "--identity",
                            "hugezero-local", "--device-type", "qemu", "--", *FAULT_LINE],
                           capture_output=True, text=True, timeout=60,
                           env={**os.environ, "XDG_CONFIG_HOME": str(conf)})
        self.no_traceback(r)
        self.assertEqual(r.returncode, lavarun.EXIT_USAGE)
        self.assertIn("unknown identity 'hugezero-local'", r.stderr)
        self.assertIn("(identities: lab)", r.stderr)

    def test_unreachable(self) -> None:
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()
        r = self.run_cli(f"http://127.0.0.1:{port}/")
        self.no_traceback(r)
        self.assertEqual(r.returncode, lavarun.EXIT_USAGE)
        self.assertIn(f"cannot reach http://127.0.0.1:{port}/RPC2", r.stderr)

    def test_bad_token(self) -> None:
        fake = one_device(Script())
        r = self.run_cli(self.serve(fake), token="wrong")
        self.no_traceback(r)
        self.assertEqual(r.returncode, lavarun.EXIT_USAGE)
        self.assertIn("refused the token of user 'lab' (401 Unauthorized: Invalid token)",
                      r.stderr)
        self.assertEqual(fake.jobs, {})

    def test_no_user(self) -> None:
        url = self.serve(one_device(Script()))
        r = subprocess.run([sys.executable, str(HUGEZERO), "lava", "run", "--url", url,
                            "--device-type", "qemu", "--", *FAULT_LINE],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, lavarun.EXIT_USAGE)
        self.assertIn("does not know us", r.stderr)

    def test_bad_line_and_no_such_device_type(self) -> None:
        fake = one_device(Script())
        url = self.serve(fake)
        r = self.run_cli(url, line=["bogus=1"])
        self.assertEqual(r.returncode, lavarun.EXIT_USAGE)
        self.assertIn("unknown key 'bogus'", r.stderr)
        tf = self.dir / "token"
        r = subprocess.run([sys.executable, str(HUGEZERO), "lava", "run", "--url", url,
                            "--token-file", str(tf), "--username", USER,
                            "--device-type", "x86", "--image-url", "http://h/", "--",
                            *FAULT_LINE],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, lavarun.EXIT_USAGE)
        self.assertIn("no device of type x86", r.stderr)
        self.assertEqual(fake.jobs, {})

    def test_poll_and_timeout_above_zero_and_a_quote_unbalanced(self) -> None:
        fake = one_device(Script(server_form(FAULT.read_text())))
        url = self.serve(fake)
        for opt, v in (("--poll", "-1"), ("--poll", "0"), ("--timeout", "0"),
                       ("--timeout", "-5"), ("--poll", "nan")):
            with self.subTest(opt=opt, v=v):
                r = self.run_cli(url, opt, v)
                self.no_traceback(r)
                self.assertEqual(r.returncode, lavarun.EXIT_USAGE, r.stderr)
                self.assertIn(f"{opt} {float(v):g}: seconds, above 0", r.stderr)
        r = self.run_cli(url, line=["bench=fault 'folio=2M"])
        self.no_traceback(r)
        self.assertEqual(r.returncode, lavarun.EXIT_USAGE, r.stderr)
        self.assertIn("boot line \"bench=fault 'folio=2M\": No closing quotation", r.stderr)
        self.assertEqual(fake.jobs, {})

    def test_submission_refused_cancels_the_rest(self) -> None:
        fake = FakeLava([("qemu01", "Good", ["qemu01"]), ("qemu02", "Good", ["qemu02"])],
                        {"*": Script(server_form(FAULT.read_text()))})
        failing(fake, "submit", lambda definition: bool(fake.jobs),
                xmlrpc.client.Fault(400, "Problem with submitted job data: boom"))
        r = self.run_cli(self.serve(fake), "--count", "2")
        self.assertEqual(r.returncode, lavarun.EXIT_USAGE)
        self.assertIn("job #2 refused: scheduler.jobs.submit: the server says: Problem "
                      "with submitted job data: boom (fault 400)", r.stderr)
        self.assertEqual(fake.calls, ["cancel 100"])


# --- a real server ------------------------------------------------------------

IDENTITY = "hugezero-local"     # scripts/hugezero lava server start's


def real_server_missing_quietly() -> bool:
    try:
        lavaapi.Server(lavaapi.identity(IDENTITY), timeout=5).version()
        return False
    except lavaapi.LavaApiError:
        return True


def real_server_missing() -> str | None:
    """Why the real-server tests cannot run here, or None: a LAVA server
    answering as lavacli's identity hugezero-local, with a qemu device.
    HZ_REQUIRE_LAB_SERVER=1 makes its absence a failure."""
    try:
        server = lavaapi.Server(lavaapi.identity(IDENTITY), timeout=5)
        why = None if server.whoami() else f"identity {IDENTITY} not a user of the server"
        if not why and not any(d.get("type") == "qemu" for d in server.devices()):
            why = "no qemu device on the server"
    except lavaapi.LavaApiError as e:
        why = str(e)
    if why and os.environ.get("HZ_REQUIRE_LAB_SERVER") == "1":
        raise AssertionError(f"HZ_REQUIRE_LAB_SERVER=1, but {why}")
    return why and (f"no LAVA server to run on ({why}): scripts/setup.sh --lab-server, "
                    "scripts/hugezero lava server start")


REAL = labjobs.REAL
SIGINT_THEN_RUN = ("import runpy, signal, sys\n"
                   "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
                   "sys.argv = sys.argv[1:]\n"
                   "runpy.run_path(sys.argv[0], run_name='__main__')\n")


class RealServerTest(unittest.TestCase):
    """lava run through a real LAVA server (make test-lab): a self-test
    job, a small benchmark and a crash, each case of the console a LAVA
    case with its outcome, report's configurations verified, the crash
    named with its job."""
    runs: dict[str, tuple[subprocess.CompletedProcess, Path]] = {}

    started = False

    @classmethod
    def setUpClass(cls) -> None:
        # Jobs on a server take its devices: never unasked.
        if os.environ.get("HZ_LAB_SERVER") != "1":
            raise unittest.SkipTest("a real LAVA server: make test-lab (HZ_LAB_SERVER=1)")
        # make test-lab: run by test_lab_server's lifecycle, on its server.
        cls.runs = labjobs.done()
        if cls.runs:
            return
        for p in (paths.ELF, lava.COMPANION):
            if not p.exists():
                raise unittest.SkipTest(f"{p} not built ({paths.make_command(p.parent)})")
        if real_server_missing_quietly():
            # None answers: the one-machine lab, started here and stopped
            # after, a device a job so that the jobs run at once.
            # Stopped whatever happens next (the start timing out, a lava
            # run raising in the pool): an exception ends setUpClass, and
            # tearDownClass is then never run; class cleanups are.
            cls.started = True
            cls.addClassCleanup(cls.stop)
            r = subprocess.run([sys.executable, str(HUGEZERO), "lava", "server", "start",
                                "--devices", str(len(REAL))],
                               capture_output=True, text=True, timeout=600)
            cls.started = r.returncode == 0
            if not cls.started and os.environ.get("HZ_REQUIRE_LAB_SERVER") != "1":
                raise unittest.SkipTest("lava server start: " + (r.stderr.strip()
                                        .splitlines() or ["failed"])[-1])
        why = real_server_missing()
        if why:
            cls.stop()
            raise unittest.SkipTest(why)
        cls.tmp = tempfile.TemporaryDirectory()
        cls.addClassCleanup(cls.tmp.cleanup)
        cls.runs = labjobs.run(Path(cls.tmp.name))

    @classmethod
    def stop(cls) -> None:
        if cls.started:
            subprocess.run([sys.executable, str(HUGEZERO), "lava", "server", "stop"],
                           capture_output=True, text=True, timeout=300)
            cls.started = False

    def cases(self, name: str) -> tuple[list[tuple[str, str, str]], str]:
        r, out = self.runs[name]
        self.assertNotIn("Traceback", r.stderr)
        self.assertEqual(r.returncode, REAL[name][1], r.stderr)
        logs = sorted(out.glob("job-*.log"))
        self.assertEqual(len(logs), 1, r.stderr)
        _, console = lavalog.read(logs[0].read_text())
        rows = list(csv.DictReader(io.StringIO(
            logs[0].with_name(logs[0].stem + ".results.csv").read_text())))
        got = sorted((r["suite"], r["name"], r["result"]) for r in rows
                     if r["suite"] != "lava")
        want = sorted(test_lava.ktap_cases(console))
        self.assertEqual(got, want, f"{name}: a LAVA case for each KTAP line, its outcome")
        return got, logs[0].stem.split("-")[1]

    def test_selftest(self) -> None:
        got, _ = self.cases("selftest")
        self.assertGreater(len(got), 50)
        self.assertIn(("hugezero", "done", "pass"), got)

    def test_bench(self) -> None:
        got, _ = self.cases("bench")
        r, _ = self.runs["bench"]
        for prim in ("erms", "rep"):
            self.assertIn(("fault", f"2m_{prim}_contiguous_page", "pass"), got)
            self.assertRegex(r.stdout, rf"(?m)^2M +contiguous-page +{prim} +ok ")

    def test_crash(self) -> None:
        got, job = self.cases("crash")
        self.assertEqual(got, [("hugezero", "done", "fail")])
        self.assertRegex(self.runs["crash"][0].stderr,
                         rf"job {job} on \S+: failed case: failed: hugezero/done")


class IdentityTest(unittest.TestCase):
    TEXT = ("default:\n  token: abc\n  uri: http://lava.example/RPC2\n  username: me\n"
            "hugezero-local:\n  token: '0123'\n  uri: http://127.0.0.1:8000/RPC2\n"
            "  username: admin\n  timeout: 20.0\n")

    def test_lavaclis_file_without_yaml(self) -> None:
        got = lavaapi.parse_config(self.TEXT)
        self.assertEqual(got["hugezero-local"]["token"], "0123")
        self.assertEqual(got["default"]["uri"], "http://lava.example/RPC2")
        try:
            import yaml
        except ImportError:
            return
        want = yaml.safe_load(self.TEXT)
        self.assertEqual(got, {k: {kk: str(vv) for kk, vv in v.items()}
                               for k, v in want.items()})

    def test_identity_and_url(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            p = Path(tmp) / "lavacli.yaml"
            p.write_text(self.TEXT)
            i = lavaapi.identity("hugezero-local", p)
            self.assertEqual((i.uri, i.username, i.token),
                             ("http://127.0.0.1:8000/RPC2", "admin", "0123"))
        self.assertEqual(lavaapi.rpc_uri("http://h:8000"), "http://h:8000/RPC2")
        self.assertEqual(lavaapi.rpc_uri("http://h/RPC2/"), "http://h/RPC2")
        with self.assertRaises(lavaapi.LavaApiError):
            lavaapi.rpc_uri("h:8000")


if __name__ == "__main__":
    unittest.main()

# SPDX-License-Identifier: GPL-2.0-only
"""`scripts/hugezero lava server` and `lava serve` (scripts/hzlib/labserver.py,
docs/lab.md "A one-machine lab").

Everywhere: the state file, and `stop` ending exactly the processes
`start` began (by session and start time) on stand-in daemons (sleep),
lavacli's identity kept beside others, a daemon dying at start named
with its log, and `lava serve` at the URLs `lava job --image-url` writes.

With HZ_LAB_SERVER=1 (make test-lab) and the server's packages
(`scripts/setup.sh --lab-server`), as root: a real server started, a qemu
job run through it with lavacli, and stopped, leaving no process of its
own and the machine as found.  Missing parts skip, named with their
package; under HZ_REQUIRE_LAB_SERVER=1 they fail instead."""
from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.request
from pathlib import Path
from concurrent.futures import ThreadPoolExecutor
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
HUGEZERO = ROOT / "scripts" / "hugezero"
sys.path.insert(0, str(ROOT / "scripts"))

from hzlib import labserver as ls, lava, lavaapi, paths  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))
import labjobs  # noqa: E402


def sleeper(*children: str) -> list[str]:
    """A daemon that starts @children (shell commands) and sleeps."""
    return ["sh", "-c", "".join(f"{c} & " for c in children) + "exec sleep 300"]


class TempBuild(unittest.TestCase):
    """HZ_BUILD in a temporary directory: the state file is ours alone."""

    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.d = Path(self.tmp.name)
        # lavacli's configuration under $XDG_CONFIG_HOME, as lavacli and
        # lava run read it (lavaapi.config_path()).
        env = mock.patch.dict(os.environ, {paths.BUILD_ENV: str(self.d),
                                           "XDG_CONFIG_HOME": str(self.d)})
        env.start()
        self.addCleanup(env.stop)
        self.spawned: list[ls.Daemon] = []

    def tearDown(self) -> None:
        for d in self.spawned:
            ls.end(d, 1)
        self.tmp.cleanup()

    def spawn(self, name: str, cmd: list[str]) -> ls.Daemon:
        d = ls.spawn(name, cmd, ls.state_dir() / f"{name}.log")
        self.spawned.append(d)
        return d


class ProcessTest(TempBuild):
    def test_session_is_ours(self) -> None:
        d = self.spawn("gunicorn", sleeper("sleep 301", "sleep 302"))
        for _ in range(50):
            if len(d.members()) == 3:
                break
            time.sleep(0.1)
        self.assertEqual(len(d.members()), 3, "the leader and its two children")
        self.assertTrue(d.up())
        pids = ls.end(d, 5)
        self.assertEqual(len(pids), 3)
        self.assertEqual(d.members(), {})
        self.assertFalse(d.up())
        for pid in pids:
            st = ls.proc_stat(pid)
            self.assertTrue(st is None or st[0] == "Z", f"{pid} still runs")

    def test_a_pid_not_ours_is_left_alone(self) -> None:
        """A recorded PID now another process's (another start time), or
        a process outside the session: never signalled."""
        other = subprocess.Popen(["sleep", "300"])
        self.addCleanup(other.wait)
        self.addCleanup(other.kill)
        st = ls.proc_stat(other.pid)
        assert st is not None
        for what, rec in (("another start time", ls.Daemon("x", other.pid, st[3] - 1, [], "")),
                          ("not a session leader", ls.Daemon("x", other.pid, st[3], [], ""))):
            with self.subTest(what):
                self.assertEqual(rec.members(), {})
                self.assertEqual(ls.end(rec, 0.5), [])
                self.assertIsNone(other.poll(), "still running")
        self.assertFalse(ls.Daemon("x", other.pid, st[3] - 1, [], "").up())

    def test_a_child_in_a_session_of_its_own(self) -> None:
        """As lava-run's QEMU (pexpect gives it a pty and a session): a
        descendant is ours, and still ours once its parent's end orphans
        it; one that ignores SIGTERM gets SIGKILL."""
        d = self.spawn("worker", sleeper("setsid sh -c 'trap \"\" TERM; exec sleep 305'"))
        # The child is a member from its fork, before setsid() has run,
        # and ignores SIGTERM only once its trap ran: wait for the sleep
        # it then becomes (an ignored signal stays ignored across exec)
        # in the session it made.
        def moved() -> list[int]:
            return [p for p in d.members()
                    if p != d.pid and (ls.proc_stat(p) or ("", 0, d.pid))[2] != d.pid
                    and cmdline(p) == "sleep\x00305\x00"]
        until = time.monotonic() + 20
        while not moved() and time.monotonic() < until:
            time.sleep(0.05)
        self.assertEqual(len(d.members()), 2, "the leader and its child")
        self.assertEqual(len(moved()), 1, "the child, in a session of its own")
        child = moved()[0]
        t0 = time.monotonic()
        self.assertIn(child, ls.end(d, 1))
        self.assertGreater(time.monotonic() - t0, 0.9, "SIGTERM ignored, then SIGKILL")
        st = ls.proc_stat(child)
        self.assertTrue(st is None or st[0] == "Z", "ended")

    def test_stop_ends_what_start_began(self) -> None:
        a, b = self.spawn("gunicorn", sleeper("sleep 303")), self.spawn("worker", sleeper())
        # Stopped only once gunicorn's stand-in has its child.
        until = time.monotonic() + 20
        while len(a.members()) < 2 and time.monotonic() < until:
            time.sleep(0.05)
        self.assertEqual(len(a.members()), 2, "gunicorn's stand-in and its child")
        stranger = subprocess.Popen(["sleep", "300"], start_new_session=True)
        self.addCleanup(stranger.wait)
        self.addCleanup(stranger.kill)
        dicts = self.d / "devices"
        dicts.mkdir()
        (dicts / "ours.jinja2").write_text("x")
        (dicts / "theirs.jinja2").write_text("y")
        s = ls.State(url="http://127.0.0.1:9/", daemons=[a, b],
                     dictionaries=[str(dicts / "ours.jinja2")])
        ls.save(s)
        self.assertEqual(os.stat(ls.state_file()).st_mode & 0o777, 0o600)
        said: list[str] = []
        self.assertTrue(ls.stop(said.append))
        self.assertEqual(said, [f"stopped worker (pid {b.pid})",
                                f"stopped gunicorn (pid {a.pid}, and 1 of its session)"])
        self.assertEqual((a.members(), b.members()), ({}, {}))
        self.assertIsNone(stranger.poll(), "a process of another session runs on")
        self.assertEqual([p.name for p in dicts.iterdir()], ["theirs.jinja2"])
        self.assertFalse(ls.state_file().exists())
        self.assertFalse(ls.stop(said.append), "nothing more to stop")

    def test_state_round_trip(self) -> None:
        d = self.spawn("scheduler", sleeper())
        s = ls.State(url="http://127.0.0.1:8123/", port=8123, daemons=[d],
                     cluster=["15", "main"], devices=["hugezero-qemu-01"], token="t")
        ls.save(s)
        back = ls.load()
        self.assertEqual(back, s)
        self.assertTrue(back.daemon("scheduler").up())
        ls.state_file().write_text("{")
        with self.assertRaisesRegex(ls.LabError, "state.json"):
            ls.load()

    def test_a_daemon_dying_at_start_is_named(self) -> None:
        d = self.spawn("scheduler", ["sh", "-c", "echo 'no such table: lava'; sleep 0.3; "
                                     "exit 3"])
        s = ls.State(url="http://127.0.0.1:9/", daemons=[d])
        t0 = time.monotonic()
        with self.assertRaisesRegex(ls.LabError, r"(?s)scheduler \(pid \d+\) died at "
                                    r"start; the tail of .*scheduler.log:\nno such table"):
            ls.wait_up(s, 10)
        self.assertLess(time.monotonic() - t0, 5)

    def test_no_answer_is_bounded(self) -> None:
        d = self.spawn("gunicorn", sleeper())
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
            self.assertTrue(ls.port_taken(port))
        s = ls.State(url=f"http://127.0.0.1:{port}/", daemons=[d])
        with self.assertRaisesRegex(ls.LabError, "did not answer in 1 s"):
            ls.wait_up(s, 1)

    def test_start_waits_for_the_worker(self) -> None:
        """The API answering is not enough: the worker must have pinged
        since it started (its state stays Online a while after a stop)."""
        import http.server
        import json as json_
        ping = {"at": "2020-01-01T00:00:00.000000Z"}

        class Api(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = b"{}" if self.path == "/" + ls.API else json_.dumps(
                    {"state": "Online", "last_ping": ping["at"]}).encode()
                found = self.path in ("/" + ls.API, f"/{ls.API}workers/{ls.IDENTITY}/")
                self.send_response(200 if found else 404)
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Api)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        self.addCleanup(httpd.server_close)
        self.addCleanup(httpd.shutdown)
        s = ls.State(url=f"http://127.0.0.1:{httpd.server_address[1]}/",
                     daemons=[self.spawn("gunicorn", sleeper()), self.spawn("worker", sleeper())])
        now = time.time()
        with self.assertRaisesRegex(ls.LabError, r"(?s)the worker did not reach .* in 1 s; "
                                    r"the tail of .*worker.log"):
            ls.wait_up(s, 1, worker_since=now)
        ls.wait_up(s, 1)        # a worker that ran before: not waited for
        ping["at"] = time.strftime("%Y-%m-%dT%H:%M:%S.000000Z", time.gmtime(now + 1))
        ls.wait_up(s, 5, worker_since=now)


class StartRefusesTest(TempBuild):
    def test_missing_packages_named(self) -> None:
        with mock.patch.multiple(ls, LAVA_SERVER=str(self.d / "none"),
                                 PG_SERVERS=str(self.d / "pg/*/postgres")):
            with self.assertRaises(ls.LabError) as e:
                ls.start(ls.PORT, 1, print)
        msg = str(e.exception)
        self.assertIn("(package lava-server)", msg)
        self.assertIn("(package postgresql)", msg)
        self.assertIn("scripts/setup.sh --lab-server installs them", msg)
        self.assertFalse(ls.state_file().exists(), "nothing started")

    def test_port_taken(self) -> None:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            sock.listen()
            port = sock.getsockname()[1]
            with mock.patch.object(ls, "missing", lambda: []), \
                    mock.patch.object(os, "geteuid", lambda: 0):
                with self.assertRaisesRegex(ls.LabError, f"port {port} is taken"):
                    ls.start(port, 1, print)
        self.assertFalse(ls.state_file().exists(), "nothing started")


class FakeManage:
    """`lava-server manage` recorded: each call's arguments; @exists the
    users, device types, workers and devices it already knows."""

    def __init__(self, exists: set[str]) -> None:
        self.exists, self.calls = exists, []

    def __call__(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        self.calls.append(args)
        rc = 0
        if args[1:2] == ("details",):
            rc = 0 if args[2] in self.exists else 1
        return subprocess.CompletedProcess(args, rc, "token: wtok\n", "")


class LabObjectsTest(TempBuild):
    def test_devices_tagged_with_their_names(self) -> None:
        """lava run pins a job by a tag of the device's own: each device
        added with its name as a tag, one that existed untagged tagged."""
        fake = FakeManage({ls.USER, "qemu", ls.IDENTITY, "hugezero-qemu-01"})
        with mock.patch.object(ls, "manage", fake), \
                mock.patch.object(ls, "DEVICES_DIR", self.d):
            s = ls.State()
            self.assertEqual(ls.objects(s, 2, print), "wtok")
        self.assertIn(("devices", "add", "hugezero-qemu-02", "--device-type", "qemu",
                       "--worker", ls.IDENTITY, "--tags", "hugezero-qemu-02"), fake.calls)
        shell = [c for c in fake.calls if c[0] == "shell"]
        self.assertEqual(len(shell), 1, fake.calls)
        self.assertIn("['hugezero-qemu-01']", shell[0][2])
        compile(shell[0][2], "shell -c", "exec")
        self.assertEqual(s.devices, ["hugezero-qemu-01", "hugezero-qemu-02"])

    def test_a_failed_start_leaves_a_running_lab(self) -> None:
        """start on a lab already up that fails takes back only what this
        call added: the running daemons and devices stay."""
        old = self.spawn("gunicorn", sleeper())
        before = ls.State(url="http://127.0.0.1:8000/", daemons=[old],
                          devices=["hugezero-qemu-01"], token="t")
        ls.save(before)
        dicts = self.d / "dicts"
        dicts.mkdir()

        def objects(s: ls.State, n: int, say: object) -> str:
            path = dicts / "hugezero-qemu-02.jinja2"
            path.write_text("x")
            s.dictionaries.append(str(path))
            s.devices.append("hugezero-qemu-02")
            raise ls.LabError("planted")
        fake = FakeManage(set())
        said: list[str] = []
        with mock.patch.multiple(ls, missing=lambda: [], manage=fake, objects=objects,
                                 start_cluster=lambda s, say: None), \
                mock.patch.object(os, "geteuid", lambda: 0):
            with self.assertRaisesRegex(ls.LabError, "planted"):
                ls.start(ls.PORT, 2, said.append)
        self.assertTrue(old.up(), "the running lab's daemon runs on")
        self.assertEqual(ls.load(), before, "its state as it was")
        shell, *rest = fake.calls
        self.assertEqual(rest, [("devices", "update", "hugezero-qemu-02", "--health",
                                 "RETIRED")], "only the device this start added")
        # Its jobs ended first, so that no restarted worker's report of
        # them makes it Unknown over Retired.
        self.assertEqual(shell[0], "shell")
        self.assertIn("actual_device__hostname__in=['hugezero-qemu-02']", shell[2])
        self.assertIn("go_state_finished(TestJob.HEALTH_INCOMPLETE)", shell[2])
        self.assertIn("if False:", shell[2], "the running lab's queue left alone")
        self.assertEqual(list(dicts.iterdir()), [])

    def test_a_cluster_stopped_by_someone_else(self) -> None:
        """stop with the recorded cluster already down: stopped, and the
        state file goes."""
        ls.save(ls.State(url="http://127.0.0.1:9/", cluster=["15", "main"]))

        def pg_ctl(cluster: list[str], action: str) -> None:
            raise ls.LabError("pg_ctlcluster 15 main stop: Cluster is not running.")
        for listed in ([("15", "main", "down")], [("15", "main", "online")]):
            with self.subTest(listed=listed):
                ls.save(ls.State(url="http://127.0.0.1:9/", cluster=["15", "main"]))
                said: list[str] = []
                with mock.patch.multiple(ls, clusters=lambda: listed, pg_ctl=pg_ctl):
                    if listed[0][2] == "down":
                        self.assertTrue(ls.stop(said.append))
                        self.assertIn("PostgreSQL 15 main was stopped already", said)
                        self.assertFalse(ls.state_file().exists())
                    else:
                        with self.assertRaisesRegex(ls.LabError, "not running"):
                            ls.stop(said.append)
                        self.assertTrue(ls.state_file().exists(), "kept: stop again")


class IdentityTest(TempBuild):
    OTHER = "lab:\n  uri: https://lava.example/RPC2\n  username: me\n  token: abc\n"

    def test_others_kept_ours_restored(self) -> None:
        conf = lavaapi.config_path()
        self.assertEqual(conf, self.d / "lavacli.yaml")
        old = ls.identity_block("http://127.0.0.1:1/", "old")
        for before in ("", self.OTHER, self.OTHER + old, old + self.OTHER):
            with self.subTest(before=before):
                if before:
                    conf.write_text(before)
                s = ls.State(url="http://127.0.0.1:8000/")
                ls.set_identity(s, "secret")
                text = conf.read_text()
                self.assertIn(ls.identity_block(s.url, "secret"), text)
                self.assertEqual(text.count(ls.IDENTITY + ":"), 1)
                if self.OTHER in before:
                    self.assertIn(self.OTHER, text)
                ls.set_identity(s, "secret")    # a second start: the same
                i = lavaapi.identity(ls.IDENTITY)   # where lava run reads it
                self.assertEqual((i.uri, i.token), (s.url + "RPC2", "secret"))
                ls.restore_identity(s)
                if before:
                    self.assertEqual(sorted(conf.read_text().splitlines()),
                                     sorted(before.splitlines()))
                else:
                    self.assertFalse(conf.exists(), "a file made by start goes")


class ServeTest(unittest.TestCase):
    def test_images_at_image_urls(self) -> None:
        """A job made with --image-url http://HOST:P/ fetches the image
        lava job built under images/ of the build directory."""
        with tempfile.TemporaryDirectory() as t:
            img = Path(t) / "images" / "hz-build.0123-abc.iso"
            img.parent.mkdir()
            img.write_bytes(b"\x00iso\xff" * 1000)
            httpd = ls.http_server(0, img.parent, "127.0.0.1")
            th = threading.Thread(target=httpd.serve_forever, daemon=True)
            th.start()
            try:
                base = f"http://127.0.0.1:{httpd.server_address[1]}/"
                url = lava.image_url(img, base)
                self.assertEqual(url, base + img.name)
                with urllib.request.urlopen(url, timeout=10) as r:
                    self.assertEqual(r.read(), img.read_bytes())
                with self.assertRaises(urllib.error.HTTPError):
                    urllib.request.urlopen(base + "nothing.iso", timeout=10)
            finally:
                httpd.shutdown()
                httpd.server_close()
            with self.assertRaisesRegex(ls.LabError, "no such directory"):
                ls.http_server(0, Path(t) / "none")

    def test_command_refuses_a_missing_directory(self) -> None:
        r = subprocess.run([sys.executable, str(HUGEZERO), "lava", "serve", "--port", "0",
                            "--dir", "/nonexistent/images"], capture_output=True, text=True,
                           timeout=60)
        self.assertEqual(r.returncode, 1)
        self.assertIn("hugezero lava serve: /nonexistent/images: no such directory",
                      r.stderr)


# --- A real server (make test-lab) -----------------------------------------

def server_missing() -> str | None:
    """What the real server test lacks, each part with its package."""
    lacks = ls.missing()
    if not shutil.which("lavacli"):
        lacks.append("lavacli (package lavacli)")
    if os.geteuid() != 0:
        lacks.append("root (PostgreSQL's cluster, lava-worker's jobs)")
    if not lacks:
        return None
    why = "missing " + "; ".join(lacks) + ": scripts/setup.sh --lab-server installs them"
    if os.environ.get("HZ_REQUIRE_LAB_SERVER") == "1":
        raise AssertionError(f"HZ_REQUIRE_LAB_SERVER=1, but {why}")
    return why


def hugezero(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(HUGEZERO), *args], capture_output=True,
                          text=True, timeout=timeout)


def lavacli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(["lavacli", "-i", ls.IDENTITY, *args], capture_output=True,
                          text=True, timeout=timeout)


# The device of the job the stop cuts: one a smaller lab does not have.
LONG_DEVICE = "hugezero-qemu-04"


def pin(job: Path, device: str) -> None:
    """@job pinned to @device by its tag (each of the lab's has its own)."""
    with open(job, "a") as f:
        f.write(f"tags:\n- {device}\n")


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text(errors="replace")
    except OSError:
        return ""


class RealServerTest(unittest.TestCase):
    """start, status, a qemu job through lavacli, stop while another
    job runs QEMU."""

    def setUp(self) -> None:
        if os.environ.get("HZ_LAB_SERVER") != "1":
            self.skipTest("a real LAVA server: make test-lab (HZ_LAB_SERVER=1)")
        why = server_missing()
        if why:
            self.skipTest(why)
        for p in (paths.ELF, paths.ISO, lava.COMPANION):
            if not p.exists():
                self.skipTest(f"{p} not built ({paths.make_command(p.parent)} all iso)")
        if ls.state_file().exists():
            self.fail(f"a server started here already ({ls.state_file()}): "
                      "`scripts/hugezero lava server stop` first")

    def test_a_job_through_the_server(self) -> None:
        clusters = ls.clusters()
        lavacli_conf = lavaapi.config_path()
        conf = lavacli_conf.read_text() if lavacli_conf.exists() else None
        t0 = time.monotonic()
        # A device for the lavacli job, and one each for test_lava_run's
        # `lava run` jobs (tests/labjobs.py), run beside it on this server.
        r = hugezero("lava", "server", "start", "--devices", str(1 + len(labjobs.REAL)))
        started = time.monotonic() - t0
        state = ls.load()
        pool = ThreadPoolExecutor(max_workers=1)
        try:
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertIn("http://127.0.0.1:8000/ answers", r.stdout)
            r = hugezero("lava", "server", "status")
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertEqual(len(re.findall(r"(?m)^\w+ +pid \d+ +up ", r.stdout)), 3, r.stdout)
            self.assertIn("devices: hugezero-qemu-01, hugezero-qemu-02, hugezero-qemu-03, "
                          "hugezero-qemu-04 ", r.stdout)
            runs = paths.build_dir() / "lab-server" / "runs"
            shutil.rmtree(runs, ignore_errors=True)
            jobs = pool.submit(labjobs.run, runs, 2)
            self.job()
            jobs.result()
            running = self.running_job(state)
        finally:
            pool.shutdown(wait=True)
            t1 = time.monotonic()
            r = hugezero("lava", "server", "stop")
            stopped = time.monotonic() - t1
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertNotIn("warning", r.stdout + r.stderr, "each step of the stop taken")
        assert state is not None
        for d in state.daemons:
            self.assertEqual(d.members(), {}, f"{d.name}'s session ended")
        for pid, t in running.items():
            st = ls.proc_stat(pid)
            self.assertFalse(st and st[0] != "Z" and st[3] == t,
                             f"{pid} of the running job (lava-run, QEMU) ended")
        self.assertEqual(ls.clusters(), clusters, "PostgreSQL as found")
        self.assertEqual(lavacli_conf.read_text() if lavacli_conf.exists() else None,
                         conf, "lavacli's configuration as found")
        self.assertFalse(ls.state_file().exists())
        r = hugezero("lava", "server", "status")
        self.assertEqual(r.returncode, 1)
        print(f"\nlab server: start {started:.0f} s, stop {stopped:.0f} s", file=sys.stderr)
        self.smaller_lab()
        self.assertEqual(ls.clusters(), clusters, "PostgreSQL as found, again")

    def smaller_lab(self) -> None:
        """Started again with one device: the device whose job the stop
        cut stays retired (stop ended the job; else the worker's report
        of it, at its first ping, makes the device Unknown, schedulable
        without a dictionary)."""
        r = hugezero("lava", "server", "start", "--devices", "1")
        try:
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            r = lavacli("jobs", "show", self.long_job)
            self.assertRegex(r.stdout, r"(?m)^state\s*: Finished$", r.stdout)
            self.assertRegex(r.stdout, r"(?m)^Health\s*: Incomplete$", r.stdout)
            time.sleep(2 * ls.POLL_S)     # the worker's pings after its first
            r = lavacli("devices", "show", LONG_DEVICE)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertRegex(r.stdout, r"(?m)^health\s*: Retired$", r.stdout)
        finally:
            r = hugezero("lava", "server", "stop")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertNotIn("warning", r.stdout + r.stderr, "each step of the stop taken")

    def job(self) -> None:
        out = paths.build_dir() / "lab-server" / "job.yaml"
        r = hugezero("lava", "job", "--device-type", "qemu", "-o", str(out), "--",
                     "selftest=off", "bench=info")
        self.assertEqual(r.returncode, 0, r.stderr)
        pin(out, "hugezero-qemu-01")    # the others are labjobs'
        t0 = time.monotonic()
        r = lavacli("jobs", "submit", str(out))
        self.assertEqual(r.returncode, 0, r.stderr)
        job = r.stdout.strip()
        r = lavacli("jobs", "wait", job, "--timeout", "300", timeout=330)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        print(f"\nlab server: job {job} submitted to finished in "
              f"{time.monotonic() - t0:.0f} s", file=sys.stderr)
        r = lavacli("jobs", "show", job)
        self.assertRegex(r.stdout, r"(?m)^Health\s*: Complete$", r.stdout)
        self.assertRegex(r.stdout, r"(?m)^device\s*: hugezero-qemu-01$", r.stdout)
        r = lavacli("results", job)
        for case in ("hugezero.info [pass]", "hugezero.done [pass]"):
            self.assertIn(case, r.stdout)
        r = lavacli("jobs", "logs", "--raw", job)
        self.assertIn("hugezero: done rc=0", r.stdout)

    def running_job(self, state: ls.State | None) -> dict[int, int]:
        """A long job submitted and seen running: the worker's processes
        then (lava-run, and QEMU in a session of its own), for stop."""
        assert state is not None
        worker = state.daemon("worker")
        assert worker is not None
        out = paths.build_dir() / "lab-server" / "long.yaml"
        r = hugezero("lava", "job", "--device-type", "qemu", "-o", str(out), "--",
                     "bench=fault", "size=64M", "clear=all", "order=all", "runs=9")
        self.assertEqual(r.returncode, 0, r.stderr)
        pin(out, LONG_DEVICE)
        job = lavacli("jobs", "submit", str(out)).stdout.strip()
        self.long_job = job
        until = time.monotonic() + 120
        while time.monotonic() < until:
            if any("qemu-system" in cmdline(p) for p in worker.members()):
                time.sleep(2)       # into the boot
                return worker.members()
            time.sleep(1)
        self.fail(f"job {job} not running QEMU after 120 s: "
                  + lavacli("jobs", "show", job).stdout)


if __name__ == "__main__":
    unittest.main()

# SPDX-License-Identifier: GPL-2.0-only
"""A LAVA server on this machine, for a one-machine lab and the lab tests:
`lava server start|status|stop` and `lava serve` (docs/lab.md, "A
one-machine lab").

Without systemd: the PostgreSQL cluster through pg_ctlcluster, and
lava-server under gunicorn, its scheduler and one lava-worker run
directly, each in a session of its own.  Everything `start` began or
added is written to a state file, so that `stop` ends exactly those
processes (by PID and start time) and takes back what it added."""
from __future__ import annotations

import copy
import datetime
import functools
import glob
import http.server
import json
import os
import secrets
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from . import lavaapi, paths

PYTHON = "/usr/bin/python3"     # Django is Debian's: not another python3
LAVA_SERVER = "/usr/bin/lava-server"
GUNICORN = "/usr/bin/gunicorn3"
LAVA_WORKER = "/usr/bin/lava-worker"
PG_SERVERS = "/usr/lib/postgresql/*/bin/postgres"
DEVICES_DIR = Path("/etc/lava-server/dispatcher-config/devices")

IDENTITY = "hugezero-local"     # lavacli's identity, the worker, the token
USER = "hugezero"               # the superuser jobs are submitted as
DEVICE = "hugezero-qemu-{:02d}"
PORT = 8000
API = "api/v0.2/"
ANSWER_S = 60                   # for the server's first answer
MANAGE_S = 120                  # one `lava-server manage` command
STOP_S = 20                     # SIGTERM to SIGKILL (lava-worker's unit: 20)
TAIL = 15                       # log lines shown of a daemon that died
# A job waits twice on polls before it runs: for the scheduler to place it
# on a device (lava-scheduler wakes every 20 s, or on the event a
# submission sends, which needs lava-publisher and EVENT_NOTIFICATION:
# settings of the machine's) and for the worker to take it (lava-worker
# asks every 20 s, --ping-interval); then again for the worker to see it
# finished.  On one machine a poll costs a few queries: every POLL_S, a
# job starts within seconds of its submission, not 20-40 s after.
POLL_S = 2
# lava-scheduler with its loop's INTERVAL set first (a module constant,
# read each turn; its workers' timeout, 3 x 20 s, was fixed at import);
# a LAVA without it is said in the log and polls at its own pace.
SCHEDULER = """
import importlib, os, sys
os.environ["DJANGO_SETTINGS_MODULE"] = "lava_server.settings.prod"
import django
django.setup()
cmd = importlib.import_module("lava_server.management.commands.lava-scheduler")
if isinstance(getattr(cmd, "INTERVAL", None), int):
    cmd.INTERVAL = int(sys.argv[1])
else:
    print("hugezero: this lava-scheduler has no INTERVAL: it polls at its own pace",
          file=sys.stderr, flush=True)
from django.core.management import execute_from_command_line
execute_from_command_line(["lava-server", "lava-scheduler", *sys.argv[2:]])
"""


def state_dir() -> Path:
    return paths.build_dir() / "lab-server"


class LabError(Exception):
    pass


# --- Processes: ours by session and start time -----------------------------

def proc_stat(pid: int) -> tuple[str, int, int, int] | None:
    """(state, parent, session, start time in clock ticks) of @pid, or
    None."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (OSError, ValueError):
        return None
    rest = text[text.rindex(")") + 2:].split()
    return rest[0], int(rest[1]), int(rest[3]), int(rest[19])


def live() -> dict[int, tuple[str, int, int, int]]:
    """Every process but the zombies, by PID."""
    out = {}
    for d in os.listdir("/proc"):
        st = proc_stat(int(d)) if d.isdigit() else None
        if st and st[0] != "Z":
            out[int(d)] = st
    return out


@dataclass
class Daemon:
    """A process `start` began, as a session leader: its session holds
    what it runs in turn (gunicorn's workers, lava-worker's lava-run and
    QEMU).  @start tells it from a later process given the same PID."""
    name: str
    pid: int
    start: int
    cmd: list[str]
    log: str

    def members(self) -> dict[int, int]:
        """The live processes of its session and their descendants in
        sessions of their own (lava-run's QEMU, under pexpect's pty), with
        their start times: none when the PID now belongs to another
        process (then the session ended long ago: Linux does not reuse a
        PID that is still a session's ID)."""
        procs = live()
        lead = procs.get(self.pid)
        if lead and lead[3] != self.start:
            return {}
        out = {pid: st[3] for pid, st in procs.items()
               if st[2] == self.pid and st[3] >= self.start}
        grew = True
        while grew:
            more = {pid: st[3] for pid, st in procs.items()
                    if st[1] in out and pid not in out and st[3] >= self.start}
            out.update(more)
            grew = bool(more)
        return out

    def up(self) -> bool:
        st = proc_stat(self.pid)
        return bool(st and st[0] != "Z" and st[3] == self.start)

    def tail(self, n: int = TAIL) -> str:
        try:
            lines = Path(self.log).read_text(errors="replace").splitlines()
        except OSError:
            return f"(no log {self.log})"
        return "\n".join(lines[-n:])


def spawn(name: str, cmd: list[str], log: Path, cwd: str = "/") -> Daemon:
    """@cmd started in a session of its own, its output to @log."""
    log.parent.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    with open(log, "ab") as out:
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out,
                             stderr=subprocess.STDOUT, cwd=cwd, env=env,
                             start_new_session=True)
    st = proc_stat(p.pid)
    if st is None or st[0] == "Z":      # gone already
        p.wait()
        raise LabError(f"{name} exited at once: {' '.join(cmd)}\n"
                       + Daemon(name, p.pid, 0, cmd, str(log)).tail())
    # A daemon outlives this command: not waited for here (reap(), or
    # init once we exit, collects it), so Popen must not warn that it runs.
    p.returncode = 0
    return Daemon(name, p.pid, st[3], cmd, str(log))


def end(d: Daemon, wait_s: float = STOP_S) -> list[int]:
    """SIGTERM to every process of @d's (Daemon.members), SIGKILL to
    those left after @wait_s; returns the PIDs signalled.  Those seen
    first are followed by PID and start time: a descendant orphaned by
    its parent's end is still ours."""
    seen = d.members()

    def left() -> dict[int, int]:
        now = {pid: t for pid, t in seen.items()
               if (st := proc_stat(pid)) and st[0] != "Z" and st[3] == t}
        now.update(d.members())
        seen.update(now)
        return now

    for sig, deadline in ((signal.SIGTERM, wait_s), (signal.SIGKILL, 5.0)):
        for pid in left():
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        until = time.monotonic() + deadline
        while time.monotonic() < until:
            reap()
            if not left():
                return sorted(seen)
            time.sleep(0.1)
    return sorted(seen)


def reap() -> None:
    """Our own exited children (the tests' and a failed start's)."""
    try:
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    except ChildProcessError:
        pass


# --- The state file ----------------------------------------------------------

@dataclass
class State:
    """What `start` began and added, for `stop` and `status`."""
    url: str = ""
    port: int = PORT
    daemons: list[Daemon] = field(default_factory=list)
    cluster: list[str] | None = None     # [version, name] started here
    devices: list[str] = field(default_factory=list)
    dictionaries: list[str] = field(default_factory=list)   # written here
    token: str = ""                      # the user's token added here
    identity_added: bool = False
    identity_before: str | None = None   # the identity block it replaced

    def daemon(self, name: str) -> Daemon | None:
        return next((d for d in self.daemons if d.name == name), None)


def state_file(d: Path | None = None) -> Path:
    return (d or state_dir()) / "state.json"


def load(d: Path | None = None) -> State | None:
    try:
        raw = json.loads(state_file(d).read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        raise LabError(f"{state_file(d)}: {e}")
    raw["daemons"] = [Daemon(**x) for x in raw.get("daemons", [])]
    return State(**raw)


def save(s: State, d: Path | None = None) -> None:
    f = state_file(d)
    f.parent.mkdir(parents=True, exist_ok=True)
    tmp = f.with_suffix(".tmp")
    # The token is a superuser's: readable by root alone.
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        json.dump({**s.__dict__, "daemons": [x.__dict__ for x in s.daemons]}, out, indent=1)
    tmp.replace(f)


def end_daemons(s: State, say: Callable[[str], None]) -> list[str]:
    """End every daemon of @s, last started first; the names of those
    found running."""
    ran = []
    for d in reversed(s.daemons):
        pids = end(d)
        if pids:
            ran.append(d.name)
            say(f"stopped {d.name} (pid {d.pid}" +
                (f", and {len(pids) - 1} of its session)" if len(pids) > 1 else ")"))
    s.daemons = []
    return ran


# --- What the machine has ----------------------------------------------------

def missing() -> list[str]:
    """The server's parts this machine lacks, each with its package."""
    parts = [("PostgreSQL's server (" + PG_SERVERS + ")", "postgresql",
              bool(glob.glob(PG_SERVERS))),
             ("pg_ctlcluster", "postgresql-common", os.access("/usr/bin/pg_ctlcluster", os.X_OK)),
             (LAVA_SERVER, "lava-server", os.access(LAVA_SERVER, os.X_OK)),
             (GUNICORN, "gunicorn, with lava-server", os.access(GUNICORN, os.X_OK)),
             (LAVA_WORKER, "lava-dispatcher", os.access(LAVA_WORKER, os.X_OK))]
    return [f"{what} (package {pkg})" for what, pkg, ok in parts if not ok]


def port_taken(port: int) -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return True
    return False


def clusters() -> list[tuple[str, str, str]]:
    """(version, name, status) of each PostgreSQL cluster."""
    try:
        r = subprocess.run(["pg_lsclusters", "--no-header"], capture_output=True,
                           text=True, timeout=30)
    except FileNotFoundError:
        return []
    return [(w[0], w[1], w[3]) for w in (ln.split() for ln in r.stdout.splitlines())
            if len(w) >= 4]


def pg_ctl(cluster: list[str], action: str) -> None:
    r = subprocess.run(["pg_ctlcluster", *cluster, action], capture_output=True, text=True,
                       timeout=120)
    if r.returncode:
        raise LabError(f"pg_ctlcluster {' '.join(cluster)} {action}: "
                       f"{(r.stderr or r.stdout).strip()}")


# lava-server installed while PostgreSQL was down: its postinst skipped
# the database ("Skipping database creation as PostgreSQL is not running").
NO_DATABASE = ("\n(lava-server's database is missing: it was installed while PostgreSQL "
               "was down; with the cluster running, `/usr/bin/python3 "
               "/usr/share/lava-server/postinst.py` creates it)")


def manage(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    """`lava-server manage ARGS` with Debian's Python."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    r = subprocess.run([PYTHON, LAVA_SERVER, "manage", *args], capture_output=True,
                       text=True, timeout=MANAGE_S, env=env)
    if check and r.returncode:
        out = (r.stderr or r.stdout).strip().splitlines()
        raise LabError(f"lava-server manage {' '.join(args)}: " + "\n".join(out[-TAIL:])
                       + (NO_DATABASE if "does not exist" in r.stderr else ""))
    return r


def value_after(text: str, key: str) -> str:
    """The value of the `key: value` (or `key   : value`) line of @text."""
    for ln in text.splitlines():
        k, _, v = ln.partition(":")
        if k.strip().lower() == key.lower() and v.strip():
            return v.strip()
    raise LabError(f"no {key!r} in: {text.strip()}")


# --- lavacli's identity ------------------------------------------------------

def identity_block(url: str, token: str) -> str:
    return (f"{IDENTITY}:\n  uri: {url}RPC2\n  username: {USER}\n  token: {token}\n")


def split_identity(text: str) -> tuple[str, str | None]:
    """@text less our identity's block (lavacli's YAML: a top-level key
    and its indented lines), and that block, or None."""
    keep, mine, inside = [], [], False
    for ln in text.splitlines(keepends=True):
        if not ln[:1].isspace() and ln.strip():
            inside = ln.rstrip() == IDENTITY + ":"
        (mine if inside else keep).append(ln)
    return "".join(keep), ("".join(mine) or None)


def set_identity(s: State, token: str, conf: Path | None = None) -> None:
    """Our identity in lavacli's configuration, every other one kept."""
    conf = conf or lavaapi.config_path()
    text = conf.read_text() if conf.exists() else ""
    rest, before = split_identity(text)
    if not s.identity_added and s.identity_before is None:
        s.identity_added, s.identity_before = before is None, before
    if rest and not rest.endswith("\n"):
        rest += "\n"
    conf.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(conf, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(rest + identity_block(s.url, token))


def restore_identity(s: State, conf: Path | None = None) -> None:
    """Our identity taken out, the one it replaced put back."""
    conf = conf or lavaapi.config_path()
    if not (s.identity_added or s.identity_before) or not conf.exists():
        return
    rest, _ = split_identity(conf.read_text())
    if s.identity_before:
        rest += ("" if not rest or rest.endswith("\n") else "\n") + s.identity_before
    if rest.strip():
        conf.write_text(rest)
    else:
        conf.unlink()
    s.identity_added, s.identity_before = False, None


# --- start -------------------------------------------------------------------

def dictionary(i: int) -> str:
    """A qemu device of lava-server's own template, a MAC of its own."""
    return ("{% extends 'qemu.jinja2' %}\n"
            f"{{% set mac_addr = '52:54:00:48:5a:{i:02x}' %}}\n")


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + API, timeout=5) as r:
            return r.status == 200
    except (urllib.error.URLError, OSError):
        return False


def start_cluster(s: State, say: Callable[[str], None]) -> None:
    """The cluster on PostgreSQL's port, started when down (and so
    recorded: `stop` stops only a cluster started here)."""
    found = clusters()
    if not found:
        raise LabError("no PostgreSQL cluster (pg_lsclusters lists none): "
                       "scripts/setup.sh --lab-server")
    ver, name, status = found[0]
    if status != "online":
        pg_ctl([ver, name], "start")
        s.cluster = [ver, name]
        say(f"started PostgreSQL {ver} {name}")


def objects(s: State, n: int, say: Callable[[str], None]) -> str:
    """The user, its token, the qemu device type, the worker and @n
    devices with their dictionaries; returns the worker's token."""
    if manage("users", "details", USER, check=False).returncode:
        manage("users", "add", USER, "--superuser", "--staff",
               "--passwd=" + secrets.token_hex(16))
        say(f"added the superuser {USER}")
    if not s.token:
        token = secrets.token_hex(32)
        manage("tokens", "add", "--user", USER, "--secret", token,
               "--description", IDENTITY)
        s.token = token
    if manage("device-types", "details", "qemu", check=False).returncode:
        manage("device-types", "add", "qemu")
    r = manage("workers", "details", IDENTITY, check=False)
    if r.returncode:
        r = manage("workers", "add", IDENTITY)
    wtoken = value_after(r.stdout, "token")
    found = []
    for i in range(1, n + 1):
        dev = DEVICE.format(i)
        path = DEVICES_DIR / f"{dev}.jinja2"
        if not path.exists():
            path.write_text(dictionary(i))
            _lavaserver_owns(path)
            s.dictionaries.append(str(path))
        # Tagged with its own name: lava run pins a job to it so
        # (--device, --count: LAVA schedules by device type and tags).
        if manage("devices", "details", dev, check=False).returncode:
            manage("devices", "add", dev, "--device-type", "qemu", "--worker", IDENTITY,
                   "--tags", dev)
        else:
            manage("devices", "update", dev, "--worker", IDENTITY, "--health", "GOOD")
            found.append(dev)
        if dev not in s.devices:
            s.devices.append(dev)
    if found:
        tag_own_names(found)
    return wtoken


def tag_own_names(devices: list[str]) -> None:
    """@devices, made before their tags were, each tagged with its name
    (`lava-server manage devices update` has no --tags)."""
    manage("shell", "-c", "from lava_scheduler_app.models import Device, Tag\n"
           f"for h in {devices!r}:\n"
           "    Device.objects.get(hostname=h).tags.add("
           "Tag.objects.get_or_create(name=h)[0])\n")


def end_jobs(devices: list[str], queue: bool) -> None:
    """No work left for the next start.  The jobs scheduled or running
    on @devices (their lava-run and QEMU ended with the worker) finished
    Incomplete, as `lava-server manage jobs fail` does: else the worker,
    started again, runs or reports them, and LAVA marks the device's
    health Unknown, over the Retired of a device this lab no longer has
    (dictionary gone).  With @queue (stop, not a failed start beside a
    running lab), the jobs of the lab's user still queued, canceled, as
    `lavacli jobs cancel` does.  A job that will not end is said, and
    the others still are."""
    r = manage("shell", "-c", "from django.db import transaction\n"
               "from lava_scheduler_app.models import TestJob\n"
               "live = (TestJob.STATE_SCHEDULING, TestJob.STATE_SCHEDULED,\n"
               "        TestJob.STATE_RUNNING, TestJob.STATE_CANCELING)\n"
               f"pks = list(TestJob.objects.filter(actual_device__hostname__in={devices!r},\n"
               "                                  state__in=live).values_list('pk', flat=True))\n"
               f"if {queue!r}:\n"
               "    pks += TestJob.objects.filter(submitter__username="
               f"{USER!r}, state=TestJob.STATE_SUBMITTED).values_list('pk', flat=True)\n"
               "for pk in pks:\n"
               "    try:\n"
               "        with transaction.atomic():\n"
               "            job = TestJob.objects.select_for_update().get(pk=pk)\n"
               "            if job.state == TestJob.STATE_SUBMITTED:\n"
               "                job.go_state_canceling()\n"
               "            else:\n"
               "                job.go_state_finished(TestJob.HEALTH_INCOMPLETE)\n"
               "            job.save()\n"
               "    except Exception as e:\n"
               "        print(f'not ended: job {pk}: {e}')\n")
    bad = [ln for ln in r.stdout.splitlines() if ln.startswith("not ended: ")]
    if bad:
        raise LabError("the jobs left on the lab's devices: " + "; ".join(bad))


def _lavaserver_owns(path: Path) -> None:
    import pwd
    try:
        pw = pwd.getpwnam("lavaserver")
        os.chown(path, pw.pw_uid, pw.pw_gid)
    except (KeyError, PermissionError):
        pass


def daemons(s: State, wtoken: str, workers: int) -> None:
    """gunicorn, the scheduler and the worker, those not running."""
    d = state_dir()
    # The worker's token in a file of root's, not on its command line.
    tfile = d / "worker.token"
    fd = os.open(tfile, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(wtoken)
    cmds = {
        "gunicorn": [GUNICORN, "lava_server.wsgi", "--log-level", "INFO",
                     "-u", "lavaserver", "-g", "lavaserver", "--worker-class", "eventlet",
                     "--workers", str(workers), "--bind", f"127.0.0.1:{s.port}"],
        # Six INFO lines a turn, a turn every POLL_S: warnings only.
        "scheduler": [PYTHON, "-c", SCHEDULER, str(POLL_S), "--level", "WARN",
                      "--log-file", "-"],
        "worker": [PYTHON, LAVA_WORKER, "--level", "INFO", "--url", s.url,
                   "--name", IDENTITY, "--token-file", str(tfile), "--worker-dir",
                   str(d / "worker"), "--ping-interval", str(POLL_S), "--log-file", "-"],
    }
    # Each logs to its output ("-"): one log a daemon, NAME.log.
    for name, cmd in cmds.items():
        old = s.daemon(name)
        if old and old.up():
            continue
        if old:
            s.daemons.remove(old)
        s.daemons.append(spawn(name, cmd, d / f"{name}.log"))
        save(s)


def pinged_since(url: str, since: float) -> bool:
    """Has our worker pinged the server since @since (time.time())?  Its
    state alone says "Online" for a while after it stopped."""
    try:
        with urllib.request.urlopen(f"{url}{API}workers/{IDENTITY}/", timeout=5) as r:
            ping = json.loads(r.read()).get("last_ping") or ""
    except (urllib.error.URLError, OSError, ValueError):
        return False
    try:
        when = datetime.datetime.fromisoformat(ping.replace("Z", "+00:00"))
    except ValueError:
        return False
    return when.timestamp() >= since - 1


def wait_up(s: State, deadline_s: float = ANSWER_S, worker_since: float | None = None) -> None:
    """Until the API answers, the worker (started at @worker_since, when
    just started) has pinged, and every daemon still runs; a daemon that
    died is named with its log's tail."""
    until = time.monotonic() + deadline_s
    while True:
        for dm in s.daemons:
            if not dm.up():
                reap()
                raise LabError(f"{dm.name} (pid {dm.pid}) died at start; "
                               f"the tail of {dm.log}:\n{dm.tail()}")
        if answers(s.url) and (worker_since is None or pinged_since(s.url, worker_since)):
            return
        if time.monotonic() > until:
            late = (s.daemon("worker") if answers(s.url) else s.daemon("gunicorn")) \
                or s.daemons[0]
            what = (f"the worker did not reach {s.url}" if late.name == "worker"
                    else f"{s.url}{API} did not answer")
            raise LabError(f"{what} in {deadline_s:.0f} s; the tail of {late.log}:\n"
                           f"{late.tail()}")
        time.sleep(0.5)


def start(port: int, n: int, say: Callable[[str], None], workers: int = 2) -> State:
    """Bring up what is not running; on failure take back what this
    start began, and raise."""
    if n < 1 or not 0 < port < 65536:
        raise LabError(f"--devices {n}, --port {port}: at least one device, a TCP port")
    lack = missing()
    if lack:
        raise LabError("missing " + "; ".join(lack) + ": scripts/setup.sh --lab-server "
                       "installs " + ("it" if len(lack) == 1 else "them"))
    if os.geteuid() != 0:
        raise LabError("root needed (PostgreSQL's cluster, lavaserver's daemons, "
                       "lava-worker's jobs)")
    before = load()
    s = copy.deepcopy(before) if before else State(port=port)
    if s.daemons and s.port != port:
        raise LabError(f"a server started here runs on port {s.port} "
                       "(`lava server stop` first)")
    s.port, s.url = port, f"http://127.0.0.1:{port}/"
    gun = s.daemon("gunicorn")
    if not (gun and gun.up()) and port_taken(port):
        raise LabError(f"port {port} is taken by another program: --port")
    try:
        start_cluster(s, say)
        save(s)
        wtoken = objects(s, n, say)
        save(s)
        set_identity(s, s.token)
        save(s)
        old = s.daemon("worker")
        since = None if old and old.up() else time.time()
        daemons(s, wtoken, workers)
        wait_up(s, worker_since=since)
    except (LabError, OSError, subprocess.SubprocessError) as e:
        save(s)
        if before is None:
            say("start failed; stopping the server's processes, taking back what was added")
            stop(say, quiet_manage=True)
        else:
            # A lab that ran before this start runs on: only what this
            # call began or added is taken back.
            say("start failed; taking back what this start began or added")
            take_back(added(before, s), say, quiet_manage=True)
            save(before)
        raise LabError(str(e))
    return s


def added(before: State, now: State) -> State:
    """What @now holds that @before did not: what one start began."""
    old = {(d.pid, d.start) for d in before.daemons}
    mine = not (before.identity_added or before.identity_before)
    return State(url=now.url, port=now.port,
                 daemons=[d for d in now.daemons if (d.pid, d.start) not in old],
                 cluster=now.cluster if before.cluster is None else None,
                 devices=[d for d in now.devices if d not in before.devices],
                 dictionaries=[d for d in now.dictionaries if d not in before.dictionaries],
                 token=now.token if now.token != before.token else "",
                 identity_added=now.identity_added and mine,
                 identity_before=now.identity_before if mine else None)


# --- stop and status -----------------------------------------------------------

def stop(say: Callable[[str], None], quiet_manage: bool = False) -> bool:
    """End what `start` began and take back what it added; False when
    nothing was started here."""
    s = load()
    if s is None:
        return False
    take_back(s, say, quiet_manage, save, queue=True)
    (state_dir() / "worker.token").unlink(missing_ok=True)
    state_file().unlink()
    return True


def take_back(s: State, say: Callable[[str], None], quiet_manage: bool = False,
              keep: Callable[[State], None] = lambda s: None, queue: bool = False) -> None:
    """End @s's daemons and take back what it records as added, @keep
    called with what is left after each step; @queue: the lab's queued
    jobs canceled too (end_jobs())."""
    end_daemons(s, say)
    keep(s)
    if s.devices:
        try:
            end_jobs(s.devices, queue)
        except (LabError, subprocess.SubprocessError) as e:
            if not quiet_manage:
                say(f"warning: {e}")
    if s.devices or s.token:
        try:
            for dev in s.devices:
                # Kept in the database, unscheduled: its dictionary goes.
                manage("devices", "update", dev, "--health", "RETIRED")
            if s.token:
                manage("tokens", "rm", s.token)
            s.devices, s.token = [], ""
        except (LabError, subprocess.SubprocessError) as e:
            if not quiet_manage:
                say(f"warning: {e}")
    for p in s.dictionaries:
        Path(p).unlink(missing_ok=True)
    s.dictionaries = []
    restore_identity(s)
    keep(s)
    if s.cluster:
        stop_cluster(s.cluster, say)
        s.cluster = None


def stop_cluster(cluster: list[str], say: Callable[[str], None]) -> None:
    """The cluster `start` started, stopped; one stopped by someone else
    since is stopped already, not a failure that keeps the state file."""
    name = " ".join(cluster)
    if not any([v, n] == cluster and st == "online" for v, n, st in clusters()):
        say(f"PostgreSQL {name} was stopped already")
        return
    try:
        pg_ctl(cluster, "stop")
    except LabError:
        if any([v, n] == cluster and st == "online" for v, n, st in clusters()):
            raise
        say(f"PostgreSQL {name} was stopped already")
        return
    say(f"stopped PostgreSQL {name}")


def status(say: Callable[[str], None]) -> bool:
    """What runs; True when all of it does."""
    s = load()
    if s is None:
        say(f"no server started here ({state_file()} absent)")
        return False
    ok = True
    for d in s.daemons:
        up = d.up()
        ok &= up
        say(f"{d.name:9} pid {d.pid:<7} {'up' if up else 'down'}   log {d.log}")
    for ver, name, st in clusters():
        ours = " (started here)" if s.cluster == [ver, name] else ""
        say(f"postgresql {ver} {name}: {st}{ours}")
    answer = answers(s.url)
    ok &= answer and bool(s.daemons)
    say(f"url {s.url} {'answers' if answer else 'does not answer'}; identity {IDENTITY}")
    say(f"devices: {', '.join(s.devices) or 'none'} (device type qemu, worker {IDENTITY})")
    return ok


# --- lava serve ----------------------------------------------------------------

def http_server(port: int, directory: Path,
                host: str = "") -> http.server.ThreadingHTTPServer:
    """An HTTP server of @directory's files, not yet serving."""
    if not directory.is_dir():
        raise LabError(f"{directory}: no such directory (lava job makes its images)")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler,
                                directory=str(directory))
    try:
        return http.server.ThreadingHTTPServer((host, port), handler)
    except OSError as e:
        raise LabError(f"port {port}: {e.strerror}")


def serve(port: int, directory: Path, say: Callable[[str], None],
          host: str = "") -> None:
    """The images directory over HTTP, for jobs whose --image-url is
    http://HOST:PORT/ (lava.image_url appends an image's own name)."""
    httpd = http_server(port, directory, host)
    say(f"serving {directory} at http://{host or socket.getfqdn()}:"
        f"{httpd.server_address[1]}/ (--image-url); Ctrl-C ends it")
    with httpd:
        try:
            httpd.serve_forever()
        except KeyboardInterrupt:
            pass

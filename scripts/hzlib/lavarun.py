# SPDX-License-Identifier: GPL-2.0-only
"""scripts/hugezero lava run: from a boot line to a lab's report, through
a LAVA server (docs/lab.md, "The lab in one command").

It builds the image, writes one job per device and repeat (lava.py),
submits them (lavaapi.py), waits for them with a line per change of a
job's state, fetches each job's raw log (output.yaml) and cases into a
directory, and prints `report` of the jobs that completed, or `table`
for a preset= of the jobs that passed.  Its exit status says the worst
of what happened to a job (EXIT_*); a line per job says what.

LAVA schedules a job by device type and tags alone: a job cannot name
its device.  A device is pinned through a tag no other usable device of
its type has, or needs none when it is the only one.
"""
from __future__ import annotations

import datetime
import math
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, IO

from . import image, lava, lavaapi, lavalog, linuxtree, paths, records, report, results, table

# Exit statuses, each a kind of failure; several: the highest.
EXIT_OK = 0
EXIT_CASE = 1           # a case failed: verification, a crash, done rc != 0
EXIT_USAGE = 2          # nothing ran: bad input, the server or the token
EXIT_LOG = 3            # the job completed, its log lost or damaged records
EXIT_INFRA = 4          # LAVA's health Incomplete or Canceled: the lab's fault
EXIT_TIMEOUT = 5        # not finished within --timeout: canceled by us
EXIT_INTERRUPTED = 130  # Ctrl-C: the jobs canceled
KINDS = {"failed case": EXIT_CASE, "incomplete log": EXIT_LOG,
         "infrastructure error": EXIT_INFRA, "timeout": EXIT_TIMEOUT}

USABLE = ("Good", "Unknown")    # device healths the scheduler gives jobs to
QUEUE_S = 300           # the default --timeout's allowance for the queue
LOG_CHUNK = 5000        # lines of output.yaml a logs call asks for
CANCEL_WAIT_S = 30      # how long a canceled job is waited for
MISS_S = 60             # how long the server may miss polls in a row
MAKE_TAIL = 30          # lines of a failed make shown
SHOWN_FAILS = 5         # failed cases named; the rest counted
PHASES = {"Submitted": "queued", "Scheduling": "queued", "Scheduled": "queued",
          "Running": "running", "Canceling": "canceling", "Finished": "finished"}


class RunError(Exception):
    """Nothing was run: EXIT_USAGE with this message."""


@dataclass
class Options:
    device_type: str
    args: list[str]
    firmware: str = "bios"
    device: str | None = None
    count: int | None = None
    repeat: int = 1
    timeout: float | None = None
    poll: float = 5.0
    image_url: str | None = None
    elf: Path = paths.ELF
    out: Path | None = None
    qemu: dict[str, str] = field(default_factory=dict)   # cpu, smp, mem given
    dry_run: bool = False


@dataclass
class Job:
    """One job: where it is pinned, and what became of it."""
    index: int
    tags: list[str]
    pinned: str | None
    definition: str = ""
    id: str = ""
    state: str = ""
    health: str = ""
    device: str = ""
    comment: str = ""
    said: tuple[str, str] = ("", "")
    kind: str = ""          # "" (passed) or a KINDS key
    why: list[str] = field(default_factory=list)
    log: Path | None = None
    boots: list[records.Boot] = field(default_factory=list)
    cases: int = 0
    skips: int = 0
    skipped: list[str] = field(default_factory=list)   # configurations skipped

    @property
    def finished(self) -> bool:
        return self.state == "Finished" or self.kind == "timeout"

    def name(self) -> str:
        where = self.device or self.pinned
        return f"job {self.id or '#' + str(self.index)}" + (f" on {where}" if where else "")

    def fail(self, kind: str, why: str) -> None:
        if not self.kind or KINDS[kind] > KINDS[self.kind]:
            self.kind = kind
        self.why.append(why)


Say = Callable[[str], None]


# --- devices -----------------------------------------------------------------

def own_tag(server: lavaapi.Server, host: str, others: list[str]) -> str | None:
    """A tag of @host that none of @others has: what pins a job to it."""
    mine = [str(t) for t in server.device(host).get("tags") or []]
    theirs = {str(t) for o in others for t in server.device(o).get("tags") or []}
    return next((t for t in mine if t not in theirs), None)


def choose(server: lavaapi.Server, o: Options, say: Say) -> list[tuple[str | None, list[str]]]:
    """The devices to run on: (device or None for any, the job's tags)."""
    devs = [d for d in server.devices() if d.get("type") == o.device_type]
    if not devs:
        raise RunError(f"{server.where} has no device of type {o.device_type}")
    usable = [str(d["hostname"]) for d in devs if d.get("health") in USABLE]
    if o.device:
        names = [str(d["hostname"]) for d in devs]
        if o.device not in names:
            raise RunError(f"no device {o.device!r} of type {o.device_type} on "
                           f"{server.where} (there: {', '.join(names)})")
        if o.device not in usable:
            health = next(d.get("health") for d in devs if d["hostname"] == o.device)
            raise RunError(f"device {o.device} is {health}: LAVA gives it no job")
        chosen = [o.device]
    elif o.count:
        if len(usable) < o.count:
            raise RunError(f"--count {o.count}: {server.where} has {len(usable)} usable "
                           f"device(s) of type {o.device_type} ({', '.join(usable) or 'none'})")
        chosen = usable[:o.count]
    else:
        if not usable:
            raise RunError(f"no device of type {o.device_type} is Good or Unknown: "
                           "LAVA would queue the job for ever")
        return [(None, [])]
    if len(chosen) == len(usable) == 1:
        return [(chosen[0], [])]
    tags = {h: own_tag(server, h, [u for u in usable if u != h]) for h in chosen}
    if all(tags.values()):
        return [(h, [str(tags[h])]) for h in chosen]
    if o.device:
        raise RunError(f"device {o.device} has no tag of its own, and LAVA schedules "
                       "by device type and tags only: have the admin tag it "
                       f"('lavacli devices tags add {o.device} {o.device}')")
    say(f"not every device has a tag of its own: {len(chosen)} jobs go to the "
        "type, LAVA places them; each is named by the device it ran on")
    return [(None, []) for _ in chosen]


# --- the jobs ---------------------------------------------------------------

def refusal(o: Options, line: lava.Line) -> str | None:
    """Why @o cannot run @line, as lava job refuses it; None if it can."""
    if lava.reboots(line, o.device_type):
        return lava.reboots(line, o.device_type)
    if o.device_type != "qemu" and o.qemu:
        return (", ".join(f"--{k}" for k in o.qemu) + ": the qemu device type's; "
                "an x86 server is what it is")
    if o.device_type == "qemu" and o.firmware != "bios":
        return "the qemu device type boots SeaBIOS: --firmware bios"
    if o.device_type != "qemu" and not o.image_url:
        return ("an x86 server fetches its image over the network: give "
                "--image-url BASE/ where build/images/ is served "
                "(scripts/hugezero lava serve on a one-machine lab)")
    return None


def make_build(o: Options, say: Say) -> None:
    """The build directory made (make all iso, quietly) before its kernel
    is checked and packed: a fresh clone has none, and an ELF older than
    its sources is never submitted.  An --elf of another directory is
    taken as it is.  A tree the directory was built with (make LINUX=),
    and the LINUX_ABI= it was given, are given again, not switched away
    from."""
    if o.elf.absolute() != paths.ELF:
        return
    build = paths.BUILD
    cmd = ["make", "--no-print-directory", "-C", str(paths.ROOT),
           f"-j{os.cpu_count() or 1}", "all", "iso", f"BUILD={build}"]
    stamp = build / "linux-tree.stamp"
    tree = stamp.read_text().strip() if stamp.exists() else ""
    abi_file = build / "linux-tree" / linuxtree.ABI_FILE
    abi = abi_file.read_text().strip() if tree and abi_file.exists() else ""
    given = ([f"LINUX={tree}"] if tree else []) + ([f"LINUX_ABI={abi}"] if abi else [])
    cmd += given
    say(f"building: {paths.make_command(build)} all iso" + "".join(f" {g}" for g in given))
    try:
        r = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        raise RunError(f"cannot run make: {e}")
    if r.returncode != 0:
        tail = (r.stdout + r.stderr).splitlines()[-MAKE_TAIL:]
        raise RunError("\n".join([*tail, f"make failed (exit status {r.returncode}): "
                                  "nothing was submitted"]))


def check(o: Options) -> lava.Line:
    """The boot line as the kernel parses it, and @o refused as lava job
    would, before anything is asked of the server."""
    line = lava.check_line(o.args, lava.companion_of(o.elf))
    why = refusal(o, line)
    if why:
        raise RunError(why)
    return line


def build(o: Options, line: lava.Line, say: Say) -> dict[str, object]:
    """The image built, and the job for it."""
    if o.device_type == "qemu":
        q = lava.QemuSpec(cpu=o.qemu.get("cpu", "max"), smp=o.qemu.get("smp", "1"),
                          mem_mib=lava.parse_mem(o.qemu.get("mem", "4G")))
        lava.qemu_options(q)
        built = image.build_iso(o.args, o.elf)
        url = lava.image_url(built, o.image_url)
        job = lava.qemu_job(line, url, q)
    else:
        built = lava.build_netimage(o.args, o.firmware, o.elf)
        url = lava.image_url(built, o.image_url)
        job = lava.x86_job(line, url, o.firmware)
    why = lava.long_job(job, line, o.device_type)
    if why:
        say(f"warning: {why}")
    say(f"image {built.name}" + (f", fetched from {url}" if url.startswith("file://")
                                 else f": serve {built} as {url}"))
    return job


def definitions(job: dict[str, object], places: list[tuple[str | None, list[str]]],
                repeat: int) -> list[Job]:
    out = []
    for pinned, tags in places:
        for _ in range(repeat):
            j = Job(len(out) + 1, tags, pinned)
            d = dict(job)
            # LAVA takes 200 characters of a job's name at the most.
            d["job_name"] = f"{str(job['job_name'])[:190]} [{j.index}]"
            if tags:
                d["tags"] = list(tags)
            j.definition = lava.to_yaml(d)
            out.append(j)
    return out


def default_timeout(job: dict[str, object], jobs: int, devices: int) -> float:
    """The job's own timeout for each turn a device takes, and the queue."""
    mins = job["timeouts"]["job"]["minutes"]  # type: ignore[index]
    return mins * 60 * math.ceil(jobs / max(devices, 1)) + QUEUE_S


def submit(server: lavaapi.Server, jobs: list[Job], out: Path, say: Say) -> None:
    """Every job submitted, or none: a refusal cancels those before it."""
    for j in jobs:
        try:
            j.id = server.submit(j.definition)
        except lavaapi.LavaApiError as e:
            cancel(server, [x for x in jobs if x.id], say)
            for x in jobs:
                x.id = ""       # canceled: nothing of this run is left to wait for
            raise RunError(f"job #{j.index} refused: {e}")
        (out / f"job-{j.id}.definition.yaml").write_text(j.definition)
        say(f"{j.name()}: submitted" + (f", pinned to {j.pinned} by tag {j.tags[0]}"
                                         if j.tags else ""))


def cancel(server: lavaapi.Server, jobs: list[Job], say: Say) -> list[Job]:
    """@jobs canceled on the server; those it took."""
    done = []
    for j in jobs:
        try:
            server.cancel(j.id)
            say(f"{j.name()}: canceled on the server")
            done.append(j)
        except lavaapi.LavaApiError as e:
            say(f"{j.name()}: could not cancel it: {e}")
    return done


def poll(server: lavaapi.Server, j: Job, say: Say) -> None:
    s = server.show(j.id)
    j.state, j.health = str(s.get("state", "")), str(s.get("health", ""))
    j.device = str(s.get("device") or "")
    j.comment = str(s.get("failure_comment") or "")
    now = (PHASES.get(j.state, j.state), j.device)
    if now != j.said:
        j.said = now
        extra = f" ({j.state})" if now[0] == "queued" else ""
        extra += f": {j.health}" if j.state == "Finished" else ""
        say(f"{j.name()}: {now[0]}{extra}")


def wait(server: lavaapi.Server, jobs: list[Job], timeout: float, every: float,
         say: Say) -> None:
    """Until every job finished or @timeout passed; the late ones canceled
    and marked."""
    end, missed = time.monotonic() + timeout, None
    while True:
        missed = poll_all(server, jobs, missed, say)
        late = [j for j in jobs if not j.finished]
        if not late:
            return
        if time.monotonic() >= end:
            break
        time.sleep(min(every, max(0.0, end - time.monotonic())))
    took = cancel(server, late, say)
    for j in late:
        j.fail("timeout", f"not finished after {timeout:.0f} s ({j.state or '?'}"
               + (f" on {j.device}" if j.device else "") + "); "
               + ("canceled on the server" if j in took else "NOT canceled: it may "
                  "still hold its device (lavacli jobs cancel " + j.id + ")"))
    # A canceled job writes its last lines: wait a little for them.  The
    # jobs are timeouts already: a server gone now leaves them so.
    stop = time.monotonic() + CANCEL_WAIT_S
    while time.monotonic() < stop and any(j.state != "Finished" for j in late):
        time.sleep(min(every, 2.0))
        try:
            for j in late:
                if j.state != "Finished":
                    poll(server, j, say)
        except lavaapi.LavaApiError as e:
            say(f"{e}; not waiting for the canceled job(s) to finish")
            return


def poll_all(server: lavaapi.Server, jobs: list[Job], missed: float | None,
             say: Say) -> float | None:
    """Every unfinished job polled; when the polls began to fail (None:
    they did not).  A server restarting or busy for a while is not a
    failure: MISS_S of failed polls in a row are."""
    try:
        for j in jobs:
            if not j.finished:
                poll(server, j, say)
        return None
    except lavaapi.LavaApiError as e:
        now = time.monotonic()
        if missed is None:
            say(f"{e}; asking again (for {MISS_S} s at the most)")
            return now
        if now - missed >= MISS_S:
            raise
        return missed


# --- what came back ----------------------------------------------------------

def fetch_log(server: lavaapi.Server, job: str) -> str:
    """output.yaml whole, LOG_CHUNK lines a call (whole lines only)."""
    parts, start = [], 0
    while True:
        _, text = server.logs(job, start, start + LOG_CHUNK)
        whole = text[:text.rfind("\n") + 1]
        if not whole:
            return "".join(parts)
        parts.append(whole)
        start += whole.count("\n")


def fetch(server: lavaapi.Server, j: Job, out: Path) -> list[dict[str, str]]:
    """The job's log and cases, written into @out; its cases."""
    j.log = out / f"job-{j.id}.log"
    j.log.write_text(fetch_log(server, j.id))
    text, rows = server.results(j.id)
    (out / f"job-{j.id}.results.csv").write_text(text)
    return rows


def judge(j: Job, rows: list[dict[str, str]], warn: Say) -> None:
    """What failed, if anything, of a finished job."""
    if j.kind == "timeout":
        return
    if j.health != "Complete":
        why = j.comment or "no failure comment"
        if j.health == "Canceled":
            why = "canceled on the server, not by lava run"
        j.fail("infrastructure error", f"LAVA's health {j.health or '?'}: {why}")
        return
    ours = [r for r in rows if r.get("suite") != "lava"]
    fails = [f"{r.get('suite')}/{r.get('name')}" for r in rows if r.get("result") == "fail"]
    j.cases = sum(r.get("result") == "pass" for r in ours)
    j.skips = sum(r.get("result") == "skip" for r in ours)
    if fails:
        more = len(fails) - SHOWN_FAILS
        j.fail("failed case", "failed: " + ", ".join(fails[:SHOWN_FAILS])
               + (f" and {more} more" if more > 0 else ""))
    if not any(r.get("suite") == lava.LAST and r.get("name") == "done" for r in ours):
        j.fail("failed case", "no hugezero/done case: the run never printed its done line")
    assert j.log is not None
    text = j.log.read_text(errors="replace")
    if fails:
        j.why += console_says(text)
    j.boots = lavalog.load(text, str(j.log), warn)
    for b in j.boots:
        if j.device:
            old = (b.lava or {}).get("device")
            b.lava = {**(b.lava or {}), "device": j.device + (f" ({old})" if old else ""),
                      "hostname": j.device}
            if b.lava.get("job") in (None, "unknown"):
                b.lava["job"] = j.id
    judge_log(j)


# What the kernel said of a run that failed, in its own words.
STOPPED = re.compile(r"^hugezero: (?:unexpected exception|fatal|panic|done rc=)")


def console_says(text: str) -> list[str]:
    """The console's lines of why the run stopped: an exception, a fatal
    error, the done line's rc."""
    try:
        console = lavalog.read(text)[1]
    except lavalog.EntryError:
        return []
    return [f"the console: '{ln.strip()}'" for ln in console.splitlines()
            if STOPPED.match(ln)][:3]


def judge_log(j: Job) -> None:
    if not j.boots:
        j.fail("incomplete log", "no hugezero records in its log")
        return
    for b in j.boots:
        for p in b.problems[:3]:
            j.fail("incomplete log", f"log: {p}")
        if not b.problems and not b.complete and j.kind != "failed case":
            j.fail("incomplete log", "log: the records end before their end record")
    rows = results.rows(j.boots)
    # A strategy the CPU cannot run is skipped with its reason (clear=all
    # under TCG: avx512, clzero): reported, not a failure.
    j.skipped = [f"{config(r)} ({r.get('reason') or 'no reason'})"
                 for r in rows if r.get("status") == "skip"]
    bad = [f"{config(r)} {r.get('status')}" for r in rows
           if r.get("status") not in ("ok", "skip")]
    if bad:
        j.fail("failed case", "configurations not verified: " + ", ".join(bad[:SHOWN_FAILS]))


def config(r: dict[str, object]) -> str:
    return f"{r.get('folio')}.{r.get('clear')}.{r.get('order')}"


# --- the whole run ----------------------------------------------------------

def out_dir(given: Path | None) -> Path:
    if given:
        return given
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    return paths.BUILD / "lava-runs" / stamp


def connect(ident: lavaapi.Identity, say: Say) -> lavaapi.Server:
    server = lavaapi.Server(ident)
    version = server.version()
    who = server.whoami()
    if not who:
        raise RunError(f"{server.where} does not know us ({ident.described()}): "
                       "submitting needs a username and token")
    say(f"{server.where}: lava-server {version}, as {who}")
    return server


def verdicts(jobs: list[Job], say: Say) -> int:
    rc = EXIT_OK
    for j in jobs:
        if j.kind:
            say(f"{j.name()}: {j.kind}: " + "; ".join(j.why))
            rc = max(rc, KINDS[j.kind])
        else:
            say(f"{j.name()}: ok ({j.cases} cases passed, {j.skips} skipped)"
                + skipped(j))
    return rc


def skipped(j: Job) -> str:
    """The configurations @j skipped, as its line says them."""
    if not j.skipped:
        return ""
    more = len(j.skipped) - SHOWN_FAILS
    return (f"; {len(j.skipped)} configuration(s) skipped: "
            + ", ".join(j.skipped[:SHOWN_FAILS]) + (f" and {more} more" if more > 0 else ""))


def show(line: lava.Line, jobs: list[Job], out: IO[str], say: Say) -> None:
    """report of the completed jobs; for a preset, table of those that
    passed alone (nothing of a failed job in a table)."""
    if line.preset != "none":
        boots = [b for j in jobs if not j.kind for b in j.boots]
        left = [j.name() for j in jobs if j.kind and j.boots]
        if left:
            say("left out of the table: " + ", ".join(left))
        if boots:
            table.write(renumber(boots), "text", out)
        return
    boots = [b for j in jobs if j.health == "Complete" and j.kind != "timeout"
             for b in j.boots]
    if boots:
        report.write(renumber(boots), out)


def renumber(boots: list[records.Boot]) -> list[records.Boot]:
    for i, b in enumerate(boots):
        b.index = i
    return boots


def interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def run(ident: lavaapi.Identity | None, o: Options, out: IO[str], say: Say) -> int:
    """The whole of `lava run`; its exit status.  SIGTERM is taken as
    Ctrl-C (a job started in the background ignores SIGINT): the jobs
    are canceled, not left to hold their devices."""
    try:
        old = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:          # not the main thread: no handler of ours
        return steps(ident, o, out, say)
    try:
        return steps(ident, o, out, say)
    finally:
        signal.signal(signal.SIGTERM, old)


def dry_run(o: Options, say: Say) -> int:
    """--dry-run: the image built and each job's definition written, as
    steps() would submit them; no server is asked, so a device is named
    (--device, or --count's N) rather than found and tagged."""
    make_build(o, say)
    line = check(o)
    job = build(o, line, say)
    places: list[tuple[str | None, list[str]]] = (
        [(o.device, [])] if o.device else [(None, [])] * (o.count or 1))
    jobs = definitions(job, places, o.repeat)
    d = out_dir(o.out)
    d.mkdir(parents=True, exist_ok=True)
    for j in jobs:
        (d / f"job-{j.index}.yaml").write_text(j.definition)
    say(f"dry run: {len(jobs)} job(s) written to {d} (job-N.yaml), none submitted: "
        "no server was asked")
    return 0


def steps(ident: lavaapi.Identity | None, o: Options, out: IO[str], say: Say) -> int:
    jobs: list[Job] = []
    server = None
    try:
        if o.dry_run:
            return dry_run(o, say)
        assert ident is not None
        make_build(o, say)
        line = check(o)
        server = connect(ident, say)
        places = choose(server, o, say)
        job = build(o, line, say)
        jobs = definitions(job, places, o.repeat)
        d = out_dir(o.out)
        d.mkdir(parents=True, exist_ok=True)
        timeout = o.timeout or default_timeout(job, len(jobs), len(places))
        submit(server, jobs, d, say)
        say(f"waiting at most {timeout:.0f} s for {len(jobs)} job(s)")
        wait(server, jobs, timeout, o.poll, say)
        for j in jobs:
            try:
                rows = fetch(server, j, d)
            except lavaapi.LavaApiError as e:
                j.fail("incomplete log", f"could not fetch its log and cases: {e}")
                continue
            judge(j, rows, raw_err)
        show(line, jobs, out, say)
        rc = verdicts(jobs, say)
        say(f"logs and cases in {d}")
        return rc
    except (RunError, lavaapi.LavaApiError, lava.LavaError, image.ImageError,
            OSError) as e:
        say(str(e))
        sent = [j.id for j in jobs if j.id]
        if not sent:
            return EXIT_USAGE
        say(f"job(s) {', '.join(sent)} were submitted and may still be queued or "
            f"running there: lavacli jobs show {sent[0]}, lavacli jobs cancel {sent[0]}")
        return EXIT_INFRA
    except KeyboardInterrupt:
        say("interrupted: the jobs not finished are canceled")
        if server is not None:
            cancel(server, [j for j in jobs if j.id and not j.finished], say)
        return EXIT_INTERRUPTED


def raw_err(msg: str) -> None:
    sys.stderr.write(msg + "\n")


def stderr_say(msg: str) -> None:
    sys.stderr.write(f"hugezero lava run: {msg}\n")
    sys.stderr.flush()

# SPDX-License-Identifier: GPL-2.0-only
"""LAVA's job logs as inputs, like serial logs (docs/records.md, "LAVA job
logs").

Two shapes, told apart by their content:

- the log stream of `lava-run` (its stderr): one YAML flow mapping a line,
  `{"dt": "...", "lvl": "...", "msg": ...}`, as lava_common/log.py's
  YAMLLogger.log_message() and dump() write it (yaml.dump with
  default_flow_style=True, default_style='"', width=10**6: every scalar
  double-quoted, non-ASCII and control characters escaped);
- the job log a LAVA server gives (output.yaml; `lavacli jobs logs --raw`,
  the REST API's logs): the same lines, each as an item of a YAML list,
  `- {...}` (lava_scheduler_app's internal logs API writes each line the
  dispatcher sent with "- " before it; lavacli's --raw prints the same).

The console is the messages of the `target` entries (and of the `feedback`
ones with no namespace: QemuSession.disconnect() reads the console's tail
as feedback, lava_dispatcher/connections/serial.py).  LAVA's ShellLogger
(lava_dispatcher/shell.py) wrote them a full line at a time, with `\\r`
and ESC removed and every `"` turned into `\\"`: that escape is undone
here, so that the records' checksums are over the kernel's own text.

Each line is read by a small, strict parser of exactly the forms LAVA
writes (no YAML library: python3-yaml is lava-dispatcher's dependency, not
hugezero's).  A line that is not one (cut, joined to the next, a changed
character that breaks the form) is left out and said to be; the console
lines it held are lost, so the records' own checks (sequence numbers,
CRC32, the `end` record) mark their boot damaged: a mangled job log gives
damaged records, never a wrong number.

What LAVA's log says of the job and the machine is carried beside the
records (Boot.lava): the job id (from the dispatcher's temporary
directory, <download dir>/<prefix><job id>, lava_dispatcher/job.py), the
dispatcher's version, the device as the log shows it (the QEMU boot
command's machine, CPU, CPUs and memory; for a device on a serial line,
its connection command) and LAVA's result for the job.  Neither lava-run
nor lava-server writes the device's name or its device type into the log
(lava_common/log.py writes dt, lvl and msg only; the dispatcher's device
dictionary carries no hostname): those are in the server's job record
(`lavacli jobs show`), not here.
"""
from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from typing import Callable

from . import records

STREAM = "lava-run log stream"
SERVER = "LAVA job log (output.yaml)"

# Where an entry starts: a `"` inside a message is always escaped, so this
# cannot occur inside one, and a line that lost its newline is split here.
START = '{"dt": "'
KEYS = {"dt", "lvl", "msg", "ns"}
SIMPLE_ESCAPES = {"0": "\0", "a": "\a", "b": "\b", "t": "\t", "n": "\n", "v": "\v",
                  "f": "\f", "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/",
                  "\\": "\\", "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029"}
HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}
MAX_SAID = 20           # mangled lines named one by one; the rest counted


class Plain(str):
    """A scalar LAVA wrote tagged (`! "1"`): a number, boolean or null,
    not a string."""


class EntryError(ValueError):
    """A line (or piece of one) that is not an entry as LAVA writes it."""


@dataclass
class Job:
    """What a LAVA log says of its job, and what could not be read."""
    form: str                       # STREAM or SERVER
    job_id: str = ""
    dispatcher: str = ""
    device: str = ""
    result: str = ""
    entries: int = 0
    problems: list[str] = field(default_factory=list)

    def fields(self) -> dict[str, str]:
        """Boot.lava: the job as the records' readers see it.  A device
        the log does not name is absent, not a word in its place: the
        machine is then known by its CPU alone (display.machine_key)."""
        return {"form": self.form, "job": self.job_id or "unknown",
                "dispatcher": self.dispatcher or "unknown",
                **({"device": self.device} if self.device else {}),
                "result": self.result or "not in the log"}


# --- the strict reader of one line ---------------------------------------

def quoted(s: str, i: int) -> tuple[str, int]:
    """The double-quoted scalar at s[i] (its opening quote), decoded, and
    the index after its closing quote."""
    if s[i:i + 1] != '"':
        raise EntryError(f"a quoted string expected at column {i + 1}")
    out: list[str] = []
    i += 1
    while i < len(s):
        c = s[i]
        if c == '"':
            return "".join(out), i + 1
        if c == "\\":
            e = s[i + 1:i + 2]
            if e in SIMPLE_ESCAPES:
                out.append(SIMPLE_ESCAPES[e])
                i += 2
                continue
            n = HEX_ESCAPES.get(e)
            digits = s[i + 2:i + 2 + n] if n else ""
            if not n or len(digits) != n or not all(d in "0123456789abcdefABCDEF"
                                                     for d in digits):
                raise EntryError(f"an escape LAVA does not write at column {i + 1}")
            out.append(chr(int(digits, 16)))
            i += 2 + n
            continue
        if not " " <= c <= "~":
            # LAVA's dumper escapes everything else (allow_unicode off).
            raise EntryError(f"character {c!r} unescaped at column {i + 1}")
        out.append(c)
        i += 1
    raise EntryError("cut off inside a string")


def value(s: str, i: int) -> tuple[object, int]:
    c = s[i:i + 1]
    if c == '"':
        return quoted(s, i)
    if s.startswith('! "', i):
        # A number, boolean or null under default_style='"': `! "1"`.
        v, end = quoted(s, i + 2)
        return Plain(v), end
    if c == "{":
        return mapping(s, i)
    if c == "[":
        return sequence(s, i)
    raise EntryError(f"a value expected at column {i + 1}" if c else "cut off")


def mapping(s: str, i: int) -> tuple[dict[str, object], int]:
    out: dict[str, object] = {}
    i += 1
    if s[i:i + 1] == "}":
        return out, i + 1
    while True:
        k, i = quoted(s, i)
        if not s.startswith(": ", i):
            raise EntryError(f"': ' expected at column {i + 1}" if i < len(s) else "cut off")
        v, i = value(s, i + 2)
        if k in out:
            raise EntryError(f"key {k!r} twice")
        out[k] = v
        if s[i:i + 1] == "}":
            return out, i + 1
        if not s.startswith(", ", i):
            raise EntryError(f"', ' or '}}' expected at column {i + 1}" if i < len(s) else "cut off")
        i += 2


def sequence(s: str, i: int) -> tuple[list[object], int]:
    out: list[object] = []
    i += 1
    if s[i:i + 1] == "]":
        return out, i + 1
    while True:
        v, i = value(s, i)
        out.append(v)
        if s[i:i + 1] == "]":
            return out, i + 1
        if not s.startswith(", ", i):
            raise EntryError(f"', ' or ']' expected at column {i + 1}" if i < len(s) else "cut off")
        i += 2


def entry(s: str, i: int = 0) -> tuple[dict[str, object], int]:
    """The entry (dt, lvl, msg and perhaps ns) at s[i], and where it ends."""
    if not s.startswith(START, i):
        raise EntryError("not an entry")
    e, end = mapping(s, i)
    if not {"dt", "lvl", "msg"} <= set(e) <= KEYS:
        raise EntryError(f"keys {', '.join(sorted(e))}: not dt, lvl, msg")
    if not all(type(e[k]) is str for k in ("dt", "lvl") + (("ns",) if "ns" in e else ())):
        raise EntryError("dt, lvl or ns not a string")
    return e, end


def console_text(msg: str) -> str:
    """A target message as the device wrote it: ShellLogger's `\\"` back
    to `"`; a bare `"` was not written by it."""
    out: list[str] = []
    i = 0
    while i < len(msg):
        if msg[i] == "\\" and msg[i + 1:i + 2] == '"':
            out.append('"')
            i += 2
            continue
        if msg[i] == '"':
            raise EntryError("a console line with an unescaped '\"'")
        out.append(msg[i])
        i += 1
    return "".join(out)


# --- the whole log --------------------------------------------------------

def form_of(text: str) -> str | None:
    """STREAM, SERVER, or None (not a LAVA log): the form of the first
    line that begins as an entry, among the first 50 that are not blank."""
    seen = 0
    for line in text.split("\n"):
        if not line.strip():
            continue
        if line.startswith("- " + START):
            return SERVER
        if line.startswith(START):
            return STREAM
        seen += 1
        if seen >= 50:
            break
    return None


def pieces(line: str) -> list[int]:
    """Where each entry of a line starts: more than one where newlines
    were lost."""
    out, pos = [], line.find(START)
    while pos >= 0:
        out.append(pos)
        pos = line.find(START, pos + 1)
    return out


def short(s: str) -> str:
    return repr(s[:80]) + ("..." if len(s) > 80 else "")


def read(text: str) -> tuple[Job, str]:
    """A LAVA log's job and its console (the target lines, one a line)."""
    form = form_of(text)
    if form is None:
        raise EntryError("not a LAVA log: no line is a LAVA log entry")
    job = Job(form)
    lead = "- " if form == SERVER else ""
    console: list[str] = []
    said = 0

    def bad(no: int, why: str, what: str) -> None:
        nonlocal said
        said += 1
        if said <= MAX_SAID:
            job.problems.append(f"line {no}: {why}, left out: {short(what)}")

    for no, raw in enumerate(text.split("\n"), 1):
        line = raw.rstrip("\r")
        if not line.strip():
            continue
        starts = pieces(line)
        if not starts:
            bad(no, "not a LAVA log entry", line)
            continue
        if line[:starts[0]] != lead:
            # The entry itself is read: only its list item's "- " or
            # another line's tail is amiss.
            bad(no, "text before the entry" if starts[0] else "no '- ' before the entry",
                line[:starts[0]] or line)
        for k, p in enumerate(starts):
            nxt = starts[k + 1] if k + 1 < len(starts) else len(line)
            piece = line[p:nxt]
            try:
                e, end = entry(piece)
                take(job, e, console)
                job.entries += 1
            except EntryError as exc:
                bad(no, f"not an entry as LAVA writes it ({exc})", piece)
                continue
            # The entry is whole; what follows it is another line's tail.
            rest = piece[end:]
            if rest.strip() and not (k + 1 < len(starts) and rest == lead):
                bad(no, "text after the entry", rest)
    if said > MAX_SAID:
        job.problems.append(f"{said - MAX_SAID} more lines not LAVA log entries, left out")
    return job, "\n".join(console) + "\n"


def take(job: Job, e: dict[str, object], console: list[str]) -> None:
    """One entry: a console line, or what it says of the job."""
    lvl, msg = e["lvl"], e["msg"]
    if lvl == "target" or (lvl == "feedback" and "ns" not in e):
        if type(msg) is not str:
            raise EntryError("a console entry whose message is not a string")
        console.append(console_text(msg))
        return
    if lvl == "results" and isinstance(msg, dict):
        if msg.get("definition") == "lava" and msg.get("case") == "job":
            job.result = str(msg.get("result", "?"))
            if msg.get("error_msg"):
                job.result += f" ({msg.get('error_type', 'error')}: {msg['error_msg']})"
        return
    if isinstance(msg, str):
        about(job, msg)


VERSION = re.compile(r"^lava-dispatcher, installed at version: (\S+)$")
TMP_DIR = re.compile(r"^(?:Root tmp directory removed at|Removing root tmp directory at) (\S+)$")
SAVING = re.compile(r"^saving as (\S*)/[a-z][a-z0-9-]*-[a-z0-9_]{8}/")
BOOT = re.compile(r"^Boot command: (.+)$")
CONNECT = re.compile(r"Connecting to device using '(.+)'$")


def about(job: Job, msg: str) -> None:
    """The job id, the dispatcher and the device, from LAVA's own lines."""
    m = VERSION.match(msg)
    if m:
        job.dispatcher = m.group(1)
    m = TMP_DIR.match(msg) or SAVING.match(msg)
    if m and not job.job_id:
        job.job_id = m.group(1).rstrip("/").rsplit("/", 1)[-1]
    m = BOOT.match(msg)
    if m:
        job.device = qemu_machine(m.group(1))
    m = CONNECT.search(msg)
    if m and not job.device:
        job.device = f"console through '{redact(m.group(1))}'"


# A secret on a connection command line (ipmitool -P, sshpass -p, a URL's
# password): never copied into a report or table.
SECRET = re.compile(r"(\s-[Pp]\s*|\s--password[= ]\s*|://[^/\s:@]+:)(\S+?)(?=@|\s|$)")


def redact(command: str) -> str:
    return SECRET.sub(lambda m: m.group(1) + "***", command)


MACHINE_OPTS = ("-machine", "-M", "-cpu", "-smp", "-m", "-accel")


def qemu_machine(command: str) -> str:
    """The boot command's program and its machine options: what tells one
    QEMU device from another (the images it attaches do not)."""
    try:
        argv = shlex.split(command)
    except ValueError:
        argv = command.split()
    out = [argv[0].rsplit("/", 1)[-1]] if argv else []
    for a, b in zip(argv, argv[1:]):
        if a in MACHINE_OPTS:
            out += [a, b]
    out += [a for a in argv if a == "-enable-kvm"]
    return " ".join(out)


def boots(text: str) -> tuple[list[records.Boot], Job | None]:
    """The boots of a serial log or of a LAVA log (told apart by content),
    and the LAVA job (None for a serial log)."""
    if form_of(text) is None:
        return records.parse(text), None
    job, console = read(text)
    out = records.parse(console)
    for b in out:
        b.lava = job.fields()
    return out, job


# `lavacli jobs logs` without --raw: each message after its time, levels
# gone, a console line's quotes still as ShellLogger escaped them.
LAVACLI = re.compile(r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d @hz1 .*\\"', re.M)


def load(text: str, name: str, warn: Callable[[str], None]) -> list[records.Boot]:
    """boots(), with what could not be read of a LAVA log said through
    @warn."""
    out, job = boots(text)
    if job is not None:
        for p in job.problems:
            warn(f"hugezero: {name}: {job.form}: {p}")
    elif LAVACLI.search(text):
        warn(f"hugezero: {name}: looks like `lavacli jobs logs` without --raw, "
             "which drops the levels and keeps LAVA's \\\" in the console: "
             "its records with quotes do not read; fetch with --raw")
    return out


def describe(lava: dict[str, str]) -> str:
    """Boot.lava in words: the report's and the table's line."""
    return (f"LAVA job {lava.get('job', 'unknown')} (lava-dispatcher "
            f"{lava.get('dispatcher', 'unknown')}, {lava.get('form', '?')}): device "
            f"{lava.get('device', 'not in the log')}; LAVA's result "
            f"{lava.get('result', 'not in the log')}")

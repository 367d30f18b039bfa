# SPDX-License-Identifier: GPL-2.0-only
"""LAVA job definitions: hugezero booted by a LAVA lab (docs/lab.md).

A job deploys an image, boots it with one of LAVA's boot methods and
turns the kernel's KTAP into LAVA test cases with a `test: monitors:`
action.  How lava-dispatcher (2023.01) reads what is written here:

- monitors (lava_dispatcher/actions/test/monitor.py): each entry waits
  for its `start`, then expects `end` or `pattern` until `end`; pexpect
  takes the earliest match in its buffer (a tie goes to `end`) and drops
  everything up to the match's end.  A match carries no state to the next
  one, so a nested case cannot be prefixed by its suite's name in the
  case id: each self-test suite and the benchmark's `fault` suite is a
  monitor of its own, whose name is the LAVA test suite (`definition`) of
  its cases.  The suites come from the kernel's own list
  (kernel/selftest/selftest.c).
- a case is recorded from the groups `result` (through `fixupdict`) and
  `test_case_id`, lowercased with non-word runs made `_`; groups inside
  lookaheads capture too, which is how one pattern gives `skip` for
  `ok N name # SKIP`, and `pass`/`fail` for `hugezero: done rc=N`.
- every pattern consumes through `\\r*\\n`, so a line is matched whole.
"""
from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import image, paths

DEVICE_TYPES = ("qemu", "x86")
FIRMWARES = ("bios", "uefi")
ACCELS = ("tcg", "kvm")
COMPANION = paths.COMPANION
SELFTEST_C = paths.ROOT / "kernel" / "selftest" / "selftest.c"

# Budgets, in seconds, that a job's timeouts are made of.  Each is an
# upper bound for a healthy machine: a job that runs past one is hung.
BOOT_S = {"qemu": 120, "x86": 900}  # firmware (a server's POST), iPXE, GRUB
DEPLOY_S = {"qemu": 120, "x86": 300}
SELFTEST_S = 300        # the self-tests, on one CPU under TCG included
INFO_S = 120            # bench=info: the inventory
CONFIG_S = 10           # per configuration: pool, cache flush, records
RATE_FLOOR = 256 << 20  # bytes/s one CPU clears, at the least (TCG does more)
DEADLINE_GRACE_S = 120  # past deadline_s: the kernel's report and done line
END_S = 60              # the last lines, LAVA's power-off
# The console: 115200 baud 8N1 is 11520 bytes/s; a sample is a number of
# up to 10 digits and its comma.  samples=all prints the fault and clear
# times of every fault of a measured pass (and the access's).
CONSOLE_BPS = 11520
SAMPLE_CHARS = 11
SERVER_CPUS = 64        # x86, cpus=all: CPUs assumed unless --server-cpus
LONG_JOB_H = 24         # a longer job holds its device: warned


class LavaError(Exception):
    pass


@dataclass
class Line:
    """What a boot line makes the kernel do (hugezero-linux --kernel-line)."""
    args: list[str]
    bench: str
    selftest: bool
    crash: str
    preset: str
    deadline_s: int
    cpus: str
    steps: int
    size: int
    runs: int
    warmups: int
    configs: int
    min_folio: int = 2 << 20
    samples: str = "all"
    access: str = "none"


def companion_of(elf: Path) -> Path:
    """The companion built beside @elf: its build's parser of boot lines."""
    return elf.parent / COMPANION.name


def check_line(args: list[str], companion: Path = COMPANION) -> Line:
    """The boot line @args as the kernel parses it (@companion: the
    companion of the kernel's build, whose parser is the kernel's);
    LavaError naming each error the kernel would report."""
    if not companion.exists():
        raise LavaError(f"{companion} missing: run {paths.make_command(companion.parent)} "
                        "(it checks the boot line with the kernel's parser)")
    for a in args:
        if any(c in a for c in "\n\r{}'\""):
            raise LavaError(f"boot argument {a!r} has characters a GRUB menu entry "
                            "or a LAVA job cannot carry")
    r = subprocess.run([str(companion), "--kernel-line", *args],
                       capture_output=True, text=True)
    if r.returncode != 0:
        errs = [ln.replace("hugezero-linux: ", "", 1) for ln in r.stderr.splitlines()
                if ln.strip()]
        raise LavaError("bad boot line '" + " ".join(args) + "': " +
                        "; ".join(errs or [f"exit status {r.returncode}"]))
    f = dict(w.split("=", 1) for w in r.stdout.split())
    return Line(list(args), f["bench"], f["selftest"] == "1", f["crash"], f["preset"],
                int(f["deadline_s"]), f["cpus"], int(f["steps"]), int(f["size"]),
                int(f["runs"]), int(f["warmups"]), int(f["configs"]),
                int(f.get("min_folio", 2 << 20)), f.get("samples", "all"),
                f.get("access", "none"))


def cpu_count(cpulist: str) -> int | None:
    """CPUs in a Linux cpulist; None for `all` (the machine's, unknown here)."""
    if cpulist == "all":
        return None
    n = 0
    for part in cpulist.split(","):
        lo, _, hi = part.partition("-")
        n += int(hi or lo) - int(lo) + 1
    return n


def console_seconds(line: Line, device_type: str, smp: int = 1,
                    server_cpus: int = SERVER_CPUS) -> int:
    """How long the console takes to print one configuration's samples
    records (samples=all): every fault of every measured pass, on every
    CPU of the group, over a 115200-baud line; on a server of many CPUs
    this, not the clearing, is the longest gap between two KTAP lines."""
    if line.bench != "fault" or line.samples != "all":
        return 0
    cpus = cpu_count(line.cpus) or (smp if device_type == "qemu" else server_cpus)
    kinds = 2 + (line.access != "none")
    chars = line.size // max(line.min_folio, 1) * line.runs * kinds * SAMPLE_CHARS
    return int(chars * cpus / CONSOLE_BPS)


def config_seconds(line: Line, device_type: str, smp: int = 1,
                   server_cpus: int = SERVER_CPUS) -> int:
    """How long one configuration of the benchmark may take: its passes
    over size at RATE_FLOOR (QEMU's vCPUs share the host's cores; a
    server's CPUs clear in parallel), and its samples on the console."""
    if line.bench != "fault":
        return 0
    together = (cpu_count(line.cpus) or smp) if device_type == "qemu" else 1
    passes = line.runs + line.warmups
    return int(CONFIG_S + line.size * passes * together / RATE_FLOOR
               + console_seconds(line, device_type, smp, server_cpus))


def run_seconds(line: Line, device_type: str, smp: int = 1,
                server_cpus: int = SERVER_CPUS) -> int:
    """How long the run may take from the kernel's start to its done line:
    the self-tests, then the benchmark's work at RATE_FLOOR, at most
    deadline_s and its grace (past it the kernel ends the run itself)."""
    s = SELFTEST_S if line.selftest else 0
    if line.bench == "info":
        s += INFO_S
    s += line.configs * line.steps * config_seconds(line, device_type, smp, server_cpus)
    s = max(s, 60)
    if line.deadline_s:
        s = min(s, line.deadline_s + DEADLINE_GRACE_S)
    return s


def minutes(seconds: float) -> dict[str, int]:
    return {"minutes": max(1, -(-int(seconds) // 60))}


# --- KTAP as LAVA cases ----------------------------------------------------

# One pattern for every monitor.  Lookaheads capture `result` (SKIP, not
# ok, ok; for the done line rc=0 or rc=) and `test_case_id`; a result line
# is then consumed whole, the done line only up to "done", which the last
# monitor's end then takes (so the done case is recorded before it ends).
RESULT = (r"(?=(?:[^\r\n]*?# (?=SKIP)|hugezero: done )?"
          r"(?P<result>SKIP|not ok|ok|rc=0(?=[ \t]*\r*\n)|rc=))")
CASE_ID = (r"(?=(?:(?:not )?ok \d+ |hugezero: )(?P<test_case_id>[^#\r\n]*?)"
           r"(?:[ \t]*#[^\r\n]*| rc=-?\d+)?[ \t]*\r*\n)")
PATTERN = (r"(?m)^[ \t]*" + RESULT + CASE_ID +
           r"(?:(?:not )?ok [^\r\n]*\r*\n|hugezero: )")
FIXUP = {"ok": "pass", "not ok": "fail", "SKIP": "skip", "rc=0": "pass", "rc=": "fail"}
DONE_AHEAD = r"(?=hugezero: done rc=)"
LAST_END = r"(?m)^done rc=-?\d+[ \t]*\r*\n"
LAST = "hugezero"       # the monitor of top-level results and the done case


def selftest_suites(src: Path = SELFTEST_C) -> list[str]:
    """The self-test suites' names in the order the kernel runs them."""
    try:
        text = src.read_text()
        syms = re.findall(r"&(suite_\w+)", re.search(
            r"suites\[\]\s*=\s*\{(.*?)\};", text, re.S).group(1))
        names = {}
        for f in src.parent.glob("*.c"):
            for sym, nm in re.findall(r"SUITE\((suite_\w+),\s*\"([^\"]+)\"",
                                      f.read_text()):
                names[sym] = nm
        return [names[s] for s in syms]
    except (OSError, AttributeError, KeyError) as e:
        raise LavaError(f"cannot read the self-test suites from {src}: {e}")


def suite_monitor(suite: str) -> dict[str, object]:
    s = re.escape(suite)
    # Ends at the line after the suite's own result: the next suite's
    # header, the summary, the done line or another top-level result
    # (a whole line: "not ok 3 fau" is not yet another suite's).
    end = (r"(?m)^(?=[ \t]*KTAP version 1[ \t]*\r*\n|hugezero: (?:\d+ passed|done rc=)"
           r"|(?:not )?ok \d+ (?!" + s + r"[ \t]*[#\r\n])[^\r\n]*\r*\n)")
    start = r"(?m)^[ \t]*# Subtest: " + s + r"[ \t]*\r*\n|" + DONE_AHEAD
    return {"name": suite, "start": start, "end": end, "pattern": PATTERN,
            "fixupdict": dict(FIXUP)}


def monitors(line: Line, suites: list[str] | None = None) -> list[dict[str, object]]:
    """The monitors of a boot: one per suite the line runs, in order, and
    the last for top-level results (a deadline's) and the done case."""
    names = (selftest_suites() if suites is None else suites) if line.selftest else []
    if line.bench == "fault":
        names = names + ["fault"]
    out = [suite_monitor(n) for n in names]
    start = (r"(?m)^(?=(?:not )?ok \d+ |hugezero: (?:\d+ passed|done rc=))" if out
             else r"(?m)^KTAP version 1[ \t]*\r*\n")
    out.append({"name": LAST, "start": start, "end": LAST_END, "pattern": PATTERN,
                "fixupdict": dict(FIXUP)})
    return out


# --- images -----------------------------------------------------------------

GRUB_MODULES = "multiboot2 serial terminal normal boot memdisk tar configfile echo"


def build_netimage(args: list[str], firmware: str, elf: Path = paths.ELF,
                   cache: Path = paths.BUILD / "images") -> Path:
    """One file iPXE chain-loads: GRUB (a BIOS PXE image, or a UEFI
    application) with its grub.cfg (one entry: @args) and the kernel in
    an embedded memdisk.  LAVA's TFTP deploy puts each file of a job in a
    directory of its own, where the netboot tree's GRUB would not find
    its /boot/grub; and iPXE loads multiboot 1, not hugezero's multiboot2.
    The kernel is stripped of debug sections: a PXE image must fit in
    base memory (iPXE's pxe_probe(): 0xa0000 - 0x7c00 bytes).  Its name
    is lava-BUILD-KERNEL-CFG.0 (or .efi): the build directory's name, the
    hashes of the kernel and of the grub.cfg."""
    if firmware not in FIRMWARES:
        raise LavaError(f"unknown firmware {firmware!r}: one of {', '.join(FIRMWARES)}")
    if not elf.exists():
        raise LavaError(f"{elf} does not exist: run '{paths.make_command(elf.parent)}' first")
    for tool in ("grub-mkstandalone", "strip"):
        if shutil.which(tool) is None:
            raise LavaError(f"{tool} not found: run scripts/setup.sh")
    try:
        cfg = image.grub_cfg(args, kernel="/boot/hugezero.elf", label="lava")
    except image.ImageError as e:
        raise LavaError(str(e))
    # Named by build and kernel: a base and a patched build's images
    # are shipped side by side; only the build's older ones go.
    out = cache / image.image_name("lava", elf, cfg, ".0" if firmware == "bios" else ".efi")
    if out.exists():
        return out
    cache.mkdir(parents=True, exist_ok=True)
    image.prune(cache, "lava", elf)
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        t = Path(tmp)
        (t / "grub.cfg").write_text(cfg)
        r = subprocess.run(["strip", "--strip-debug", "-o", str(t / "hugezero.elf"),
                            str(elf)], capture_output=True, text=True)
        if r.returncode != 0:
            raise LavaError("strip failed:\n" + r.stderr)
        fmt = "i386-pc-pxe" if firmware == "bios" else "x86_64-efi"
        r = subprocess.run(["grub-mkstandalone", "-O", fmt, "-o", str(t / "out"),
                            f"--install-modules={GRUB_MODULES}", "--locales=",
                            "--fonts=", "--themes=", "--compress=xz",
                            f"boot/grub/grub.cfg={t / 'grub.cfg'}",
                            f"boot/hugezero.elf={t / 'hugezero.elf'}"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise LavaError("grub-mkstandalone failed:\n" + r.stderr)
        size = (t / "out").stat().st_size
        if firmware == "bios" and size > 0xa0000 - 0x7c00:
            raise LavaError(f"the BIOS PXE image is {size} bytes, more than fits in "
                            "base memory (620544): iPXE would refuse it")
        (t / "out").replace(out)
    return out


# --- jobs -------------------------------------------------------------------

CDROM_ARG = ("-drive if=none,id=boot,media=cdrom,format=raw,readonly=on,file={hugezero}"
             " -device ide-cd,drive=boot,bootindex=1")


@dataclass
class QemuSpec:
    machine: str = "q35"
    cpu: str = "max"
    smp: str = "1"
    mem_mib: int = 4096
    accel: str = "tcg"


def parse_mem(text: str) -> int:
    """QEMU's -m: a number of MiB, or with a K, M, G or T suffix."""
    m = re.fullmatch(r"(\d+)([KMGT]?)B?", text.strip().upper())
    if not m:
        raise LavaError(f"memory {text!r}: a size such as 4096, 512M or 4G")
    n, unit = int(m.group(1)), m.group(2) or "M"
    mib = n * {"K": 1, "M": 1 << 10, "G": 1 << 20, "T": 1 << 30}[unit] // 1024
    if mib < 64:
        raise LavaError(f"memory {text!r}: less than the 64 MiB hugezero needs")
    return mib


def smp_count(smp: str) -> int:
    m = re.match(r"(\d+)", smp)
    if not m or not re.fullmatch(r"\d+(,[a-z-]+=\d+)*", smp):
        raise LavaError(f"--smp {smp!r}: a count or a topology (4; 6,sockets=2,cores=3)")
    return int(m.group(1))


def qemu_options(q: QemuSpec) -> list[str]:
    """The job context's extra_options: machine, CPU model and count."""
    for v, what in ((q.machine, "--machine"), (q.cpu, "--cpu")):
        if not re.fullmatch(r"[A-Za-z0-9_.,=+-]+", v):
            raise LavaError(f"{what} {v!r}: not a QEMU option value")
    smp_count(q.smp)
    return [f"-machine {q.machine}", f"-cpu {q.cpu}", f"-smp {q.smp}"]


def job_name(line: Line, device_type: str, firmware: str) -> str:
    words = " ".join(line.args) or "self-tests"
    return f"hugezero {device_type} {firmware}: {words}"[:200]


def timeouts(line: Line, device_type: str, smp: int,
             server_cpus: int = SERVER_CPUS) -> tuple[dict, dict, dict, dict]:
    """The job's, the deploy's, the boot's and the test's timeouts.  The
    boot's is also the longest the monitors wait for one line: the
    connection lava-dispatcher opens in the boot action keeps the boot
    action's timeout, and pexpect's expect() takes it (monitor.py's
    _keep_running()): so it covers the longest gap between two KTAP
    lines, the self-tests or one configuration, as well as the boot."""
    run = run_seconds(line, device_type, smp, server_cpus) + END_S
    gap = max(SELFTEST_S if line.selftest else 0,
              config_seconds(line, device_type, smp, server_cpus), INFO_S)
    boot = max(BOOT_S[device_type], min(gap, run))
    deploy = DEPLOY_S[device_type]
    job = {"job": minutes(deploy + boot + run + 120), "action": minutes(boot),
           "connection": minutes(run)}
    return job, minutes(deploy), minutes(boot), minutes(run)


def qemu_job(line: Line, iso_url: str, q: QemuSpec) -> dict[str, object]:
    job_t, deploy_t, boot_t, test_t = timeouts(line, "qemu", smp_count(q.smp))
    if q.accel not in ACCELS:
        raise LavaError(f"unknown accelerator {q.accel!r}: one of {', '.join(ACCELS)}")
    return {
        "device_type": "qemu",
        "job_name": job_name(line, "qemu", "bios"),
        "timeouts": job_t,
        "priority": "medium",
        "visibility": "public",
        # The qemu device type renders these (lava-server's qemu.jinja2):
        # -m from memory, no -cpu host -enable-kvm with no_kvm, the rest
        # from extra_options.
        "context": {"arch": "amd64", "no_kvm": q.accel == "tcg",
                    "memory": q.mem_mib, "extra_options": qemu_options(q)},
        "actions": [
            {"deploy": {"to": "tmpfs", "timeout": deploy_t, "images": {
                "hugezero": {"image_arg": CDROM_ARG, "url": iso_url}}}},
            {"boot": {"method": "qemu", "media": "tmpfs", "timeout": boot_t}},
            {"test": {"timeout": test_t, "monitors": monitors(line)}},
        ],
    }


# iPXE (LAVA's x86 device type boots with it: etc/dispatcher-config/
# device-types/x86.jinja2) fetches GRUB's image from the dispatcher and
# runs it; the device's own command sets load a Linux kernel and initrd.
IPXE_COMMANDS = ["dhcp", "kernel tftp://{SERVER_IP}/{KERNEL}", "boot"]


def x86_job(line: Line, image_url: str, firmware: str,
            server_cpus: int = SERVER_CPUS) -> dict[str, object]:
    job_t, deploy_t, boot_t, test_t = timeouts(line, "x86", 1, server_cpus)
    return {
        "device_type": "x86",
        "job_name": job_name(line, "x86", firmware),
        "timeouts": job_t,
        "priority": "medium",
        "visibility": "public",
        "actions": [
            {"deploy": {"to": "tftp", "timeout": deploy_t,
                        "kernel": {"url": image_url}}},
            {"boot": {"method": "ipxe", "timeout": boot_t,
                      "commands": list(IPXE_COMMANDS)}},
            {"test": {"timeout": test_t, "monitors": monitors(line)}},
        ],
    }


def qemu_device(q: QemuSpec, command: str = "qemu-system-x86_64",
                data: list[str] | None = None) -> dict[str, object]:
    """The device dictionary lava-server's qemu device type renders for
    a job of @q's context (qemu.jinja2, arch amd64), for lava-run without
    a server; constants as base.jinja2 gives them.  @data: QEMU's -L
    arguments (another QEMU's firmware, HZ_QEMU_DATA)."""
    d = data or []
    opts = [f"-L {x}" for x in d[1::2]] + [
        "-nographic", "-net nic,model=virtio,macaddr=52:54:00:12:34:58 -net user",
        f"-m {q.mem_mib}", "-monitor none"]
    if q.accel == "kvm":
        opts[:0] = ["-cpu host", "-enable-kvm"]
    return {
        "constants": {"boot_retry": None, "failure_retry": 1,
                      "shutdown-message": "The system is going down for reboot NOW",
                      "kernel-start-message": "Linux version [0-9]",
                      "default-shell-prompt": "lava-test: # ",
                      "spawn_maxread": "2000"},
        "parameters": {"pass": None},
        "available_architectures": ["amd64", "x86_64"],
        "actions": {
            "deploy": {"connections": {"serial": None}, "methods": {"image": {
                "parameters": {"guest": {"size": 512, "interface": "ide",
                                         "driveid": "lavatest"}}}}},
            "boot": {"connections": {"serial": None}, "methods": {"qemu": {
                "parameters": {"command": command, "options": opts,
                               "extra": qemu_options(q)}}}},
        },
        "timeouts": {"actions": {"boot-qemu-image": {"minutes": 2}}},
    }


def image_url(built: Path, given: str | None) -> str:
    """Where the job fetches @built: @given, or in the directory @given
    ends with, or (none given) the file itself."""
    if not given:
        return "file://" + str(built.resolve())
    return given + built.name if given.endswith("/") else given


# --- YAML, written with the standard library -------------------------------

PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-/]*\Z")
RESERVED = {"true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"}


def scalar(v: object) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    s = str(v)
    if PLAIN.match(s) and s.lower() not in RESERVED:
        return s
    # Single quotes keep every character as it is (a regex's backslashes
    # included); a quote is doubled.  Newlines never occur here.
    return "'" + s.replace("'", "''") + "'"


def to_yaml(v: object, indent: int = 0) -> str:
    pad = " " * indent
    out = []
    if isinstance(v, dict):
        for k, x in v.items():
            if isinstance(x, (dict, list)) and x:
                out.append(f"{pad}{scalar(k)}:\n{to_yaml(x, indent + 2)}")
            else:
                val = scalar(x) if not isinstance(x, (dict, list)) else (
                    "{}" if isinstance(x, dict) else "[]")
                out.append(f"{pad}{scalar(k)}:{' ' + val if val else ''}\n")
    elif isinstance(v, list):
        for x in v:
            if isinstance(x, dict) and x:
                body = to_yaml(x, indent + 2)
                out.append(f"{pad}- {body[indent + 2:]}")
            elif isinstance(x, list) and x:
                body = to_yaml(x, indent + 2)
                out.append(f"{pad}- {body[indent + 2:]}")
            else:
                out.append(f"{pad}- {scalar(x)}\n")
    else:
        out.append(f"{pad}{scalar(v)}\n")
    return "".join(out)


def boot_args(words: list[str]) -> list[str]:
    """The words after `--`, with a whole line given as one word split."""
    if words and words[0] == "--":
        words = words[1:]
    out: list[str] = []
    for w in words:
        try:
            out += shlex.split(w) if " " in w else [w]
        except ValueError as e:     # an unbalanced quote
            raise LavaError(f"boot line {w!r}: {e}")
    return out


def long_job(job: dict[str, object], line: Line, device_type: str) -> str | None:
    """Why @job may hold its device too long, or None: its timeout past
    LONG_JOB_H hours, or a server's run with no deadline (deadline_s=0:
    a hung server then holds its device until the job's timeout)."""
    mins = job["timeouts"]["job"]["minutes"]  # type: ignore[index]
    if mins > LONG_JOB_H * 60:
        return (f"the job's timeout is {mins / 60:.0f} h (the line's work at the "
                f"slowest rate LAVA should wait for): a hung machine holds its device "
                f"that long; give a smaller size=, runs= or a deadline_s=")
    if device_type == "x86" and not line.deadline_s:
        return ("deadline_s=0: the kernel never ends a hung run itself; only the "
                f"job's timeout ({mins} min) frees the server")
    return None


def reboots(line: Line, device_type: str) -> str | None:
    """exit=reboot under LAVA's qemu device type, which runs QEMU without
    -no-reboot: the image boots again after its done line."""
    if device_type == "qemu" and any(a == "exit=reboot" for a in line.args):
        return ("exit=reboot: LAVA's qemu device type has no -no-reboot, so the "
                "ISO boots again after the done line; leave exit= at its default")
    return None

# SPDX-License-Identifier: GPL-2.0-only
"""Booting an image under QEMU and watching its serial console."""
from __future__ import annotations

import os
import re
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Mapping

from . import ktap, paths

FIRMWARES = ("bios", "uefi")
MEDIA = ("cdrom", "usb", "pxe")
# TCG by default: a /dev/kvm can exist and still fail (nested setups).
# tcg-single: one host thread runs every vCPU in turn (-accel
# tcg,thread=single), where a vCPU's PAUSE hands the thread to the next.
# Hundreds of vCPUs on a few cores boot in it: under the default (a host
# thread a vCPU), the waiters spinning on a lock or barrier take the host's
# cores from the one CPU that holds it (288 vCPUs on 2 cores wrote the
# console at 0.4 KB/s).  Timings between its vCPUs are those of the
# round robin, not of CPUs running at once.
ACCELS = ("tcg", "tcg-single", "kvm")
ACCEL_ARGS = {"tcg-single": "tcg,thread=single"}

# Another QEMU than the one on PATH, e.g. a newer one unpacked beside the
# system's: HZ_QEMU names its qemu-system-x86_64, HZ_QEMU_DATA its firmware
# and ROM directories (colon-separated, each passed as -L, searched before
# QEMU's built-in ones).  Neither set: the qemu-system-x86_64 on PATH.
QEMU_ENV, DATA_ENV = "HZ_QEMU", "HZ_QEMU_DATA"
# QEMU's TCG emulates x2APIC from 9.0 on (Bui Quang Minh's "Support x2APIC
# mode with TCG accelerator", merged in January 2024); before, the flag is
# dropped with "TCG doesn't support requested feature: CPUID.01H:ECX.x2apic".
TCG_X2APIC_SINCE = (9, 0)


class QemuError(Exception):
    pass


@dataclass
class Stall:
    """Stop QEMU (SIGSTOP) for @seconds, @times over and @every seconds
    apart, once the console shows @after.  To the guest its vCPU was
    descheduled while its clocks ran on: a loaded host, a long SMI."""
    after: str                  # a regular expression
    seconds: float
    times: int = 1
    every: float = 0.0


def stall(proc: subprocess.Popen, s: Stall) -> None:
    for i in range(s.times):
        if i:
            time.sleep(s.every)
        os.kill(proc.pid, signal.SIGSTOP)
        try:
            time.sleep(s.seconds)
        finally:
            os.kill(proc.pid, signal.SIGCONT)


@dataclass
class BootSpec:
    image: Path
    firmware: str = "bios"
    media: str = "cdrom"
    cpu: str = "max"
    smp: int | str = 1         # "6,sockets=2,cores=3" for a topology
    mem: str = "4G"
    timeout: float = 300.0
    accel: str = "tcg"
    serial: bool = True         # False: a machine without any UART
    machine: str = "q35"        # -M, e.g. "q35,hpet=off"
    extra: tuple[str, ...] = ()
    stall: Stall | None = None


@dataclass
class BootResult:
    log: str
    qemu_status: int | None     # None: killed at the timeout
    timed_out: bool
    run: ktap.Run
    seconds: float

    @property
    def debug_exit_code(self) -> int | None:
        """The value the guest wrote to isa-debug-exit, if it wrote one."""
        s = self.qemu_status
        return (s >> 1) if s is not None and s & 1 else None


def ovmf_missing() -> str | None:
    """Why a UEFI boot cannot be made here (no OVMF), or None."""
    if paths.first_existing(paths.OVMF_CODE_CANDIDATES) and \
            paths.first_existing(paths.OVMF_VARS_CANDIDATES):
        return None
    return ("OVMF firmware not found (package ovmf, in "
            f"{os.path.dirname(paths.OVMF_CODE_CANDIDATES[0])}): run scripts/setup.sh")


def firmware_args(fw: str, tmp: Path) -> list[str]:
    if fw == "bios":
        return []
    why = ovmf_missing()
    if why:
        raise QemuError(why)
    code = paths.first_existing(paths.OVMF_CODE_CANDIDATES)
    vars_src = paths.first_existing(paths.OVMF_VARS_CANDIDATES)
    assert code and vars_src
    # The VARS size must match CODE's flavour (4M or 2M).
    if "_4M" in code and "_4M" not in vars_src:
        vars_src = vars_src.replace("OVMF_VARS", "OVMF_VARS_4M")
    vars_copy = tmp / "OVMF_VARS.fd"
    shutil.copy(vars_src, vars_copy)
    return ["-drive", f"if=pflash,format=raw,unit=0,readonly=on,file={code}",
            "-drive", f"if=pflash,format=raw,unit=1,file={vars_copy}"]


def media_args(media: str, image: Path, firmware: str = "bios") -> list[str]:
    if media == "cdrom":
        return ["-drive", f"if=none,id=boot,media=cdrom,format=raw,readonly=on,file={image}",
                "-device", "ide-cd,drive=boot,bootindex=1"]
    if media == "usb":
        # snapshot: the guest must never write to the image it booted from.
        return ["-device", "qemu-xhci,id=xhci",
                "-drive", f"if=none,id=stick,format=raw,snapshot=on,file={image}",
                "-device", "usb-storage,bus=xhci.0,drive=stick,bootindex=1"]
    if media == "pxe":
        # QEMU's user network has a DHCP and TFTP server built in; GRUB's
        # network image comes from grub-mknetdir (image.build_netdir).
        boot = ("boot/grub/x86_64-efi/core.efi" if firmware == "uefi"
                else "boot/grub/i386-pc/core.0")
        if not (image / boot).exists():
            raise QemuError(f"{image / boot} missing: not a netboot tree")
        return ["-netdev", f"user,id=n0,tftp={image},bootfile={boot}",
                "-device", "virtio-net-pci,netdev=n0,bootindex=1"]
    raise QemuError(f"unknown media {media!r}: one of {', '.join(MEDIA)}")


def executable(env: Mapping[str, str] | None = None) -> str:
    """The qemu-system-x86_64 to run: $HZ_QEMU if set (a path, or a name
    on PATH), else the one on PATH."""
    env = os.environ if env is None else env
    want = env.get(QEMU_ENV, "")
    if want:
        exe = shutil.which(want)
        if not exe:
            raise QemuError(f"{QEMU_ENV}={want}: not an executable")
        return exe
    exe = shutil.which("qemu-system-x86_64")
    if not exe:
        raise QemuError("qemu-system-x86_64 not found: run scripts/setup.sh")
    return exe


def child_env(env: Mapping[str, str] | None = None) -> dict[str, str] | None:
    """The environment QEMU runs in: None (ours) unless $HZ_QEMU is an
    unpacked tree with its own modules, which it must load instead of the
    system's (another build's, refused: "Only modules from the same build
    can be loaded"); QEMU_MODULE_DIR, if set, is left alone."""
    env = os.environ if env is None else env
    if not env.get(QEMU_ENV) or "QEMU_MODULE_DIR" in env:
        return None
    exe = Path(os.path.realpath(executable(env)))
    mods = exe.parent.parent / "lib" / "x86_64-linux-gnu" / "qemu"
    if not mods.is_dir():
        return None
    return {**env, "QEMU_MODULE_DIR": str(mods)}


def data_args(env: Mapping[str, str] | None = None) -> list[str]:
    """-L for each directory of $HZ_QEMU_DATA; none when it is unset."""
    env = os.environ if env is None else env
    args: list[str] = []
    for d in env.get(DATA_ENV, "").split(":"):
        if not d:
            continue
        if not os.path.isdir(d):
            raise QemuError(f"{DATA_ENV}: {d} is not a directory")
        args += ["-L", d]
    return args


_versions: dict[str, tuple[int, ...] | None] = {}


def parse_version(text: str) -> tuple[int, ...] | None:
    """(major, minor, micro) from `qemu-system-x86_64 --version`."""
    m = re.search(r"QEMU emulator version (\d+)\.(\d+)(?:\.(\d+))?", text)
    return tuple(int(g or 0) for g in m.groups()) if m else None


def version(exe: str | None = None) -> tuple[int, ...] | None:
    """The version of @exe (default: the QEMU boot() runs), None if it
    cannot be run or says something unexpected."""
    try:
        exe = exe or executable()
    except QemuError:
        return None
    if exe not in _versions:
        try:
            r = subprocess.run([exe, "--version"], capture_output=True,
                               text=True, timeout=30)
            _versions[exe] = parse_version(r.stdout)
        except (OSError, subprocess.SubprocessError):
            _versions[exe] = None
    return _versions[exe]


def tcg_x2apic_missing(exe: str | None = None) -> str | None:
    """Why this QEMU's TCG cannot give a guest x2APIC, or None if it can."""
    v = version(exe)
    want = ".".join(map(str, TCG_X2APIC_SINCE))
    if v is None:
        return f"QEMU version unknown: TCG x2APIC needs QEMU >= {want}"
    if v < TCG_X2APIC_SINCE:
        return (f"QEMU {'.'.join(map(str, v))} < {want}: its TCG has no x2APIC "
                "(a newer one: scripts/setup.sh --help)")
    return None


def tcg_has_x2apic(exe: str | None = None) -> bool:
    return tcg_x2apic_missing(exe) is None


_cpu_models: dict[str, frozenset[str] | None] = {}


def parse_cpu_help(text: str) -> frozenset[str]:
    """The model names in `qemu-system-x86_64 -cpu help` (QEMU 7.2 starts
    each line with "x86 ", later ones with spaces; both list aliases such
    as "EPYC-Milan" beside the versions "EPYC-Milan-v1"), up to the
    CPUID flags that follow them."""
    names = set()
    for line in text.splitlines():
        if line.startswith("Recognized"):
            break
        m = re.match(r"\s*(?:x86\s+)?(\S+)", line)
        if m and not line.rstrip().endswith(":"):
            names.add(m.group(1))
    return frozenset(names)


def cpu_models(exe: str | None = None) -> frozenset[str] | None:
    """The CPU models @exe (default: the QEMU boot() runs) knows, asked
    once and kept; None if it cannot be asked."""
    try:
        exe = exe or executable()
    except QemuError:
        return None
    if exe not in _cpu_models:
        try:
            r = subprocess.run([exe, "-cpu", "help"], capture_output=True,
                               text=True, timeout=30, env=child_env())
            _cpu_models[exe] = parse_cpu_help(r.stdout) if r.returncode == 0 else None
        except (OSError, subprocess.SubprocessError):
            _cpu_models[exe] = None
    return _cpu_models[exe]


def cpu_model_missing(name: str, exe: str | None = None) -> str | None:
    """Why this QEMU cannot boot -cpu @name, or None if it can."""
    models = cpu_models(exe)
    v = version(exe)
    qemu = f"QEMU {'.'.join(map(str, v))}" if v else "this QEMU"
    if models is None:
        return f"{qemu}: `-cpu help` could not be run, so -cpu {name} is unknown"
    if name not in models:
        return (f"{qemu} has no CPU model {name} (`-cpu help`); a newer one: "
                "scripts/setup.sh --backports")
    return None


def command(spec: BootSpec, tmp: Path) -> list[str]:
    if spec.firmware not in FIRMWARES:
        raise QemuError(f"unknown firmware {spec.firmware!r}: one of "
                        f"{', '.join(FIRMWARES)}")
    exe = executable()
    if spec.accel not in ACCELS:
        raise QemuError(f"unknown accelerator {spec.accel!r}: one of "
                        f"{', '.join(ACCELS)}")
    return [exe, *data_args(), "-M", spec.machine,
            "-accel", ACCEL_ARGS.get(spec.accel, spec.accel),
            "-cpu", spec.cpu, "-smp", str(spec.smp),
            "-m", spec.mem, "-display", "none", "-vga", "none",
            "-no-reboot", "-monitor", "none",
            "-serial", "stdio" if spec.serial else "none",
            "-device", "isa-debug-exit,iobase=0xf4,iosize=4",
            *firmware_args(spec.firmware, tmp),
            *media_args(spec.media, spec.image, spec.firmware), *spec.extra]


class ProgressEcho:
    """Passes on only what a person follows a run by: KTAP results and the
    kernel's own 'hugezero:' lines, not records or diagnostics."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out
        self.partial = ""

    def write(self, text: str) -> None:
        lines = (self.partial + text).split("\n")
        self.partial = lines.pop()
        for raw in lines:
            line = ktap.clean(raw).rstrip()
            s = line.strip()
            if s.startswith(("ok ", "not ok ")) or "hugezero" in s and not s.startswith("@hz"):
                self.out.write(line + "\n")

    def flush(self) -> None:
        self.out.flush()


def boot(spec: BootSpec, echo: IO[str] | ProgressEcho | None = None,
         log_file: Path | None = None) -> BootResult:
    """Boot, stream the console to @echo and @log_file, stop at done/timeout."""
    start = time.monotonic()
    chunks: list[str] = []
    logf = open(log_file, "w", encoding="utf-8", errors="replace") if log_file else None
    with tempfile.TemporaryDirectory(prefix="hz-qemu-") as tmp:
        cmd = command(spec, Path(tmp))
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, env=child_env(),
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        sel = selectors.DefaultSelector()
        assert proc.stdout is not None
        sel.register(proc.stdout, selectors.EVENT_READ)
        timed_out = False
        pending, tail = spec.stall, ""
        while True:
            left = spec.timeout - (time.monotonic() - start)
            if left <= 0:
                timed_out = True
                proc.kill()
                break
            if not sel.select(timeout=min(left, 1.0)):
                if proc.poll() is not None:
                    break
                continue
            data = os.read(proc.stdout.fileno(), 65536)
            if not data:
                break
            text = data.decode("utf-8", errors="replace")
            chunks.append(text)
            if echo:
                echo.write(text)
                echo.flush()
            if logf:
                logf.write(text)
                logf.flush()
            if pending:
                tail = (tail + text)[-4096:]
                if re.search(pending.after, tail):
                    stall(proc, pending)
                    pending = None
        status = proc.wait()
        if logf:
            logf.close()
    log = "".join(chunks)
    return BootResult(log, None if timed_out else status, timed_out,
                      ktap.parse(log), time.monotonic() - start)


def verdict(res: BootResult) -> tuple[bool, str]:
    """Did the run complete with no failure?  And a one-line reason."""
    run = res.run
    if res.timed_out:
        if not run.started:
            return False, "timeout: the kernel never started its KTAP run (hang in firmware, GRUB or early boot?)"
        if run.rc is None:
            return False, "timeout: the run started but never said 'hugezero: done' (hang or crash)"
        return False, f"timeout after 'done rc={run.rc}': the exit device did not end QEMU"
    if run.rc is None:
        tail = ktap.clean(res.log).strip().splitlines()[-1:] or ["(no output)"]
        return False, (f"QEMU ended (status {res.qemu_status}) before "
                       f"'hugezero: done'; last output: {tail[0][:200]}")
    if not run.complete:
        return False, (f"KTAP incomplete: plan {run.plan}, "
                       f"{len(run.top)} suites reported")
    if run.failed:
        names = ", ".join(r.name for r in run.failed if r.depth == 1) or \
            ", ".join(r.name for r in run.failed)
        return False, f"{len(run.failed)} KTAP failures: {names}"
    if run.rc != 0:
        return False, f"kernel reported rc={run.rc}"
    code = res.debug_exit_code
    if code is not None and code != 0:
        return False, f"isa-debug-exit code {code}"
    return True, (f"{len(run.cases)} cases, "
                  f"{sum(1 for r in run.cases if r.skip is not None)} skipped, "
                  f"{res.seconds:.0f} s")


def write_err(msg: str) -> None:
    sys.stderr.write(msg + "\n")

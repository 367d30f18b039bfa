#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""make test: host unit tests, host-script tests, then QEMU boots.

Ends with one line "N passed, N failed" and exits nonzero on any failure.
Everything is of one build directory, $HZ_BUILD (make test passes its
BUILD=), else build/: its kernel, companion and host unit tests; logs of
every boot are kept in its test-logs/.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Callable, TextIO

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

from hzlib import image, paths, qemu, records, results  # noqa: E402
from qemu_cases import CASES as BOOT_CASES, Case  # noqa: E402
from qemu_bench_cases import CASES as BENCH_CASES  # noqa: E402
from qemu_bench_cases import SMP_CASES as BENCH_SMP_CASES  # noqa: E402
from qemu_cpumodel_cases import CASES as CPUMODEL_CASES  # noqa: E402
from qemu_sched_cases import CASES as SCHED_CASES  # noqa: E402
from qemu_smp_cases import CASES as SMP_CASES  # noqa: E402
from qemu_prezero_cases import CASES as PREZERO_CASES  # noqa: E402
from qemu_prezero_cases import SMP_CASES as PREZERO_SMP_CASES  # noqa: E402
from qemu_deadline_cases import CASES as DEADLINE_CASES  # noqa: E402
from qemu_deadline_cases import SMP_CASES as DEADLINE_SMP_CASES  # noqa: E402
from qemu_lab_cases import CASES as LAB_CASES  # noqa: E402
from qemu_preset_cases import CASES as PRESET_CASES  # noqa: E402
from qemu_preset_cases import SMP_CASES as PRESET_SMP_CASES  # noqa: E402
from qemu_boost_cases import CASES as BOOST_CASES  # noqa: E402
from qemu_boost_cases import SMP_CASES as BOOST_SMP_CASES  # noqa: E402
from qemu_scale_cases import CASES as SCALE64_CASES  # noqa: E402
from qemu_scale_cases import SCALE_CASES  # noqa: E402

# Two phases.  The scheduling boots time wake-ups against each other on
# one vCPU: beside a QEMU of 4 or 6 vCPUs on the same 2 cores their vCPU
# is descheduled for milliseconds, which is what they would then measure.
# So the SMP boots run after them, among themselves.  The long boots first
# in each phase, so the pool finishes sooner.
PHASES = [SCHED_CASES + BOOT_CASES + CPUMODEL_CASES + BENCH_CASES + PREZERO_CASES +
          DEADLINE_CASES + LAB_CASES + PRESET_CASES + BOOST_CASES,
          SCALE64_CASES + SMP_CASES + BENCH_SMP_CASES + PREZERO_SMP_CASES + DEADLINE_SMP_CASES + PRESET_SMP_CASES +
          BOOST_SMP_CASES]
CASES = [c for phase in PHASES for c in phase]


# Only a hung boot waits this long, so it can be generous: the slowest case
# took 12 s on an idle machine and 42 s beside two CPU hogs.
TIMEOUT = float(os.environ.get("HZ_BOOT_TIMEOUT", "240"))


def _select() -> None:
    """HZ_CASES=REGEX: only the boots whose name matches; HZ_SMP=N: only
    the boots of more than one CPU, each at N CPUs, as NAME@N with its
    timeout scaled (Case.at; make test-smp8), a case whose count is what
    it tests a skip saying so; HZ_SCALE=1: the boots at a lab server's
    CPU count (make test-scale).  Each leaves out the host tests."""
    global PHASES, CASES
    if os.environ.get("HZ_SCALE"):
        PHASES = [SCALE_CASES]     # make test-scale: those alone
    want = os.environ.get("HZ_CASES")
    smp = int(os.environ.get("HZ_SMP", "0") or 0)
    phases = []
    for phase in PHASES:
        keep = []
        for c in phase:
            if want and not re.search(want, c.name):
                continue
            if smp:
                if not c.multi:
                    continue
                c = c.at(smp, TIMEOUT)
            keep.append(c)
        phases.append(keep)
    PHASES = phases
    CASES = [c for phase in PHASES for c in phase]


_select()

LOGS = paths.BUILD / "test-logs"
# The test modules run in tests/: the build directory, made absolute, is
# theirs too (paths.py reads it).
os.environ[paths.BUILD_ENV] = str(paths.BUILD)


def unable(c: Case) -> str | None:
    """Why this machine cannot boot @c (a skip), or None: the case's own
    reason (an old QEMU, a CPU model it lacks), or no OVMF for UEFI."""
    why = c.unable() if c.unable else None
    if why is None and c.firmware == "uefi":
        why = qemu.ovmf_missing()
    return why


def host_unit() -> tuple[int, int]:
    exe = paths.BUILD / "host" / "unit"
    r = subprocess.run([str(exe)], capture_output=True, text=True)
    out = r.stdout + r.stderr
    for line in out.splitlines():
        if line.startswith("not ok") or line.startswith("#") or "ERROR" in line:
            print(f"  {line}")
    m = re.search(r"host: (\d+) passed, (\d+) failed", out)
    if not m:
        print(f"  host unit tests crashed (status {r.returncode}):")
        print("  " + "\n  ".join(out.splitlines()[-20:]))
        return 0, 1
    p, f = int(m.group(1)), int(m.group(2))
    if r.returncode != 0 and f == 0:
        f = 1
        print(f"  host unit tests exited {r.returncode} (sanitizer?)")
    print(f"host unit tests (ASan+UBSan): {p} passed, {f} failed")
    return p, f


def host_barrier_model() -> tuple[int, int]:
    """The barrier's pthread model under TSan (tests/host/barrier/): one
    test; its skew lines are printed, never judged."""
    exe = paths.BUILD / "host" / "barrier-model"
    if not exe.exists():
        print(f"host barrier model: skipped, {exe} absent (make test-barrier "
              "builds it; it needs gcc's ThreadSanitizer, libtsan)")
        return 0, 0
    r = subprocess.run([str(exe)], capture_output=True, text=True)
    out = r.stdout + r.stderr
    for line in out.splitlines():
        if line.startswith("barrier model:") or line.startswith("FAIL"):
            print(f"  {line}")
    m = re.search(r"barrier model: (\d+) passed, (\d+) failed", out)
    ok = bool(m) and m.group(2) == "0" and r.returncode == 0
    if not ok:
        print(f"  barrier model exited {r.returncode} (ThreadSanitizer?):")
        print("  " + "\n  ".join(out.splitlines()[-20:]))
    print(f"host barrier model (TSan): {int(ok)} passed, {int(not ok)} failed")
    return int(ok), int(not ok)


# The modules that build images and boot them (make LINUX=, lava-run,
# README's make run in a fresh clone), or wait on timeouts (lava run's
# fake server, ~35 s; last, it ran alone on one core): started first, so that the many
# quick modules run beside them on the other cores.  Those of SPLIT run
# each test in a process of its own: most of their tests build a tree
# (~35 CPU-s each) and boot it, independent but for the build
# directories they share under a lock (test_linux_tree.build), so that
# no one module is left running alone at the end.
SLOW_MODULES = ("test_doc_commands", "test_linux_tree", "test_tree_zero", "test_rethunk",
                "test_lava", "test_prim_row", "test_bench", "test_lava_run", "test_setup",
                "test_tree_seq", "test_layering")
SPLIT = ("test_linux_tree", "test_tree_zero", "test_rethunk", "test_doc_commands",
         "test_bench")
# Of those, the longest first (a tree built, 1 GiB folios cleared in
# TCG): each of 6.12's two builds' users at either end, so that the
# second finds the build made rather than waiting on its lock.
HEAVY = ("test_doc_commands.DocCommands.test_README",
         "test_linux_tree.Debian612", "test_tree_zero.DebianTreeZero.test_7_2",
         "test_linux_tree.Built.test_another_tree_same_build",
         "test_linux_tree.Built.test_2022_form", "test_linux_tree.Built.test_2025_form",
         "test_linux_tree.Built.test_70_form_boots", "test_tree_zero.DebianTreeZero.test_6_12")
# The modules whose companions map this host's own hugetlb pages, as
# root (hosted/host.c's pool is the real one): each raises nr_hugepages
# for its run and puts back what it found, and maps with MAP_NORESERVE,
# so two at once put back each other's counts or fault on pages the
# other gave back (SIGBUS).  They run one after another, as one task,
# where the first of them would have started.
HUGETLB_POOL = ("test_linux_tree.Built.test_2025_form", "test_companion_interrupt",
                "test_companion_prezero", "test_companion_rounds",
                "test_doc_commands.DocCommands.test_companion",
                "test_doc_commands.DocCommands.test_linux_tree",
                "test_doc_commands.DocCommands.test_reproducing",
                "test_bench.Bench")
# Lines of a module's output that make test shows whether it passed or not.
SAID = "doc blocks:"
LIST_TESTS = """
import sys, unittest
def flat(s):
    for t in s:
        yield from flat(t) if isinstance(t, unittest.TestSuite) else [t]
print("\\n".join(t.id() for t in flat(unittest.defaultTestLoader.loadTestsFromName(sys.argv[1]))))
"""


def split(name: str) -> list[str]:
    """@name's tests, each module.Class.test; the module whole if it does
    not load (its own run then says why)."""
    r = subprocess.run([sys.executable, "-c", LIST_TESTS, name], cwd=ROOT / "tests",
                       capture_output=True, text=True)
    ids = r.stdout.split()
    if r.returncode or not ids or any(i.startswith("unittest.loader") for i in ids):
        return [name]
    return ids


# Each module's (or test's) wall time, for the slowest line.
SECONDS: dict[str, float] = {}


def script_module(name: str) -> tuple[str, int, int, str]:
    """One test module in a process of its own: (name, passed, failed,
    its output); a module that dies or says nothing countable fails."""
    t = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "unittest", name], cwd=ROOT / "tests",
                       capture_output=True, text=True)
    out = r.stdout + r.stderr
    ran = re.search(r"^Ran (\d+) tests?", out, re.M)
    bad = re.search(r"^FAILED \((.*)\)", out, re.M)
    n = int(ran.group(1)) if ran else 0
    f = sum(int(v) for k, v in re.findall(r"(failures|errors|unexpected successes)=(\d+)",
                                          bad.group(1))) if bad else 0
    if not ran or (r.returncode and not f):
        f = max(f, 1)
    SECONDS[name] = time.monotonic() - t
    return name, n - f, f, out


def chained(names: list[str]) -> list[list[str]]:
    """@names as tasks: one each, but HUGETLB_POOL's in one."""
    pool = [u for u in names if u.startswith(HUGETLB_POOL)]
    return [pool if pool and u == pool[0] else [u] for u in names
            if u not in pool[1:]]


def script_task(units: list[str]) -> list[tuple[str, int, int, str]]:
    return [script_module(u) for u in units]


def script_tests() -> tuple[int, int]:
    """Every tests/test_*.py, a module a process, as many at once as
    there are cores."""
    names = sorted(p.stem for p in (ROOT / "tests").glob("test_*.py"))
    names = [n for n in SLOW_MODULES if n in names] + \
        [n for n in names if n not in SLOW_MODULES]
    names = [u for n in names for u in (split(n) if n in SPLIT else [n])]
    first = [u for h in HEAVY for u in names if u.startswith(h)]
    names = first + [u for u in names if u not in first]
    passed = failed = 0
    # One more than the cores: a few modules wait on lava-run, apt or
    # QEMU's firmware more than they compute.
    said: list[str] = []
    with ThreadPoolExecutor(max_workers=(os.cpu_count() or 1) + 1) as pool:
        for name, p, f, out in (r for rs in pool.map(script_task, chained(names))
                                for r in rs):
            passed += p
            failed += f
            if f:
                print(f"FAIL host script tests {name}:\n{out}")
            # What a module has make test say (test_doc_commands' counts).
            said += [ln for ln in out.splitlines() if ln.startswith(SAID)]
    for line in said:
        print(f"  {line}")
    slow = sorted(SECONDS.items(), key=lambda kv: -kv[1])[:5]
    print(f"  slowest: {', '.join(f'{n} {s:.0f} s' for n, s in slow)}")
    print(f"host script tests: {passed} passed, {failed} failed")
    return passed, failed


def companion() -> tuple[int, int]:
    """The Linux companion on this machine: its modes run, verify their
    memory and write records the host tools accept; bad keys are refused."""
    exe = str(paths.COMPANION)
    passed = failed = 0

    def report(ok: bool, name: str, why: str = "") -> None:
        nonlocal passed, failed
        passed += ok
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} companion {name}{': ' + why if why else ''}")

    args = ["bench=split", "folio=4K,2M", "size=16M", "runs=2", "warmups=1",
            "backing=thp,base", "access=write"]
    r = subprocess.run([exe, *args], capture_output=True, text=True, timeout=600)
    boots = records.parse(r.stdout)
    rows = results.rows(boots) if boots else []
    bad = [f"{x['bench']} {x['folio']} {x['clear']} {x['order']}: {x['status']} {x['reason']}"
           for x in rows if x["status"] not in ("ok", "skip")
           or (x["status"] == "skip" and "CPUID" not in str(x["reason"]))]
    report(r.returncode == 0 and len(boots) == 1 and boots[0].complete and
           not boots[0].problems and len(rows) == 2 + 2 * 50 and not bad,
           "split-4K-2M", f"rc={r.returncode} {len(rows)} rows "
           f"{boots[0].problems[:2] if boots else ''} {bad[:2]} {r.stderr[-300:]}"
           if r.returncode or bad or len(rows) != 102 else "")
    # The probe beside Linux's demand faults: every deadline woken, none lost.
    r = subprocess.run([exe, "bench=linux-fault", "folio=4K", "backing=base", "size=64M",
                        "runs=2", "warmups=0", "probe=latency", "probe_us=200"],
                       capture_output=True, text=True, timeout=300)
    boots = records.parse(r.stdout)
    runs = [x for b in boots for x in b.records if x.type == "run"]
    probes = [x for b in boots for x in b.records
              if x.type == "samples" and x.f.get("kind") == "probe"]
    woke = [x.int("probe_wakeups", -1) for x in runs]
    lost = [x.int("probe_expected", -1) - x.int("probe_wakeups", 0) for x in runs]
    report(r.returncode == 0 and len(runs) == 2 and all(w > 0 for w in woke) and
           all(v == 0 for v in lost) and bool(probes), "linux-fault-probe",
           "" if r.returncode == 0 and woke and all(v == 0 for v in lost) else
           f"rc={r.returncode} wakeups={woke} lost={lost} {r.stderr[-300:]}")
    for line, expect in ((["bench=fault"], "bench=fault runs in the kernel"),
                         (["bench=bare", "console=ttyS1"], "key 'console' has no meaning"),
                         (["bench=bare", "bogus=1"], "unknown key 'bogus'"),
                         (["bench=bare", "cache=wbinvd"], "cache=wbinvd needs ring 0")):
        r = subprocess.run([exe, *line], capture_output=True, text=True, timeout=60)
        report(r.returncode == 2 and expect in r.stderr and not r.stdout,
               "refuses " + " ".join(line), "" if r.returncode == 2 and expect in r.stderr
               else f"rc={r.returncode} stderr={r.stderr[:200]!r}")
    return passed, failed


class Images:
    """Every boot's image, built from the start of the run beside the
    host and script tests: grub-mkrescue takes ~2 s, nearly all of it
    xorriso waiting (~0.3 CPU-s), so many at once cost the cores little
    and the boots find their images made.  One image per boot line."""

    WORKERS = 6

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(max_workers=self.WORKERS)
        self.made: dict[tuple[bool, tuple[str, ...]], Future[Path]] = {}

    @staticmethod
    def key(c: Case) -> tuple[bool, tuple[str, ...]]:
        return c.media == "pxe", tuple(c.args)

    @staticmethod
    def build(key: tuple[bool, tuple[str, ...]]) -> Path:
        pxe, args = key
        return image.build_netdir(list(args)) if pxe else image.build_iso(list(args))

    def start(self, cases: list[Case]) -> None:
        # The TFTP tree's base is made once, before any case's (two
        # makers of it at once would remove each other's); a failure is
        # each PXE case's to report when it asks for its image.
        if any(c.media == "pxe" for c in cases if not unable(c)):
            try:
                image.netboot_base()
            except image.ImageError:
                pass
        for c in cases:
            if not unable(c) and self.key(c) not in self.made:
                self.made[self.key(c)] = self.pool.submit(self.build, self.key(c))

    def get(self, c: Case) -> Path:
        """@c's image (made now if start() did not ask for it); raises
        image.ImageError as building it did."""
        if self.key(c) not in self.made:
            self.made[self.key(c)] = self.pool.submit(self.build, self.key(c))
        return self.made[self.key(c)].result()


IMAGES = Images()


def boot_case(c: Case) -> tuple[Case, str | None, float]:
    """(case, why it failed or None, seconds); a case this QEMU cannot run
    comes back with why = "skip: ..." and is counted as neither."""
    why = unable(c)
    if why:
        return c, f"skip: {why}", 0.0
    try:
        img = IMAGES.get(c)
        spec = qemu.BootSpec(img, c.firmware, c.media, c.cpu, c.smp, c.mem,
                             c.timeout or TIMEOUT, serial=c.serial,
                             machine=c.machine, extra=c.extra, stall=c.stall,
                             accel=c.accel)
        res = qemu.boot(spec, log_file=LOGS / f"{c.name}.log")
    except (image.ImageError, qemu.QemuError) as e:
        return c, str(e), 0.0
    assert c.check is not None
    try:
        why = c.check(res)
    except Exception as e:  # a check that breaks is a failed case, not a crash
        why = f"check raised {e!r}"
    return c, why, res.seconds


def boots() -> tuple[int, int]:
    LOGS.mkdir(parents=True, exist_ok=True)
    passed = failed = 0
    workers = max(1, min(len(CASES), os.cpu_count() or 1))
    for phase in PHASES:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            for c, why, secs in pool.map(boot_case, phase):
                if why is not None and why.startswith("skip: "):
                    print(f"skip boot {c.name}: {why[6:]}")
                elif why is None:
                    passed += 1
                    print(f"ok   boot {c.name} ({secs:.0f} s)")
                else:
                    failed += 1
                    print(f"FAIL boot {c.name}: {why} (log: {LOGS / (c.name + '.log')})")
    return passed, failed


class Beside:
    """sys.stdout for steps run beside each other: what a thread running
    one step prints is kept and shown when its turn comes, so the output
    reads as if they had run one after another."""

    def __init__(self, real: TextIO) -> None:
        self.real = real
        self.local = threading.local()

    def write(self, text: str) -> int:
        kept = getattr(self.local, "kept", None)
        if kept is None:
            return self.real.write(text)
        kept.append(text)
        return len(text)

    def flush(self) -> None:
        self.real.flush()

    def run(self, step: Callable[[], tuple[int, int]]) -> tuple[int, int, str]:
        self.local.kept = []
        try:
            p, f = step()
        finally:
            text, self.local.kept = "".join(self.local.kept), None
        return p, f, text


START = time.monotonic()


def main() -> int:
    total_p = total_f = 0
    # The host unit tests and the barrier's model (~30 CPU-s, one thread
    # each) run beside the script modules rather than before them; the
    # companion and the boots after, on cores of their own (tests/README.md).
    beside = (host_unit, host_barrier_model, script_tests)
    after: tuple[Callable[[], tuple[int, int]], ...] = (companion, boots)
    if (os.environ.get("HZ_CASES") is not None or os.environ.get("HZ_SMP") or
            os.environ.get("HZ_SCALE")):
        beside, after = (), (boots,)
    IMAGES.start(CASES)
    out = Beside(sys.stdout)
    sys.stdout = out
    with ThreadPoolExecutor(max_workers=max(1, len(beside))) as pool:
        for run in [pool.submit(out.run, s) for s in beside]:
            p, f, text = run.result()
            out.write(text)
            total_p += p
            total_f += f
    print(f"  ({time.monotonic() - START:.0f} s)")
    for step in after:
        p, f = step()
        total_p += p
        total_f += f
        print(f"  ({time.monotonic() - START:.0f} s)")
    print(f"{total_p} passed, {total_f} failed")
    return 1 if total_f else 0


if __name__ == "__main__":
    sys.exit(main())

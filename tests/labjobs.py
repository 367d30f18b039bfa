# SPDX-License-Identifier: GPL-2.0-only
"""The `lava run` jobs of make test-lab (a self-test, a small benchmark,
a crash), run once a process.

make test-lab starts one server: test_lab_server's lifecycle test runs
these through it, beside its own lavacli job, before it stops it;
test_lava_run's RealServerTest then checks what came back.  Run alone,
RealServerTest starts a server of its own and runs them there (run())."""
from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HUGEZERO = ROOT / "scripts" / "hugezero"
sys.path.insert(0, str(ROOT / "scripts"))

from hzlib import labserver, lavarun  # noqa: E402

IDENTITY = labserver.IDENTITY

# (boot line, exit status): run at once, a device each.
REAL = {
    "selftest": ([], lavarun.EXIT_OK),
    "bench": (["bench=fault", "folio=2M", "size=8M", "clear=erms,rep",
               "order=contiguous-page", "runs=2", "selftest=off"], lavarun.EXIT_OK),
    "crash": (["crash=pf", "selftest=off"], lavarun.EXIT_CASE),
}

Runs = dict[str, tuple[subprocess.CompletedProcess, Path]]
_done: Runs = {}


def run(out: Path, first_device: int | None = None) -> Runs:
    """Each job of REAL through `lava run` into @out/NAME, at once; with
    @first_device, pinned to the devices from that number on (so that
    another job can have the first).  Kept for done()."""
    def one(item: tuple[int, str]) -> tuple[str, tuple[subprocess.CompletedProcess, Path]]:
        i, name = item
        pin = [] if first_device is None else \
            ["--device", labserver.DEVICE.format(first_device + i)]
        r = subprocess.run([sys.executable, str(HUGEZERO), "lava", "run", "--identity",
                            IDENTITY, "--device-type", "qemu", *pin, "--timeout", "300",
                            "-o", str(out / name), "--", *REAL[name][0]],
                           capture_output=True, text=True, timeout=400)
        return name, (r, out / name)

    with ThreadPoolExecutor(max_workers=len(REAL)) as ex:
        runs = dict(ex.map(one, enumerate(REAL)))
    _done.update(runs)
    return runs


def done() -> Runs:
    """What run() brought back in this process, or {}."""
    return dict(_done)

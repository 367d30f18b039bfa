# SPDX-License-Identifier: GPL-2.0-only
"""Turn the addresses of a kernel backtrace into functions and lines."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

BT = re.compile(r"\bbt #(\d+) (0x[0-9a-fA-F]+)")
RIP = re.compile(r"\brip (0x[0-9a-fA-F]+)")


def addresses(log: str) -> list[tuple[str, str]]:
    """(label, address) for the RIP and every backtrace frame, in order."""
    out: list[tuple[str, str]] = []
    for line in log.splitlines():
        m = RIP.search(line)
        if m:
            out.append(("rip", m.group(1)))
        m = BT.search(line)
        if m:
            out.append((f"#{m.group(1)}", m.group(2)))
    return out


def symbolize(log: str, elf: Path) -> list[str]:
    addrs = addresses(log)
    if not addrs:
        return ["no backtrace in this log"]
    tool = shutil.which("addr2line")
    if not tool:
        raise RuntimeError("addr2line not found (package binutils)")
    if not elf.exists():
        raise RuntimeError(f"{elf} not found: symbolize needs the ELF that ran")
    r = subprocess.run([tool, "-f", "-C", "-e", str(elf),
                        *[a for _, a in addrs]],
                       capture_output=True, text=True, check=True)
    lines = r.stdout.splitlines()
    out = []
    for i, (label, addr) in enumerate(addrs):
        func = lines[2 * i] if 2 * i < len(lines) else "??"
        where = lines[2 * i + 1] if 2 * i + 1 < len(lines) else "??"
        out.append(f"{label:>4} {addr} {func} {where}")
    return out

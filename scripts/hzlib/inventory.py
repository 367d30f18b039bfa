# SPDX-License-Identifier: GPL-2.0-only
"""The report's hardware inventory (bench=info, docs/hardware.md): the
memory map with each range's node and the holes between, the counters,
the frequency and SMI sources, and the console and how it was chosen --
beside the machine, timebase and CPU lines every boot's report has."""
from __future__ import annotations

from typing import IO

from .records import Boot


def _size(b: int) -> str:
    for unit, shift in (("G", 30), ("M", 20), ("K", 10)):
        if b >= 1 << shift:
            return f"{b / (1 << shift):.1f}{unit}"
    return f"{b}B"


def memory(boot: Boot, out: IO[str]) -> None:
    ranges = [r for r in boot.records if r.type == "memrange"]
    if not ranges:
        return
    out.write("memory:   start            end              size     type      node\n")
    last = 0
    for r in ranges:
        s, e = int(r.f["start"], 16), int(r.f["end"], 16)
        if s > last:
            out.write(f"          {last:#016x} {s:#016x} {_size(s - last):>8} (hole)\n")
        out.write(f"          {s:#016x} {e:#016x} {_size(e - s):>8} {r.f['type']:<9} "
                  f"{r.f.get('node', '-')}\n")
        last = max(last, e)
    usable = sum(int(r.f["end"], 16) - int(r.f["start"], 16) for r in ranges
                 if r.f["type"] == "usable")
    above = sum(max(0, int(r.f["end"], 16) - max(int(r.f["start"], 16), 1 << 32))
                for r in ranges if r.f["type"] == "usable")
    out.write(f"          usable {_size(usable)}, of it above 4 GiB {_size(above)}\n")


def write(boot: Boot, out: IO[str]) -> None:
    """The inventory part of a bench=info boot; nothing for other boots."""
    c, con = boot.first("counters"), boot.first("console")
    if c is None and con is None and boot.first("memrange") is None:
        return
    out.write("inventory (bench=info):\n")
    memory(boot, out)
    if c is not None:
        pmu = (f"none ({c.f.get('pmu_reason', '?')})" if c.f.get("pmu") == "none" else
               f"{c.f['pmu']} version {c.f.get('pmu_version')}, {c.f.get('pmu_general')} "
               f"general counters of {c.f.get('pmu_width')} bits")
        out.write(f"counters: pmu {pmu}; frequency {c.f.get('freq')}; SMIs {c.f.get('smi')}\n")
    if con is not None:
        out.write(f"console:  io {con.f.get('io')} at {con.f.get('baud')} baud, "
                  f"chosen from {con.f.get('source')}\n")

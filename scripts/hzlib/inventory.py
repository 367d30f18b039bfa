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
        out.write(counters_line(c.f) + "\n")
    if con is not None:
        out.write(console_line(con.f) + "\n")


def counters_line(f: dict[str, str]) -> str:
    """The counters record as one line: the PMU with what CPUID says of
    it (Intel's fixed counters and architectural events, AMD's
    PerfCtrExtCore and PerfMonV2), the frequency and the SMI sources."""
    if f.get("pmu") == "none":
        pmu = f"none ({f.get('pmu_reason', '?')})"
    else:
        pmu = (f"{f.get('pmu')} version {f.get('pmu_version')}, {f.get('pmu_general')} "
               f"general counters of {f.get('pmu_width')} bits")
        if "pmu_fixed" in f:
            pmu += f", {f['pmu_fixed']} fixed"
            if "pmu_fixed_width" in f:
                pmu += f" of {f['pmu_fixed_width']} bits"
        if "pmu_arch_events" in f:
            pmu += (f", {f['pmu_arch_events']} architectural events"
                    f" (EBX absent mask {f.get('pmu_arch_unavail', '?')})")
        for key, what in (("pmu_ext_core", "PerfCtrExtCore"), ("pmu_perfmon_v2", "PerfMonV2")):
            if key in f:
                pmu += f", {what} {f[key]}"
        if "pmu_firmware" in f:
            pmu += (f"; the firmware had left counters {f['pmu_firmware']} enabled "
                    f"(MSR {f.get('pmu_firmware_msr', '?')} was "
                    f"{f.get('pmu_firmware_val', '?')}: counted over, as Linux does)")
    return f"counters: pmu {pmu}; frequency {f.get('freq')}; SMIs {f.get('smi')}"


def console_line(f: dict[str, str]) -> str:
    """The console record as one line: where, how fast, chosen how, and
    why the SPCR table's UART was not used (or what of it was not)."""
    where = (f"mmio {f['mmio']} ({f.get('reg_bits', '?')}-bit registers)"
             if "mmio" in f else f"io {f.get('io')}")
    speed = (f"the firmware's baud rate (as is, divisor {f.get('divisor')})"
             if f.get("baud") == "as-is" else f"{f.get('baud')} baud")
    line = f"console:  {where} at {speed}, chosen from {f.get('source')}"
    if "reason" in f:
        line += f"; SPCR not used: {f['reason']}"
    if "note" in f:
        line += f"; SPCR: {f['note']}"
    return line

# SPDX-License-Identifier: GPL-2.0-only
"""The counters' tables (pmu=, docs/hardware.md), figures from counters.py:
report's, per configuration and event asked for, the mean per fault and
per 4 KiB page of the counter's delta around the clear, and the LLC miss
rate where both LLC events were counted -- the seeds' tables
(instructions and L1D loads per 1G fault, LLC miss rate); and compare's,
the same figures of each side of a pair and the change.  An event without
figures is listed with why, never as 0."""
from __future__ import annotations

import math
from typing import IO, TYPE_CHECKING, Callable

from . import counters
from .results import Config

if TYPE_CHECKING:
    from .compare import Key, Pair

Row = dict[str, object]

# The companion cannot bracket Linux's clear inside its fault handler: its
# linux-fault counters are read around the whole fault (docs/companion.md).
WHOLE_FAULT = ("  (bench=linux-fault rows: around the whole fault, Linux's clear "
               "among the rest of its fault path)\n")


def num(v: float, spec: str) -> str:
    """@v in @spec, or a right-aligned '-' of the same width where NaN."""
    return f"{'-':>{int(spec.split('.')[0])}}" if math.isnan(v) else format(v, spec)


def firmware(f: dict[str, str]) -> str:
    """The warning for counters the firmware had left enabled (the kernel's
    pmu_firmware fields, Linux's "Broken BIOS detected"), or ''."""
    if "pmu_firmware" not in f:
        return ""
    return (f"WARNING: the firmware had left counters {f['pmu_firmware']} enabled "
            f"(bit n: general counter n, bit 32+n: fixed counter n; MSR "
            f"{f.get('pmu_firmware_msr', '?')} was {f.get('pmu_firmware_val', '?')}); "
            "hugezero counted over them, as Linux does, but firmware (SMM) that "
            "uses them may have disturbed these counts")


def bracket(text: str) -> str:
    """The companion's pmu_bracket ('EVENT:N,...') as report says it."""
    parts = [p.partition(":") for p in text.split(",") if p]
    return ("an empty bracket (its read(2) pair alone) counts "
            + ", ".join(f"{ev} {n}" for ev, _, n in parts)
            + ": inside each figure, not subtracted")


def write(pairs: list[tuple[Config, Row]], out: IO[str]) -> None:
    rows = [(c, n) for c, n in ((c, counters.of(c)) for c, _ in pairs) if n is not None]
    if not rows:
        return
    out.write("\ncounters around each clear (pmu=), mean over the measured faults:\n")
    if any(c.rec.f.get("bench") == "linux-fault" for c, _ in rows):
        out.write(WHOLE_FAULT)
    out.write(f"{'configuration':<40} {'event':<16} {'per fault':>16} {'per 4K page':>14}\n")
    for c, n in rows:
        name = str(c.rec.f.get("name", "?"))
        for ev in n.deltas:
            out.write(f"{name:<40} {ev:<16} {n.per_fault(ev):16.1f} {n.per_4k(ev):14.2f}\n")
        if not math.isnan(n.llc_miss_pct()):
            out.write(f"{name:<40} {'llc miss rate':<16} {n.llc_miss_pct():15.2f}%\n")
        for ev, why in n.why.items():
            out.write(f"{name:<40} {ev:<16} {why}\n")
        if c.rec.f.get("pmu_bracket"):
            out.write(f"{name:<40} {'(read pair)':<16} {bracket(c.rec.f['pmu_bracket'])}\n")
    for w in sorted({firmware(c.rec.f) for c, _ in rows} - {""}):
        out.write(w + "\n")


def reasons(why: tuple[str, str]) -> str:
    """Why either side of a compare has no figures for an event."""
    a, b = why
    if a and a == b:
        return f"A and B: {a}"
    return "; ".join(f"{side}: {w}" for side, w in (("A", a), ("B", b)) if w)


def changes(pairs: list[Pair], label: Callable[[Key], str], width: int,
            out: IO[str]) -> None:
    """compare's counters: per pair and event, each side's mean per fault
    and per 4 KiB page and the change; the LLC miss rates."""
    rows = [p for p in pairs if p.a.counts or p.b.counts]
    if not rows:
        return
    out.write("\ncounters around each clear (pmu=), mean over each side's measured "
              "faults; change = B vs A:\n")
    if any(dict(p.key).get("bench") == "linux-fault" for p in rows):
        out.write(WHOLE_FAULT)
    out.write(f"{'':<{width}}  {'event':<16} {'A per fault':>16} {'B per fault':>16} "
              f"{'A per 4K':>12} {'B per 4K':>12} {'change':>8}\n")
    for p in rows:
        name = label(p.key)
        for ch in p.counters:
            (fa, fb), (ka, kb) = ch.per_fault, ch.per_4k
            line = (f"{name:<{width}}  {ch.event:<16} {num(fa, '16.1f')} {num(fb, '16.1f')} "
                    f"{num(ka, '12.2f')} {num(kb, '12.2f')}")
            pct = ch.change_pct
            out.write(line + (f" {pct:+7.1f}%" if not math.isnan(pct) else
                              f"  {reasons(ch.why)}") + "\n")
        ra, rb = p.llc_miss_pct
        if not (math.isnan(ra) and math.isnan(rb)):
            out.write(f"{name:<{width}}  {'llc miss rate':<16} {num(ra, '15.2f')}% "
                      f"{num(rb, '15.2f')}%\n")

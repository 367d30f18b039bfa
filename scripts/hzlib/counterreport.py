# SPDX-License-Identifier: GPL-2.0-only
"""The counters' tables (pmu=, docs/hardware.md), figures from counters.py:
report's, per configuration and event asked for, the mean per fault and
per 4 KiB page of the counter's delta around the clear, and the LLC miss
rate where both LLC events were counted -- the seeds' tables
(instructions and L1D loads per 1G fault, LLC miss rate); an event without
figures is listed with why, never as 0."""
from __future__ import annotations

import math
from typing import IO

from . import counters
from .results import Config

Row = dict[str, object]


def write(pairs: list[tuple[Config, Row]], out: IO[str]) -> None:
    rows = [(c, n) for c, n in ((c, counters.of(c)) for c, _ in pairs) if n is not None]
    if not rows:
        return
    out.write("\ncounters around each clear (pmu=), mean over the measured faults:\n")
    out.write(f"{'configuration':<40} {'event':<16} {'per fault':>16} {'per 4K page':>14}\n")
    for c, n in rows:
        name = str(c.rec.f.get("name", "?"))
        for ev in n.deltas:
            out.write(f"{name:<40} {ev:<16} {n.per_fault(ev):16.1f} {n.per_4k(ev):14.2f}\n")
        if not math.isnan(n.llc_miss_pct()):
            out.write(f"{name:<40} {'llc miss rate':<16} {n.llc_miss_pct():15.2f}%\n")
        for ev, why in n.why.items():
            out.write(f"{name:<40} {ev:<16} {why}\n")

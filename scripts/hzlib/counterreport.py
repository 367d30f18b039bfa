# SPDX-License-Identifier: GPL-2.0-only
"""The report's counters (pmu=, docs/hardware.md): per configuration and
counted event, the mean per fault and per 4 KiB page of the counter's
delta around the clear (samples kind=pmu.EVENT, measured runs), and the
LLC miss rate where both LLC events were counted -- the seeds' tables
(instructions and L1D loads per 1G fault, LLC miss rate); the events a
machine could not count, with why."""
from __future__ import annotations

import statistics
from typing import IO

from .results import Config

Row = dict[str, object]


def per_fault(c: Config) -> dict[str, float]:
    """Each counted event's mean per fault over the measured runs."""
    runs = {r.int("run") for r in c.measured}
    out: dict[str, list[int]] = {}
    for (run, kind), vals in c.samples.items():
        if run in runs and kind.startswith("pmu."):
            out.setdefault(kind[4:], []).extend(vals)
    return {k: statistics.fmean(v) for k, v in out.items() if v}


def write(pairs: list[tuple[Config, Row]], out: IO[str]) -> None:
    rows = [(c, r) for c, r in pairs if "pmu" in c.rec.f]
    if not rows:
        return
    out.write("\ncounters around each clear (pmu=), mean over the measured faults:\n")
    out.write(f"{'configuration':<40} {'event':<16} {'per fault':>16} {'per 4K page':>14}\n")
    for c, r in rows:
        name = str(c.rec.f.get("name", "?"))
        pages = max(1, c.rec.int("size", 0) // max(c.rec.int("folios", 1), 1) // 4096)
        got = per_fault(c)
        for ev, v in got.items():
            out.write(f"{name:<40} {ev:<16} {v:16.1f} {v / pages:14.2f}\n")
        if "llc-misses" in got and got.get("llc-references"):
            out.write(f"{name:<40} {'llc miss rate':<16} "
                      f"{100 * got['llc-misses'] / got['llc-references']:15.2f}%\n")
        if c.rec.f.get("pmu_skip"):
            out.write(f"{name:<40} skipped: {c.rec.f['pmu_skip']}\n")

# SPDX-License-Identifier: GPL-2.0-only
"""A configuration's performance counters (pmu=, docs/hardware.md): per
event asked for, the deltas around each measured fault's clear (samples
kind=pmu.EVENT), or why there are none.  The one place that says what
"mean per fault" and "per 4 KiB page" are, for report, compare and the
CSV alike."""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    from .results import Config

PAGE = 4096
MISSES, REFERENCES = "llc-misses", "llc-references"
# The kernel samples this many counted events per fault (FAULT_PMU_MAX).
SAMPLED = 4


@dataclass
class Counts:
    """@pages 4 KiB pages per folio; @events as pmu= asked for them;
    @deltas each sampled event's per-fault counts over the measured runs;
    @why, for every other event asked for, why it has no figures."""
    pages: int
    events: list[str] = field(default_factory=list)
    deltas: dict[str, list[int]] = field(default_factory=dict)
    why: dict[str, str] = field(default_factory=dict)

    def per_fault(self, ev: str) -> float:
        """@ev's mean per fault (NaN where it was not sampled)."""
        v = self.deltas.get(ev)
        return statistics.fmean(v) if v else math.nan

    def per_4k(self, ev: str) -> float:
        """@ev's mean per fault over the folio's 4 KiB pages."""
        return self.per_fault(ev) / self.pages

    def llc_miss_pct(self) -> float:
        """100 × llc-misses over llc-references (NaN unless both sampled
        and any reference counted)."""
        refs = self.per_fault(REFERENCES)
        return 100.0 * self.per_fault(MISSES) / refs if refs else math.nan

    def figures(self) -> dict[str, float]:
        """The CSV's columns: pmu.EVENT_per_fault and pmu.EVENT_per_4k of
        each sampled event."""
        out: dict[str, float] = {}
        for ev in self.deltas:
            out.update({f"pmu.{ev}_per_fault": self.per_fault(ev),
                        f"pmu.{ev}_per_4k": self.per_4k(ev)})
        return out


def skipped(f: dict[str, str]) -> dict[str, str]:
    """A config record's pmu_skip, 'EVENT[,EVENT...]: reason; ...' (events
    that share a reason named together), by event."""
    out = {}
    for part in f.get("pmu_skip", "").split("; "):
        evs, _, why = part.partition(": ")
        for ev in evs.split(","):
            if ev:
                out[ev] = why or "skipped"
    return out


def of(c: Config) -> Counts | None:
    """@c's counters; None without pmu=."""
    f = c.rec.f
    if f.get("pmu", "") == "":
        return None
    folios = max(c.rec.int("folios", 1), 1)
    n = Counts(max(1, c.rec.int("size", 0) // folios // PAGE),
               [e for e in f["pmu"].split(",") if e])
    runs = {r.int("run") for r in c.measured}
    for (run, kind), vals in sorted(c.samples.items()):
        if run in runs and kind.startswith("pmu."):
            n.deltas.setdefault(kind[4:], []).extend(vals)
    # In the order asked for (an event sampled but not asked for, last).
    order = n.events + [ev for ev in n.deltas if ev not in n.events]
    n.deltas = {ev: n.deltas[ev] for ev in order if n.deltas.get(ev)}
    skip = skipped(f)
    for ev in n.events:
        if ev not in n.deltas:
            n.why[ev] = (f"skipped: {skip[ev]}" if ev in skip else
                         "no measured runs" if not runs else
                         "no samples (samples=none)" if f.get("samples") == "none" else
                         f"counted, not sampled (the first {SAMPLED} counted events are)")
    return n


def pool(cs: Iterable[Counts | None]) -> Counts | None:
    """Counters of configurations equal in every dimension (one side of a
    compare), their faults pooled; None when none had pmu=."""
    have = [c for c in cs if c is not None]
    if not have:
        return None
    out = Counts(have[0].pages)
    for c in have:
        out.events += [e for e in c.events if e not in out.events]
        for ev, v in c.deltas.items():
            out.deltas.setdefault(ev, []).extend(v)
    for ev in out.events:
        if ev not in out.deltas:
            out.why[ev] = "; ".join(dict.fromkeys(c.why[ev] for c in have if ev in c.why))
    return out


def columns(rows: Iterable[dict[str, object]]) -> list[str]:
    """The counter columns of @rows, each event in the order first asked
    for: pmu.EVENT_per_fault, pmu.EVENT_per_4k."""
    events: dict[str, None] = {}
    for r in rows:
        for ev in str(r.get("pmu") or "").split(","):
            if ev:
                events[ev] = None
    return [f"pmu.{ev}_{per}" for ev in events for per in ("per_fault", "per_4k")]


@dataclass
class Change:
    """One event on both sides of a compare: A's and B's mean per fault and
    per 4 KiB page (NaN on a side without figures), and why a side has
    none ('' where it has them)."""
    event: str
    per_fault: tuple[float, float]
    per_4k: tuple[float, float]
    why: tuple[str, str]

    @property
    def change_pct(self) -> float:
        """B's per fault against A's, in % (NaN unless both have one)."""
        a, b = self.per_fault
        return 100.0 * (b - a) / a if a else math.nan


def changes(a: Counts | None, b: Counts | None) -> list[Change]:
    """Each event either side asked for, in the order asked."""
    def side(n: Counts | None, ev: str) -> tuple[float, float, str]:
        if n is None:
            return math.nan, math.nan, "no pmu="
        if ev in n.deltas:
            return n.per_fault(ev), n.per_4k(ev), ""
        return math.nan, math.nan, n.why.get(ev, "not asked for")
    events = dict.fromkeys(ev for n in (a, b) if n for ev in [*n.events, *n.deltas])
    out = []
    for ev in events:
        (fa, ka, wa), (fb, kb, wb) = side(a, ev), side(b, ev)
        out.append(Change(ev, (fa, fb), (ka, kb), (wa, wb)))
    return out

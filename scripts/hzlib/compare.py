# SPDX-License-Identifier: GPL-2.0-only
"""A/B comparison of two sets of results, as the seeds' tables read:

    folio=1G clear=erms order=contiguous-page   16.51 +- 0.54%   42.80 +- 3.48%   +159.2%

Between-run variance decides: each configuration's per-run GB/s on either
side go through Welch's t-test (two-sided); a difference whose p-value is
0.05 or more is marked '~' as within noise.  Configurations found on one
side only are listed, not dropped.
"""
from __future__ import annotations

import json
import math
import statistics
from pathlib import Path
from typing import IO

from . import ktap, records, results
from .records import Boot, Record

ALPHA = 0.05
KEY = ("bench", "folio", "clear", "order", "chunk", "backing", "touch",
       "offset", "access", "cache", "cpl")


def load(path: str) -> list[Boot]:
    """Boots from a serial log, companion output, or `parse --format json`."""
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    if text.lstrip().startswith("{"):
        data = json.loads(text)
        boots = []
        for b in data.get("boots", []):
            boot = Boot(b.get("index", len(boots)), problems=list(b.get("problems", [])))
            for r in b.get("records", []):
                f = {k: str(v) for k, v in r.items() if k not in ("seq", "type")}
                boot.records.append(Record(int(r["seq"]), r["type"], f, 0))
            boot.end_count = len(boot.records) if b.get("complete") else None
            boots.append(boot)
        return boots
    return records.parse(ktap.clean(text))


def per_run(boot: Boot, c: results.Config) -> list[float]:
    hz = boot.first("timebase")
    tsc = hz.int("tsc_hz") if hz else 0
    size = c.rec.int("size", 0)
    measured = [r for r in c.runs if r.f.get("pass") == "measure"]
    key = "fault_ticks" if any("fault_ticks" in r.f for r in measured) else "clear_ticks"
    return [size / (r.int(key) / tsc) / results.GIB for r in measured
            if tsc and r.int(key, 0)]


def table(boots: list[Boot]) -> dict[tuple[str, ...], list[float]]:
    """Per-run GB/s of every ok configuration, runs of equal configurations pooled."""
    out: dict[tuple[str, ...], list[float]] = {}
    for b in boots:
        for c in results.configs(b):
            row = results.row(b, c)
            if row["status"] != "ok":
                continue
            k = tuple(str(row.get(f) or "") for f in KEY)
            out.setdefault(k, []).extend(per_run(b, c))
    return out


def betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny, qab, qap, qam = 1e-300, a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        for aa in (m * (b - m) * x / ((qam + m2) * (a + m2)),
                   -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1.0 + aa * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + aa / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-12:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lbt = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
           + a * math.log(x) + b * math.log(1.0 - x))
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(lbt) * betacf(a, b, x) / a
    return 1.0 - math.exp(lbt) * betacf(b, a, 1.0 - x) / b


def welch(a: list[float], b: list[float]) -> float | None:
    """Two-sided p-value of Welch's t-test; None with fewer than 2 runs a side."""
    if len(a) < 2 or len(b) < 2:
        return None
    va, vb = statistics.variance(a) / len(a), statistics.variance(b) / len(b)
    if va + vb == 0:
        return 1.0 if statistics.fmean(a) == statistics.fmean(b) else 0.0
    t = (statistics.fmean(a) - statistics.fmean(b)) / math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    return betainc(df / 2.0, 0.5, df / (df + t * t))


def cell(v: list[float]) -> str:
    m = statistics.fmean(v)
    sd = 100.0 * statistics.stdev(v) / m if len(v) > 1 and m else 0.0
    return f"{m:7.2f} +- {sd:5.2f}%"


def label(k: tuple[str, ...]) -> str:
    d = dict(zip(KEY, k))
    parts = [f"folio={d['folio']}", f"clear={d['clear']}", f"order={d['order']}"]
    if d["chunk"]:
        parts.append(f"chunk={d['chunk']}")
    if d["backing"]:
        parts.append(f"backing={d['backing']}")
    if d["bench"] != "fault":
        parts.insert(0, f"bench={d['bench']}")
    return " ".join(parts)


def write(a_path: str, b_path: str, out: IO[str]) -> int:
    a, b = table(load(a_path)), table(load(b_path))
    out.write(f"A: {a_path}\nB: {b_path}\n")
    out.write("GB/s (2^30 B/s) per configuration, mean +- stddev% over runs; "
              "change = B vs A.\n'~' marks a change within noise: Welch's t-test "
              f"on the per-run GB/s, two-sided p >= {ALPHA}.\n\n")
    width = max([len(label(k)) for k in list(a) + list(b)] + [10])
    common = [k for k in a if k in b]
    for k in common:
        ma, mb = statistics.fmean(a[k]), statistics.fmean(b[k])
        p = welch(a[k], b[k])
        mark = ("   (fewer than 2 runs: not tested)" if p is None else
                f" ~ (p={p:.2f})" if p >= ALPHA else f"   (p={p:.3f})")
        out.write(f"{label(k):<{width}}  {cell(a[k])}  {cell(b[k])}  "
                  f"{100 * (mb - ma) / ma:+7.1f}%{mark}\n")
    for side, mine, other in (("A", a, b), ("B", b, a)):
        only = [k for k in mine if k not in other]
        if only:
            out.write(f"\nonly in {side}:\n")
            for k in only:
                out.write(f"{label(k):<{width}}  {cell(mine[k])}\n")
    if not common:
        out.write("no configuration is in both\n")
    return 0

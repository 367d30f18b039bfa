# SPDX-License-Identifier: GPL-2.0-only
"""A/B comparison of two sets of results, as the seeds' tables read:

    folio=1G clear=erms order=contiguous-page   16.51 +- 0.54%   42.80 +- 3.48%   +159.2%

A configuration is every dimension of its config record (dims.py): two
rows are paired only when all are equal, and runs are pooled only within
one side and one configuration.  The CPUs of a group (docs/smp.md) are
equal in every dimension: each CPU's row is keyed by its `cpu` as well, so
rows pair only CPU by CPU (the same number in the same `cpus`: the same
position in the group) and different CPUs' runs never pool.  The groups
themselves are compared in a table of their own: the aggregate GB/s of
each measured pass (total bytes over wall time), keyed by the group's
dimensions.  Between-run variance decides: each
configuration's per-run GB/s on either side go through Welch's t-test
(scipy.stats.ttest_ind, equal_var=False, two-sided); a difference whose
p-value is 0.05 or more is marked '~' as within noise.  Configurations
found on one side only are listed, not dropped, with the nearest one of the
other side and how it differs.
"""
from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import IO

from . import dims, groups, ktap, records, results
from .records import Boot, Record

ALPHA = 0.05
NO_SCIPY = "p-values need python3-scipy: apt-get install python3-scipy"

Key = tuple[tuple[str, str], ...]

# The dimensions every label shows; the others only where they vary.
SHOWN = ("bench", "folio", "clear", "order", "chunk", "radius", "backing")


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


def row_key(row: dict[str, object]) -> Key:
    """A configuration's dimensions, and the CPU it ran on where that is
    known: CPUs of one group are equal in every dimension."""
    d: dict[str, str] = dict(row["dims"])  # type: ignore[call-overload]
    if row.get("cpu", "") != "":
        d["cpu"] = str(row["cpu"])
    return dims.key(d)


def table(boots: list[Boot]) -> dict[Key, list[float]]:
    """Per-run GB/s (net of the timer) of every ok configuration; runs of
    configurations equal in every dimension, on the same CPU, pooled."""
    out: dict[Key, list[float]] = {}
    for b in boots:
        for row in results.boot_rows(b):
            if row["status"] == "ok":
                out.setdefault(row_key(row), []).extend(row["gbps_runs"])  # type: ignore[arg-type]
    return out


def agg_table(boots: list[Boot]) -> dict[Key, list[float]]:
    """Per-pass aggregate GB/s of every ok group (refused passes have none);
    passes of groups equal in every dimension pooled."""
    out: dict[Key, list[float]] = {}
    for row in groups.rows(boots):
        if row["status"] == "ok" and row["gbps_runs"]:
            out.setdefault(dims.key(row["dims"]), []).extend(row["gbps_runs"])  # type: ignore[arg-type]
    return out


class NoScipy(Exception):
    pass


def welch(a: list[float], b: list[float]) -> float | None:
    """Two-sided p-value of Welch's t-test; None with fewer than 2 runs a
    side.  Raises NoScipy when scipy cannot be imported."""
    if len(a) < 2 or len(b) < 2:
        return None
    if statistics.variance(a) == 0 and statistics.variance(b) == 0:
        # scipy's t is undefined here (0/0): equal constants are no change.
        return 1.0 if statistics.fmean(a) == statistics.fmean(b) else 0.0
    try:
        from scipy import stats
    except ImportError as e:
        raise NoScipy(str(e)) from e
    return float(stats.ttest_ind(a, b, equal_var=False).pvalue)


def cell(v: list[float]) -> str:
    m = statistics.fmean(v)
    sd = 100.0 * statistics.stdev(v) / m if len(v) > 1 and m else 0.0
    return f"{m:7.2f} +- {sd:5.2f}%"


# A one-side-only configuration names its nearest on the other side when
# they differ in at most this many dimensions.
NEAR = 3


def nearest(k: Key, others: list[Key]) -> Key | None:
    """The configuration of @others that differs from @k in fewest
    dimensions, if in no more than NEAR."""
    d = dict(k)
    near = min(others, key=lambda o: len(dims.differing(d, dict(o))), default=None)
    return near if near and len(dims.differing(d, dict(near))) <= NEAR else None


def mark(p: float | None) -> str:
    return ("   (fewer than 2 runs: not tested)" if p is None else
            f" ~ (p={p:.2f})" if p >= ALPHA else f"   (p={p:.3f})")


def machines(boots: list[Boot]) -> set[str]:
    """The machines a side's boots ran on (vendor family model stepping brand)."""
    out = set()
    for bt in boots:
        m = bt.first("machine")
        if m:
            out.add(" ".join(m.f.get(k, "") for k in ("vendor", "family", "model",
                                                      "stepping", "brand")))
    return out


def write(a_path: str, b_path: str, out: IO[str]) -> int:
    boots_a, boots_b = load(a_path), load(b_path)
    a, b = table(boots_a), table(boots_b)
    agg_a, agg_b = agg_table(boots_a), agg_table(boots_b)
    keys = list(a) + list(b) + list(agg_a) + list(agg_b)
    everything = [dict(k) for k in keys]
    vary = dims.varying(everything, SHOWN)
    shown = [k for k in dims.names(everything) if k in SHOWN or k in vary]
    common = [k for k in dims.names(everything) if k not in shown]

    def label(k: Key) -> str:
        d = dict(k)
        # backing only where there is one, cpu only on a CPU's row.
        return dims.label(d, [n for n in shown if not (n == "bench" and d.get(n) == "fault")
                              and not (n in ("backing", "cpu") and n not in d)])

    out.write(f"A: {a_path}\nB: {b_path}\n")
    out.write("GB/s (2^30 B/s, net of the timer) per configuration, mean +- stddev% "
              "over runs; change = B vs A.\n'~' marks a change within noise: Welch's "
              f"t-test on the per-run GB/s, two-sided p >= {ALPHA}.\n")
    out.write("A configuration is every dimension of its config record: rows that "
              "differ in any one are not paired; a CPU of a group pairs only with the "
              "same CPU.\n")
    if common:
        out.write("the same in every row: " + dims.label(everything[0], common) + "\n")
    for side, bts in (("A", boots_a), ("B", boots_b)):
        ms = machines(bts)
        if len(ms) > 1:
            out.write(f"WARNING: {side} pools runs of {len(ms)} different machines: "
                      + "; ".join(sorted(ms)) + "\n")
    width = max([len(label(k)) for k in keys] + [10])
    note = section(a, b, label, width, out)
    if agg_a or agg_b:
        out.write("\naggregates, every CPU of a group at once: GB/s = total bytes / wall "
                  "time per pass (not net of the timer), mean +- stddev% over passes\n")
        note = section(agg_a, agg_b, label, width, out) or note
    if note:
        out.write(f"\n{note}\n")
    return 0


def section(a: dict[Key, list[float]], b: dict[Key, list[float]], label, width: int,  # type: ignore[no-untyped-def]
            out: IO[str]) -> str:
    """The rows of both sides, then those of one side only; returns a note
    to print once at the end (why there are no p-values), or ''."""
    both = [k for k in a if k in b]
    note = ""
    if both:
        out.write("\n")
    for k in both:
        ma, mb = statistics.fmean(a[k]), statistics.fmean(b[k])
        try:
            m = mark(welch(a[k], b[k]))
        except NoScipy:
            m, note = "   (p: no scipy)", NO_SCIPY
        out.write(f"{label(k):<{width}}  {cell(a[k])}  {cell(b[k])}  "
                  f"{100 * (mb - ma) / ma:+7.1f}%{m}\n")
    for side, mine, other, oname in (("A", a, b, "B"), ("B", b, a, "A")):
        only = [k for k in mine if k not in other]
        rest = [k for k in other if k not in mine]
        if only:
            out.write(f"\nonly in {side}:\n")
            for k in only:
                near = nearest(k, rest)
                why = f"  ({oname} has {dims.contrast(dict(k), dict(near))})" if near else ""
                out.write(f"{label(k):<{width}}  {cell(mine[k])}{why}\n")
    if not both:
        out.write("\nno configuration is in both\n")
    return note

# SPDX-License-Identifier: GPL-2.0-only
"""From records to results: one row per configuration, computed from the
raw samples (the kernel's own summary is only a cross-check)."""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field

from .records import Boot, Record

GIB = float(1 << 30)    # perf bench prints GB/sec as 2^30 bytes per second

CSV_COLUMNS = [
    "folio", "clear", "order", "chunk", "status", "runs", "gbps_mean",
    "gbps_stddev_pct", "fault_us_median", "clear_us_median",
    "access_us_median", "overhead_us_median", "fault_us_min", "fault_us_p99",
    "fault_us_max", "clear_gbps_mean", "resched_per_run", "size", "folios",
    "touch", "offset", "access", "cache", "cpl", "cpu", "tsc_hz",
    "tsc_source", "boot", "cfg", "reason", "bench", "backing",
]


@dataclass
class Config:
    rec: Record
    runs: list[Record] = field(default_factory=list)
    samples: dict[tuple[int, str], list[int]] = field(default_factory=dict)
    summary: Record | None = None
    problems: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.rec.f.get("name", "?")


def chunk_name(b: int) -> str:
    if b == 0:
        return ""
    for unit, shift in (("G", 30), ("M", 20), ("K", 10)):
        if b % (1 << shift) == 0:
            return f"{b >> shift}{unit}"
    return str(b)


def configs(boot: Boot) -> list[Config]:
    by_id: dict[int, Config] = {}
    order: list[Config] = []
    for r in boot.records:
        if r.type == "config":
            c = Config(r)
            by_id[r.int("cfg")] = c
            order.append(c)
            continue
        if r.type not in ("run", "samples", "summary"):
            continue
        c = by_id.get(r.int("cfg", -1))
        if c is None:
            boot.problems.append(f"line {r.line_no}: {r.type} record for an "
                                 "unknown configuration")
            continue
        if r.type == "run":
            c.runs.append(r)
        elif r.type == "summary":
            c.summary = r
        else:
            add_samples(c, r)
    for c in order:
        check_complete(boot, c)
    return order


def check_complete(boot: Boot, c: Config) -> None:
    """A configuration any of whose records went missing is damaged: a lost
    line may have held samples, and numbers without them would be wrong."""
    first = c.rec.seq
    last = c.summary.seq if c.summary else (boot.records[-1].seq if boot.records else first)
    for lo, hi in boot.gaps:
        if lo <= last and hi >= first:
            c.problems.append(f"records {lo}..{hi} of this configuration are missing")
    for r in c.runs:
        n = r.int("faults", 0)
        for kind in ("fault", "clear", "access", "page"):
            got = c.samples.get((r.int("run"), kind))
            if got is not None and len(got) != n:
                c.problems.append(f"run {r.int('run')}: {len(got)} of {n} "
                                  f"{kind} samples")


def add_samples(c: Config, r: Record) -> None:
    key = (r.int("run"), r.f.get("kind", "?"))
    vals = [int(x) for x in r.f.get("v", "").split(",") if x]
    have = c.samples.setdefault(key, [])
    if r.int("first") != len(have) or r.int("n") != len(vals):
        c.problems.append(f"samples of run {key[0]} {key[1]} out of sequence "
                          f"at {r.int('first')}")
    have.extend(vals)


def mean_sd_pct(v: list[float]) -> tuple[float, float]:
    if not v:
        return math.nan, math.nan
    m = statistics.fmean(v)
    sd = statistics.stdev(v) if len(v) > 1 else 0.0
    return m, (100.0 * sd / m if m else math.nan)


def pct(sorted_v: list[int], p: float) -> int:
    """Nearest-rank percentile, as the kernel computes it."""
    if not sorted_v:
        return 0
    rank = math.ceil(p / 100.0 * len(sorted_v))
    return sorted_v[max(rank, 1) - 1]


def row(boot: Boot, c: Config) -> dict[str, object]:
    machine = boot.first("machine")
    tb = boot.first("timebase")
    hz = tb.int("tsc_hz") if tb else 0
    f = c.rec.f
    size = c.rec.int("size", 0)
    measured = [r for r in c.runs if r.f.get("pass") == "measure"]
    status = c.summary.f.get("status", "?") if c.summary else "incomplete"
    if c.problems and status == "ok":
        status = "damaged"

    def us(t: float) -> float:
        return t * 1e6 / hz if hz else math.nan

    # Faults when there were any (kernel, linux-fault), else the clearing (bare).
    key = "fault_ticks" if any("fault_ticks" in r.f for r in measured) else "clear_ticks"
    gbps = [size / (r.int(key) / hz) / GIB for r in measured
            if hz and r.int(key, 0)]
    cgbps = [size / (r.int("clear_ticks") / hz) / GIB for r in measured
             if hz and r.int("clear_ticks", 0)]
    kinds: dict[str, list[int]] = {}
    for (run, kind), vals in c.samples.items():
        if any(r.int("run") == run for r in measured):
            kinds.setdefault(kind, []).extend(vals)
    fault = sorted(kinds.get("fault", []))
    clear = sorted(kinds.get("clear", []))
    access = sorted(kinds.get("access", []))
    over = sorted(a - b for a, b in zip(kinds.get("fault", []), kinds.get("clear", [])))
    g_mean, g_sd = mean_sd_pct(gbps)
    s = c.summary
    out: dict[str, object] = {
        "folio": f.get("folio"), "clear": f.get("clear"), "order": f.get("order"),
        "chunk": chunk_name(c.rec.int("chunk", 0)), "status": status,
        "runs": len(measured), "gbps_mean": g_mean, "gbps_stddev_pct": g_sd,
        "clear_gbps_mean": mean_sd_pct(cgbps)[0],
        "fault_us_median": us(statistics.median(fault)) if fault else
        (s.int("fault_ns_median", 0) / 1e3 if s and "fault_ns_median" in s.f else math.nan),
        "clear_us_median": us(statistics.median(clear)) if clear else
        (s.int("clear_ns_median", 0) / 1e3 if s and "clear_ns_median" in s.f else math.nan),
        "access_us_median": us(statistics.median(access)) if access else
        (s.int("access_ns_median", 0) / 1e3 if s and "access_ns_median" in s.f else math.nan),
        "overhead_us_median": us(statistics.median(over)) if over else
        (s.int("overhead_ns_median", 0) / 1e3 if s and "overhead_ns_median" in s.f else math.nan),
        "fault_us_min": us(fault[0]) if fault else math.nan,
        "fault_us_p99": us(pct(fault, 99)) if fault else math.nan,
        "fault_us_max": us(fault[-1]) if fault else math.nan,
        "resched_per_run": measured[0].int("resched", 0) if measured else "",
        "size": size, "folios": c.rec.int("folios", 0),
        "touch": f.get("touch"), "offset": f.get("offset"),
        "access": f.get("access"), "cache": f.get("cache"), "cpl": f.get("cpl"),
        "cpu": machine.f.get("brand") if machine else "?",
        "tsc_hz": hz, "tsc_source": tb.f.get("source") if tb else "?",
        "boot": boot.index, "cfg": c.rec.int("cfg"),
        "bench": f.get("bench"), "backing": f.get("backing", ""),
        "reason": (s.f.get("reason", "") if s else "no summary record") +
        ("; " + "; ".join(c.problems) if c.problems else ""),
    }
    return out


def rows(boots: list[Boot]) -> list[dict[str, object]]:
    return [row(b, c) for b in boots for c in configs(b)]


SAMPLE_COLUMNS = ["boot", "cfg", "name", "bench", "folio", "clear", "order",
                  "chunk", "backing", "run", "kind", "index", "ticks", "us"]


def sample_rows(boots: list[Boot]) -> list[dict[str, object]]:
    """One row per raw sample of every measured run of an intact configuration."""
    out: list[dict[str, object]] = []
    for b in boots:
        tb = b.first("timebase")
        hz = tb.int("tsc_hz") if tb else 0
        for c in configs(b):
            if c.problems:
                continue
            measured = {r.int("run") for r in c.runs if r.f.get("pass") == "measure"}
            f = c.rec.f
            for (run, kind), vals in sorted(c.samples.items()):
                if run not in measured:
                    continue
                for i, v in enumerate(vals):
                    out.append({
                        "boot": b.index, "cfg": c.rec.int("cfg"), "name": f.get("name"),
                        "bench": f.get("bench"), "folio": f.get("folio"),
                        "clear": f.get("clear"), "order": f.get("order"),
                        "chunk": chunk_name(c.rec.int("chunk", 0)),
                        "backing": f.get("backing", ""), "run": run, "kind": kind,
                        "index": i, "ticks": v,
                        "us": round(v * 1e6 / hz, 4) if hz and kind != "page" else "",
                    })
    return out

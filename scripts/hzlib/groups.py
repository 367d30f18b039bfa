# SPDX-License-Identifier: GPL-2.0-only
"""All CPUs at once (docs/smp.md): the groups of a boot and their aggregates.

A group is one configuration run by several CPUs together: each CPU's
`config` (with `group` and `cpu`), `run`, `samples` and `summary` records
are a configuration of their own (results.Config, one row per CPU), and
one `agg` record per pass plus one `agg_summary` say what they did
together.  Per measured pass the aggregate is the total bytes over the
wall time (first start to last finish), in GB/s of 2^30 bytes per second,
and the CPUs' stime and utime summed; over the passes, the mean and the
sample standard deviation in % of each.  A refused pass (`refused`: its
wall time cannot be trusted) has no wall time and no GB/s but keeps its
stime and utime.  A group missing any CPU's records or any of its `agg`
records is damaged and never turned into numbers.

The aggregates are the records' totals as the writers summed them, not
net of the timer: a wall time holds one timer pair for the whole pass, and
stime/utime stand for Linux's rusage, which holds everything.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from . import cpulist, dims, fields, results, spread
from .records import Boot, Record
from .results import Config

NAN = math.nan


@dataclass
class Pass:
    """One measured pass of a group, in seconds and GB/s."""
    rec: Record
    run: int
    bytes: int
    wall_s: float           # NAN when refused
    gbps: float             # NAN when refused
    stime_s: float
    utime_s: float
    start_skew_s: float     # NAN when refused
    refused: str            # the reason; "" for a pass whose wall time holds
    # In CPU 0's time (each start less its TSC offset), and to +- what;
    # NAN when refused, or from a log (older, the companion's) without them
    start_skew_corr_s: float = NAN
    start_skew_err_s: float = NAN


@dataclass
class Group:
    number: int
    members: list[Config] = field(default_factory=list)
    aggs: list[Record] = field(default_factory=list)
    summary: Record | None = None
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # cross-checks that failed

    @property
    def first_seq(self) -> int:
        return min([c.rec.seq for c in self.members] + [r.seq for r in self.aggs]
                   + ([self.summary.seq] if self.summary else []))

    def field(self, key: str) -> str:
        """@key as the group's records say it: agg_summary, agg, then the
        first CPU's config."""
        for r in ([self.summary] if self.summary else []) + self.aggs + [
                c.rec for c in self.members]:
            if key in r.f:
                return r.f[key]
        return ""

    @property
    def cpus(self) -> list[int] | None:
        return cpulist.parse(self.field("cpus"))

    @property
    def measured(self) -> list[Record]:
        return [r for r in self.aggs if r.f.get("pass") == "measure"]

    @property
    def dims(self) -> dict[str, str]:
        return self.members[0].dims if self.members else {}


def of(boot: Boot, configs: list[Config]) -> list[Group]:
    """Every group of @boot, in the order it began, each checked whole."""
    by_no: dict[int, Group] = {}

    def group(n: int) -> Group:
        return by_no.setdefault(n, Group(n))

    for c in configs:
        if "group" in c.rec.f:
            group(c.rec.int("group")).members.append(c)
    for r in boot.records:
        if r.type == "agg":
            group(r.int("group")).aggs.append(r)
        elif r.type == "agg_summary":
            group(r.int("group")).summary = r
    out = sorted(by_no.values(), key=lambda g: g.first_seq)
    for g in out:
        check(boot, g)
    return out


def check(boot: Boot, g: Group) -> None:
    """Damage: a CPU's records or an agg record missing, or records lost
    inside the group.  Also cross-checks that are only noted."""
    g.problems.extend(f"records {lo}..{hi} of this group are missing"
                      for lo, hi in results.gaps_within(boot, g.first_seq, g.summary))
    want = g.cpus
    have = [c.rec.f.get("cpu", "?") for c in g.members]
    if want is None:
        g.problems.append(f"no readable cpus list ({g.field('cpus') or 'none'})")
    else:
        missing = [c for c in want if str(c) not in have]
        if missing:
            g.problems.append(f"CPU {cpulist.format(missing)}'s records are missing")
        extra = sorted({h for h in have if h not in {str(c) for c in want}})
        if extra:
            g.problems.append(f"records of CPU {','.join(extra)}, not in cpus={g.field('cpus')}")
        n = g.field("ncpus")
        if n and n != str(len(want)):
            g.problems.append(f"ncpus={n} but cpus={g.field('cpus')} lists {len(want)}")
    for dup in sorted({h for h in have if have.count(h) > 1}):
        g.problems.append(f"CPU {dup} has more than one configuration")
    for c in g.members:
        if c.problems:
            g.problems.append(f"CPU {c.rec.f.get('cpu', '?')}'s records are damaged")
        if c.dims != g.dims:
            g.problems.append(f"CPU {c.rec.f.get('cpu', '?')} differs from CPU "
                              f"{g.members[0].rec.f.get('cpu', '?')} in "
                              + ", ".join(dims.differing(g.dims, c.dims)))
    runs = {r.int("run") for c in g.members for r in c.measured}
    aggs = [r.int("run") for r in g.measured]
    for run in sorted(runs - set(aggs)):
        g.problems.append(f"no agg record of pass {run}")
    for run in sorted({a for a in aggs if aggs.count(a) > 1}):
        g.problems.append(f"more than one agg record of pass {run}")
    for r in g.measured:
        if "refused" not in r.f and "wall_ticks" not in r.f:
            g.problems.append(f"agg of pass {r.int('run')}: neither wall_ticks nor refused")
    if g.summary and "runs" in g.summary.f and g.summary.int("runs") != len(aggs) \
            and g.summary.f.get("status") in ("ok", "refused"):
        g.problems.append(f"agg_summary says {g.summary.int('runs')} passes, "
                          f"{len(aggs)} agg records")
    cross_check(g)


def cross_check(g: Group) -> None:
    """The agg record's stime/utime ticks against its CPUs' run totals:
    a mismatch is the writer's, noted, not damage."""
    for r in g.measured:
        mine = [x for c in g.members for x in c.measured if x.int("run") == r.int("run")]
        for agg_key, run_key in (("stime_ticks", "fault_ticks"), ("utime_ticks", "access_ticks")):
            if agg_key in r.f and mine and all(run_key in x.f for x in mine):
                total = sum(x.int(run_key) for x in mine)
                if total != r.int(agg_key):
                    g.notes.append(f"pass {r.int('run')}: {agg_key}={r.int(agg_key)}, "
                                   f"the CPUs' {run_key} sum to {total}")


def seconds(r: Record, kind: str, hz: int) -> float:
    """@kind (stime, utime) of an agg record in seconds: the companion's
    rusage (µs) where there is one, else TSC ticks; NAN when neither."""
    if f"{kind}_us" in r.f:
        return r.int(f"{kind}_us") / 1e6
    if f"{kind}_ticks" in r.f and hz:
        return r.int(f"{kind}_ticks") / hz
    return NAN


def ticks_s(r: Record, key: str, hz: int) -> float:
    """@key, in TSC ticks, in seconds; NAN where the record has none."""
    return r.int(key, 0) / hz if hz and key in r.f else NAN


def passes(boot: Boot, g: Group) -> list[Pass]:
    hz = results.tsc_hz(boot)
    out = []
    for r in sorted(g.measured, key=lambda x: x.int("run")):
        refused = r.f.get("refused", "")
        b = r.int("bytes", 0)
        wall = ticks_s(r, "wall_ticks", hz) if not refused else NAN
        gbps = b / wall / results.GIB if wall and not math.isnan(wall) else NAN
        out.append(Pass(r, r.int("run"), b, wall, gbps, seconds(r, "stime", hz),
                        seconds(r, "utime", hz), ticks_s(r, "start_skew_ticks", hz), refused,
                        ticks_s(r, "start_skew_corr_ticks", hz),
                        ticks_s(r, "start_skew_err_ticks", hz)))
    return out


def times_from(g: Group) -> str:
    """Where stime and utime come from: 'rusage' (the companion's
    getrusage()) or 'ticks' (the CPUs' fault and access ticks)."""
    return "rusage" if any("stime_us" in r.f for r in g.measured) else "ticks"


def status(g: Group) -> str:
    """agg_summary's status; damaged where records were lost (a failed or
    skipped group stays what it was, as a configuration does)."""
    s = g.summary.f.get("status", "?") if g.summary else "incomplete"
    return "damaged" if g.problems and s not in ("fail", "skip") else s


def finite(v: list[float]) -> list[float]:
    return [x for x in v if not math.isnan(x)]


def mean_sd(v: list[float]) -> tuple[float, float]:
    """Mean and sample stddev (% of the mean) of the finite values of @v
    (spread.py: no stddev of fewer than two)."""
    return spread.mean_sd_pct(finite(v))


def us_max(v: list[float]) -> float:
    """The largest finite value of @v (seconds) in µs; NAN for none."""
    return max(finite(v), default=NAN) * 1e6


def row(boot: Boot, g: Group) -> dict[str, object]:
    """The group as one row: its dimensions, status and aggregate figures
    (empty for a damaged group: never numbers from lost records)."""
    st = "interrupted" if g.summary is None and boot.interrupted else status(g)
    ps = [] if g.problems else passes(boot, g)
    gb, gb_sd = mean_sd([p.gbps for p in ps])
    st_m, st_sd = mean_sd([p.stime_s for p in ps])
    ut_m, ut_sd = mean_sd([p.utime_s for p in ps])
    refused = [p for p in ps if p.refused]
    d = g.dims
    first = g.members[0].rec if g.members else None
    s = g.summary
    reason = "; ".join(x for x in [s.f.get("reason", "") if s else
                                   boot.cut or "no agg_summary record",
                                   *g.problems] if x)
    out: dict[str, object] = dict(d)
    out.update({
        "boot": boot.index, "group": g.number, "cpus": g.field("cpus"),
        "ncpus": len(g.cpus) if g.cpus else g.field("ncpus"),
        "folio": first.f.get("folio", "") if first else "",
        "clear": first.f.get("clear", "") if first else "",
        "order": first.f.get("order", "") if first else "",
        "chunk": results.chunk_name(first.int("chunk", 0)) if first else "",
        "backing": first.f.get("backing", "") if first else "",
        "linux_offered": first.f.get("linux_offered", "") if first else "",
        # A tree's, where its configurations ran one (nothing new for
        # an older log's groups).
        **({k: v for k, v in results.tree_fields(boot, first.f).items() if v}
           if first else {}),
        # runs=auto: the rule that stopped the group's CPUs together
        **({"stopped_by": g.summary.f["stopped_by"]}
           if g.summary and "stopped_by" in g.summary.f else {}),
        "status": st, "runs": len(ps), "refused_runs": len(refused),
        "refused": "; ".join(sorted({p.refused for p in refused})),
        "gbps_mean": gb, "gbps_stddev_pct": gb_sd,
        "gbps_runs": finite([p.gbps for p in ps]),
        "stime_s_mean": st_m, "stime_stddev_pct": st_sd,
        "utime_s_mean": ut_m, "utime_stddev_pct": ut_sd,
        "times_from": times_from(g), "bytes": ps[0].bytes if ps else "",
        "start_skew_us_max": us_max([p.start_skew_s for p in ps]),
        "start_skew_corr_us_max": us_max([p.start_skew_corr_s for p in ps]),
        "start_skew_err_us_max": us_max([p.start_skew_err_s for p in ps]),
        "tsc_hz": results.tsc_hz(boot), "cfgs": [c.rec.int("cfg") for c in g.members],
        "passes": [{"run": p.run, "bytes": p.bytes, "wall_s": p.wall_s, "gbps": p.gbps,
                    "stime_s": p.stime_s, "utime_s": p.utime_s,
                    # µs as well: the export keeps 4 decimals
                    "start_skew_s": p.start_skew_s, "start_skew_us": p.start_skew_s * 1e6,
                    "start_skew_corr_us": p.start_skew_corr_s * 1e6,
                    "start_skew_err_us": p.start_skew_err_s * 1e6, "refused": p.refused,
                    **{k: p.rec.f[k] for k in ("slowest_cpu", "slowest_ticks", "fastest_cpu",
                                               "fastest_ticks") if k in p.rec.f}}
                   for p in ps],
        "notes": g.notes, "dims": d, "reason": reason,
    })
    return out


def boot_groups(boot: Boot) -> list[tuple[Group, dict[str, object]]]:
    return [(g, row(boot, g)) for g in of(boot, results.configs(boot))]


def rows(boots: list[Boot]) -> list[dict[str, object]]:
    return [r for b in boots for _, r in boot_groups(b)]


# `--rows agg`'s columns, declared with their units and meanings in
# fields.py (docs/records.md, "Export").
AGG_COLUMNS = fields.csv_names("row", "csv-agg")
AGG_NEWER = fields.csv_names("newer", "csv-agg")


def columns(rs: list[dict[str, object]]) -> list[str]:
    """AGG_COLUMNS, every dimension the rows have, then the newer columns
    where a row has them (order=tree's entry)."""
    return (AGG_COLUMNS + results.extra_dims(rs, AGG_COLUMNS)
            + [k for k in AGG_NEWER if any(r.get(k, "") != "" for r in rs)])

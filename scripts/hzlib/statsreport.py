# SPDX-License-Identifier: GPL-2.0-only
"""report's lines on a configuration's series of passes (docs/statistics.md):
the 95% interval of its mean GB/s where its passes ran interleaved or to
runs=auto, what runs=auto reached and what stopped it, and a drift or
bimodality the mean hides (series.py) in any log.  A log older than
interleaving, with no flagged series, gets no line: its report reads as
before."""
from __future__ import annotations

import math

from . import auto, interval, results, series
from .records import Boot


def reached(f: dict[str, str]) -> float:
    """The half-width a record says runs=auto reached, % of the mean
    (ci_pct_x100); NaN where it says none."""
    v = f.get("ci_pct_x100", "")
    return int(v) / 100 if v.lstrip("-").isdigit() else math.nan


def auto_line(c: results.Config, gbps: list[float], hw: float) -> str:
    """runs=auto: what stopped it, the precision asked and the one reached
    (the host's figure, and the record's where it differs)."""
    f = {**c.rec.f, **(c.summary.f if c.summary else {})}
    asked = f.get("precision", "?").rstrip("%")
    stop = f.get("stopped_by", "")
    said = reached(f)
    line = (f"runs=auto precision={asked}%: "
            + (f"stopped by {stop}" if stop in auto.STOPS else "no stop recorded")
            + f" after {len(gbps)} rounds, 95% interval +-{hw:.2f}% of the mean")
    if not math.isnan(said) and abs(said - hw) >= 0.01:
        line += f" (the record says +-{said:.2f}%)"
    try:
        if stop == "precision" and hw > float(asked):
            line += f"; NOT within precision={asked}%"
    except ValueError:
        pass
    return line


def notes(boot: Boot, c: results.Config) -> list[str]:
    """The lines below configuration @c's row in report."""
    keyed = results.run_gbps_of(boot, c)
    gbps = results.in_time_order(keyed)
    rounds = any("round" in r.f for r, _ in keyed)
    is_auto = c.rec.f.get("runs") == "auto"
    out = []
    if (rounds or is_auto) and len(gbps) > 1:
        try:
            iv = interval.mean(gbps)
            hw = interval.half_width_pct(gbps)
        except interval.NoScipy:
            iv, hw = None, math.nan
        if iv:
            g = c.rec.f.get("round_group", "")
            how = f"interleaved in round group {g}" if g and rounds else "blocked"
            out.append(f"95% interval of the mean: {iv.lo:.2f} .. {iv.hi:.2f} GB/s "
                       f"(+-{hw:.2f}%, t over {len(gbps)} passes, {how})")
        if is_auto:
            out.append(auto_line(c, gbps, hw))
    flags = series.check(gbps)
    if flags.flags:
        out.append("series: " + "; ".join(s for s in flags.said
                                         if s.split(":")[0] in flags.flags))
    # What the writer's own check said (runs=auto's summary), where it
    # differs from the host's.
    said = c.summary.f.get("series", "") if c.summary else ""
    if said and sorted(said.split(",")) != sorted(flags.flags or ["ok"]) \
            and said != "untested":
        out.append(f"the record's series check said {said}; the host's "
                   f"{','.join(flags.flags) or 'ok'}")
    return out

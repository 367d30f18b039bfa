# SPDX-License-Identifier: GPL-2.0-only
"""report's lines on a configuration's series of passes (docs/statistics.md):
the 95% interval of its mean GB/s where its passes ran interleaved or to
runs=auto, what runs=auto reached and what stopped it, and a drift or
bimodality the mean hides (series.py) in any log.  A log older than
interleaving, with no flagged series, gets no line: its report reads as
before."""
from __future__ import annotations

import math

from . import auto, display, interval, results, series
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
            + f" after {len(gbps)} rounds, 95% interval {display.half_width_pct(hw)} of the mean")
    if not math.isnan(said) and abs(said - hw) >= 0.01:
        line += f" (the record says {display.half_width_pct(said)})"
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
            out.append(display.mean_interval(iv, hw, how))
        if is_auto:
            out.append(auto_line(c, gbps, hw))
    flags = series.check(gbps)
    if flags.flags:
        out.append("series: " + "; ".join(s for s in flags.said
                                         if s.split(":")[0] in flags.flags))
    line = series_differs(boot, c)
    if line:
        out.append(line)
    return out


def series_figures(word: str, s: str | None, sep: str | None) -> str:
    """A series verdict with the figures behind it: 'drift (S=-40,
    sep x100=312)'."""
    figs = ([f"S={s}"] if s is not None else []) + \
        ([f"sep x100={sep}"] if sep is not None else [])
    return word + (f" ({', '.join(figs)})" if figs else "")


def series_differs(boot: Boot, c: results.Config) -> str | None:
    """The writer's own series check (the summary's `series`, `drift_s`,
    `bimodal_sep_x100`: lib/series.c) against series.py's on the very
    per-pass integers it took (results.run_gibps_micro_of): a line where
    any of them differs, None where they agree or the record has none."""
    f = c.summary.f if c.summary else {}
    said = f.get("series", "")
    if not said:
        return None
    x = results.in_time_order(results.run_gibps_micro_of(boot, c))
    mine = series.check(x)
    sep = None if mine.sep is None else (
        "inf" if math.isinf(mine.sep) else str(int(series.sep_x100(mine.sep))))
    host = (mine.word, None if mine.s is None else str(mine.s), sep)
    rec = (said, f.get("drift_s"), f.get("bimodal_sep_x100"))
    if rec == host:
        return None
    return (f"the record's series check said {series_figures(*rec)}; the host's, "
            f"on the same passes, {series_figures(*host)}")

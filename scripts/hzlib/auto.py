# SPDX-License-Identifier: GPL-2.0-only
"""runs=auto's stopping rule (docs/statistics.md, "runs=auto"), as the
kernel and the companion apply it after each round of interleaved passes;
the host's copy checks what a log says it reached, and the tests drive it
on synthetic series.

After round n (every configuration of the round group has n measured
passes), stop with
  precision  when n >= MIN_ROUNDS and every configuration's 95% interval
             of its mean GB/s has a half-width of at most precision= % of
             its mean (interval.half_width_pct);
  max_runs   else when n >= max_runs;
  budget_s   else when another round, taking as long as the mean round
             so far, would end after budget_s seconds of measured rounds.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from . import interval

# Fewer rounds than this never stop on precision: with 2 passes the
# sample standard deviation is a single difference, and t(1) = 12.7.
MIN_ROUNDS = 3
STOPS = ("precision", "max_runs", "budget_s")


def decide(series: list[list[float]], precision: float, max_runs: int,
           budget_s: float | None = None, elapsed_s: float = 0.0) -> str | None:
    """Which rule stops after the rounds in @series (each configuration's
    per-pass GB/s so far, all of one length) and @elapsed_s seconds of
    them; None: run another round."""
    n = len(series[0]) if series else 0
    if n >= MIN_ROUNDS and all(interval.half_width_pct(x) <= precision for x in series):
        return "precision"
    if n >= max_runs:
        return "max_runs"
    if budget_s is not None and n and elapsed_s + elapsed_s / n > budget_s:
        return "budget_s"
    return None


@dataclass
class Outcome:
    rounds: int
    stopped_by: str
    reached: list[float]    # each configuration's half-width, % of its mean


def run(round_: Callable[[int], tuple[list[float], float]], precision: float,
        max_runs: int, budget_s: float | None = None) -> Outcome:
    """Rounds of @round_(i) -> (each configuration's GB/s in round i, the
    round's seconds) until decide() stops them."""
    series: list[list[float]] = []
    elapsed = 0.0
    while True:
        vals, secs = round_(len(series[0]) if series else 0)
        if not series:
            series = [[] for _ in vals]
        for s, v in zip(series, vals):
            s.append(v)
        elapsed += secs
        why = decide(series, precision, max_runs, budget_s, elapsed)
        if why:
            return Outcome(len(series[0]), why,
                           [interval.half_width_pct(s) if len(s) > 1 else math.nan
                            for s in series])

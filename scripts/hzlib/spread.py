# SPDX-License-Identifier: GPL-2.0-only
"""The mean of per-run figures and their spread, with the one rule for a
single run: the sample standard deviation (n - 1) of one value is
undefined, NaN here, and display.py shows it as n=1 (docs/statistics.md,
"The figures").  Every tool's mean and sd come from here; how they are
written comes from display.py."""
from __future__ import annotations

import math
import statistics


def mean_sd_pct(v: list[float]) -> tuple[float, float]:
    """The mean of @v and its sample standard deviation in % of the mean:
    (NaN, NaN) for no values; the sd NaN for one value, or a mean of 0."""
    if not v:
        return math.nan, math.nan
    m = statistics.fmean(v)
    if len(v) < 2 or not m:
        return m, math.nan
    return m, 100.0 * statistics.stdev(v) / m

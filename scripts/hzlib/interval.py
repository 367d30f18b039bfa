# SPDX-License-Identifier: GPL-2.0-only
"""95% confidence intervals (docs/statistics.md): of one configuration's
mean GB/s, of the ratio of two means (the change B/A - 1) and of a
difference of two means (split's overhead), for samples that are
independent or paired by round.

Every interval is the inversion of the t-test the tools print beside it,
so the interval and the p-value never disagree:

  ratio, unpaired  Fieller's theorem with Welch's degrees of freedom taken
                   at each candidate ratio r: the r that Welch's test of
                   mean(B) - r * mean(A) = 0 does not reject at 5%.  r = 1
                   is inside exactly when Welch's p >= 0.05.
  ratio, paired    Fieller's theorem with the covariance of the pairs:
                   the r that the one-sample t-test of b_i - r * a_i
                   (n - 1 degrees of freedom) does not reject.  r = 1 is
                   inside exactly when the paired t-test's p >= 0.05.
  difference       the t interval of the paired differences, or Welch's.
  median of paired the order statistics of the differences that the sign
  differences      test does not reject (distribution-free: a round the
                   host took whole moves it by one rank, not by its size).

The t quantiles come from scipy.stats (Debian's python3-scipy, which
scripts/setup.sh installs); scipy is imported when a figure needs it, so
this module imports without it and a call raises NoScipy.
"""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Callable

LEVEL = 0.95
ALPHA = 1.0 - LEVEL
NO_SCIPY = "intervals and p-values need python3-scipy: apt-get install python3-scipy"


class NoScipy(Exception):
    pass


def _stats():  # type: ignore[no-untyped-def]
    try:
        from scipy import stats
    except ImportError as e:
        raise NoScipy(str(e)) from e
    return stats


def t_quantile(df: float, level: float = LEVEL) -> float:
    """The two-sided @level quantile of Student's t with @df degrees of
    freedom (inf: the normal's)."""
    return float(_stats().t.ppf(0.5 + level / 2, df))


@dataclass
class Interval:
    """An estimate and its interval [lo, hi] (lo may be -inf and hi inf:
    unbounded); @method says how it was made; @n the samples (pairs) it
    is over, @sd their standard deviation (of the differences, paired)."""
    estimate: float
    lo: float
    hi: float
    method: str
    n: int = 0
    sd: float = math.nan

    @property
    def bounded(self) -> bool:
        return math.isfinite(self.lo) and math.isfinite(self.hi)

    @property
    def half_width(self) -> float:
        return (self.hi - self.lo) / 2

    def contains(self, x: float) -> bool:
        return self.lo <= x <= self.hi


def _var(x: list[float]) -> float:
    return statistics.variance(x) if len(x) > 1 else math.nan


# --- one mean ---------------------------------------------------------------

def mean(x: list[float], level: float = LEVEL) -> Interval | None:
    """The t interval of the mean of @x: mean +- t(n-1) * sd / sqrt(n);
    None with fewer than 2 values."""
    if len(x) < 2:
        return None
    m, sd = statistics.fmean(x), statistics.stdev(x)
    h = t_quantile(len(x) - 1, level) * sd / math.sqrt(len(x))
    return Interval(m, m - h, m + h, "t", len(x), sd)


def half_width_pct(x: list[float], level: float = LEVEL) -> float:
    """The half-width of mean()'s interval in % of the mean (NaN with
    fewer than 2 values or a mean of 0): what runs=auto's precision= is
    held against."""
    iv = mean(x, level)
    return 100 * iv.half_width / abs(iv.estimate) if iv and iv.estimate else math.nan


# --- a difference of two means ------------------------------------------------

def diff_paired(x: list[float], y: list[float], level: float = LEVEL) -> Interval | None:
    """mean(x - y) with the t interval of the pairs' differences (n - 1
    degrees of freedom); None with fewer than 2 pairs."""
    if len(x) != len(y):
        raise ValueError("paired samples of different lengths")
    iv = mean([a - b for a, b in zip(x, y)], level)
    return iv and Interval(iv.estimate, iv.lo, iv.hi, "paired t", iv.n, iv.sd)


def sign_rank(n: int, level: float = LEVEL) -> int:
    """The largest k (1-based) with P(Binomial(n, 1/2) <= k - 1) <= (1 -
    @level) / 2: [x(k), x(n + 1 - k)] of n sorted values then holds their
    median with probability at least @level; 0 when no k does (n < 6 at
    95%)."""
    tail, k = 0.0, 0
    while k < n:
        tail += math.comb(n, k) / 2 ** n
        if tail > (1 - level) / 2:
            break
        k += 1
    return k


def median_paired(x: list[float], y: list[float], level: float = LEVEL) -> Interval | None:
    """The median of the pairs' differences x - y with the sign test's
    distribution-free interval (sign_rank()); None with too few pairs."""
    if len(x) != len(y):
        raise ValueError("paired samples of different lengths")
    d = sorted(a - b for a, b in zip(x, y))
    k = sign_rank(len(d), level)
    if k == 0:
        return None
    return Interval(statistics.median(d), d[k - 1], d[len(d) - k], "sign test", len(d))


def welch_df(va: float, na: int, vb: float, nb: int) -> float:
    """Welch-Satterthwaite degrees of freedom of a difference whose two
    parts have variances of the mean @va (over @na values) and @vb."""
    num = (va + vb) ** 2
    den = (va * va / (na - 1) if va else 0.0) + (vb * vb / (nb - 1) if vb else 0.0)
    return num / den if den else float(na + nb - 2)


def diff_unpaired(x: list[float], y: list[float], level: float = LEVEL) -> Interval | None:
    """mean(x) - mean(y) with Welch's interval (independent samples,
    unequal variances); None with fewer than 2 values a side."""
    if len(x) < 2 or len(y) < 2:
        return None
    vx, vy = _var(x) / len(x), _var(y) / len(y)
    d = statistics.fmean(x) - statistics.fmean(y)
    h = t_quantile(welch_df(vx, len(x), vy, len(y)), level) * math.sqrt(vx + vy)
    return Interval(d, d - h, d + h, "Welch", min(len(x), len(y)),
                    math.sqrt(_var(x) + _var(y)))


def rounds_needed(iv: Interval, level: float = LEVEL) -> int | None:
    """How many pairs (paired) or values a side (unpaired) would make
    @iv's half-width smaller than its estimate, if the spread stayed as
    observed: the least n with t(n-1) * sd / sqrt(n) < |estimate|, where sd
    is the differences' (paired) or sqrt(sd_x^2 + sd_y^2) (unpaired, and
    n - 1 then a lower bound of Welch's degrees of freedom: the answer is
    never too few).  None when no number would: an estimate of 0."""
    d = abs(iv.estimate)
    if d == 0 or math.isnan(iv.sd):
        return None
    if iv.sd == 0:
        return 2
    n = max(2, math.ceil((1.959964 * iv.sd / d) ** 2))
    while t_quantile(n - 1, level) * iv.sd / math.sqrt(n) >= d:
        n += 1
    return n


# --- a ratio of two means -------------------------------------------------

def _quadratic(a2: float, b1: float, c0: float) -> tuple[float, float] | None:
    """The roots of a2 r^2 - 2 b1 r + c0 = 0 for a2 > 0, the set where it
    is <= 0; None when it is empty."""
    disc = b1 * b1 - a2 * c0
    if disc < 0:
        return None
    s = math.sqrt(disc)
    return (b1 - s) / a2, (b1 + s) / a2


def ratio_paired(a: list[float], b: list[float], level: float = LEVEL) -> Interval | None:
    """mean(b) / mean(a) with Fieller's interval for pairs (a_i, b_i):
    every r with (mean(b) - r mean(a))^2 <= t^2 var(b - r a) / n, t of n - 1
    degrees of freedom, var(b - r a) = var(b) - 2 r cov(a, b) + r^2 var(a).
    Unbounded when mean(a) is not resolved from 0 (then lo = -inf, hi =
    inf).  None with fewer than 2 pairs or a mean(a) of 0."""
    n = len(a)
    if n != len(b):
        raise ValueError("paired samples of different lengths")
    ma, mb = (statistics.fmean(a), statistics.fmean(b)) if n else (0.0, 0.0)
    if n < 2 or ma == 0:
        return None
    saa, sbb = _var(a), _var(b)
    sab = sum((x - ma) * (y - mb) for x, y in zip(a, b)) / (n - 1)
    t2 = t_quantile(n - 1, level) ** 2 / n
    r = mb / ma
    sd = math.sqrt(max(0.0, sbb - 2 * r * sab + r * r * saa))
    a2 = ma * ma - t2 * saa
    if a2 <= 0:
        return Interval(r, -math.inf, math.inf, "Fieller, paired", n, sd)
    roots = _quadratic(a2, ma * mb - t2 * sab, mb * mb - t2 * sbb)
    lo, hi = roots if roots else (r, r)
    return Interval(r, min(lo, r), max(hi, r), "Fieller, paired", n, sd)


def _welch_t(ma: float, va: float, na: int, mb: float, vb: float, nb: int,
             level: float) -> Callable[[float], float]:
    """f(r) = |t statistic of Welch's test of mean(b) - r mean(a) = 0| less
    the t quantile at its own degrees of freedom: <= 0 exactly where r is
    inside the interval."""
    def f(r: float) -> float:
        v = vb + r * r * va
        if v == 0:
            return math.inf if mb != r * ma else -math.inf
        return (abs(mb - r * ma) / math.sqrt(v)
                - t_quantile(welch_df(r * r * va, na, vb, nb), level))
    return f


def ratio_unpaired(a: list[float], b: list[float], level: float = LEVEL) -> Interval | None:
    """mean(b) / mean(a) with Fieller's interval for independent samples:
    every r that Welch's test of mean(b) - r mean(a) = 0 (degrees of
    freedom by Welch-Satterthwaite, at that r) does not reject.  Each end
    is found by bracketing and Brent's method on _welch_t().  Unbounded
    when mean(a) is not resolved from 0.  None with fewer than 2 values a
    side or a mean(a) of 0."""
    na, nb = len(a), len(b)
    if na < 2 or nb < 2:
        return None
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    if ma == 0:
        return None
    va, vb = _var(a) / na, _var(b) / nb
    r = mb / ma
    sd = math.sqrt(_var(b) + r * r * _var(a))
    if va == 0 and vb == 0:
        return Interval(r, r, r, "Fieller, Welch", min(na, nb), 0.0)
    # Far from r, |t| tends to |mean(a)| / sqrt(va) at na - 1 degrees of
    # freedom: not above its quantile, the interval has no end.
    if va and abs(ma) / math.sqrt(va) <= t_quantile(na - 1, level):
        return Interval(r, -math.inf, math.inf, "Fieller, Welch", min(na, nb), sd)
    f = _welch_t(ma, va, na, mb, vb, nb, level)
    from scipy.optimize import brentq
    ends = []
    for sign in (-1, 1):
        # A first step: the quadratic's end at r's degrees of freedom.
        t2 = t_quantile(welch_df(r * r * va, na, vb, nb), level) ** 2
        q = _quadratic(ma * ma - t2 * va, ma * mb, mb * mb - t2 * vb) \
            if ma * ma > t2 * va else None
        step = abs((q[0] if sign < 0 else q[1]) - r) if q else abs(r) * 0.1
        step = step or abs(r) * 1e-9 or 1e-12
        for _ in range(200):
            if f(r + sign * step) > 0:
                break
            step *= 2
        else:
            ends.append(sign * math.inf)
            continue
        ends.append(brentq(f, r, r + sign * step, xtol=1e-14 * max(1.0, abs(r)),
                           rtol=1e-12))
    return Interval(r, ends[0], ends[1], "Fieller, Welch", min(na, nb), sd)


def ratio(a: list[float], b: list[float], paired: bool,
          level: float = LEVEL) -> Interval | None:
    return ratio_paired(a, b, level) if paired else ratio_unpaired(a, b, level)


# --- p-values -------------------------------------------------------------

def p_unpaired(a: list[float], b: list[float]) -> float | None:
    """Two-sided p-value of Welch's t-test; None with fewer than 2 values a
    side."""
    if len(a) < 2 or len(b) < 2:
        return None
    if _var(a) == 0 and _var(b) == 0:
        # scipy's t is undefined here (0/0): equal constants are no change.
        return 1.0 if statistics.fmean(a) == statistics.fmean(b) else 0.0
    return float(_stats().ttest_ind(a, b, equal_var=False).pvalue)


def p_paired(a: list[float], b: list[float]) -> float | None:
    """Two-sided p-value of the paired t-test of b - a; None with fewer
    than 2 pairs."""
    if len(a) < 2 or len(a) != len(b):
        return None
    d = [y - x for x, y in zip(a, b)]
    if _var(d) == 0:
        return 1.0 if d[0] == 0 else 0.0
    return float(_stats().ttest_rel(a, b).pvalue)

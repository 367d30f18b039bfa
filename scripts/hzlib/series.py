# SPDX-License-Identifier: GPL-2.0-only
"""Is one configuration's series of passes summed up by its mean?  Two
flags (docs/statistics.md, "Series a mean hides"), each with the test that
raised it, computed from the per-pass GB/s in the order the passes ran
(by round where the runs carry one, else by run number):

  drift    Mann-Kendall's trend test: S = sum over i < j of
           sign(x_j - x_i); its two-sided p-value exact from the
           distribution of S with no ties (the number of permutations of
           n with k inversions: S = n(n-1)/2 - 2k) up to EXACT_MAX
           passes, and from the normal approximation with the
           tie-corrected variance and a continuity correction beyond and
           where values tie.  Flagged at p < DRIFT_ALPHA, decided in
           integers as the kernel does (drift_flagged); needs DRIFT_MIN
           passes.
  bimodal  a gap heuristic: the passes sorted, split in two at every place
           that leaves at least max(2, ceil(n/10)) on each side; the
           split that sets the two groups' means furthest apart in units
           of their pooled within-group standard deviation (n - 2 degrees
           of freedom) is flagged when that separation exceeds
           BIMODAL_G(n) = 3 + 36/n, which normal samples reach less than
           1% of the time from n = 8 on (simulated, docs/statistics.md).
           Needs BIMODAL_MIN passes.

Pure Python; the kernel and the companion apply the very same two rules
in integers (lib/series.c): the exact branch through a table of critical
|S| that c_table() generates from inversions() below, the normal one
through the same integer comparison (normal_flagged), and
tests/host/test_series.c holds the C to this file.
"""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from functools import lru_cache

DRIFT_ALPHA = 0.01
DRIFT_MIN = 6           # fewer: no permutation reaches p < 0.01
BIMODAL_MIN = 8
# Exact p (no ties) up to this many passes; the normal approximation
# beyond, whose real level there is 0.0093 to 0.0099 (docs/statistics.md).
EXACT_MAX = 60
# z(0.995) = 2.5758293035489008 x 10^12, rounded: the normal branch's
# |z| > z(0.995) in integers, as lib/series.c has it.
Z995_X1E12 = 2575829303549


def bimodal_g(n: int) -> float:
    return 3.0 + 36.0 / n


@lru_cache(maxsize=None)
def inversions(n: int) -> tuple[int, ...]:
    """How many permutations of n items have k inversions, for every k
    (the Mahonian numbers: row n of OEIS A008302)."""
    row = [1]
    for m in range(2, n + 1):
        # Inserting the m-th item adds 0 .. m-1 inversions.
        new = [0] * (len(row) + m - 1)
        acc = 0
        for k in range(len(new)):
            acc += row[k] if k < len(row) else 0
            if k - m >= 0 and k - m < len(row):
                acc -= row[k - m]
            new[k] = acc
        row = new
    return tuple(row)


def mk_s(x: list[float]) -> int:
    n = len(x)
    return sum((x[j] > x[i]) - (x[j] < x[i]) for i in range(n) for j in range(i + 1, n))


def exact_tail(n: int, s: int) -> tuple[int, int]:
    """P(|S| >= |s|) over the n! orders of n distinct values, as (the
    orders reaching it, n!): S = m - 2k, so k <= (m - |s|)/2 or
    k >= (m + |s|)/2, two equal tails."""
    m = n * (n - 1) // 2
    lo = (m - abs(s)) // 2
    return 2 * sum(inversions(n)[: lo + 1]), math.factorial(n)


def exact_critical(n: int) -> int:
    """The least |S| flagged at n passes with no ties (p < DRIFT_ALPHA
    exactly, in integers): lib/series.c's table, n = DRIFT_MIN ..
    EXACT_MAX."""
    m = n * (n - 1) // 2
    for s in range(m % 2, m + 1, 2):
        hits, total = exact_tail(n, s)
        if hits * 100 < total:      # DRIFT_ALPHA = 1/100
            return s
    return m + 1                    # nothing reaches it (n < DRIFT_MIN)


def c_table() -> str:
    """lib/series.c's table of exact_critical(), as it stands there."""
    vals = [str(exact_critical(n)) for n in range(DRIFT_MIN, EXACT_MAX + 1)]
    lines, line = [], "\t"
    for v in vals:
        if len(line.expandtabs()) + len(v) + 2 > 72:
            lines.append(line.rstrip())
            line = "\t"
        line += v + ", "
    lines.append(line.rstrip())
    return "\n".join(lines) + "\n"


def tie_var18(n: int, ties: list[int]) -> int:
    """18 x the variance of S with the tie correction (@ties: the sizes
    of the groups of equal values)."""
    return n * (n - 1) * (2 * n + 5) - sum(t * (t - 1) * (2 * t + 5) for t in ties)


def normal_flagged(s: int, var18: int) -> bool:
    """|z| > z(0.995), z = (|S| - 1) / sqrt(var18 / 18), in integers:
    18 (|S| - 1)^2 10^24 > Z^2 var18, Z = z(0.995) x 10^12."""
    return s != 0 and var18 > 0 and \
        18 * (abs(s) - 1) ** 2 * 10 ** 24 > Z995_X1E12 ** 2 * var18


def mk_p(x: list[float]) -> tuple[int, float, str]:
    """Mann-Kendall's S, its two-sided p-value and how it was had
    ('exact', 'normal' beyond EXACT_MAX passes, or 'normal, ties')."""
    return mk_test(x)[:3]


def mk_test(x: list[float]) -> tuple[int, float, str, bool]:
    """mk_p() and whether it is flagged, decided as lib/series.c does:
    exactly in integers, not on the rounded p."""
    n, s = len(x), mk_s(x)
    ties = [c for c in (x.count(v) for v in set(x)) if c > 1]
    if not ties and n <= EXACT_MAX:
        hits, total = exact_tail(n, s)
        return s, min(1.0, hits / total), "exact", hits * 100 < total
    how = "normal, ties" if ties else "normal"
    var18 = tie_var18(n, ties)
    if var18 <= 0:
        return s, 1.0, how, False
    z = (s - math.copysign(1, s)) / math.sqrt(var18 / 18) if s else 0.0
    return s, math.erfc(abs(z) / math.sqrt(2)), how, normal_flagged(s, var18)


def separation(x: list[float]) -> tuple[float, int]:
    """The largest separation of the sorted passes split in two (see the
    module's comment), and the size of the lower group; (0, 0) where no
    split is allowed."""
    v = sorted(x)
    n = len(v)
    m = max(2, math.ceil(n / 10))
    best, at = 0.0, 0
    for k in range(m, n - m + 1):
        lo, hi = v[:k], v[k:]
        ml, mh = statistics.fmean(lo), statistics.fmean(hi)
        ss = sum((y - ml) ** 2 for y in lo) + sum((y - mh) ** 2 for y in hi)
        sd = math.sqrt(ss / (n - 2))
        sep = (mh - ml) / sd if sd else (math.inf if mh > ml else 0.0)
        if sep > best:
            best, at = sep, k
    return best, at


def sep_x100(sep: float) -> float:
    """A separation x 100, rounded half up as the record has it
    (bimodal_sep_x100); inf stays inf."""
    return sep if math.isinf(sep) else math.floor(sep * 100 + 0.5)


@dataclass
class Flags:
    """What the tests said of one series: @flags ('drift', 'bimodal'),
    each test's words in @said (also when not flagged), @untested those
    with too few passes; Mann-Kendall's @s and the gap test's @sep where
    each ran."""
    flags: list[str]
    said: list[str]
    untested: list[str]
    s: int | None = None
    sep: float | None = None

    @property
    def word(self) -> str:
        """The record's `series`: the flags, 'ok', or 'untested' when
        neither test ran."""
        if self.s is None and self.sep is None:
            return "untested"
        return ",".join(self.flags) or "ok"

    @property
    def text(self) -> str:
        return "; ".join(self.said)


def check(x: list[float]) -> Flags:
    """Both tests on the per-pass figures @x, in the order they ran."""
    flags, said, untested = [], [], []
    n = len(x)
    s_: int | None = None
    sep_: float | None = None
    if n < DRIFT_MIN:
        untested.append(f"drift: {n} passes, Mann-Kendall needs {DRIFT_MIN}")
    else:
        s, p, how, drift = mk_test(x)
        s_ = s
        trend = "falling" if s < 0 else "rising"
        if drift:
            flags.append("drift")
            said.append(f"drift: {trend} over the passes (Mann-Kendall S={s}, "
                        f"p={p:.2g} {how}, < {DRIFT_ALPHA})")
        else:
            said.append(f"no drift (Mann-Kendall S={s}, p={p:.2g} {how})")
    if n < BIMODAL_MIN:
        untested.append(f"bimodal: {n} passes, the gap test needs {BIMODAL_MIN}")
    else:
        sep, k = separation(x)
        sep_ = sep
        g = bimodal_g(n)
        if sep > g:
            flags.append("bimodal")
            said.append(f"bimodal: {k} slow and {n - k} fast passes, means "
                        f"{sep:.1f} within-group sd apart (gap test, > {g:.1f})")
        else:
            said.append(f"not bimodal (gap test {sep:.1f} <= {g:.1f})")
    return Flags(flags, said, untested, s_, sep_)

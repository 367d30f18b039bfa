# SPDX-License-Identifier: GPL-2.0-only
"""Is one configuration's series of passes summed up by its mean?  Two
flags (docs/statistics.md, "Series a mean hides"), each with the test that
raised it, computed from the per-pass GB/s in the order the passes ran
(by round where the runs carry one, else by run number):

  drift    Mann-Kendall's trend test: S = sum over i < j of
           sign(x_j - x_i); its two-sided p-value exact from the
           distribution of S with no ties (the number of permutations of
           n with k inversions: S = n(n-1)/2 - 2k), and from the normal
           approximation with the tie-corrected variance where values tie.
           Flagged at p < DRIFT_ALPHA; needs DRIFT_MIN passes.
  bimodal  a gap heuristic: the passes sorted, split in two at every place
           that leaves at least max(2, ceil(n/10)) on each side; the
           split that sets the two groups' means furthest apart in units
           of their pooled within-group standard deviation (n - 2 degrees
           of freedom) is flagged when that separation exceeds
           BIMODAL_G(n) = 3 + 36/n, which normal samples reach less than
           1% of the time from n = 8 on (simulated, docs/statistics.md).
           Needs BIMODAL_MIN passes.

Pure Python: the kernel's runs=auto applies the same two rules in C.
"""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from functools import lru_cache

DRIFT_ALPHA = 0.01
DRIFT_MIN = 6           # fewer: no permutation reaches p < 0.01
BIMODAL_MIN = 8


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


def mk_p(x: list[float]) -> tuple[int, float, str]:
    """Mann-Kendall's S, its two-sided p-value and how it was had
    ('exact' or 'normal, ties')."""
    n, s = len(x), mk_s(x)
    ties = [c for c in (x.count(v) for v in set(x)) if c > 1]
    if not ties:
        row = inversions(n)
        total = math.factorial(n)
        m = n * (n - 1) // 2
        # P(|S| >= |s|): S = m - 2k, so k <= (m - |s|)/2 or k >= (m + |s|)/2.
        lo = (m - abs(s)) // 2
        tail = sum(row[: lo + 1])
        return s, min(1.0, 2 * tail / total), "exact"
    var = (n * (n - 1) * (2 * n + 5) - sum(t * (t - 1) * (2 * t + 5) for t in ties)) / 18
    if var <= 0:
        return s, 1.0, "normal, ties"
    z = (s - math.copysign(1, s)) / math.sqrt(var) if s else 0.0
    return s, math.erfc(abs(z) / math.sqrt(2)), "normal, ties"


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


@dataclass
class Flags:
    """What the tests said of one series: @flags ('drift', 'bimodal'),
    each test's words in @said (also when not flagged), @untested those
    with too few passes."""
    flags: list[str]
    said: list[str]
    untested: list[str]

    @property
    def text(self) -> str:
        return "; ".join(self.said)


def check(x: list[float]) -> Flags:
    """Both tests on the per-pass figures @x, in the order they ran."""
    flags, said, untested = [], [], []
    n = len(x)
    if n < DRIFT_MIN:
        untested.append(f"drift: {n} passes, Mann-Kendall needs {DRIFT_MIN}")
    else:
        s, p, how = mk_p(x)
        trend = "falling" if s < 0 else "rising"
        if p < DRIFT_ALPHA:
            flags.append("drift")
            said.append(f"drift: {trend} over the passes (Mann-Kendall S={s}, "
                        f"p={p:.2g} {how}, < {DRIFT_ALPHA})")
        else:
            said.append(f"no drift (Mann-Kendall S={s}, p={p:.2g} {how})")
    if n < BIMODAL_MIN:
        untested.append(f"bimodal: {n} passes, the gap test needs {BIMODAL_MIN}")
    else:
        sep, k = separation(x)
        g = bimodal_g(n)
        if sep > g:
            flags.append("bimodal")
            said.append(f"bimodal: {k} slow and {n - k} fast passes, means "
                        f"{sep:.1f} within-group sd apart (gap test, > {g:.1f})")
        else:
            said.append(f"not bimodal (gap test {sep:.1f} <= {g:.1f})")
    return Flags(flags, said, untested)

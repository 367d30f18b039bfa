# SPDX-License-Identifier: GPL-2.0-only
"""The reference tests/host/test_series.c holds lib/series.c to: seeded
random series (steady, drifting, bimodal, tied, constant; 1 to 1000
passes) and series built to sit on either side of Mann-Kendall's
critical |S|, each with what scripts/hzlib/series.py says of it.

One line a series:  n x_0 .. x_{n-1} : word s sep_x100
(s and sep_x100 '-' where the test did not run; sep_x100 'inf' where the
gap is unbounded), then '. count'.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from hzlib import series  # noqa: E402


def with_inversions(n: int, k: int) -> list[int]:
    """A permutation of 0..n-1 with exactly @k inversions (Lehmer code,
    greedy from the front)."""
    left, out = list(range(n)), []
    for i in range(n):
        c = min(k, n - 1 - i)
        out.append(left.pop(c))
        k -= c
    return out


def normal_critical(n: int) -> int:
    m = n * (n - 1) // 2
    var18 = series.tie_var18(n, [])
    return next(s for s in range(m % 2, m + 1, 2) if series.normal_flagged(s, var18))


def boundary() -> list[list[int]]:
    """No ties, |S| at the critical value of n and one step (2) below,
    rising and falling: the table up to EXACT_MAX, the normal beyond."""
    out = []
    for n in list(range(series.DRIFT_MIN, 131)) + [200, 333, 1000]:
        m = n * (n - 1) // 2
        crit = series.exact_critical(n) if n <= series.EXACT_MAX else normal_critical(n)
        for s in (crit, crit - 2):
            if s > m:
                continue
            p = with_inversions(n, (m - s) // 2)       # S = m - 2k
            base = 7_000_000
            out.append([base + 1000 * v for v in p])
            out.append([base + 1000 * (n - 1 - v) for v in p])  # S = -s
    return out


def random_series(rng: random.Random) -> list[int]:
    n = rng.choice([rng.randint(1, 12), rng.randint(1, 70), rng.randint(60, 230)])
    if rng.random() < 0.004:
        n = rng.randint(900, 1000)
    mean = rng.choice([10e6, 1.5e6, 80e6, 3e9])
    sd = mean * rng.choice([0.002, 0.01, 0.05])
    kind = rng.choice(["steady", "drift", "bimodal", "ties", "steps", "const"])
    x: list[float] = []
    for i in range(n):
        v = rng.gauss(mean, sd)
        if kind == "drift":
            v += mean * rng.choice([0.0005, 0.002, 0.01]) * i * (1 if rng.random() < 0.5 else -1) / 3
        elif kind == "bimodal" and rng.random() < rng.choice([0.3, 0.5]):
            v += sd * rng.choice([2, 4, 6, 9, 15])
        x.append(v)
    if kind == "ties":
        q = sd * rng.choice([0.5, 1, 2])
        x = [round(v / q) * q for v in x]
    if kind == "steps":                  # few levels: many ties, gaps
        lv = [mean + sd * rng.randint(-3, 3) for _ in range(rng.randint(1, 4))]
        x = [rng.choice(lv) for _ in range(n)]
    if kind == "const":
        x = [mean] * n
    return [max(0, int(v)) for v in x]


def line(x: list[int]) -> str:
    f = series.check(x)
    s = "-" if f.s is None else str(f.s)
    sep = "-" if f.sep is None else ("inf" if f.sep == float("inf") else
                                     str(int(series.sep_x100(f.sep))))
    return f"{len(x)} {' '.join(map(str, x))} : {f.word} {s} {sep}"


def main() -> None:
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 24)
    cases = boundary() + [random_series(rng) for _ in range(1500)]
    # bimodal, both groups without spread: an unbounded gap
    cases += [[5] * 4 + [9] * 5, [1, 1, 2, 2, 2, 2, 1, 1, 1]]
    for x in cases:
        print(line(x))
    print(f". {len(cases)}")


if __name__ == "__main__":
    main()

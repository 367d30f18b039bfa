# SPDX-License-Identifier: GPL-2.0-only
"""The intervals, series checks and runs=auto's stopping rule
(scripts/hzlib/interval.py, series.py, auto.py; docs/statistics.md)
against scipy on seeded random cases: each interval against the test it
inverts (its ends are where scipy's p-value is 0.05, every ratio between
them has p >= 0.05 and every one outside p < 0.05), the t intervals
against scipy's own, the ratios against scipy.stats.bootstrap on large
samples, Mann-Kendall against scipy's exact Kendall tau."""
from __future__ import annotations

import importlib.util
import math
import random
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from hzlib import auto, display, interval, series  # noqa: E402

SCIPY = importlib.util.find_spec("scipy") is not None
if SCIPY:
    import numpy as np
    from scipy import stats


def sample(rng: random.Random, n: int, mean: float, sd: float) -> list[float]:
    return [rng.gauss(mean, sd) for _ in range(n)]


@unittest.skipUnless(SCIPY, "python3-scipy is not installed: the intervals need it")
class IntervalTest(unittest.TestCase):
    def cases(self, count: int = 40) -> list[tuple[list[float], list[float]]]:
        """Random (a, b): sizes 2 to 12, means 5 to 20 GB/s, spreads 0.5%
        to 20%, some changes near the edge of the noise."""
        rng = random.Random(24)
        out = []
        for _ in range(count):
            na, nb = rng.randint(2, 12), rng.randint(2, 12)
            ma = rng.uniform(5, 20)
            mb = ma * rng.uniform(0.8, 1.25)
            out.append((sample(rng, na, ma, ma * rng.uniform(0.005, 0.2)),
                        sample(rng, nb, mb, mb * rng.uniform(0.005, 0.2))))
        return out

    def test_mean_and_differences_match_scipy(self) -> None:
        for a, b in self.cases():
            iv = interval.mean(a)
            assert iv is not None
            ci = stats.ttest_1samp(a, 0).confidence_interval()
            self.assertAlmostEqual(iv.lo, ci.low, places=9)
            self.assertAlmostEqual(iv.hi, ci.high, places=9)
            n = min(len(a), len(b))
            d = interval.diff_paired(b[:n], a[:n])
            assert d is not None
            ci = stats.ttest_rel(b[:n], a[:n]).confidence_interval()
            self.assertAlmostEqual(d.lo, ci.low, places=9)
            self.assertAlmostEqual(d.hi, ci.high, places=9)
            # Welch's interval: its ends shift x to where Welch's p is 0.05.
            w = interval.diff_unpaired(b, a)
            assert w is not None
            for end in (w.lo, w.hi):
                p = stats.ttest_ind([x - end for x in b], a, equal_var=False).pvalue
                self.assertAlmostEqual(p, 0.05, places=6)

    def check_inversion(self, iv: interval.Interval, p_at: "callable") -> None:  # type: ignore[valid-type]
        """@iv's ends have p = 0.05; ratios inside p >= 0.05, outside < 0.05
        (a grid over twice the interval, the defining inequality by brute
        force)."""
        if iv.lo < iv.hi:
            for end in (iv.lo, iv.hi):
                self.assertAlmostEqual(p_at(end), 0.05, places=5)
        w = iv.hi - iv.lo
        for r in np.linspace(iv.lo - w, iv.hi + w, 61):
            if min(abs(r - iv.lo), abs(r - iv.hi)) < 1e-6 * (w or 1):
                continue
            self.assertEqual(p_at(r) >= 0.05, iv.lo <= r <= iv.hi, (r, iv))

    def test_unpaired_ratio_is_fieller_welch(self) -> None:
        bounded = 0
        for a, b in self.cases():
            iv = interval.ratio_unpaired(a, b)
            assert iv is not None
            if not iv.bounded:
                # Unbounded: far ratios are not rejected either.
                for r in (-1e6, 1e6):
                    self.assertGreaterEqual(stats.ttest_ind(
                        b, [r * x for x in a], equal_var=False).pvalue, 0.05)
                continue
            bounded += 1
            self.check_inversion(iv, lambda r: stats.ttest_ind(
                b, [r * x for x in a], equal_var=False).pvalue)
            # No change inside exactly when Welch's p >= 0.05.
            self.assertEqual(iv.contains(1.0), interval.p_unpaired(a, b) >= 0.05)
        self.assertGreater(bounded, 30)

    def test_paired_ratio_is_fieller_with_covariance(self) -> None:
        rng = random.Random(7)
        for a, b in self.cases():
            n = min(len(a), len(b))
            # Pairs sharing a round's drift: correlated.
            drift = sample(rng, n, 0, 0.1)
            a2 = [x * (1 + d) for x, d in zip(a[:n], drift)]
            b2 = [x * (1 + d) for x, d in zip(b[:n], drift)]
            iv = interval.ratio_paired(a2, b2)
            assert iv is not None
            if not iv.bounded:
                continue
            self.check_inversion(iv, lambda r: stats.ttest_1samp(
                [y - r * x for x, y in zip(a2, b2)], 0).pvalue)
            self.assertEqual(iv.contains(1.0), interval.p_paired(a2, b2) >= 0.05)

    def test_ratios_agree_with_bootstrap_on_large_samples(self) -> None:
        rng = np.random.default_rng(3)
        for _ in range(3):
            a = rng.normal(10, 1.0, 300)
            b = a * 1.05 + rng.normal(0, 0.3, 300)     # paired, correlated
            ratio = lambda x, y, axis=-1: np.mean(y, axis=axis) / np.mean(x, axis=axis)  # noqa: E731
            boot = stats.bootstrap((a, b), ratio, paired=True, vectorized=True,
                                   random_state=rng, n_resamples=4000).confidence_interval
            iv = interval.ratio_paired(list(a), list(b))
            assert iv is not None
            width = iv.hi - iv.lo
            self.assertLess(abs(iv.lo - boot.low), 0.1 * width)
            self.assertLess(abs(iv.hi - boot.high), 0.1 * width)
            c = rng.normal(10.5, 1.0, 300)              # independent
            boot = stats.bootstrap((a, c), ratio, vectorized=True, random_state=rng,
                                   n_resamples=4000).confidence_interval
            iv = interval.ratio_unpaired(list(a), list(c))
            assert iv is not None
            width = iv.hi - iv.lo
            self.assertLess(abs(iv.lo - boot.low), 0.1 * width)
            self.assertLess(abs(iv.hi - boot.high), 0.1 * width)

    def test_pairing_narrows_a_shared_drift(self) -> None:
        rng = random.Random(5)
        drift = [1 - 0.04 * i for i in range(10)]
        a = [10 * d * (1 + rng.gauss(0, 0.005)) for d in drift]
        b = [11 * d * (1 + rng.gauss(0, 0.005)) for d in drift]
        paired, unpaired = interval.ratio_paired(a, b), interval.ratio_unpaired(a, b)
        assert paired and unpaired
        self.assertTrue(paired.contains(1.1) and unpaired.contains(1.1))
        self.assertLess(paired.half_width * 5, unpaired.half_width)

    def test_edges(self) -> None:
        self.assertIsNone(interval.mean([3.0]))
        self.assertIsNone(interval.ratio_unpaired([1.0], [1.0, 2.0]))
        self.assertIsNone(interval.ratio_paired([1.0], [2.0]))
        # Constants: a point, no scipy needed for it to be one.
        iv = interval.ratio_unpaired([2.0, 2.0], [3.0, 3.0])
        assert iv is not None
        self.assertEqual((iv.lo, iv.hi), (1.5, 1.5))
        # Pairs exactly proportional: b - 1.5 a is 0 in every pair, and
        # every other ratio's t is mean(a) / sd(a) * sqrt(n): a point where
        # that is above t's quantile...
        iv = interval.ratio_paired([10.0, 10.1, 9.9], [15.0, 15.15, 14.85])
        assert iv is not None
        self.assertAlmostEqual(iv.lo, 1.5)
        self.assertAlmostEqual(iv.hi, 1.5)
        # ... and the whole line where it is not (2 pairs: 3 < t(1) = 12.7).
        self.assertFalse(interval.ratio_paired([2.0, 4.0], [3.0, 6.0]).bounded)  # type: ignore[union-attr]
        with self.assertRaises(ValueError):
            interval.ratio_paired([1.0, 2.0], [1.0])
        self.assertEqual(display.pct_interval(iv), "[ +50.0,  +50.0]")
        self.assertEqual(display.pct_interval(
            interval.Interval(1, -math.inf, math.inf, "x")), "[ unbounded    ]")

    def test_median_of_differences_is_the_sign_tests(self) -> None:
        """The ranks are the binomial's (scipy), the interval covers the
        median at least 95% of the time, and one planted outlier round
        moves it by no more than one rank."""
        for n in range(1, 400):
            k = interval.sign_rank(n)
            if k:
                self.assertLessEqual(stats.binom.cdf(k - 1, n, 0.5), 0.025, n)
            self.assertGreater(stats.binom.cdf(k, n, 0.5), 0.025, n)
        self.assertEqual(interval.sign_rank(5), 0)
        self.assertIsNone(interval.median_paired([1.0] * 5, [0.0] * 5))
        rng = random.Random(5)
        covered = 0
        for _ in range(400):
            d = [rng.gauss(3.0, 2.0) for _ in range(30)]
            iv = interval.median_paired(d, [0.0] * 30)
            assert iv is not None
            covered += iv.contains(3.0)
        self.assertGreaterEqual(covered, 0.93 * 400)
        d = sorted(rng.gauss(5.0, 1.0) for _ in range(200))
        calm = interval.median_paired(d, [0.0] * 200)
        wild = interval.median_paired(d[:-1] + [4000.0], [0.0] * 200)
        assert calm and wild
        self.assertEqual((calm.lo, calm.hi), (wild.lo, wild.hi))
        self.assertGreater(interval.diff_paired(d[:-1] + [4000.0], [0.0] * 200).half_width,
                           20 * wild.half_width)  # type: ignore[union-attr]

    def test_rounds_needed(self) -> None:
        rng = random.Random(9)
        for _ in range(20):
            d = sample(rng, rng.randint(3, 8), rng.uniform(0.1, 3), 5)
            iv = interval.mean(d)
            assert iv is not None
            n = interval.rounds_needed(iv)
            assert n is not None
            t = lambda k: stats.t.ppf(0.975, k - 1) * iv.sd / math.sqrt(k)  # noqa: E731
            self.assertLess(t(n), abs(iv.estimate))
            if n > 2:
                self.assertGreaterEqual(t(n - 1), abs(iv.estimate))
        self.assertIsNone(interval.rounds_needed(interval.Interval(0, -1, 1, "t", 3, 1.0)))


class SeriesTest(unittest.TestCase):
    def test_mahonian_rows(self) -> None:
        for n in range(1, 9):
            row = series.inversions(n)
            self.assertEqual(sum(row), math.factorial(n))
            self.assertEqual(len(row), n * (n - 1) // 2 + 1)
        self.assertEqual(series.inversions(4), (1, 3, 5, 6, 5, 3, 1))

    @unittest.skipUnless(SCIPY, "python3-scipy is not installed")
    def test_mann_kendall_matches_kendall_tau(self) -> None:
        rng = random.Random(11)
        for n in (6, 7, 10, 15, 25, 40):
            for slope in (0.0, 0.05, 0.2):
                x = [rng.gauss(0, 1) + slope * i for i in range(n)]
                s, p, how = series.mk_p(x)
                self.assertEqual(how, "exact")
                ref = stats.kendalltau(range(n), x, method="exact")
                self.assertAlmostEqual(s, ref.statistic * n * (n - 1) / 2, places=6)
                self.assertAlmostEqual(p, ref.pvalue, places=9)

    @unittest.skipUnless(SCIPY, "python3-scipy is not installed")
    def test_mann_kendall_with_ties(self) -> None:
        x = [1, 2, 2, 3, 3, 3, 4, 5, 5, 6, 5, 7]
        s, p, how = series.mk_p(x)
        self.assertEqual(how, "normal, ties")
        n, ties = len(x), [2, 3, 3]
        var = (n * (n - 1) * (2 * n + 5) - sum(t * (t - 1) * (2 * t + 5) for t in ties)) / 18
        self.assertAlmostEqual(p, 2 * stats.norm.sf((s - 1) / math.sqrt(var)), places=12)

    def test_c_table_is_series_pys(self) -> None:
        # lib/series.c's critical |S| table, as series.py generates it
        # (c_table(): regenerate it there when the rule changes).
        text = (ROOT / "lib" / "series.c").read_text()
        body = text.split("static const u16 mk_critical[] = {\n", 1)[1].split("};", 1)[0]
        self.assertEqual(body, series.c_table())
        self.assertEqual(series.exact_critical(6), 15)     # p = 2/720
        # Each entry is the least |S| of p < 0.01: the one below is not.
        for n in (6, 10, 33, series.EXACT_MAX):
            crit = series.exact_critical(n)
            hits, total = series.exact_tail(n, crit)
            self.assertLess(hits / total, 0.01)
            hits, total = series.exact_tail(n, crit - 2)
            self.assertGreaterEqual(hits / total, 0.01)
        self.assertIn("EXACT_MAX 60", (ROOT / "lib" / "series.h").read_text())
        self.assertEqual(series.EXACT_MAX, 60)

    def test_normal_beyond_the_table_is_conservative(self) -> None:
        # Past EXACT_MAX, the normal rule's critical |S| has a real
        # (exact) level at most 0.01, and above 0.009 (docs/statistics.md).
        for n in range(series.EXACT_MAX + 1, 81):
            m, var18 = n * (n - 1) // 2, series.tie_var18(n, [])
            crit = next(s for s in range(m % 2, m + 1, 2) if series.normal_flagged(s, var18))
            hits, total = series.exact_tail(n, crit)
            self.assertTrue(0.009 < hits / total < 0.01, (n, hits / total))
        x = [float(i) for i in range(70)]
        self.assertEqual(series.mk_p(x)[2], "normal")

    def test_flags(self) -> None:
        rng = random.Random(2)
        falling = [10 * (1 - 0.01 * i) + rng.gauss(0, 0.02) for i in range(12)]
        f = series.check(falling)
        self.assertEqual(f.flags, ["drift"])
        self.assertIn("drift: falling over the passes (Mann-Kendall S=", f.text)
        two = [rng.gauss(10, 0.1) for _ in range(6)] + [rng.gauss(12, 0.1) for _ in range(6)]
        rng.shuffle(two)
        f = series.check(two)
        self.assertEqual(f.flags, ["bimodal"])
        self.assertIn("bimodal: 6 slow and 6 fast passes", f.text)
        f = series.check([10.0, 10.1, 9.9])
        self.assertEqual((f.flags, len(f.untested)), ([], 2))
        self.assertIn("Mann-Kendall needs 6", f.untested[0])

    def test_false_alarms_are_rare(self) -> None:
        # Stationary normal series: each flag's rate near its 1%.
        rng = random.Random(4)
        hits = {"drift": 0, "bimodal": 0}
        runs = 400
        for i in range(runs):
            for f in series.check([rng.gauss(10, 0.5) for _ in range(8 + i % 25)]).flags:
                hits[f] += 1
        for k, v in hits.items():
            self.assertLessEqual(v, 0.025 * runs, k)


@unittest.skipUnless(SCIPY, "python3-scipy is not installed: the stopping rule needs t")
class AutoTest(unittest.TestCase):
    def rounds(self, sds: list[float], secs: float = 1.0, seed: int = 1):  # type: ignore[no-untyped-def]
        rng = random.Random(seed)
        return lambda i: ([rng.gauss(10, 10 * sd) for sd in sds], secs)

    def test_stops_at_the_precision(self) -> None:
        out = auto.run(self.rounds([0.01, 0.02]), precision=5, max_runs=50)
        self.assertEqual(out.stopped_by, "precision")
        self.assertGreaterEqual(out.rounds, auto.MIN_ROUNDS)
        self.assertLess(out.rounds, 50)
        self.assertTrue(all(r <= 5 for r in out.reached))
        # The round before did not reach it (or was too early to stop).
        again = auto.run(self.rounds([0.01, 0.02]), precision=5, max_runs=out.rounds - 1)
        if out.rounds - 1 >= auto.MIN_ROUNDS:
            self.assertEqual(again.stopped_by, "max_runs")

    def test_noisy_stops_at_max_runs(self) -> None:
        out = auto.run(self.rounds([0.01, 0.4]), precision=5, max_runs=12)
        self.assertEqual((out.stopped_by, out.rounds), ("max_runs", 12))
        self.assertGreater(max(out.reached), 5)

    def test_budget(self) -> None:
        # 4 s rounds in 30 s: the 7th would end at 28 + 4 > 30 s.
        out = auto.run(self.rounds([0.4], secs=4), precision=1, max_runs=100, budget_s=30)
        self.assertEqual((out.stopped_by, out.rounds), ("budget_s", 7))

    def test_never_before_min_rounds(self) -> None:
        exact = lambda i: ([10.0, 20.0], 1.0)  # noqa: E731
        out = auto.run(exact, precision=5, max_runs=10)
        self.assertEqual((out.stopped_by, out.rounds), ("precision", auto.MIN_ROUNDS))


if __name__ == "__main__":
    unittest.main()

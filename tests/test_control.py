# SPDX-License-Identifier: GPL-2.0-only
"""compare across two boots of two trees' builds (scripts/hzlib/control.py):
the span of the same code's changes is what a second boot alone does, a
row of changed code within it is within noise, and the span leaves out a
row of the same code no more often than it says."""
from __future__ import annotations

import random
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

from hzlib import compare, control  # noqa: E402


def key(clear: str, order: str) -> compare.Key:
    return (("clear", clear), ("folio", "2M"), ("order", order))


def pair(clear: str, order: str, a: list[float], b: list[float]) -> compare.Pair:
    return compare.pair(key(clear, order), compare.Side(key(clear, order), a),
                        compare.Side(key(clear, order), b))


class ControlTest(unittest.TestCase):
    def test_only_the_same_code_makes_the_span(self) -> None:
        rows = [(dict(key("erms", "contiguous-page")), -3.0),
                (dict(key("rep", "tree")), +40.0), (dict(key("linux-erms", "tree")), -50.0)]
        rows += [(dict(key("orig", f"o{i}")), float(i)) for i in range(8)]
        b = control.band(rows, prims=False, texts=True)
        self.assertEqual((b.lo, b.hi, b.n) if b else None, (-3.0, 7.0, 9))
        # The linux-* routines are the same code when both sides' are.
        self.assertTrue(control.same_code(b, dict(key("linux-erms", "contiguous-page"))))
        self.assertFalse(control.same_code(b, dict(key("linux-erms", "tree"))))
        self.assertIsNone(control.band(rows[:8], prims=False, texts=True))
        both = control.band(rows, prims=True, texts=True)
        self.assertEqual(both.n if both else None, 9)

    def test_marks(self) -> None:
        """A row of changed code whose own interval excludes 0 is within
        noise inside the span and not outside it; a row of the same code
        is, marked as such."""
        span = control.Band(-6.0, 5.0, 35, prims=False, texts=True)
        inside = pair("erms", "tree", [10.0, 10.1, 9.9], [9.6, 9.65, 9.55])
        outside = pair("erms", "tree", [10.0, 10.1, 9.9], [8.0, 8.05, 7.95])
        own = pair("erms", "contiguous-page", [10.0, 10.1, 9.9], [9.0, 9.05, 8.95])
        for p in (inside, outside, own):
            self.assertLess(p.p or 1.0, compare.ALPHA)
            p.band = span
        self.assertTrue(inside.within_noise)
        self.assertIn("boot to boot)", compare.mark(inside))
        self.assertFalse(outside.within_noise)
        self.assertNotIn("~", compare.mark(outside))
        self.assertTrue(own.within_noise)
        self.assertIn("same code)", compare.mark(own))
        # Without a band (one boot, or selectors): the interval alone.
        inside.band = None
        self.assertFalse(inside.within_noise)

    def test_span_misses_a_null_row_as_often_as_it_says(self) -> None:
        rng = random.Random(40)
        n, trials, out = 35, 4000, 0
        for _ in range(trials):
            xs = [rng.gauss(0, 3) for _ in range(n + 1)]
            b = control.band([({"order": "o"}, x) for x in xs[:n]], False, True)
            assert b is not None
            out += not b.holds(xs[n])
        self.assertAlmostEqual(out / trials, 2 / (n + 1), delta=0.015)
        self.assertEqual(control.Band(0, 1, n, False, True).chance, "2/36")


if __name__ == "__main__":
    unittest.main()

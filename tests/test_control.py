# SPDX-License-Identifier: GPL-2.0-only
"""compare across two boots of one hugezero build against two trees
(scripts/hzlib/control.py): the rows of the same code make the span of
what a second boot does; a row of changed code is set against its twin
of hugezero's own in each boot, which takes out that boot's own shift;
and none of it where the two sides are not one build on one machine."""
from __future__ import annotations

import math
import random
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

from hzlib import control  # noqa: E402


def key(clear: str, order: str, **more: str) -> dict[str, str]:
    return {"clear": clear, "folio": "2M", "order": order, **more}


class ControlTest(unittest.TestCase):
    def test_only_the_same_code_makes_the_span(self) -> None:
        rows = [(key("erms", "contiguous-page"), -3.0), (key("rep", "tree"), +40.0),
                (key("linux-erms", "tree"), -50.0)]
        rows += [(key("orig", f"o{i}"), float(i)) for i in range(8)]
        b = control.band(rows, prims=False, texts=True)
        self.assertEqual((b.lo, b.hi, b.n) if b else None, (-3.0, 7.0, 9))
        # The linux-* routines are the same code when both sides' are.
        self.assertTrue(control.same_code(b, key("linux-erms", "contiguous-page")))
        self.assertFalse(control.same_code(b, key("linux-erms", "tree")))
        both = control.band(rows, prims=True, texts=True)
        self.assertEqual(both.n if both else None, 9)
        self.assertIsNone(control.band(rows[1:3], prims=True, texts=True))

    def test_twins(self) -> None:
        keys = [key("erms", "linux", chunk="2M", radius="2"), key("erms", "contiguous-page"),
                key("rep", "linux", chunk="2M", radius="2")]
        self.assertEqual(control.twin_of(key("erms", "tree"), keys), keys[0])
        self.assertEqual(control.twin_of(key("linux-erms", "contiguous-page"), keys), keys[1])
        self.assertIsNone(control.twin_of(key("linux-unrolled", "contiguous-page"), keys))
        self.assertIsNone(control.twin_of(key("avx2", "tree"), keys))
        self.assertEqual(control.twin_name(key("erms", "tree"), keys[0]), "order=linux")

    def test_a_boot_shift_leaves_the_twin(self) -> None:
        """B's boot is 20% slower for both the row and its twin: the row's
        own change is -20%, its change against the twin within noise; a
        real 10% loss of the row alone is not."""
        noise = ([-0.004, 0.002, 0.0, 0.003, -0.001], [0.001, -0.003, 0.004, -0.002, 0.0])

        def runs(mean: float, k: int) -> list[float]:
            return [mean * (1 + d) for d in noise[k]]
        rounds = list(range(5))
        a = (runs(10.0, 0), runs(10.0, 1), rounds, rounds)
        same = control.twin("order=linux", a, (runs(8.0, 1), runs(8.0, 0), rounds, rounds))
        lost = control.twin("order=linux", a, (runs(7.2, 1), runs(8.0, 0), rounds, rounds))
        assert same and lost
        self.assertTrue(same.within_noise, same)
        self.assertAlmostEqual(same.change, 0.0, delta=2.0)
        self.assertFalse(lost.within_noise, lost)
        self.assertAlmostEqual(lost.change, -10.0, delta=2.0)
        # Too few runs on a side: no judgement.
        self.assertIsNone(control.twin("x", a, ([8.0], [8.0], [0], [0])))

    def test_twin_interval_covers(self) -> None:
        """With no change, the twin's 95% interval holds 0 in about 95% of
        draws, unpaired (no rounds) and paired by round."""
        rng = random.Random(3)
        for paired in (False, True):
            held, trials = 0, 1500
            for _ in range(trials):
                def side(shift: float) -> tuple[list[float], list[float], list, list]:
                    common = [rng.gauss(0, 0.02) for _ in range(4)] if paired else [0.0] * 4
                    r = [math.exp(shift + c + rng.gauss(0, 0.01)) for c in common]
                    t = [math.exp(shift + c + rng.gauss(0, 0.01)) for c in common]
                    k = list(range(4)) if paired else [None] * 4
                    return r, t, k, k
                tw = control.twin("t", side(0.0), side(rng.gauss(0, 0.1)))
                assert tw is not None
                held += tw.within_noise
            self.assertAlmostEqual(held / trials, 0.95, delta=0.025, msg=f"paired={paired}")


if __name__ == "__main__":
    unittest.main()

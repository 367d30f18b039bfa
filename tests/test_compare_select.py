# SPDX-License-Identifier: GPL-2.0-only
"""compare --a/--b: two configurations of one log (or one of each of two
logs) set side by side with the statistics of a two-log compare, and the
selectors it refuses."""
from __future__ import annotations

import importlib.util
import io
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

from hzlib import compare, selection  # noqa: E402
from synth import Log, kernel_config  # noqa: E402

BIG = {"folio": "1G", "size": str(2 << 30), "size_requested": str(2 << 30)}
SCIPY = importlib.util.find_spec("scipy") is not None


def runs(ticks: int) -> list[dict[str, list[int]]]:
    """Two passes of two faults of @ticks each, the second 10% slower."""
    return [{"fault": [ticks, ticks], "clear": [ticks // 2] * 2},
            {"fault": [ticks * 11 // 10] * 2, "clear": [ticks // 2] * 2}]


def orders_log(orders: tuple[str, ...] = ("converging-page", "contiguous-page")) -> Log:
    """2M and 1G, each in @orders; contiguous-page clears 2M twice as fast
    as converging-page and 1G four times."""
    log = Log()
    ticks = {("2M", "converging-page"): 4000, ("2M", "contiguous-page"): 2000,
             ("1G", "converging-page"): 400000, ("1G", "contiguous-page"): 100000}
    for folio, over in (("2M", {}), ("1G", BIG)):
        for order in orders:
            log.config(kernel_config(name=f"{folio}.erms.{order}", order=order, **over),
                       runs(ticks[folio, order]))
    return log


class Files:
    """Logs written to a temporary directory."""

    def __init__(self) -> None:
        self.dir = tempfile.TemporaryDirectory()

    def __enter__(self) -> "Files":
        return self

    def __exit__(self, *exc: object) -> None:
        self.dir.cleanup()

    def log(self, name: str, log: Log) -> str:
        p = Path(self.dir.name) / name
        p.write_text(log.text())
        return str(p)


def text(a: str, b: str | None, sel_a: list[str] | None, sel_b: list[str] | None) -> str:
    out = io.StringIO()
    compare.write(a, b, out, sel_a, sel_b)
    return out.getvalue()


def rows(t: str) -> list[str]:
    """The pairs' GB/s lines of a compare's output (two cells each)."""
    return [line for line in t.splitlines() if line.count(" +- ") == 2]


class WithinLogTest(unittest.TestCase):
    def test_two_pairs_with_their_deltas(self) -> None:
        with Files() as f:
            boots = compare.load(f.log("x.log", orders_log()))
        sel = selection.Selectors(selection.parse("a", ["order=converging-page"]),
                                  selection.parse("b", ["order=contiguous-page"]), True)
        pairs = {dict(p.key)["folio"]: p for p in compare.compare(boots, boots, sel).pairs}
        self.assertEqual(sorted(pairs), ["1G", "2M"])
        two, one = pairs["2M"], pairs["1G"]
        self.assertNotIn("order", dict(two.key))
        self.assertEqual((dict(two.a.key)["order"], dict(two.b.key)["order"]),
                         ("converging-page", "contiguous-page"))
        self.assertAlmostEqual(two.change_pct, 100.0)
        self.assertAlmostEqual(one.change_pct, 300.0)
        # 4 MiB over 8000 and 8800 ticks of 1 GHz.
        self.assertAlmostEqual(two.a.mean, (4 / 8e-6 + 4 / 8.8e-6) / 2 / 1024, places=6)
        self.assertAlmostEqual(two.a.sd_pct, two.b.sd_pct)
        self.assertGreater(two.a.sd_pct, 5)
        if SCIPY:
            self.assertIs(two.within_noise, False)
            self.assertLess(two.p, 0.05)

    def test_output_as_two_logs(self) -> None:
        with Files() as f:
            one = f.log("one.log", orders_log())
            before = f.log("a.log", orders_log(("converging-page",)))
            after = f.log("b.log", orders_log(("contiguous-page",)))
            within = text(one, None, ["order=converging-page"], ["order=contiguous-page"])
            across = text(before, after, ["order=converging-page"], ["order=contiguous-page"])
        self.assertIn(f"A: {one} (order=converging-page)\nB: {one} (order=contiguous-page)",
                      within)
        self.assertIn("A and B differ in order; each pair is equal in every other dimension",
                      within)
        self.assertRegex(within, r"folio=2M clear=erms size=4M +\d+\.\d\d \+- +\d+\.\d\d% +"
                         r"\d+\.\d\d \+- +\d+\.\d\d% +\+100\.0%")
        self.assertRegex(within, r"folio=1G clear=erms size=2G .* \+300\.0%")
        self.assertEqual(len(rows(within)), 2)
        self.assertEqual(rows(within), rows(across))

    def test_selectors_commas_repeats_aliases(self) -> None:
        a = selection.parse("a", ["order=converging-page,folio=2M"])
        self.assertEqual(a.terms, selection.parse("a", ["order=converging-page",
                                                        "folio=2M"]).terms)
        self.assertEqual(selection.parse("a", ["cpus=0,2,order=x"]).terms,
                         {"cpus": "0,2", "order": "x"})
        self.assertEqual(selection.parse("b", ["prim=rep"]).terms, {"clear": "rep"})
        # The records' spelling or the label's: cpus canonical, sizes as 4M.
        self.assertTrue(selection.parse("a", ["cpus=0,1,2,3"]).matches({"cpus": "0-3"}))
        self.assertTrue(selection.parse("a", ["size=4M"]).matches({"size": "4194304"}))
        with Files() as f:
            one = f.log("x.log", orders_log())
            t = text(one, None, ["order=converging-page", "folio=2M"],
                     ["order=contiguous-page,folio=2M"])
        self.assertEqual(len(rows(t)), 1)
        self.assertIn("+100.0%", rows(t)[0])


class RefusedTest(unittest.TestCase):
    def refused(self, log: Log, sel_a: list[str] | None, sel_b: list[str] | None,
                *says: str) -> None:
        with Files() as f:
            path = f.log("x.log", log)
            with self.assertRaises(selection.SelectError) as e:
                text(path, None, sel_a, sel_b)
        for s in says:
            self.assertIn(s, str(e.exception))

    def test_rethunk_off_selects_rows_without_it(self) -> None:
        """rethunk=off is left out of a configuration (old logs pair), yet
        --a rethunk=off selects those rows, and rethunk_thunk differs with
        rethunk as chunk and radius do with order."""
        log = Log()
        log.config(kernel_config(name="2M.erms.discontiguous-page",
                                 order="discontiguous-page", rethunk="off",
                                 rethunk_thunk="none"), runs(2000))
        log.config(kernel_config(name="rethunk-on.2M.erms.discontiguous-page",
                                 order="discontiguous-page", rethunk="on",
                                 rethunk_thunk="srso_alias_return_thunk"), runs(2200))
        with Files() as f:
            t = text(f.log("a", log), None, ["rethunk=off"], ["rethunk=on"])
        self.assertEqual(len(rows(t)), 1, t)

    def test_unknown_dimension_lists_the_valid(self) -> None:
        self.refused(orders_log(), ["ordr=converging-page"], ["order=contiguous-page"],
                     "no dimension 'ordr'", "the configurations have: bench, folio, clear, "
                     "order")

    def test_value_none_has_lists_those_present(self) -> None:
        self.refused(orders_log(), ["order=converging-page"], ["order=batched-pages"],
                     "--b order=batched-pages: no configuration of B has it",
                     "order there: contiguous-page, converging-page")

    def test_no_pairs(self) -> None:
        self.refused(orders_log(), ["order=converging-page,folio=1G"],
                     ["order=contiguous-page,folio=2M"], "no pairs",
                     "B has size=4M (not 2G)")

    def test_matched_by_both_sides(self) -> None:
        self.refused(orders_log(), ["folio=2M"], ["order=contiguous-page"],
                     "folio=2M order=contiguous-page matches both --a folio=2M and "
                     "--b order=contiguous-page")

    def test_matched_twice(self) -> None:
        log = orders_log()
        log.config(kernel_config(name="2M.rep.contiguous-page", order="contiguous-page",
                                 clear="rep"), runs(1000))
        self.refused(log, ["order=converging-page,clear=erms"], ["order=contiguous-page"],
                     "--b order=contiguous-page matches two configurations that differ "
                     "only in clear (clear=erms; clear=rep)", "name clear in both")

    def test_sides_go_together(self) -> None:
        self.refused(orders_log(), ["order=converging-page"], None, "--a and --b go together")
        self.refused(orders_log(), None, None, "give --a DIM=VALUE and --b DIM=VALUE")
        self.refused(orders_log(), ["order"], ["order=contiguous-page"], "not DIM=VALUE")

    def test_exit_code_2_and_message(self) -> None:
        with Files() as f:
            path = f.log("x.log", orders_log())
            r = subprocess.run([sys.executable, str(ROOT / "scripts/hugezero"), "compare", path,
                                "--a", "order=converging-page", "--b", "order=nope"],
                               capture_output=True, text=True)
            ok = subprocess.run([sys.executable, str(ROOT / "scripts/hugezero"), "compare",
                                 path, "--a", "order=converging-page",
                                 "--b", "order=contiguous-page"],
                                capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("hugezero compare: --b order=nope: no configuration of B has it", r.stderr)
        self.assertEqual(r.stdout, "")
        self.assertEqual(ok.returncode, 0, ok.stderr)
        self.assertEqual(len(rows(ok.stdout)), 2)


if __name__ == "__main__":
    unittest.main()

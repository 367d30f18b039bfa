# SPDX-License-Identifier: GPL-2.0-only
"""order=tree in the host tools (docs/linux-tree.md, "order=tree in the
reports"), on synthetic logs of images built with make LINUX=: report's
boot line and row note, parse's CSV columns (and --rows agg and samples),
compare's header naming each side's text and its refusal of a side that
pools two texts under one configuration, table's row names and notes, and
plot's labels.  A log without the fields shows none of it."""
from __future__ import annotations

import csv
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

from hzlib import display, plot, records, table  # noqa: E402
from hzlib.display import Entry, Tree  # noqa: E402
from synth import Log, kernel_config  # noqa: E402

HZ = [sys.executable, str(ROOT / "scripts" / "hugezero")]
# A base's text and a patch's: one version, two hashes.
BASE = "0877d769b931" + "ab" * 26
PATCH = "5e1f00c0ffee" + "cd" * 26
PRIMS = "1aee437018b8" + "ef" * 26
HEAD = "tree: 7.2.13 folio_zero_user (sha {})"


def boot(sha: str | None = BASE, entry: str = "folio_zero_user") -> str:
    """A format-4 boot record's fields, with make LINUX='s tree (and its
    mm/memory.c's entry unless @sha is None)."""
    text = (f'version=0.4 format=4 firmware=bios cmdline="bench=fault" linux_tree=7.2.13 '
            f'linux_tree_sha256={PRIMS}')
    return text + (f" linux_tree_entry={entry} linux_tree_entry_sha256={sha}" if sha else "")


def tree_cfg(sha: str = BASE, entry: str = "folio_zero_user", **over: str) -> str:
    """An order=tree configuration's config record, as lib/benchrec.c
    writes it: no chunk, the entry and its text's hash."""
    f = {"name": "fault.2M.erms.tree", "order": "tree", "tree_entry": entry,
         "tree_entry_sha256": sha, **over}
    return kernel_config(**f)


def runs(ticks: int) -> list[dict[str, list[int]]]:
    return [{"fault": [ticks + 100, ticks + 120], "clear": [ticks, ticks + 10]},
            {"fault": [ticks + 130, ticks + 110], "clear": [ticks + 20, ticks]}]


def tree_log(sha: str = BASE, ticks: int = 1000000) -> Log:
    """One boot: hugezero's neighbourhood-last beside the tree's own."""
    lg = Log(boot=boot(sha))
    lg.config(kernel_config(name="fault.2M.erms.neighbourhood-last", order="neighbourhood-last",
                            chunk=str(32 << 20), radius="2"), runs(ticks))
    lg.config(tree_cfg(sha), runs(ticks))
    return lg


def hz(*args: str, text: str = "", text_b: str = "") -> subprocess.CompletedProcess[str]:
    """scripts/hugezero @args, LOG (and LOG_B) standing for @text (@text_b)
    written to files."""
    with tempfile.TemporaryDirectory() as d:
        a, b = Path(d, "a.log"), Path(d, "b.log")
        a.write_text(text)
        b.write_text(text_b)
        argv = [str(a) if x == "LOG" else str(b) if x == "LOG_B" else x for x in args]
        return subprocess.run([*HZ, *argv], capture_output=True, text=True)


def csv_rows(text: str, *more: str) -> list[dict[str, str]]:
    r = hz("parse", "LOG", "--format", "csv", *more, text=text)
    assert r.returncode == 0, r.stderr
    return list(csv.DictReader(io.StringIO(r.stdout)))


def concat(*logs: Log) -> str:
    """Boots one after the other in one log."""
    return "".join(lg.text() for lg in logs)


class DisplayTest(unittest.TestCase):
    def test_entry_of_boot_and_config(self) -> None:
        b = dict(kv.split("=", 1) for kv in boot().split() if "=" in kv)
        e = Entry.of(b)
        self.assertEqual(e, Entry("7.2.13", "folio_zero_user", BASE))
        assert e is not None
        self.assertEqual(display.entry_label(e), "tree: 7.2.13 folio_zero_user")
        self.assertEqual(display.entry_head(e), HEAD.format(BASE[:12]))
        self.assertEqual(display.entry_note(e), "order=tree runs " + HEAD.format(BASE[:12]))
        # A configuration's own fields, the boot's where it lacks them.
        cfg = {"order": "tree", "tree_entry": "clear_huge_page", "tree_entry_sha256": PATCH}
        self.assertEqual(Entry.of(b, cfg), Entry("7.2.13", "clear_huge_page", PATCH))
        self.assertEqual(Entry.of(b, {"order": "tree"}), e)
        self.assertIsNone(Entry.of(b, {"order": "contiguous-page"}))
        self.assertIsNone(Entry.of({"linux_tree": "7.2.13"}), "no mm/memory.c, no entry")
        self.assertEqual(Entry.of({}, {"order": "tree"}), Entry("?", "?", "?"))

    def test_rows(self) -> None:
        row = {"order": "tree", "clear": "erms", "linux_tree": "7.2.13 v7.2-3-gabc",
               "linux_tree_sha256": "", "tree_entry": "folio_zero_user",
               "tree_entry_sha256": PATCH}
        self.assertEqual(display.order_label(row), HEAD.format(PATCH[:12]))
        self.assertEqual(display.order_name(row), "tree: 7.2.13 folio_zero_user")
        # The row's linux_tree is its entry's version, not a tree primitive's.
        self.assertIsNone(Tree.of_row(row))
        self.assertEqual(display.clear_label(row), "erms")
        plain = {"order": "contiguous-page", "clear": "erms", "linux_tree": ""}
        self.assertEqual(display.order_label(plain), "contiguous-page")
        self.assertEqual(display.order_name(plain), "contiguous-page")
        self.assertIsNone(Entry.of_row(plain))
        # A tree's routine run by the tree's order: each named apart.
        both = {**row, "clear": "linux-erms", "linux_tree_sha256": PRIMS}
        self.assertEqual(display.clear_label(both),
                         "linux-erms of Linux 7.2.13 v7.2-3-gabc (sha 1aee437018b8)")
        self.assertEqual(display.order_label(both), HEAD.format(PATCH[:12]))
        self.assertEqual(display.entry_sides({HEAD.format("x")}, set()),
                         "A: order=tree runs tree: 7.2.13 folio_zero_user (sha x), "
                         "B: no order=tree")


class ReportTest(unittest.TestCase):
    def test_boot_line_and_row(self) -> None:
        r = hz("report", "LOG", text=tree_log().text())
        self.assertEqual(r.returncode, 0, r.stderr)
        line = next(x for x in r.stdout.splitlines() if x.startswith("boot:"))
        self.assertTrue(line.endswith(
            "tree primitives from Linux 7.2.13 (clear_page_64.S sha256 1aee437018b8), "
            "order=tree runs " + HEAD.format(BASE[:12])), line)
        lines = r.stdout.splitlines()
        at = next(i for i, x in enumerate(lines) if x.startswith("2M    tree "))
        self.assertEqual(lines[at + 1], "      " + HEAD.format(BASE[:12]))
        nl = next(i for i, x in enumerate(lines) if x.startswith("2M    neighbourhood-last"))
        self.assertFalse(lines[nl + 1].startswith("      tree:"), "hugezero's own: no note")

    def test_without_entry(self) -> None:
        """A tree without mm/memory.c (no linux_tree_entry): its
        primitives' line only."""
        lg = Log(boot=boot(None))
        lg.config(kernel_config(), runs(1000000))
        out = hz("report", "LOG", text=lg.text()).stdout
        self.assertNotIn("order=tree", out)
        self.assertIn("tree primitives from Linux 7.2.13", out)


class CsvTest(unittest.TestCase):
    def test_columns(self) -> None:
        rows = csv_rows(tree_log().text())
        got = {r["order"]: (r["linux_tree"], r.get("linux_tree_sha256", "-"), r["tree_entry"],
                            r["tree_entry_sha256"]) for r in rows}
        # No tree primitive ran: no linux_tree_sha256 column.
        self.assertEqual(got, {"neighbourhood-last": ("", "-", "", ""),
                               "tree": ("7.2.13", "-", "folio_zero_user", BASE)})
        self.assertEqual(display.order_label(rows[1]), HEAD.format(BASE[:12]),
                         "a row read back from the CSV names its entry")

    def test_no_columns_without_tree(self) -> None:
        lg = Log()
        lg.config(kernel_config(), runs(1000000))
        cols = list(csv_rows(lg.text())[0])
        self.assertNotIn("tree_entry", cols)
        self.assertNotIn("tree_entry", list(csv_rows(lg.text(), "--rows", "samples")[0]))

    def test_samples_and_agg(self) -> None:
        samples = csv_rows(tree_log().text(), "--rows", "samples")
        self.assertEqual({(s["order"], s["tree_entry"], s["tree_entry_sha256"])
                          for s in samples},
                         {("neighbourhood-last", "", ""), ("tree", "folio_zero_user", BASE)})
        lg = Log(boot=boot(PATCH))
        lg.smp(2)
        lg.group(tree_cfg(PATCH, size="4194304"),
                 {c: runs(1000000) for c in (0, 1)}, walls=[3000000, 3000000])
        (agg,) = csv_rows(lg.text(), "--rows", "agg")
        self.assertEqual((agg["order"], agg["tree_entry"], agg["tree_entry_sha256"]),
                         ("tree", "folio_zero_user", PATCH))


class CompareTest(unittest.TestCase):
    def test_patch_against_base(self) -> None:
        """Two texts under one name on two sides: paired, each named."""
        r = hz("compare", "LOG", "LOG_B", text=tree_log(BASE).text(),
               text_b=tree_log(PATCH, 900000).text())
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn(f"A: order=tree runs {HEAD.format(BASE[:12])}, "
                      f"B: order=tree runs {HEAD.format(PATCH[:12])}\n", r.stdout)
        self.assertRegex(r.stdout, r"(?m)^folio=2M clear=erms order=tree +[\d.]+ \+- ")
        self.assertNotIn("only in", r.stdout)

    def test_one_log_hugezeros_against_the_trees(self) -> None:
        r = hz("compare", "LOG", "--a", "order=neighbourhood-last", "--b", "order=tree",
               text=tree_log().text())
        # neighbourhood-last's chunk and radius are its own: the order's
        # parameters differ with it (selection.Selectors.dims).
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("A and B differ in order, chunk, radius;", r.stdout)
        self.assertRegex(r.stdout, r"(?m)^folio=2M clear=erms +[\d.]+ \+- ")
        # two chunks on one side: asked to name it
        lg = tree_log()
        lg.config(kernel_config(name="fault.2M.erms.neighbourhood-last.2M",
                                order="neighbourhood-last", chunk=str(2 << 20), radius="2"),
                  runs(1000000))
        r = hz("compare", "LOG", "--a", "order=neighbourhood-last", "--b", "order=tree",
               text=lg.text())
        self.assertEqual(r.returncode, 2, r.stdout)
        self.assertIn("differ only in chunk", r.stderr)
        r = hz("compare", "LOG", "--a", "order=neighbourhood-last,chunk=32M", "--b",
               "order=tree", text=lg.text())
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        lg = Log(boot=boot())
        lg.config(kernel_config(name="fault.2M.erms.contiguous-page"), runs(1000000))
        lg.config(tree_cfg(), runs(1100000))
        r = hz("compare", "LOG", "--a", "order=contiguous-page", "--b", "order=tree",
               text=lg.text())
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn(f"A: no order=tree, B: order=tree runs {HEAD.format(BASE[:12])}\n",
                      r.stdout)

    def test_a_side_pooling_two_texts_is_refused(self) -> None:
        both = concat(tree_log(BASE), tree_log(PATCH))
        r = hz("compare", "LOG", "LOG_B", text=both, text_b=tree_log(BASE).text())
        self.assertEqual(r.returncode, 2, r.stdout)
        self.assertIn(f"A pools order=tree of 2 extracted texts under folio=2M clear=erms "
                      f"order=tree ({HEAD.format(BASE[:12])}; {HEAD.format(PATCH[:12])}): "
                      "order=tree is one algorithm only within one text of mm/memory.c "
                      "(docs/linux-tree.md); give each side the logs of one tree", r.stderr)
        r = hz("compare", "LOG", "LOG_B", text=tree_log(BASE).text(), text_b=both)
        self.assertIn("B pools order=tree of 2 extracted texts", r.stderr)

    def test_one_text_twice_pools(self) -> None:
        """Two boots of one text on a side pool as any two boots do."""
        r = hz("compare", "LOG", "LOG_B", text=concat(tree_log(), tree_log()),
               text_b=tree_log(PATCH).text())
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(f"A: order=tree runs {HEAD.format(BASE[:12])}, ", r.stdout)

    def test_pooling_outside_the_selection_is_not_refused(self) -> None:
        """Only what a side compares must be one text: a log of two texts
        compares its other orders."""
        def one(sha: str) -> Log:
            lg = Log(boot=boot(sha))
            for clear in ("erms", "rep"):
                lg.config(kernel_config(name=f"fault.2M.{clear}.contiguous-page", clear=clear),
                          runs(1000000))
            lg.config(tree_cfg(sha), runs(1000000))
            return lg
        r = hz("compare", "LOG", "--a", "clear=erms,order=contiguous-page", "--b",
               "clear=rep,order=contiguous-page", text=concat(one(BASE), one(PATCH)))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertNotIn("order=tree", r.stdout)

    def test_older_logs_say_nothing(self) -> None:
        lg = Log()
        lg.config(kernel_config(), runs(1000000))
        r = hz("compare", "LOG", "LOG_B", text=lg.text(), text_b=lg.text())
        self.assertNotIn("order=tree", r.stdout)


def preset(name: str) -> str:
    return (f'name={name} seed="{name[5:]}: a thread" side=hugezero keys="bench=fault" '
            'chose="size=4M" why="half the free memory" scaled="4 MiB, not 64 GiB" '
            'linux_clear=erms')


class TableTest(unittest.TestCase):
    def render(self, log: Log) -> str:
        out = io.StringIO()
        self.assertEqual(table.write(records.parse(log.text()), "text", out), 0)
        return out.getvalue()

    def test_seed_002(self) -> None:
        lg = Log(boot=boot(PATCH))
        lg.add("preset", preset("seed-002"))
        lg.config(tree_cfg(PATCH, prezero="none"), runs(1000000))
        t = self.render(lg)
        self.assertIn("prezero=none (no model, erms, tree: 7.2.13 folio_zero_user):", t)
        self.assertIn(f"  order=tree runs {HEAD.format(PATCH[:12])}\n", t)

    def test_seed_000(self) -> None:
        lg = Log(boot=boot())
        lg.add("preset", preset("seed-000"))
        lg.smp(2)
        lg.group(tree_cfg(access="write"), {c: runs(1000000) for c in (0, 1)},
                 walls=[3000000, 3000000])
        t = self.render(lg)
        self.assertRegex(t, r"(?m)^  tree: 7\.2\.13 folio_zero_user +[\d.]+ \( \+- ")
        self.assertIn(f"  order=tree runs {HEAD.format(BASE[:12])}\n", t)


@unittest.skipIf(importlib.util.find_spec("matplotlib") is None,
                 "no matplotlib for this python: run with /usr/bin/python3")
class PlotTest(unittest.TestCase):
    def test_patch_and_base_are_two_bars(self) -> None:
        boots = records.parse(concat(tree_log(BASE), tree_log(PATCH)))
        rows = plot.ok_rows(boots)
        label = plot.labeller(rows)
        # hugezero's neighbourhood-last of each boot, and the two texts:
        # the gbps figure's bars, one a label.
        self.assertEqual(sorted({label(r) for r in rows}),
                         ["neighbourhood-last 32M radius=2 [boot 0]",
                          "neighbourhood-last 32M radius=2 [boot 1]",
                          HEAD.format(BASE[:12]), HEAD.format(PATCH[:12])])
        with tempfile.TemporaryDirectory() as d:
            self.assertTrue(plot.write(boots, Path(d), "gbps"))
        marks, _ = plot.frontier_marks([{**rows[1], "probe_us_p99": 1.0, "probe_us_max": 2.0}])
        self.assertEqual(marks[0][2], f"erms {HEAD.format(BASE[:12])}")

if __name__ == "__main__":
    unittest.main()

# SPDX-License-Identifier: GPL-2.0-only
"""scripts/hzlib/display.py (issue 30): what it writes -- a mean with its
sd and n (one run: n=1), intervals, a Linux tree's provenance, a machine,
the folio sizes and orders -- and the rule that no other module of
scripts/hzlib writes these: the modules' syntax trees are searched for
provenance fields read, a tree's hash cut, a +- written, an sd formatted
or computed, machine fields read, and a list of folio sizes or orders;
each search is shown to find a violation planted in a module's source."""
from __future__ import annotations

import ast
import csv
import io
import json
import math
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

from hzlib import cnames, display, interval, paths, records, spread  # noqa: E402
from hzlib.display import Tree  # noqa: E402

from synth import Log, kernel_config  # noqa: E402

HZLIB = ROOT / "scripts" / "hzlib"
SHA = "0123456789ab" + "cd" * 26

# --- the rule -----------------------------------------------------------------

PROVENANCE = {"linux_tree", "linux_tree_git", "linux_tree_sha256", "tree_routine", "tree_abi",
              "linux_tree_entry", "linux_tree_entry_sha256", "tree_entry", "tree_entry_sha256"}
MACHINE = {"brand", "family", "model"}
# What is read or written for another purpose than a human's eyes, and why.
ALLOWED = {
    ("results.py", "read", "brand"): "the CSV's cpu_brand column: the record's field as it is",
    ("lava.py", "+-", r"[A-Za-z0-9_.,=+-]+"): "a regular expression's character class",
}
# Modules that compute a standard deviation: the one rule (spread.py) and
# the t interval of a mean (interval.py).
STDEV = {"spread.py", "interval.py"}
SD_NAME = re.compile(r"(?:^|_)(?:sd|stddev|stdev)(?:_|$)")
# The wordings of a +- and of a tree's provenance: display.py's own.
MARKS = ("+-", display.PM_FIGURE, "clear_page_64.S sha256", "(sha ")


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are documentation: a
    module's, class's or function's docstring, or any bare string
    statement."""
    return {id(n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)
            and isinstance(n.value.value, str)}


def key_read(n: ast.AST) -> str | None:
    """The constant key @n reads, as x["key"] or x.get("key", ...)."""
    if isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Constant):
        return n.slice.value if isinstance(n.slice.value, str) else None
    if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr == "get" and n.args and isinstance(n.args[0], ast.Constant)
            and isinstance(n.args[0].value, str)):
        return n.args[0].value
    return None


def constants(n: ast.AST) -> list[str]:
    """The string constants listed by a tuple, list or set, or a dict's keys."""
    elts = n.keys if isinstance(n, ast.Dict) else getattr(n, "elts", []) \
        if isinstance(n, (ast.Tuple, ast.List, ast.Set)) else []
    return [e.value for e in elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]


def names_in(n: ast.AST) -> list[str]:
    """Every identifier, attribute and string key in @n, but in a call: a
    value passed to a function is that function's to write."""
    if isinstance(n, ast.Call):
        return []
    if isinstance(n, ast.Name):
        return [n.id]
    here = [n.attr] if isinstance(n, ast.Attribute) else \
        [n.value] if isinstance(n, ast.Constant) and isinstance(n.value, str) else []
    return here + [x for c in ast.iter_child_nodes(n) for x in names_in(c)]


def module_strings(tree: ast.Module) -> dict[str, str]:
    """The module's string constants by name (`SOURCE = "..."`)."""
    out = {}
    for n in tree.body:
        target = n.targets[0] if isinstance(n, ast.Assign) and len(n.targets) == 1 else \
            n.target if isinstance(n, ast.AnnAssign) else None
        value = getattr(n, "value", None)
        if isinstance(target, ast.Name) and isinstance(value, ast.Constant) \
                and isinstance(value.value, str):
            out[target.id] = value.value
    return out


def text_of(n: ast.AST, strings: dict[str, str], read: set[int]) -> str:
    """The text an f-string or a sum of strings builds, the module's
    string constants put in and every other value as '{}': a wording
    built from a constant reads as if written out.  The ids of the nodes
    read go into @read."""
    read.add(id(n))
    if isinstance(n, ast.Constant) and isinstance(n.value, str):
        return n.value
    if isinstance(n, ast.Name) and n.id in strings:
        return strings[n.id]
    if isinstance(n, ast.JoinedStr):
        return "".join(text_of(v, strings, read) for v in n.values)
    if isinstance(n, ast.FormattedValue):
        return text_of(n.value, strings, read)
    if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add):
        return text_of(n.left, strings, read) + text_of(n.right, strings, read)
    read.discard(id(n))
    return "{}"


def violations(name: str, source: str) -> list[str]:
    """What module @name (its @source) formats that display.py owns."""
    tree = ast.parse(source)
    docs = docstrings(tree)
    strings = module_strings(tree)
    read: set[int] = set()      # the parts of an f-string or a sum already read
    out: list[str] = []

    def bad(n: ast.AST, kind: str, what: str) -> None:
        if (name, kind, what) not in ALLOWED:
            out.append(f"{name}:{getattr(n, 'lineno', '?')}: {kind} {what!r}")

    for n in ast.walk(tree):
        k = key_read(n)
        if k in PROVENANCE:
            bad(n, "provenance", k)
        if k in MACHINE:
            bad(n, "read", k)
        if (isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Slice)
                and isinstance(n.slice.upper, ast.Constant) and n.slice.upper.value == 12
                and not (isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Attribute)
                         and n.value.func.attr == "hexdigest")):
            bad(n, "hash cut", ast.unparse(n))
        if (isinstance(n, (ast.Constant, ast.JoinedStr, ast.BinOp)) and id(n) not in docs
                and id(n) not in read):
            text = text_of(n, strings, read)
            for mark in MARKS:
                if mark in text:
                    bad(n, mark, text)
        if isinstance(n, ast.FormattedValue):
            sd = [x for x in names_in(n.value) if SD_NAME.search(x)]
            if sd:
                bad(n, "sd formatted", sd[0])
        if (isinstance(n, ast.Attribute) and n.attr in ("stdev", "pstdev")
                and name not in STDEV):
            bad(n, "sd computed", n.attr)
        listed = constants(n)
        for what, names in (("folio sizes", display.FOLIOS), ("orders", display.ORDERS),
                            ("machine fields", display.MACHINE_FIELDS)):
            if len(set(listed) & set(names)) >= 2:
                bad(n, what, ", ".join(listed))
    return out


class RuleTest(unittest.TestCase):
    """Only display.py formats provenance, mean +- sd and machine identity,
    and declares the folio sizes and orders."""

    def test_no_module_but_display_formats_them(self) -> None:
        modules = sorted(p for p in HZLIB.glob("*.py") if p.name != "display.py")
        self.assertGreater(len(modules), 20)
        found = [v for p in modules for v in violations(p.name, p.read_text())]
        self.assertEqual(found, [], "format these in scripts/hzlib/display.py")

    def test_each_search_finds_a_planted_violation(self) -> None:
        planted = {
            "provenance read": 'x = f"{boot.f[\'linux_tree\']}"',
            "provenance get": 'x = b.get("linux_tree_git", "")',
            "config's routine": 'x = c["tree_routine"]',
            "hash cut": 'x = sha[:12]',
            "provenance wording": 'x = "clear_page_64.S sha256 " + s',
            "provenance from a constant": 'SOURCE = "arch/x86/lib/clear_page_64.S"\n'
                                          'x = f"tree {v}, {SOURCE} sha256 {p.sha256}"',
            "provenance summed": 'S = "clear_page_64.S"\nx = "tree " + S + " sha256 " + h',
            "plus-minus in a sum": 'PM = "+-"\nx = str(m) + " " + PM + " " + str(s)',
            "plus-minus in a % format": 'x = "%s +- %s" % (a, b)',
            "plus-minus": 'x = f"{m:7.2f} +- {s}"',
            "figure's plus-minus": 'x = "mean \u00b1 sd"',
            "sd formatted": 'x = f"{r[\'gbps_stddev_pct\']:5.2f}%"',
            "sd attribute formatted": 'x = f"{side.sd_pct:.2f}"',
            "sd computed": 'import statistics\nx = statistics.stdev(v)',
            "machine read": 'x = m.f.get("brand", "?")',
            "machine model": 'x = m.f["model"]',
            "machine fields listed": 'k = ("vendor", "family", "model")',
            "folio sizes": 'for f in ("4K", "2M", "1G"): pass',
            "folio bytes": 'b = {"4K": 4096, "2M": 2 << 20}',
            "orders": 'o = ["converging-page", "contiguous-page"]',
        }
        for what, line in planted.items():
            with self.subTest(what):
                self.assertTrue(violations("report.py", line), line)
        # Beside them, what is not formatting passes.
        for line in ('"""A docstring: mean +- sd, ("4K", "2M")."""',
                     'ok = "tree_routine" in f',
                     'd = {"linux_tree": t.described}',
                     'k = hashlib.sha256(b).hexdigest()[:12]',
                     'x = r["folio"] == "2M"',
                     'S = "clear_page_64.S"\nx = f"{S}: not a tree\'s file"',
                     'x = hashlib.sha256(b).hexdigest() + "\\n"'):
            with self.subTest(line):
                self.assertEqual(violations("report.py", line), [], line)
        # An allowance is for its module only.
        self.assertEqual(violations("results.py", 'x = m.f.get("brand")'), [])
        self.assertTrue(violations("split.py", 'x = m.f.get("brand")'))


# --- what display.py writes -------------------------------------------------------

class MeanSdTest(unittest.TestCase):
    def test_runs(self) -> None:
        self.assertEqual(display.mean_sd(31.15, 6.61, 2), "  31.15 +-  6.61%")
        self.assertEqual(display.mean_sd(31.15, 6.61, 2, n_shown=True), "  31.15 +-  6.61% n=2  ")
        self.assertEqual(display.mean_sd(1.86, 6.73, 2, width=6, unit="GB/s"),
                         "  1.86 GB/s +-  6.73%")

    def test_one_run_says_n_1(self) -> None:
        # sd is undefined for one run: never 0.00 nor nan, n=1 in its place.
        for sd in (0.0, math.nan):
            one = display.mean_sd(31.15, sd, 1)
            self.assertEqual(one, "  31.15     (n=1)")
            shown = display.mean_sd(31.15, sd, 1, n_shown=True)
            self.assertEqual(shown, "  31.15           n=1  ")
            for text in (one, shown, display.mean_sd_paren(5.0, sd, 1, aligned=False)):
                self.assertNotRegex(text, r"0\.00|nan|\+-")
        self.assertEqual(display.mean_sd_paren(5.0, 0.0, 1, aligned=False), "    5.00 ( n=1 )")
        self.assertEqual(display.mean_sd_paren(5.0, 0.0, 1), "    5.00" + " " * 14)

    def test_one_run_in_the_exports(self) -> None:
        """parse's CSV and JSON follow the text's rule: one run, no sd (an
        empty cell, as --rows agg has it), not 0."""
        log = Log().config(kernel_config(), [{"fault": [2000, 2000], "clear": [1000, 1000]}])
        with tempfile.TemporaryDirectory() as d:
            p = Path(d, "one.log")
            p.write_text(log.text())

            def parse(*args: str) -> str:
                return subprocess.run([sys.executable, str(ROOT / "scripts" / "hugezero"),
                                       "parse", str(p), *args], capture_output=True,
                                      text=True, check=True).stdout
            (row,) = csv.DictReader(io.StringIO(parse("--format", "csv")))
            (cfg,) = json.loads(parse())["configs"]
        self.assertEqual((row["runs"], row["gbps_stddev_pct"]), ("1", ""))
        self.assertNotEqual(row["gbps_mean"], "")
        self.assertEqual(cfg["gbps_stddev_pct"], "")

    def test_no_run(self) -> None:
        self.assertEqual(display.mean_sd(math.nan, math.nan, 0), "-")
        self.assertEqual(display.mean_sd(2.0, 1.0, 0, missing="n/a"), "n/a")
        self.assertEqual(display.mean_sd_paren(math.nan, math.nan, 0), f"{'-':>8}" + " " * 14)

    def test_widths_line_up(self) -> None:
        for n_shown in (False, True):
            w = display.mean_sd_width(7, n_shown)
            self.assertEqual(len(display.mean_sd_head("GB/s", 7, n_shown)), w)
            for n in (1, 2, 99, 999):
                self.assertEqual(len(display.mean_sd(1.0, 2.0, n, n_shown=n_shown)), w, n)

    def test_paren(self) -> None:
        self.assertEqual(display.mean_sd_paren(1739.93, 6.15, 5), " 1739.93 ( +-  6.15% )")
        self.assertEqual(display.mean_sd_paren(1739.93, 6.15, 5, aligned=False),
                         " 1739.93 ( +- 6.15% )")

    def test_spread_rule(self) -> None:
        m, sd = spread.mean_sd_pct([])
        self.assertTrue(math.isnan(m) and math.isnan(sd))
        m, sd = spread.mean_sd_pct([4.0])
        self.assertEqual(m, 4.0)
        self.assertTrue(math.isnan(sd))
        m, sd = spread.mean_sd_pct([1.0, 3.0])
        self.assertEqual(m, 2.0)
        self.assertAlmostEqual(sd, 100 * math.sqrt(2) / 2)
        self.assertTrue(math.isnan(spread.mean_sd_pct([0.0, 0.0])[1]))
        self.assertEqual(display.sd_abs(2.0, 50.0, 2), 1.0)
        self.assertEqual(display.sd_abs(2.0, math.nan, 1), 0.0)

    def test_legend(self) -> None:
        head = ("+-: the sample standard deviation (n - 1) of the per-run GB/s, in % of "
                "the mean; n runs: ")
        self.assertEqual(display.sd_legend("per-run GB/s", "run", [2, 2]), head + "2")
        self.assertEqual(display.sd_legend("per-run GB/s", "run", [3, 2]),
                         head + "2 to 3, by figure")
        self.assertEqual(display.sd_legend("per-run GB/s", "run", []), head + "none")
        self.assertEqual(display.sd_legend("per-run GB/s", "run", [1, 3], "n=N"),
                         head + "on each line, n=N; one run has no standard deviation (n=1)")
        self.assertIn("; n passes: 2", display.sd_legend("per-pass GB/s", "pass", [2]))


class IntervalTest(unittest.TestCase):
    def test_forms(self) -> None:
        iv = interval.Interval(1.1, 1.081, 1.132, "t", 10, 0.5)
        self.assertEqual(display.pct_interval(iv), "[  +8.1,  +13.2]")
        self.assertEqual(display.pct_interval(None), "")
        self.assertEqual(display.pct_interval(interval.Interval(1, -math.inf, math.inf, "x")),
                         "[ unbounded    ]")
        self.assertEqual(display.change(10.0, iv), "  +10.0% [  +8.1,  +13.2]")
        self.assertEqual(display.change(10.0, None), "  +10.0% " + " " * 16)
        self.assertEqual(display.half_width_pct(1.364), "+-1.36%")
        mean = interval.Interval(10.0, 9.5, 10.5, "t", 8, 0.6)
        self.assertEqual(display.mean_interval(mean, 5.0, "blocked"),
                         "95% interval of the mean: 9.50 .. 10.50 GB/s (+-5.00%, t over 8 "
                         "passes, blocked)")
        diff = interval.Interval(2.2, -3.3, 7.7, "Welch", 3, 2.8)
        self.assertEqual(display.diff_interval(diff, "us", "unpaired"),
                         "95% interval -3.3 .. 7.7 us (+-5.5 us; unpaired)")


class ProvenanceTest(unittest.TestCase):
    BOOT = {"linux_tree": "6.12.118", "linux_tree_sha256": SHA}

    def test_without_git(self) -> None:
        t = Tree.of(self.BOOT)
        assert t is not None
        self.assertEqual(len(t.hash), display.TREE_HASH)
        self.assertEqual(display.tree_label(t), "Linux 6.12.118 (sha 0123456789ab)")
        self.assertEqual(display.tree_note(t),
                         "tree primitives from Linux 6.12.118 (clear_page_64.S sha256 "
                         "0123456789ab)")

    def test_with_git(self) -> None:
        t = Tree.of({**self.BOOT, "linux_tree_git": "v6.12-rc1-5-gabc"})
        assert t is not None
        self.assertEqual(display.tree_label(t),
                         "Linux 6.12.118 v6.12-rc1-5-gabc (sha 0123456789ab)")
        self.assertEqual(display.tree_note(t),
                         "tree primitives from Linux 6.12.118 (git v6.12-rc1-5-gabc, "
                         "clear_page_64.S sha256 0123456789ab)")
        # The CSV's linux_tree and a row read back from it: the same tree.
        self.assertEqual(t.described, "6.12.118 v6.12-rc1-5-gabc")
        self.assertEqual(Tree.of_row({"linux_tree": t.described, "linux_tree_sha256": SHA}), t)

    def test_build_line(self) -> None:
        """make LINUX='s line: report's boot line, the hash cut alike."""
        t = Tree.of({**self.BOOT, "linux_tree_git": "v6.12-rc1-5-gabc"})
        assert t is not None
        self.assertEqual(display.tree_build_line(t), display.tree_note(t))
        self.assertEqual(display.tree_build_line(t, "bytes-esi"),
                         "tree primitives from Linux 6.12.118 (git v6.12-rc1-5-gabc, "
                         "clear_page_64.S sha256 0123456789ab), LINUX_ABI=bytes-esi")

    def test_none_and_unknown(self) -> None:
        self.assertIsNone(Tree.of({"version": "0.3"}))
        self.assertIsNone(Tree.of_row({"clear": "erms", "linux_tree": ""}))
        t = Tree.of({"linux_tree": "7.0.0"})
        assert t is not None
        self.assertEqual(display.tree_label(t), "Linux 7.0.0 (sha ?)")

    def test_routine(self) -> None:
        t = Tree.of(self.BOOT)
        cfg = {"clear": "linux-erms", "tree_routine": "clear_page_erms", "tree_abi": "per-page"}
        self.assertEqual(display.routine_label(t, cfg),
                         "Linux 6.12.118's clear_page_erms, per-page")
        self.assertEqual(display.routine_label(t, {"clear": "erms"}), "")
        self.assertEqual(display.routine_note(t, cfg),
                         "linux-erms: Linux 6.12.118's clear_page_erms, per-page "
                         "(clear_page_64.S sha256 0123456789ab)")
        self.assertEqual(display.clear_label({"clear": "linux-erms", "linux_tree": "6.12.118",
                                              "linux_tree_sha256": SHA}),
                         "linux-erms of Linux 6.12.118 (sha 0123456789ab)")
        self.assertEqual(display.clear_label({"clear": "erms", "linux_tree": ""}), "erms")


def boot(machine: str | None, lava: dict[str, str] | None = None) -> records.Boot:
    b = records.Boot(0)
    if machine is not None:
        b.records.append(records.Record(1, "machine", dict(
            kv.split("=", 1) for kv in machine.split()), 1))
    b.lava = lava
    return b


class MachineTest(unittest.TestCase):
    EPYC = "vendor=AuthenticAMD family=0x19 model=0x11 stepping=1 brand=EPYC hypervisor=none"

    def test_name_and_key(self) -> None:
        b = boot(self.EPYC)
        self.assertEqual(display.machine_name(b), "EPYC (AuthenticAMD family 0x19 model 0x11)")
        self.assertEqual(display.machine_key(b),
                         ("AuthenticAMD", "0x19", "0x11", "1", "EPYC", "none", ""))
        vm = boot(self.EPYC.replace("=none", "=KVMKVMKVM"))
        self.assertEqual(display.machine_name(vm),
                         "EPYC (AuthenticAMD family 0x19 model 0x11, under KVMKVMKVM)")
        self.assertTrue(display.is_vm(vm))
        self.assertFalse(display.is_vm(b))

    def test_missing_fields(self) -> None:
        b = boot("vendor=GenuineIntel")
        self.assertEqual(display.machine_name(b), "? (GenuineIntel family ? model ?)")
        self.assertEqual(display.machine_key(b), ("GenuineIntel", "", "", "", "", "", ""))
        none = boot(None)
        self.assertEqual(display.machine_name(none), "machine unknown")
        self.assertEqual(display.machine_brand(none), "machine unknown")
        self.assertEqual(display.machine_key(none), ())
        self.assertEqual(display.machine_long(none), "")

    def test_devices(self) -> None:
        a = boot(self.EPYC, {"device": "genoa-1"})
        b = boot(self.EPYC, {"device": "genoa-2"})
        plain = boot(self.EPYC)
        key = display.machine_key
        self.assertFalse(display.same_machine(key(a), key(b)), "two servers of one model")
        self.assertTrue(display.same_machine(key(a), key(plain)), "one log does not know")
        self.assertFalse(display.same_machine(key(a), key(boot(self.EPYC.replace("=1 ", "=2 ")))))
        self.assertEqual(display.machine_names([a, b, plain, a]),
                         ["EPYC (AuthenticAMD family 0x19 model 0x11) on genoa-1",
                          "EPYC (AuthenticAMD family 0x19 model 0x11) on genoa-2",
                          "EPYC (AuthenticAMD family 0x19 model 0x11)"])


# Where a name of the C tables is a string in the host tools on purpose:
# (file, the string) with why.
NAMED_ON_PURPOSE = {
    ("split.py", "erms"): "the CPU's feature flag (the machine record's and "
                          "/proc/cpuinfo's erms), not the primitive",
}


def c_names_written(path: Path) -> list[str]:
    """The strings of @path (docstrings aside) that are an order,
    primitive or folio size of the C tables, whole, or an order or
    primitive after a key's `=` or inside an f-string's text."""
    words = set(cnames.ORDERS) | set(cnames.PRIMS) | set(cnames.FOLIOS)
    named = set(cnames.ORDERS) | set(cnames.PRIMS)
    token = re.compile(r"(?<![\w-])(" + "|".join(sorted(map(re.escape, named),
                                                        key=len, reverse=True)) +
                       r")(?![\w-])")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
            and n.body and isinstance(n.body[0], ast.Expr)
            and isinstance(n.body[0].value, ast.Constant)}
    parts = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    out = []
    for n in ast.walk(tree):
        if not isinstance(n, ast.Constant) or not isinstance(n.value, str) or id(n) in docs:
            continue
        v = n.value
        hit = v if v in words else next((m.group(1) for m in token.finditer(v)
                                         if id(n) in parts or v[:m.start()].endswith("=")),
                                        None)
        if hit and (path.name, hit) not in NAMED_ON_PURPOSE:
            out.append(f"{path.relative_to(ROOT)}:{n.lineno}: {hit!r} in {v[:60]!r}")
    return out


class NamesTest(unittest.TestCase):
    def test_python_writes_no_c_name(self) -> None:
        """No order, primitive or folio size is written in the host tools:
        each comes from the C tables (scripts/hzlib/cnames.py)."""
        files = [*sorted((ROOT / "scripts").rglob("*.py")), ROOT / "scripts" / "hugezero",
                 ROOT / "scripts" / "linux-tree"]
        bad = [b for f in files for b in c_names_written(f)]
        self.assertEqual(bad, [], "\n".join(bad))

    def test_the_check_finds_them(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            probe = Path(d) / "probe.py"
            probe.write_text('"""converging-page in a docstring is prose."""\n'
                             'A = "2M"\nB = ["order=contiguous-page"]\nC = f"x erms {A}"\n'
                             'D = "a contiguous-page in prose"\n', encoding="utf-8")
            root = ROOT
            try:
                globals()["ROOT"] = Path(d)
                found = c_names_written(probe)
            finally:
                globals()["ROOT"] = root
        self.assertEqual([f.split(": ")[1] for f in found],
                         ["'2M' in '2M'", "'contiguous-page' in 'order=contiguous-page'",
                          "'erms' in 'x erms '"])

    def test_cnames_are_the_tables(self) -> None:
        """What cnames.py reads is what the companion's parser takes."""
        exe = paths.COMPANION
        if not exe.exists():
            self.skipTest(f"{exe} is missing: make")
        r = subprocess.run([str(exe), "--keys"], capture_output=True, text=True, timeout=60)
        rows = {ln.split("\t")[0]: ln.split("\t")[4] for ln in r.stdout.splitlines()[1:]}
        self.assertEqual(tuple(rows["folio"].split("|")[0].split(",")), cnames.FOLIOS)
        orders = rows["order"].split("|")[0].split(",")
        self.assertEqual(tuple(orders[:len(cnames.ORDERS)]), cnames.ORDERS)
        self.assertEqual(orders[len(cnames.ORDERS):], [cnames.ORDER_LINUX, cnames.ORDER_TREE])
        self.assertEqual(tuple(rows["clear"].split("|")[0].split(",")), cnames.PRIMS)
        self.assertEqual(rows["bench"].split("|"), list(cnames.BENCH.values()))

    def test_folios_as_lib_declares_them(self) -> None:
        text = "\n".join(p.read_text() for p in sorted((ROOT / "lib").glob("*.c")))
        m = re.search(r"folio_names\[\]\s*=\s*\{([^}]*)\}", text)
        assert m, "lib/*.c declares folio_names"
        self.assertEqual(tuple(re.findall(r'"([^"]+)"', m.group(1))), display.FOLIOS)

    def test_orders_as_lib_declares_them(self) -> None:
        text = (ROOT / "lib" / "order.h").read_text()
        self.assertEqual(tuple(re.findall(r'X\(\w+,\s*"([^"]+)"', text)), display.ORDERS)

    def test_folio_names(self) -> None:
        self.assertEqual([display.folio_bytes(f) for f in display.FOLIOS],
                         [4 << 10, 2 << 20, 1 << 30])
        self.assertEqual(display.folio_bytes("3M"), 0)
        self.assertEqual(display.folios_of(["1G", "4K", "1G", "8M"]), ["4K", "1G"])
        self.assertEqual(display.seed_folio("1G"), "1GB")
        self.assertEqual(display.seed_folio("4K"), "4KB")


if __name__ == "__main__":
    unittest.main()

# SPDX-License-Identifier: GPL-2.0-only
"""The boot command-line keys, declared once in lib/params.c's hz_params[]
and rendered by the companion (--help, --keys), `scripts/hugezero keys`
and docs/cmdline.md's committed tables: the committed tables are the
generated ones, every key is in them with a meaning, the companion's
--help lists its keys, `keys KEY` prints a key from the table, and the
docs' cells and pointers hold."""
from __future__ import annotations

import difflib
import io
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from hzlib import keys, paths  # noqa: E402

EXE = paths.COMPANION
HUGEZERO = ROOT / "scripts" / "hugezero"
CMDLINE_MD = ROOT / "docs" / "cmdline.md"
CELL_MAX = 400


def hugezero(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(HUGEZERO), "keys", *args],
                          capture_output=True, text=True, timeout=120)


def declared() -> list[str]:
    """The keys of hz_params[], read from the C source itself."""
    return re.findall(r'\.key = "(\w+)"', (ROOT / "lib" / "params.c").read_text())


def table_rows(text: str) -> list[list[str]]:
    """The cells of every table row of @text (a pipe escaped as \\| is
    inside its cell)."""
    return [[c.strip() for c in re.split(r"(?<!\\)\|", line.strip()[1:-1])]
            for line in text.splitlines() if line.startswith("|")]


class KeysTest(unittest.TestCase):
    table: list[keys.Key] = []

    @classmethod
    def setUpClass(cls) -> None:
        if EXE.exists():
            cls.table = keys.load(EXE)

    def setUp(self) -> None:
        self.assertTrue(EXE.exists(), f"{EXE} is missing: make build/hugezero-linux")
        self.docs = CMDLINE_MD.read_text(encoding="utf-8")

    def key(self, name: str) -> keys.Key:
        return next(k for k in self.table if k.key == name)

    def test_committed_tables_are_generated(self) -> None:
        if "linux-" in self.key("clear").values:
            self.skipTest(f"{EXE} was built with a Linux tree's primitives "
                          "(make LINUX=): its clear= values are not the committed table's")
        r = hugezero("--markdown")
        self.assertEqual(r.returncode, 0, r.stderr)
        generated = keys.committed(r.stdout)
        self.assertEqual([name for name, _ in keys.SECTIONS], list(generated))
        have = keys.committed(self.docs)
        for name, block in generated.items():
            self.assertIn(name, have, f"docs/cmdline.md has no '{keys.begin_marker(name)}'")
            diff = "\n".join(difflib.unified_diff(
                have[name].splitlines(), block.splitlines(), "docs/cmdline.md",
                "generated", lineterm=""))
            if have[name] != block:
                self.fail(f"docs/cmdline.md's key table '{name}' is not the "
                          "generated one: make, then scripts/hugezero keys "
                          "--markdown --write docs/cmdline.md\n" + diff)

    def test_every_key_in_the_table_and_the_docs(self) -> None:
        """Every user key in docs/cmdline.md's tables once; a test-only
        key (the hidden group) in none."""
        self.assertEqual([k.key for k in self.table], declared())
        rows = [r[0] for r in table_rows(self.docs)]
        for k in self.table:
            self.assertEqual(rows.count(f"`{k.key}`"), 0 if k.test_only else 1,
                             f"{k.key}: {'a test-only key in' if k.test_only else 'not one row in'} "
                             "docs/cmdline.md")
        self.assertTrue(any(k.test_only for k in self.table))

    def test_every_key_has_a_meaning(self) -> None:
        for k in self.table:
            self.assertTrue(k.meaning.strip(), f"{k.key}: no meaning")
            self.assertTrue(k.values.strip(), f"{k.key}: no values")
            self.assertIn(k.scope, keys.WHO, k.key)
            self.assertEqual(bool(k.default), not k.unset,
                             f"{k.key}: a default and a 'not given' text, or neither")

    def test_companion_help_lists_its_keys(self) -> None:
        r = subprocess.run([str(EXE), "--help"], capture_output=True, text=True,
                           timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("usage: hugezero-linux [--round-hook CMD] KEY=VALUE...", r.stdout)
        self.assertIn("--kernel-line", r.stdout)
        for no, line in enumerate(r.stdout.splitlines(), 1):
            self.assertLess(len(line), 80, f"--help line {no}: {line}")
            self.assertEqual(line, line.rstrip(), f"--help line {no}: trailing blanks")
        body, refused = r.stdout.split("kernel-only keys, refused here:")
        listed = re.findall(r"^  (\w+)=", body, re.M)
        user = [k for k in self.table if not k.test_only]
        self.assertEqual(listed, [k.key for k in user if k.scope != "kernel"])
        for k in self.table:
            if k.test_only:
                self.assertNotRegex(r.stdout, rf"\b{k.key}\b", "a test-only key in --help")
        # Each key's entry: its line and those indented below it, which a
        # wrap broke at a space, a comma or a bar (blanks compared away).
        entries = {m.group(1): re.sub(r"\s+", "", m.group(0)) for m in re.finditer(
            r"^  (\w+)=.*(?:\n {3,}\S.*)*", body, re.M)}
        for k in user:
            if k.scope == "kernel":
                self.assertRegex(refused, rf"\b{k.key}\b")
                continue
            entry = entries[k.key]
            values = k.values.split('; names:')[0].split(' (old')[0]
            self.assertIn(re.sub(r"\s+", "", f"{k.key}={values}"), entry)
            # as `keys KEY` and docs/cmdline.md say it: what not giving it does
            self.assertIn(re.sub(r"\s+", "", f"default: {k.default_text}"), entry, k.key)

    def test_keys_order_prints_the_table(self) -> None:
        order = self.key("order")
        r = hugezero("order")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(f"order={order.values}\n", r.stdout)
        self.assertIn(f"  default   {order.default}\n", r.stdout)
        self.assertEqual(order.default, "all")
        self.assertIn("converging-page", order.values)
        self.assertIn(f"more      {order.more}", r.stdout)
        r = hugezero("order=linux")
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_keys_lists_every_key(self) -> None:
        r = hugezero()
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        user = [k for k in self.table if not k.test_only]
        self.assertEqual([x.split()[0] for x in lines], [k.key for k in user])
        for line, k in zip(lines, user):
            self.assertIn(k.values, line)
            self.assertTrue(line.endswith(k.default or "not given"), line)
        r = hugezero("--test-only")
        self.assertEqual([x.split()[0] for x in r.stdout.splitlines()],
                         [k.key for k in self.table if k.test_only])

    def test_unknown_key(self) -> None:
        r = hugezero("ordr")
        self.assertEqual(r.returncode, 2)
        self.assertIn("no key 'ordr'", r.stderr)
        self.assertIn("closest: order", r.stderr)
        self.assertEqual(r.stdout, "")

    def test_companion_not_built(self) -> None:
        r = hugezero("--companion", "/nonexistent/hugezero-linux", "order")
        self.assertEqual(r.returncode, 2)
        self.assertIn("run make first", r.stderr)

    def test_write_puts_back_the_tables(self) -> None:
        stale = self.docs.replace("| `folio` |", "| `folio-old` |")
        with tempfile.TemporaryDirectory() as d:
            f = Path(d) / "cmdline.md"
            f.write_text(stale)
            r = hugezero("--markdown", "--write", str(f))
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(keys.committed(f.read_text()),
                             keys.committed(keys.markdown(self.table)))
            f.write_text("no tables here\n")
            r = hugezero("--markdown", "--write", str(f))
            self.assertEqual(r.returncode, 2)
            self.assertIn("no generated block", r.stderr)

    def test_cells_and_lines(self) -> None:
        for row in table_rows(self.docs):
            for c in row:
                self.assertLessEqual(len(c), CELL_MAX, f"a cell of {row[0]}: {c[:60]}...")
        for n, line in enumerate(self.docs.splitlines(), 1):
            if not line.startswith("|"):
                self.assertLessEqual(len(line), 200, f"docs/cmdline.md:{n}")

    def test_pointers_lead_somewhere(self) -> None:
        for k in self.table:
            if not k.more:
                continue
            m = keys.MORE_RE.match(k.more)
            self.assertIsNotNone(m, f"{k.key}: '{k.more}' is not docs/X.md[, \"Section\"]")
            assert m
            doc = ROOT / "docs" / m.group(1)
            self.assertTrue(doc.exists(), f"{k.key}: {doc} is missing")
            if m.group(2):
                self.assertIsNotNone(keys.find_section(doc, m.group(2)),
                                     f"{k.key}: no section '{m.group(2)}' in {doc}")

    def test_parse_refuses_other_columns(self) -> None:
        with self.assertRaises(keys.KeysError):
            keys.parse("key\tvalues\nfolio\t4K\n")
        out = io.StringIO()
        keys.entry(self.key("preempt"), out)
        self.assertIn("not given: ", out.getvalue())
        self.assertIn("the kernel only", out.getvalue())


if __name__ == "__main__":
    unittest.main()

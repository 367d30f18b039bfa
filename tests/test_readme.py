# SPDX-License-Identifier: GPL-2.0-only
"""README.md as a newcomer reads it, and every output excerpt of README.md
and docs/ held against what its command prints today (tests/test_docs.py
has the markers and the shape rule: measured numbers may differ; words,
headers, lines and other numbers may not).  README's commands themselves
run in a fresh clone in tests/test_doc_commands.py, which holds the
excerpts of `make run` to its output.

- ToolExcerptTest: each excerpt of a `scripts/hugezero` command on the
  logs of tests/data, run again here (cheap).
- MakeTestExcerptTest: `make test` is not run again from inside itself;
  README's excerpt of it is held against tests/run.py's own format
  strings, its last line against the closing one.

A failure names the excerpt (file:line) and shows the real output, to
paste when a wording changed on purpose.
"""
from __future__ import annotations

import ast
import re
import shlex
import subprocess
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_docs import DOCS, ROOT, Block, blocks, chunks, commands, mismatch  # noqa: E402

README = ROOT / "README.md"
RUN_PY = ROOT / "tests" / "run.py"
PYTHON = "/usr/bin/python3"


def excerpts() -> list[Block]:
    """Every output excerpt of README.md and docs/*.md."""
    return [b for p in [README, *sorted(DOCS.glob("*.md"))] for b in blocks(p)
            if b.kind == "output"]


def readme_commands() -> list[tuple[Block, list[str]]]:
    """README's commands blocks, each with its commands."""
    return [(b, commands(b)) for b in blocks(README) if b.kind == "commands"]


def shown(output: str, limit: int = 60) -> str:
    """The output as a failure shows it: enough to paste."""
    lines = output.rstrip("\n").split("\n")
    more = f"\n[... {len(lines) - limit} more lines]" if len(lines) > limit else ""
    return "\n".join(lines[:limit]) + more


def check(test: unittest.TestCase, b: Block, output: str) -> None:
    why = mismatch(b.lines, output)
    test.assertIsNone(why, f"{b.where}: the excerpt of `{b.command}` no longer matches: "
                           f"{why}\n--- the output now:\n{shown(output)}")


def has_scipy() -> bool:
    r = subprocess.run([PYTHON, "-c", "import scipy.stats"], capture_output=True)
    return r.returncode == 0


class ToolExcerptTest(unittest.TestCase):
    def test_tool_excerpts(self) -> None:
        """Those of a command no document runs (a log of tests/data);
        test_doc_commands holds the others to their runs."""
        ran = {c for p in [README, *sorted(DOCS.glob("*.md"))] for b in blocks(p)
               if b.kind == "commands" for c in commands(b)}
        mine = [b for b in excerpts() if b.command.startswith("scripts/hugezero ")
                and b.command not in ran]
        self.assertTrue(mine, "no excerpt of a scripts/hugezero command in the docs")
        if not has_scipy():
            self.skipTest("python3-scipy missing: the excerpts show its intervals")
        for b in mine:
            with self.subTest(b.where):
                argv = shlex.split(b.command)
                r = subprocess.run([PYTHON, *argv], cwd=ROOT, capture_output=True,
                                   text=True, timeout=300)
                self.assertIn(r.returncode, (0, 1), f"{b.where}: {b.command}: {r.stderr}")
                check(self, b, r.stdout)

    def test_every_excerpt_has_a_source(self) -> None:
        """An excerpt names a command a test runs: a scripts/hugezero one,
        or one of a document's commands blocks (test_doc_commands)."""
        known = {c for p in [README, *sorted(DOCS.glob("*.md"))] for b in blocks(p)
                 if b.kind == "commands" for c in commands(b)}
        orphans = [f"{b.where}: {b.command}" for b in excerpts()
                   if not b.command.startswith("scripts/hugezero ") and b.command not in known]
        self.assertEqual(orphans, [])

    def test_readme_is_short(self) -> None:
        """What it is, the two commands with their output, a patch in three
        commands, where to go next."""
        cmds = readme_commands()
        flat = [c for _, cs in cmds for c in cs]
        self.assertIn("make run", flat)
        self.assertIn("make test", flat)
        patch = [cs for _, cs in cmds if any("LINUX=" in c for c in cs)]
        self.assertEqual([len(cs) for cs in patch], [3], "the patch in three commands")
        said = {b.command for b in blocks(README) if b.kind == "output"}
        self.assertEqual(said & {"make run", "make test"}, {"make run", "make test"})
        self.assertLess(len(README.read_text(encoding="utf-8").split("\n")), 140)


def fstring_pattern(node: ast.JoinedStr) -> re.Pattern[str]:
    """A print's f-string as a pattern: each {…} any text."""
    parts = []
    for v in node.values:
        if isinstance(v, ast.Constant):
            parts.append(re.escape(str(v.value)))
        else:
            parts.append(".+?")
    return re.compile("".join(parts))


def run_py_formats() -> tuple[list[re.Pattern[str]], re.Pattern[str]]:
    """Every line tests/run.py prints (its print(f"...") calls), and the
    closing one: the last print of main()."""
    tree = ast.parse(RUN_PY.read_text(encoding="utf-8"))

    def prints(node: ast.AST) -> list[ast.JoinedStr]:
        return [c.args[0] for c in ast.walk(node)
                if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)
                and c.func.id == "print" and c.args and isinstance(c.args[0], ast.JoinedStr)]
    main = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "main")
    closing = max(prints(main), key=lambda n: n.lineno)
    return [fstring_pattern(n) for n in prints(tree)], fstring_pattern(closing)


class MakeTestExcerptTest(unittest.TestCase):
    def test_closing_line(self) -> None:
        every, closing = run_py_formats()
        self.assertTrue(closing.fullmatch("12 passed, 0 failed"), closing.pattern)
        mine = [b for b in excerpts() if b.command == "make test"]
        self.assertTrue(mine, "README shows no excerpt of make test")
        for b in mine:
            parts, _, open_bottom = chunks(b.lines)
            self.assertFalse(open_bottom, f"{b.where}: make test's excerpt must show its end")
            lines = [x for part in parts for x in part]
            self.assertTrue(closing.fullmatch(lines[-1]),
                            f"{b.where}: {lines[-1]!r} is not run.py's closing line "
                            f"({closing.pattern})")
            for x in lines[:-1]:
                self.assertTrue(any(p.fullmatch(x) for p in every),
                                f"{b.where}: run.py prints no line like {x!r}")

    def test_format_check_fails(self) -> None:
        every, closing = run_py_formats()
        self.assertIsNone(closing.fullmatch("12 passed; 0 failed"))
        self.assertFalse(any(p.fullmatch("all 12 tests passed") for p in every))


if __name__ == "__main__":
    unittest.main()

# SPDX-License-Identifier: GPL-2.0-only
"""What a newcomer does first, as README.md says it: its commands followed
literally in a fresh clone, and every output excerpt of README.md and
docs/ held against what the command prints today (tests/test_docs.py has
the markers and the shape rule: numbers may differ, words, headers and
lines may not).

- ToolExcerptTest: each excerpt of a `scripts/hugezero` command on the
  logs of tests/data, run again here (cheap).
- MakeTestExcerptTest: `make test` is not run again from inside itself;
  README's excerpt of it is held against tests/run.py's own format
  strings, its last line against the closing one.
- FreshCloneTest: `git clone` of this repository's HEAD (committed work
  only) into a temporary directory, then README's commands blocks in
  order: `make run` with HZ_NO_SETUP=1 (nothing installed) and
  MAKEFLAGS=-j2 (about 40 s on two idle cores), its output held against
  every `make run` excerpt.  The patch block's `~/linux` and
  `~/linux-patch` are copies of a stand-in tree (tests/data/linux-trees/
  v7.0) in a HOME of the test's own; its two `make run`s build and boot
  twice more, so by default each is only checked by `make -n` and the
  `compare` runs literally on the fresh `make run`'s log copied to both
  places.  HZ_README_FULL=1 runs all three as written.  Skipped, naming
  what is missing, without git, make, the toolchain or QEMU.

A failure names the excerpt (file:line) and shows the real output, to
paste when a wording changed on purpose.
"""
from __future__ import annotations

import ast
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_docs import DOCS, ROOT, Block, blocks, chunks, commands, mismatch  # noqa: E402

README = ROOT / "README.md"
RUN_PY = ROOT / "tests" / "run.py"
PYTHON = "/usr/bin/python3"
STAND_IN_TREE = ROOT / "tests" / "data" / "linux-trees" / "v7.0"
# What a fresh clone's `make run` needs, by the program that shows it.
TOOLS = {"git": "git", "make": "make", "gcc": "gcc", "nasm": "nasm", "ld": "binutils",
         "grub-mkrescue": "grub-common", "xorriso": "xorriso", "mformat": "mtools"}


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
        mine = [b for b in excerpts() if b.command.startswith("scripts/hugezero ")]
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
        """An excerpt names a command this test runs: a scripts/hugezero one,
        or one of README's commands blocks."""
        known = {c for _, cs in readme_commands() for c in cs}
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


def missing_tools() -> list[str]:
    """What README's make run needs here, each with its package: the
    toolchain, GRUB's BIOS modules (the ISO boots them), QEMU, and scipy
    (the excerpts show its intervals)."""
    out = [f"{exe} ({pkg})" for exe, pkg in TOOLS.items() if not shutil.which(exe)]
    if not Path("/usr/lib/grub/i386-pc").is_dir():
        out.append("GRUB's i386-pc modules (grub-pc-bin)")
    if not has_scipy():
        out.append("scipy (python3-scipy)")
    qemu = os.environ.get("HZ_QEMU") or "qemu-system-x86_64"
    if not shutil.which(qemu):
        out.append(f"{qemu} (qemu-system-x86)")
    return out


class FreshCloneTest(unittest.TestCase):
    """README's commands, in order, in a fresh clone."""

    def setUp(self) -> None:
        missing = missing_tools()
        if missing:
            self.skipTest("needs " + ", ".join(missing) + " (scripts/setup.sh installs them)")
        self.tmp = tempfile.TemporaryDirectory(prefix="hz-readme-")
        self.addCleanup(self.tmp.cleanup)
        top = Path(self.tmp.name)
        self.clone = top / "hugezero"
        self.home = top / "home"
        self.home.mkdir()
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
        subprocess.run(["git", "clone", "-q", "--no-checkout", str(ROOT), str(self.clone)],
                       check=True, capture_output=True)
        subprocess.run(["git", "-C", str(self.clone), "checkout", "-q", head], check=True,
                       capture_output=True)
        # The patch's trees: a stand-in's copies, where README puts them.
        for name in ("linux", "linux-patch"):
            shutil.copytree(STAND_IN_TREE, self.home / name)
        env = {k: v for k, v in os.environ.items()
               if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEFILES", "BUILD", "LINUX")}
        env.update(HOME=str(self.home), HZ_NO_SETUP="1", MAKEFLAGS="-j2")
        self.env = env

    def follow(self, cmd: str, dry: bool = False) -> str:
        """@cmd as a shell runs it in the clone (`make -n` with @dry), its
        output and errors as one stream; a failure stops the test."""
        line = re.sub(r"^make ", "make -n ", cmd) if dry else cmd
        t = time.monotonic()
        r = subprocess.run(["bash", "-c", line], cwd=self.clone, env=self.env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=1200)
        sys.stderr.write(f"\n  README: `{line}`: {time.monotonic() - t:.0f} s")
        self.assertEqual(r.returncode, 0, f"README's `{line}` failed in a fresh clone "
                                          f"(status {r.returncode}):\n{shown(r.stdout, 80)}")
        return r.stdout

    def test_follow_readme(self) -> None:
        full = os.environ.get("HZ_README_FULL") == "1"
        outputs: dict[str, str] = {}
        start = time.monotonic()
        for block, cmds in readme_commands():
            patch = any("LINUX=" in c for c in cmds)
            for cmd in cmds:
                if cmd == "make test":
                    continue        # this very suite: MakeTestExcerptTest
                if patch and not full and cmd.startswith("make run"):
                    self.follow(cmd, dry=True)
                    build = re.search(r"\bBUILD=(\S+)", cmd)
                    self.assertIsNotNone(build, f"{block.where}: {cmd}: no BUILD=")
                    dest = self.clone / build.group(1)  # type: ignore[union-attr]
                    dest.mkdir(parents=True, exist_ok=True)
                    shutil.copy(self.clone / "build" / "run.log", dest / "run.log")
                    continue
                outputs[cmd] = self.follow(cmd)
        sys.stderr.write(f"\n  README followed in {time.monotonic() - start:.0f} s"
                         f"{'' if full else ' (the patch block dry: HZ_README_FULL=1 boots it)'}\n")
        for b in excerpts():
            if b.command in outputs:
                with self.subTest(b.where):
                    check(self, b, outputs[b.command])
        self.assertIn("make run", outputs)


if __name__ == "__main__":
    unittest.main()

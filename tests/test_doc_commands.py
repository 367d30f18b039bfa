# SPDX-License-Identifier: GPL-2.0-only
"""Every command block of README.md and docs/*.md, run: a command a user
is told to run is one this suite runs, and a failing one fails it naming
the document's file and line.

Each document is a test of its own (test_README, test_companion, ...), in
a fresh clone of its own, its blocks in order, a command at a time, under
the rules tests/doccmd.py states (sizes, your trees, stand-in logs, root,
the dry forms).  After a command ran, each output excerpt of any
document whose command it is (`<!-- output: make run -->`, in README.md
and docs/reading-results.md) is held to its output (tests/test_docs.py's
shape rule).  README's `make test` is this
very run, and is not run again (tests/test_readme.py holds its excerpt).

test_counts prints the line make test shows, "doc blocks: ...": how many
blocks run as written, how many run dry and how many are marked not to
run, each with its reason (tests/run.py echoes it).
"""
from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

import doccmd  # noqa: E402
from hzlib import paths  # noqa: E402
from test_docs import ALL_MEASURED, Block, blocks, mismatch, rel  # noqa: E402

ROOT = doccmd.ROOT
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
THIS_RUN = "make test"
REQUIRE_TREE = os.environ.get("HZ_REQUIRE_LINUX_SOURCE") == "1"
# A program an optional part provides: (its package, how to install it,
# the variable that makes its absence a failure).
OPTIONAL = {"lava-run": ("lava-dispatcher", "scripts/setup.sh --lab", "HZ_REQUIRE_LAB")}
PATCH_COMPARE = "scripts/hugezero compare out/base/run.log out/patch/run.log"


def patch_compare(test: unittest.TestCase, out: str) -> None:
    """README's patch flow: both trees' folio_zero_user() named, and
    different (the radius changed); the two boots judged as one build's
    (control.py): every order=tree row set against its order=linux twin,
    every other row the same code."""
    m = re.search(r"^A: order=tree runs tree: (\S+) folio_zero_user \(sha (\w+)\), "
                  r"B: order=tree runs tree: (\S+) folio_zero_user \(sha (\w+)\)$", out, re.M)
    test.assertIsNotNone(m, f"compare names no order=tree text of each side:\n{out[:2000]}")
    assert m is not None
    test.assertNotEqual(m.group(2), m.group(4), "the patch's text has the base's sha")
    test.assertRegex(out, r"(?m)^boot to boot: \d+ rows run the same hugezero build's")
    lines = out.splitlines()
    rows = [(ln, lines[i + 1] if i + 1 < len(lines) else "") for i, ln in enumerate(lines)
            if ln.startswith("folio=")]
    tree = [(ln, nx) for ln, nx in rows if "order=tree" in ln]
    test.assertGreaterEqual(len(tree), 2, "\n".join(ln for ln, _ in rows))
    for ln, nx in tree:
        test.assertIn("vs twin below)", ln)
        test.assertTrue(nx.startswith("  vs order=linux in each boot"), f"{ln}\n{nx}")
    same = [ln for ln, _ in rows if "order=tree" not in ln]
    test.assertTrue(same and all(ln.endswith(", same code)") for ln in same),
                    "a row of hugezero's own code not judged as the same code:\n" +
                    "\n".join(ln for ln in same if not ln.endswith(", same code)")))


# What a test asserts of one command's output, beyond its status.
CHECKS = {PATCH_COMPARE: patch_compare}


def command_blocks(path: Path) -> list[Block]:
    return [b for b in blocks(path) if b.kind in ("commands", "dry", "not run")]


def shown(output: str, limit: int = 40) -> str:
    lines = output.rstrip("\n").split("\n")
    return "\n".join(lines[-limit:])


class DocCommands(unittest.TestCase):
    maxDiff = None

    def follow(self, path: Path, build: bool = True) -> None:
        todo = command_blocks(path)
        runnable = [b for b in todo if b.kind != "not run"]
        if not runnable:
            for b in todo:
                self.check_syntax(b)
            return
        tmp = tempfile.TemporaryDirectory(prefix=f"hz-doc-{path.stem}-")
        self.addCleanup(tmp.cleanup)
        clone = doccmd.Clone(Path(tmp.name), paths.BUILD)
        if build and path.name != "README.md":
            status, out, _ = clone.run("make all iso")
            self.assertEqual(status, 0, f"make all iso in a fresh clone:\n{shown(out)}")
        excerpts = [b for d in DOCS for b in blocks(d) if b.kind == "output"]
        for b in todo:
            with self.subTest(b.where):
                if b.kind == "not run":
                    self.check_syntax(b)
                    continue
                self.can_run(clone, b)
                for at, cmd in doccmd.commands(b.lines):
                    line = b.first + at
                    if cmd.strip() == THIS_RUN:
                        continue
                    out = self.one(clone, b, cmd, line)
                    if out is None:
                        continue
                    for ex in excerpts:
                        if ex.command == cmd.strip():
                            why = mismatch(ex.lines, out, ex.command in ALL_MEASURED)
                            self.assertIsNone(why, f"{ex.where}: the excerpt of `{cmd}` no "
                                                   f"longer matches: {why}\n--- the output "
                                                   f"now:\n{shown(out, 60)}")
                    if cmd.strip() in CHECKS:
                        CHECKS[cmd.strip()](self, out)

    def can_run(self, clone: doccmd.Clone, b: Block) -> None:
        """Your trees and the optional programs @b needs, or the block is
        skipped naming what is missing (a failure where HZ_REQUIRE_*
        says it must run)."""
        why = clone.trees("\n".join(b.lines) if b.kind == "commands" else "",
                          "\n".join(b.lines) if b.kind == "dry" else "")
        if why:
            if REQUIRE_TREE:
                self.fail(f"{b.where}: {why} (HZ_REQUIRE_LINUX_SOURCE=1)")
            self.skipped(f"{b.where}: {why}")
        if b.kind != "commands":
            return
        for prog, (pkg, how, must) in OPTIONAL.items():
            if re.search(rf"(^|\s){re.escape(prog)}\s", "\n".join(b.lines)) and \
                    not shutil.which(prog, path=clone.env.get("PATH")):
                why = f"{b.where}: needs {prog} ({pkg}: {how})"
                if os.environ.get(must) == "1":
                    self.fail(f"{why} ({must}=1)")
                self.skipped(why)

    def skipped(self, why: str) -> None:
        """A block skipped: said where make test shows it (run.SAID)."""
        print(f"doc blocks: skipped {why}", file=sys.stderr)
        self.skipTest(why)

    def one(self, clone: doccmd.Clone, b: Block, cmd: str, line: int) -> str | None:
        """@cmd of @b as its kind says; its output, None when only checked."""
        where = f"{rel(b.path)}:{line}"
        if b.kind == "dry":
            form = doccmd.dry(cmd)
            if form is None:
                self.assertTrue(doccmd.syntax_ok(cmd), f"{where}: `{cmd}` is not shell")
                return None
            run = doccmd.as_root(doccmd.small(form))
        else:
            run = doccmd.as_root(doccmd.small(cmd))
            clone.stand_in(cmd)
        status, out, secs = clone.run(run)
        want = doccmd.expected_status(cmd)
        sys.stderr.write(f"\n  {where}: `{run.splitlines()[0]}` {status} ({secs:.0f} s)")
        self.assertEqual(status, want, f"{where}: `{cmd}` (run as `{run}`) exited {status}, "
                                       f"not {want}:\n{shown(out)}")
        return out

    def check_syntax(self, b: Block) -> None:
        for at, cmd in doccmd.commands(b.lines):
            self.assertTrue(doccmd.syntax_ok(cmd),
                            f"{rel(b.path)}:{b.first + at}: `{cmd}` is not shell")

    def test_counts(self) -> None:
        """The three counts, and a reason on every block not run as
        written."""
        kinds: dict[str, list[Block]] = {"commands": [], "dry": [], "not run": []}
        for p in DOCS:
            for b in command_blocks(p):
                kinds[b.kind].append(b)
                if b.kind != "commands":
                    self.assertTrue(b.why, f"{b.where}: marked {b.kind} with no reason")
        print(f"doc blocks: {len(kinds['commands'])} run as written, {len(kinds['dry'])} "
              f"run dry, {len(kinds['not run'])} marked not to run, in {len(DOCS)} "
              "documents", file=sys.stderr)
        for b in kinds["dry"] + kinds["not run"]:
            print(f"doc blocks:   {b.where} {b.kind}: {b.why}", file=sys.stderr)
        self.assertTrue(kinds["commands"])
        # A check keyed by a command no document has would never apply.
        run = {c.strip() for b in kinds["commands"] for _, c in doccmd.commands(b.lines)}
        self.assertEqual(set(CHECKS) - run, set(), "CHECKS of commands no document runs")

    def test_a_failing_command_is_named(self) -> None:
        """A command planted in a document that fails fails its test,
        through the same path as every document's, naming the file and
        line."""
        with tempfile.TemporaryDirectory() as d:
            doc = Path(d) / "planted.md"
            doc.write_text("# planted\n\n<!-- commands -->\n```\ntrue\n"
                           "scripts/hugezero no-such-command\n```\n", encoding="utf-8")

            class Planted(DocCommands):
                def test_planted(self) -> None:
                    self.follow(doc, build=False)
            result = unittest.TestResult()
            Planted("test_planted").run(result)
        said = "\n".join(why for _, why in result.failures + result.errors)
        self.assertEqual(len(result.failures), 1, said)
        self.assertIn(f"{doc}:6: `scripts/hugezero no-such-command`", said)
        self.assertIn("exited 2, not 0", said)


def _doc_test(path: Path):  # type: ignore[no-untyped-def]
    def test(self: DocCommands) -> None:
        self.follow(path)
    test.__doc__ = f"{rel(path)}'s command blocks, in a fresh clone"
    return test


for _p in DOCS:
    if command_blocks(_p):
        setattr(DocCommands, f"test_{_p.stem.replace('-', '_')}", _doc_test(_p))


if __name__ == "__main__":
    unittest.main()

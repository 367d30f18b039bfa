# SPDX-License-Identifier: GPL-2.0-only
"""The documentation holds together: every doc is on docs/README.md's map,
every local link resolves (anchors too), no prose line is over 200
characters and no table cell over 400, and the glossary defines the words
the other docs lean on.

The helpers below also read the marked blocks of a doc, for
tests/test_readme.py and tests/test_doc_commands.py.  Every fenced block
of README.md and docs/*.md has a marker on the line before it (blank
lines between allowed; indented with its list item), and no doc has an
indented code block (BlocksTest):

    <!-- commands -->                  commands, one a line, run as written
    <!-- commands dry: WHY -->         commands that need what WHY names
                                       (a lab, a BMC, a tree of yours):
                                       their dry form runs instead
    <!-- commands not run: WHY -->     commands that nothing here can run
    <!-- output: COMMAND -->           COMMAND's output
    <!-- text -->                      not commands: a file, a listing, a
                                       boot line, messages a run prints

An excerpt is a shape, not a copy: each run of spaces stands for any run,
while words, column headers and the lines themselves must stay, and so do
the numbers that are not measured (format numbers, counts of cases,
names).  A number is measured, and may differ, when it has a decimal
point, or a unit of time, rate or share after it (s, ms, us, GHz, ppm,
ticks, %, GB/s ...), or follows a measured word (bound, within, skew, +-);
a hash (12 to 64 hex digits: a tree text's sha) may differ too;
every number is measured in the excerpt of a command whose whole output
is measured (make test: its counts depend on what the machine has).  A
line `...` stands for lines left out; without one at the top (bottom) the
excerpt starts (ends) where the output does.  A line ending in ` \\`
goes on in the next one (long lines folded to keep the 200-character
limit)."""
from __future__ import annotations

import re
import tempfile
import unittest
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
MAP = DOCS / "README.md"
GLOSSARY = DOCS / "glossary.md"

LINE_MAX = 200      # characters of a line outside a table
CELL_MAX = 400      # characters of a table cell

# The words every newcomer meets first, each defined in the glossary.
GLOSSARY_TERMS = ("folio", "fault", "pass", "run", "round", "round group",
                  "warm-up", "configuration", "roof", "net of the timer",
                  "primitive", "order", "dimension", "record", "summary",
                  "aggregate", "split", "companion", "bare")


def checked_docs() -> list[Path]:
    """The files the line and cell limits hold for."""
    return [ROOT / "README.md", *sorted(DOCS.glob("*.md")), ROOT / "tests" / "README.md"]


# --- marked blocks -----------------------------------------------------------

MARK = re.compile(r"^\s*<!--\s*(?:(?P<kind>commands|text)(?:\s+(?P<how>dry|not run):"
                  r"\s*(?P<why>.+?))?|output:\s*(?P<cmd>.+?))\s*-->\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")
GAP = "..."
# Every output excerpt's numbers are measured for these commands.
ALL_MEASURED = ("make test",)


@dataclass
class Block:
    """A marked fenced block: @kind 'commands', 'dry', 'not run', 'output'
    or 'text'; @command the output's command; @why a dry or not-run
    block's reason; @lines its lines, less the fence's indent; @path and
    @line (of the marker) to name it, @first the line of its first line."""
    kind: str
    command: str
    lines: list[str]
    path: Path
    line: int
    why: str = ""
    first: int = 0

    @property
    def where(self) -> str:
        return f"{rel(self.path)}:{self.line}"


def rel(path: Path) -> str:
    """@path as the messages name it: from the top of the repository."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def blocks(path: Path) -> list[Block]:
    """The marked blocks of @path, in order; a marker not followed by a
    fenced block (blank lines between are allowed) is an error."""
    text = path.read_text(encoding="utf-8").split("\n")
    out = []
    i = 0
    while i < len(text):
        m = MARK.match(text[i])
        if not m:
            i += 1
            continue
        start = i + 1
        j = start
        while j < len(text) and not text[j].strip():
            j += 1
        if j >= len(text) or not FENCE.match(text[j]):
            raise ValueError(f"{rel(path)}:{i + 1}: a marker with no fenced "
                             "block after it")
        k = j + 1
        while k < len(text) and not FENCE.match(text[k]):
            k += 1
        indent = len(text[j]) - len(text[j].lstrip())
        body = [x[indent:] if x[:indent].strip() == "" else x for x in text[j + 1:k]]
        kind = m.group("how") or m.group("kind") or "output"
        out.append(Block(kind, (m.group("cmd") or "").strip(), body, path, i + 1,
                         (m.group("why") or "").strip(), j + 2))
        i = k + 1
    return out


def unmarked(path: Path) -> list[str]:
    """Each code block of @path that no marker names: a fenced block with
    no marker before it, or an indented code block (four spaces past the
    list item it is in, after a blank line), as file:line."""
    text = path.read_text(encoding="utf-8").split("\n")
    out, fence, item, marked = [], False, 0, False
    for n, line in enumerate(text, 1):
        if FENCE.match(line):
            if not fence and not marked:
                out.append(f"{rel(path)}:{n}: a fenced block with no marker")
            fence, marked = not fence, False
            continue
        if fence:
            continue
        if MARK.match(line):
            marked = True
            continue
        m = re.match(r"^(\s*)([-*]|\d+\.)\s+", line)
        if m:
            item = len(m.group(0))
        elif line.strip() and not line.startswith(" "):
            item = 0
        if line.strip():
            marked = False
            prev = text[n - 2] if n > 1 else ""
            if (not prev.strip() and len(line) - len(line.lstrip(" ")) >= item + 4
                    and not m and not line.lstrip().startswith("|")):
                out.append(f"{rel(path)}:{n}: an indented code block: fence it "
                           "and mark it")
    return out


def commands(block: Block) -> list[str]:
    """A commands block's commands, each without its `# comment`."""
    out = []
    for line in block.lines:
        cmd = re.sub(r"(^|\s+)#.*$", "", line).strip()
        if cmd:
            out.append(cmd)
    return out


def unfold(lines: list[str]) -> list[str]:
    """Lines with each ` \\` fold joined to the line after it."""
    out: list[str] = []
    carry = None
    for line in lines:
        if carry is not None:
            line = carry + " " + line.lstrip()
            carry = None
        if line.endswith(" \\"):
            carry = line[:-2].rstrip()
            continue
        out.append(line)
    if carry is not None:
        out.append(carry)
    return out


NUMBER = r"[-+]?(?:0x[0-9a-fA-F]+|\d+(?:\.\d+)?)"
# A hash (a tree's sha256, shown by its first 12 digits): it names the
# text a run read, which a tree of another version changes.
HASH = r"\b[0-9a-f]{12,64}\b"
TOKEN = re.compile(rf"( +|{HASH}|{NUMBER})")
# What makes a number measured (the module's docstring): a unit after it,
# a word before it.
UNIT = re.compile(r"^ ?(?:s|ms|us|µs|ns|GHz|MHz|kHz|Hz|ppm|ticks?|%|GB/s|GB/sec|MB/sec|"
                  r"MB/s|GiB/s|KB/s)(?![A-Za-z])")
MEASURED_BEFORE = re.compile(r"(?:\bbound|\bwithin|\bskew|\+-|±|\bp=|\bmedian|\bmin|\bmax)\s*$")


def measured(parts: list[str], i: int) -> bool:
    """Whether the number parts[i] of a line's tokens is a measured one."""
    if "." in parts[i] and not parts[i].startswith("0x"):
        return True
    return bool(UNIT.match("".join(parts[i + 1:i + 3])) or
                MEASURED_BEFORE.search("".join(parts[:i])))


def line_pattern(line: str, all_measured: bool = False) -> re.Pattern[str]:
    """@line as a shape: each run of spaces any run (an indented line stays
    indented), each measured number (every number, with @all_measured)
    any number, every other character itself."""
    body = line.rstrip()
    indent = len(body) - len(body.lstrip(" "))
    out = ["[ ]+" if indent else ""]
    toks = [t for t in TOKEN.split(body.lstrip(" ")) if t]
    for i, tok in enumerate(toks):
        if tok.startswith(" "):
            out.append("[ ]*")
        elif re.fullmatch(HASH, tok):
            out.append(HASH)
        elif re.fullmatch(NUMBER, tok) and (all_measured or measured(toks, i)):
            out.append(NUMBER)
        else:
            out.append(re.escape(tok))
    return re.compile("".join(out))


def chunks(lines: list[str]) -> tuple[list[list[str]], bool, bool]:
    """An excerpt's runs of lines between `...` gaps, and whether it is
    open at the top and at the bottom."""
    lines = unfold(lines)
    out: list[list[str]] = [[]]
    for line in lines:
        if line.strip() == GAP:
            out.append([])
        else:
            out[-1].append(line)
    top = bool(lines) and lines[0].strip() == GAP
    bottom = bool(lines) and lines[-1].strip() == GAP
    return [c for c in out if c], top, bottom


def mismatch(excerpt: list[str], output: str, all_measured: bool = False) -> str | None:
    """None when @output has @excerpt's shape, else what differs: the
    excerpt's first line found nowhere it could be."""
    got = [line.rstrip() for line in output.rstrip("\n").split("\n")]
    parts, open_top, open_bottom = chunks(excerpt)
    at = 0
    for n, part in enumerate(parts):
        pats = [line_pattern(x, all_measured) for x in part]
        starts = (range(at, len(got) - len(pats) + 1)
                  if open_top or n > 0 else range(0, 1))
        found = None
        best = (0, part[0])
        for s in starts:
            k = 0
            while k < len(pats) and s + k < len(got) and pats[k].fullmatch(got[s + k]):
                k += 1
            if k == len(pats):
                found = s
                break
            if k >= best[0] and s + k < len(got):
                best = (k, part[k] if k < len(part) else part[-1])
                best_at = s + k
        if found is None:
            near = got[best_at] if best[0] else "(no line of the output starts it)"
            return f"excerpt line {best[1]!r} does not match the output's {near!r}"
        at = found + len(pats)
    if parts and not open_bottom and at != len(got):
        return f"the output goes on after the excerpt's last line: {got[at]!r}"
    return None


# --- links -----------------------------------------------------------------

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")


def anchors(path: Path) -> set[str]:
    """The anchors of @path's headings, as GitHub makes them."""
    out: set[str] = set()
    fence = False
    for line in path.read_text(encoding="utf-8").split("\n"):
        if FENCE.match(line):
            fence = not fence
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m and not fence:
            a = m.group(1).strip().lower()
            a = re.sub(r"[^\w\- ]", "", a).replace(" ", "-")
            base, n = a, 1
            while a in out:
                a = f"{base}-{n}"
                n += 1
            out.add(a)
    return out


def prose(path: Path) -> list[tuple[int, str]]:
    """@path's lines outside fenced blocks, numbered from 1."""
    out, fence = [], False
    for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if FENCE.match(line):
            fence = not fence
            continue
        if not fence:
            out.append((n, line))
    return out


def broken_links(path: Path) -> list[str]:
    """Every local link of @path whose file (or anchor) is not there."""
    out = []
    for n, line in prose(path):
        for target in LINK.findall(line):
            if re.match(r"^[a-z]+:", target):
                continue        # http:, https:, mailto:
            file, _, anchor = target.partition("#")
            dest = (path.parent / file).resolve() if file else path
            if not dest.exists():
                out.append(f"{rel(path)}:{n}: {target}: no such file")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                out.append(f"{rel(path)}:{n}: {target}: no such heading")
    return out


def cells(line: str) -> list[str]:
    """A table row's cells (a `|` in backquotes or escaped is no border)."""
    body = line.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
    out, cur, code = [], "", False
    for i, ch in enumerate(body):
        if ch == "`":
            code = not code
        if ch == "|" and not code and (i == 0 or body[i - 1] != "\\"):
            out.append(cur)
            cur = ""
        else:
            cur += ch
    return out + [cur]


def over_limits(path: Path) -> list[str]:
    """Each line over LINE_MAX outside a table, and each table cell over
    CELL_MAX, as file:line: what."""
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        where = f"{rel(path)}:{n}"
        if line.lstrip().startswith("|"):
            for c in cells(line):
                if len(c.strip()) > CELL_MAX:
                    out.append(f"{where}: a table cell of {len(c.strip())} characters "
                               f"(at most {CELL_MAX}): {c.strip()[:60]}...")
        elif len(line) > LINE_MAX:
            out.append(f"{where}: a line of {len(line)} characters (at most {LINE_MAX})")
    return out


# --- the tests ---------------------------------------------------------------


class MapTest(unittest.TestCase):
    def test_every_doc_on_the_map(self) -> None:
        text = MAP.read_text(encoding="utf-8")
        linked = {(MAP.parent / t.partition("#")[0]).resolve()
                  for t in LINK.findall(text) if not re.match(r"^[a-z]+:", t)}
        missing = [p.name for p in sorted(DOCS.glob("*.md"))
                   if p != MAP and p.resolve() not in linked]
        self.assertEqual(missing, [], "docs/README.md does not link them")
        self.assertIn((ROOT / "tests" / "README.md").resolve(), linked)

    def test_readme_points_to_the_map(self) -> None:
        self.assertIn("docs/README.md", LINK.findall(
            (ROOT / "README.md").read_text(encoding="utf-8")))

    def test_links_resolve(self) -> None:
        bad = [b for p in checked_docs() for b in broken_links(p)]
        self.assertEqual(bad, [], "\n".join(bad))

    def test_link_checker_fails(self) -> None:
        """The checker finds a missing file and a missing heading."""
        with tempfile.TemporaryDirectory() as d:
            tmp = Path(d) / "probe.md"
            (Path(d) / "other.md").write_text("# A heading, here\n", encoding="utf-8")
            tmp.write_text("[a](nowhere.md) [b](other.md#no-such-heading) "
                           "[c](other.md#a-heading-here) [d](#probe)\n# Probe\n",
                           encoding="utf-8")
            bad = broken_links(tmp)
        self.assertEqual([b.split(": ")[-1] for b in bad], ["no such file", "no such heading"])


class LimitsTest(unittest.TestCase):
    def test_lines_and_cells(self) -> None:
        bad = [b for p in checked_docs() for b in over_limits(p)]
        self.assertEqual(bad, [], "\n".join(bad))

    def test_limits_fail(self) -> None:
        """A long line and a long cell are found; a long cell is no long line."""
        with tempfile.TemporaryDirectory() as d:
            tmp = Path(d) / "probe.md"
            tmp.write_text("x" * 201 + "\n| a | " + "y" * 401 + " |\n| `a|b` | " +
                           "z" * 300 + " |\n", encoding="utf-8")
            bad = over_limits(tmp)
        self.assertEqual([b.split(": ")[1][:6] for b in bad], ["a line", "a tabl"], bad)


class GlossaryTest(unittest.TestCase):
    def test_defines_the_terms(self) -> None:
        text = GLOSSARY.read_text(encoding="utf-8")
        defined = {m.group(1).lower() for m in
                   re.finditer(r"^\*\*([^*]+)\*\*", text, re.M)}
        missing = [t for t in GLOSSARY_TERMS if t not in defined]
        self.assertEqual(missing, [], "docs/glossary.md: no '**TERM**' entry")

    def test_each_term_links_onwards(self) -> None:
        """Each entry says where it is detailed: a link in its paragraph."""
        text = GLOSSARY.read_text(encoding="utf-8")
        bare = [m.group(1) for m in re.finditer(r"^\*\*([^*]+)\*\*(.*?)(?=^\*\*|^#|\Z)",
                                                text, re.M | re.S)
                if not LINK.search(m.group(2))]
        self.assertEqual(bare, [], "glossary entries without a link onwards")


class BlocksTest(unittest.TestCase):
    """Every code block says what it is, so that tests/test_doc_commands.py
    runs every command block and none is missed."""

    def test_every_block_marked(self) -> None:
        bad = [b for p in [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
               for b in unmarked(p)]
        self.assertEqual(bad, [], "\n".join(bad))

    def test_unmarked_found(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            tmp = Path(d) / "probe.md"
            tmp.write_text("text\n\n```\nmake oops\n```\n\n<!-- commands -->\n```\nmake\n```\n"
                           "\n    make indented\n\n1. item\n\n   <!-- text -->\n   ```\n   x\n"
                           "   ```\n\n   continued item\n", encoding="utf-8")
            bad = unmarked(tmp)
            kinds = [b.kind for b in blocks(tmp)]
        self.assertEqual([b.split(": ", 1)[1][:14] for b in bad],
                         ["a fenced block", "an indented co"], bad)
        self.assertEqual(kinds, ["commands", "text"])


class ExcerptShapeTest(unittest.TestCase):
    """The shape rule itself: numbers and spaces may change, words and
    lines may not."""

    def test_measured_numbers_and_spaces_may_change(self) -> None:
        ex = ["a:  1.50 +- 3.0%  0x6b", "  b 12 [ -87.9,  -77.1] in 15 s, 3 ticks (bound 2096)"]
        self.assertIsNone(mismatch(ex, "a: 10.25 +- 13.25% 0x6b\n"
                                       "  b 12 [-100.0, -7.0] in 9 s, 40 ticks (bound 1000)\n"))
        self.assertIsNone(mismatch(["tree (sha 19cab87fac87)"], "tree (sha fb728455cf7f)\n"))

    def test_other_numbers_may_not(self) -> None:
        """A format number, a count of cases, a name's digits stay."""
        for ex, out in ((["record format 4"], "record format 5\n"),
                        (["PASS: 149 cases, 19 skipped, 15 s"], "PASS: 165 cases, 19 skipped, 15 s\n"),
                        (["L1d 64K, family 0x6b"], "L1d 32K, family 0x6b\n"),
                        (["L1d 64K, family 0x6b"], "L1d 64K, family 0xf\n")):
            self.assertIsNotNone(mismatch(ex, out), out)
            self.assertIsNone(mismatch(ex, out, all_measured=True), out)

    def test_words_lines_and_indent_may_not(self) -> None:
        ex = ["a: 1 GB/s", "  b 2"]
        for out in ("a: 1 GiB/s\n  b 2\n", "a: 1 GB/s\nb 2\n", "a: 1 GB/s\n",
                    "x\na: 1 GB/s\n  b 2\n", "a: 1 GB/s\n  b 2\nmore\n",
                    "a: 1 GB/s\n  b two\n"):
            self.assertIsNotNone(mismatch(ex, out), out)

    def test_gaps_and_folds(self) -> None:
        ex = ["...", "b 1.0 \\", "    c 2 s", "...", "e"]
        self.assertIsNone(mismatch(ex, "a\nb 5.5 c 6 s\nd\ne\n"))
        self.assertIsNotNone(mismatch(ex, "a\nb 5.5\nc 6 s\nd\ne\n"))
        self.assertIsNotNone(mismatch(ex, "a\nb 5.5 c 6 s\nd\ne\nf\n"))


if __name__ == "__main__":
    unittest.main()

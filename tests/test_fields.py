# SPDX-License-Identifier: GPL-2.0-only
"""The record fields and CSV columns declared once (scripts/hzlib/fields.py)
against what uses them: docs/records.md's generated tables, every field the
C writers write (a small C-aware scan of lib/, kernel/, hosted/ that
follows a name a helper builds from its caller's literal), every
field of the real logs kept under tests/data (and the build directory's
test-logs/*.log when present), dims.py's bookkeeping and defaults, and the CSV headers
`parse --format csv` writes (with `--rows agg`, `--rows samples` too)."""
from __future__ import annotations

import csv
import io
import re
import subprocess
import sys
import tempfile
import unittest
from dataclasses import dataclass, field
from typing import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from hzlib import dims, fields, lavalog, paths  # noqa: E402

from synth import Log, kernel_config, pmu_config, prezero_log  # noqa: E402

HZ = [sys.executable, str(ROOT / "scripts" / "hugezero")]
DATA = ROOT / "tests" / "data"
DOC = ROOT / "docs" / "records.md"

# --- the C scan ---------------------------------------------------------------

WRITES = ("rec_u64", "rec_s64", "rec_hex", "rec_str")
# How a writer builds a field's name at run time: into a buffer, from a
# format whose %s are literals its callers pass or a table of names
# (lib/boost.c's rec_regs, hosted/sched_info.c's setting_record).
FORMATS = ("ksnprintf", "snprintf")
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "do", "else"}
CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')
NAME = re.compile(r"[a-z0-9_]+")


def masked(text: str) -> str:
    """@text, same length, comments and preprocessor lines blanked and the
    inside of string and character literals replaced by '_': what is left
    is the code's structure, at the same offsets."""
    out = list(text)
    i, n, line_start = 0, len(text), True
    while i < n:
        c = text[i]
        if line_start and c == "#":
            while i < n and text[i] != "\n":       # a preprocessor line
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out[i] = " "
                    i += 2
                    continue
                out[i] = " "
                i += 1
            continue
        if c == "\n":
            line_start = True
            i += 1
            continue
        if not c.isspace():
            line_start = False
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if text[k] != "\n":
                    out[k] = " "
            i = j
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                out[i] = " "
                i += 1
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                if text[j] == "\\":
                    out[j] = "_"
                    j += 1
                out[j] = "_"
                j += 1
            i = j + 1
        else:
            i += 1
    return "".join(out)


def close(m: str, i: int) -> int:
    """The offset of the bracket closing the one at @i in masked text @m."""
    pairs = {"(": ")", "{": "}", "[": "]"}
    want, depth = pairs[m[i]], 0
    for j in range(i, len(m)):
        if m[j] == m[i]:
            depth += 1
        elif m[j] == want:
            depth -= 1
            if depth == 0:
                return j
    return len(m) - 1


def split_args(m: str, lo: int, hi: int) -> list[tuple[int, int]]:
    """The spans of the comma-separated arguments between @lo and @hi."""
    out, depth, start = [], 0, lo
    for j in range(lo, hi):
        if m[j] in "([{":
            depth += 1
        elif m[j] in ")]}":
            depth -= 1
        elif m[j] == "," and depth == 0:
            out.append((start, j))
            start = j + 1
    if m[start:hi].strip():
        out.append((start, hi))
    return out


@dataclass
class Call:
    callee: str
    args: list[str]
    line: int


@dataclass
class Func:
    path: str
    name: str
    params: list[str]
    calls: list[Call] = field(default_factory=list)


def param_name(text: str) -> str:
    fp = re.search(r"\(\s*\*\s*(\w+)\s*\)", text)
    if fp:
        return fp.group(1)
    ids = re.findall(r"[A-Za-z_]\w*", text)
    return ids[-1] if ids else ""


def functions(path: str, text: str) -> list[Func]:
    m = masked(text)
    out, depth, stop, i = [], 0, 0, 0
    while i < len(m):
        c = m[i]
        if c in ";}" and depth == 0:
            stop = i + 1
        elif c == "{" and depth == 0:
            end = close(m, i)
            head = m[stop:i].rstrip()
            if head.endswith(")"):
                po = head.rfind("(", 0, len(head))
                # the parameter list's opening bracket
                d = 0
                for j in range(len(head) - 1, -1, -1):
                    d += head[j] == ")"
                    d -= head[j] == "("
                    if d == 0:
                        po = j
                        break
                nm = re.search(r"(\w+)\s*$", head[:po])
                if nm:
                    params = [param_name(head[a:b]) for a, b in
                              split_args(head, po + 1, len(head) - 1)]
                    f = Func(path, nm.group(1), params)
                    for cm in CALL.finditer(m, i, end):
                        if cm.group(1) in KEYWORDS:
                            continue
                        o = cm.end() - 1
                        args = [text[a:b].strip() for a, b in split_args(m, o + 1, close(m, o))]
                        f.calls.append(Call(cm.group(1), args, text.count("\n", 0, cm.start()) + 1))
                    out.append(f)
            stop = i = end + 1
            continue
        i += 1
    return out


@dataclass
class Written:
    """A field a writer writes: @name, or None for a name built at run
    time that the scan cannot follow.  @path is the writer's file (its
    side); @where the line that gave the name: the write's, or the call
    that passed the name (or its part) to a helper."""
    rtype: str
    name: str | None
    path: str
    where: str
    func: str


# A value a helper's parameter is bound to: the caller's text, and the
# line that passed it.
Bound = tuple[str, str]


class Scan:
    def __init__(self, root: Path, dirs: tuple[str, ...] = ("lib", "kernel", "hosted"),
                 texts: dict[str, str] | None = None) -> None:
        """The writers of @root's @dirs; @texts replaces some files'
        text (by path from @root), for a test to plant a change."""
        self.funcs: dict[str, list[Func]] = {}
        self.texts: dict[str, str] = {}
        for d in dirs:
            for p in sorted((root / d).rglob("*.c")):
                rel = str(p.relative_to(root))
                if rel == "lib/record.c":
                    continue
                text = (texts or {}).get(rel) or p.read_text(errors="replace")
                self.texts[rel] = text
                for f in functions(rel, text):
                    self.funcs.setdefault(f.name, []).append(f)

    def resolve(self, name: str, path: str) -> Func | None:
        fs = self.funcs.get(name, [])
        same = [f for f in fs if f.path == path]
        return same[0] if same else fs[0] if len(fs) == 1 else None

    def written(self) -> list[Written]:
        out: list[Written] = []
        for fs in self.funcs.values():
            for f in fs:
                cur = None
                for c in f.calls:
                    if c.callee == "rec_begin" and len(c.args) == 3:
                        lits = LITERAL.findall(c.args[2])
                        cur = lits[0] if lits else "?"
                    elif c.callee == "rec_end":
                        cur = None
                    elif cur is not None:
                        out.extend(self.expand(f, c, cur, {}, 0))
        return out

    def expand(self, f: Func, c: Call, rtype: str, bind: dict[str, Bound],
               depth: int) -> list[Written]:
        here = f"{f.path}:{c.line}"
        if c.callee in WRITES and len(c.args) >= 2:
            return self.keys(f, c.args[1], rtype, bind, here)
        if c.callee == "rec_raw" and c.args[1:]:
            return [Written(rtype, k, f.path, here, f.name)
                    for lit in LITERAL.findall(c.args[1])
                    for k in re.findall(r"\s([a-z0-9_]+)=$", lit)]
        g = self.resolve(c.callee, f.path)
        if g is None or depth > 8 or c.callee == "rec_begin":
            return []
        sub = {p: bind.get(a, (a, here)) for p, a in zip(g.params, c.args)}
        out: list[Written] = []
        cur: str | None = rtype
        for gc in g.calls:
            if gc.callee == "rec_begin":
                cur = None          # a record of its own, scanned in its turn
            elif cur is not None:
                out.extend(self.expand(g, gc, rtype, sub, depth + 1))
        return out

    def keys(self, f: Func, arg: str, rtype: str, bind: dict[str, Bound],
             here: str) -> list[Written]:
        text, where = bind.get(arg, (arg, here))
        lits = LITERAL.findall(text)
        if lits:
            return [Written(rtype, k, f.path, where, f.name) for k in lits]
        built = self.built(f, arg, bind)
        if built is None:
            return [Written(rtype, None, f.path, here, f.name)]
        return [Written(rtype, k, f.path, w or here, f.name) for k, w in built]

    def built(self, f: Func, var: str, bind: dict[str, Bound]) -> list[tuple[str, str]] | None:
        """The names @f builds in its buffer @var with one FORMATS call,
        each with the line that passed its literal part (or ""): the
        format's every %s replaced by the literal its argument is (a
        parameter: what the caller passed), or by each string of the
        table it indexes; None where the scan cannot tell."""
        made = [c for c in f.calls if c.callee in FORMATS and c.args and c.args[0] == var]
        if len(made) != 1 or len(made[0].args) < 3:
            return None
        fmt = LITERAL.fullmatch(made[0].args[2])
        if fmt is None or re.search(r"%[^s%]", fmt.group(1)):
            return None
        pieces = fmt.group(1).split("%s")
        values = made[0].args[3:]
        if len(values) != len(pieces) - 1:
            return None
        names: list[tuple[str, str]] = [(pieces[0], "")]
        for v, after in zip(values, pieces[1:]):
            text, where = bind.get(v, (v, ""))
            lit = LITERAL.fullmatch(text)
            table = re.fullmatch(r"(\w+)\s*\[[^]]*\]", text)
            choices = [lit.group(1)] if lit else self.table(f.path, table.group(1)) \
                if table else None
            if not choices:
                return None
            names = [(n + ch + after, w or where) for n, w in names for ch in choices]
        return names

    def table(self, path: str, name: str) -> list[str] | None:
        """The strings of the array @name initialised in @path (or, if
        not there, in one other scanned file)."""
        rx = re.compile(rf"\b{name}\s*\[[^]]*\]\s*=\s*\{{([^}}]*)\}}")
        m = rx.search(masked_comments(self.texts.get(path, "")))
        if m is None:
            found = [m for t in self.texts.values() if (m := rx.search(masked_comments(t)))]
            m = found[0] if len(found) == 1 else None
        return LITERAL.findall(m.group(1)) if m else None


def masked_comments(text: str) -> str:
    """@text without its comments."""
    return re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.S)


def undeclared(written: list[Written], lookup: Callable[[str, str], fields.Field | None]
               = fields.lookup) -> tuple[list[str], dict[tuple[str, str], set[str]]]:
    """What @written writes that @lookup does not declare, one line each
    naming where; and the declared fields written, by the sides (top
    directories) that write them."""
    bad: list[str] = []
    seen: dict[tuple[str, str], set[str]] = {}
    for w in written:
        if w.name is None:
            bad.append(f"{w.where}: {w.rtype}: a field named at run time in {w.func}() "
                       f"that the scan cannot follow (build it with {FORMATS[0]}() from "
                       "literals or a table of names)")
            continue
        f = lookup(w.rtype, w.name)
        if f is None:
            bad.append(f"{w.where}: {w.rtype}.{w.name} is not declared in "
                       f"scripts/hzlib/fields.py (written by {w.func}())")
            continue
        seen.setdefault((w.rtype, f.name), set()).add(w.path.split("/")[0])
    return list(dict.fromkeys(bad)), seen


# --- the logs -------------------------------------------------------------------


def kept_logs() -> list[Path]:
    """The real logs kept under tests/data (serial and LAVA), and those the
    QEMU tests left in the build directory's test-logs/ (paths.BUILD)."""
    logs = sorted(p for p in DATA.rglob("*.log"))
    logs += sorted(p for p in (DATA / "lava").glob("*.yaml")
                   if p.name.endswith((".lava-run.yaml", ".output.yaml")))
    return logs + sorted((paths.BUILD / "test-logs").glob("*.log"))


def record_format() -> int:
    text = (ROOT / "lib" / "version.h").read_text()
    return int(re.search(r"#define RECORD_FORMAT (\d+)", text).group(1))  # type: ignore[union-attr]


def csv_header(text: str) -> list[str]:
    with tempfile.TemporaryDirectory() as d:
        log = Path(d) / "every-group.log"
        log.write_text(text)
        return parse_header(log)


def parse_header(log: Path, *rows: str) -> list[str]:
    """The header `parse --format csv` writes for @log (with @rows:
    `--rows agg`, `--rows samples`)."""
    r = subprocess.run([*HZ, "parse", str(log), "--format", "csv", *rows],
                       capture_output=True, text=True)
    return next(csv.reader(io.StringIO(r.stdout)), [])


def every_group_log() -> str:
    """A synthetic boot whose CSV has every optional column group: a newer
    dimension (hz), the zeroers' counts, counters, perf bench's figure (a
    hugetlb row's, the only kind that has it) and the newer columns."""
    log = prezero_log()
    log.config(kernel_config(name="z", prezero="request", prezero_n="1", hz="250",
                             prezero_clear="erms", prezero_order="contiguous-page",
                             order="linux", linux_offered="no", backing="hugetlb"),
               [{"fault": [1000, 1000], "clear": [900, 900]}],
               run_extra="prezeroed_faults=0 prezero_by=request prezero_ticks=10 "
               "prezero_folios=1 prezero_resched=0 prezero_waits=1 prezero_wait_ticks=5 "
               "prim_calls=2 prim_calls_max=1 wall_ns=5000")
    pmu_config(log, {"instructions": [10, 10], "cycles": [20, 20]})
    log.config(kernel_config(name="2M.erms.tree", order="tree", tree_entry="folio_zero_user",
                             tree_entry_sha256="ab" * 32),
               [{"fault": [1000, 1000], "clear": [900, 900]}])
    return log.text()


def tree_order_log() -> str:
    """A synthetic boot of an image built with make LINUX= whose two CPUs
    ran order=tree together: its groups and samples carry the entry."""
    sha = "0877d769b931" + "ab" * 26
    log = Log(boot='version=0.4 format=4 firmware=bios cmdline="bench=fault" '
                   f'linux_tree=7.2.13 linux_tree_sha256={"cd" * 32} '
                   f'linux_tree_entry=folio_zero_user linux_tree_entry_sha256={sha}')
    log.smp(2)
    body = kernel_config(name="fault.2M.erms.tree", order="tree", tree_entry="folio_zero_user",
                         tree_entry_sha256=sha)
    log.group(body, {c: [{"fault": [2000, 2000], "clear": [1000, 1000]}] for c in (0, 1)},
              [5000])
    return log.text()


def planted(rel: str, after: str, line: str,
            lookup: Callable[[str, str], fields.Field | None] = fields.lookup
            ) -> tuple[list[str], int]:
    """What the C scan says (undeclared()) with @line planted in @rel
    after the line ending with @after; and the planted line's number."""
    lines = (ROOT / rel).read_text().splitlines(keepends=True)
    at = next(i for i, x in enumerate(lines) if x.rstrip().endswith(after)) + 1
    lines.insert(at, line + "\n")
    return undeclared(Scan(ROOT, texts={rel: "".join(lines)}).written(), lookup)[0], at + 1


class FieldsTest(unittest.TestCase):
    def test_records_md_is_generated(self) -> None:
        """(a) The committed tables equal the generated ones; no cell over
        400 characters, no prose line over 200."""
        text = DOC.read_text()
        got = fields.blocks_in(text)
        self.assertEqual(sorted(got), sorted(fields.BLOCKS),
                         "docs/records.md: the generated blocks, each between "
                         "its markers")
        for b in fields.BLOCKS:
            self.assertEqual(got[b], fields.markdown(b),
                             f"docs/records.md's {b} block differs from "
                             f"`scripts/hugezero fields {b} --markdown`; rewrite them with "
                             "`scripts/hugezero fields --markdown --write docs/records.md`")
        for no, line in enumerate(text.splitlines(), 1):
            if line.startswith("|"):
                for cell in line.strip("|").split(" | "):
                    self.assertLessEqual(len(cell.strip()), 400, f"records.md:{no}: a cell")
            elif not line.startswith("    "):     # an example's record
                self.assertLessEqual(len(line), 200, f"records.md:{no}: a prose line")

    def test_c_writers_fields_are_declared(self) -> None:
        """(b) Every field lib/, kernel/ and hosted/ write is declared for
        its record; every field declared is written (unless older logs'
        only); the side says who writes it."""
        written = Scan(ROOT).written()
        self.assertGreater(len(written), 200, "the scan found the writers")
        bad, seen = undeclared(written)
        self.assertEqual(bad, [])
        regs = re.search(r"boost_reg_names\[\w*\] = \{([^}]*)\}",
                         (ROOT / "lib" / "boost.c").read_text())
        self.assertIsNotNone(regs, "lib/boost.c: boost_reg_names")
        assert regs is not None
        self.assertEqual(re.findall(r'"(\w+)"', regs.group(1)), fields.BOOST_REGS.split("|"),
                         "fields.BOOST_REGS: the MSRs lib/boost.c names")
        for r in fields.RECORDS:
            for f in r.fields:
                where = seen.get((r.name, f.name))
                if f.until or f.side == "none":
                    self.assertIsNone(where, f"{r.name}.{f.name}: said no longer written")
                    continue
                self.assertIsNotNone(where, f"{r.name}.{f.name} is declared but no C "
                                     "writer writes it")
                assert where is not None
                if where == {"kernel"}:
                    self.assertNotEqual(f.side, "companion", f"{r.name}.{f.name}")
                if where == {"hosted"}:
                    self.assertNotEqual(f.side, "kernel", f"{r.name}.{f.name}")

    def test_a_helpers_built_name_is_checked(self) -> None:
        """(b) A name a helper builds from its argument is checked as the
        helper builds it: setting_record's `_source` and rec_regs' MSR
        names, each named at the call that passes the literal."""
        rel, after = "hosted/sched_info.c", "&s->init_on_free);"
        zero = '\tsetting_record(r, "init_on_zero", &s->init_on_free);'
        bad, no = planted(rel, after, zero)
        self.assertEqual(bad, [
            f"{rel}:{no}: host.init_on_zero is not declared in scripts/hzlib/fields.py "
            "(written by setting_record())",
            f"{rel}:{no}: host.init_on_zero_source is not declared in "
            "scripts/hzlib/fields.py (written by setting_record())"])

        def only_zero(rtype: str, name: str) -> fields.Field | None:
            """The declaration, with init_on_zero declared (not its _source)."""
            return fields.lookup(rtype, "init_on_free" if name == "init_on_zero" else name)
        self.assertEqual(planted(rel, after, zero, only_zero)[0], bad[1:])

        rel = "lib/boost.c"
        bad, no = planted(rel, 'rec_regs(&r, &b->before, "before");',
                          '\trec_regs(&r, &b->before, "during");')
        self.assertEqual(bad, [f"{rel}:{no}: boost.{reg}_during is not declared in "
                               "scripts/hzlib/fields.py (written by rec_regs())"
                               for reg in fields.BOOST_REGS.split("|")])
        bad, _ = planted(rel, "boost_reg_names[BOOST_NREGS] = {", '\t"x2apic_msr",')
        self.assertIn("boost.x2apic_msr_before is not declared", "\n".join(bad))
        bad, _ = planted(rel, 'ksnprintf(key, sizeof(key), "%s_%s", boost_reg_names[i], when);',
                         '\t\tksnprintf(key, sizeof(key), "%s_%u", when, i);')
        self.assertTrue(bad and all("a field named at run time in rec_regs()" in b
                                    for b in bad), bad)

    def test_kept_logs_fields_are_declared(self) -> None:
        """(c) Every field of every record of the real logs is declared."""
        logs = kept_logs()
        self.assertGreaterEqual(len(logs), 6)
        bad = []
        for p in logs:
            for b in lavalog.load(p.read_text(errors="replace"), str(p), lambda s: None):
                for r in b.records:
                    for k in r.f:
                        if fields.lookup(r.type, k) is None:
                            bad.append(f"{p.relative_to(ROOT)}: line {r.line_no}: "
                                       f"{r.type}.{k} is not declared")
        self.assertEqual(sorted(set(bad)), [])

    def test_every_field_has_unit_and_meaning(self) -> None:
        """(d) A unit, a meaning short enough for a table cell, a side, a
        format that exists; the CSV columns too."""
        top = record_format()
        for r in fields.RECORDS:
            names = [f.name for f in r.fields]
            self.assertEqual(len(names), len(set(names)), f"{r.name}: a field twice")
            self.assertTrue(r.when, r.name)
            for f in r.fields:
                what = f"{r.name}.{f.name}"
                self.assertTrue(f.unit.strip(), f"{what}: no unit")
                self.assertTrue(f.meaning.strip(), f"{what}: no meaning")
                self.assertLessEqual(len(f.meaning), 350, f"{what}: meaning too long")
                self.assertIn(f.side, fields.SIDES, what)
                self.assertTrue(1 <= f.since <= top, f"{what}: format {f.since}")
                self.assertTrue(f.until == 0 or f.since <= f.until < top, what)
                self.assertEqual(bool(f.pattern), f.name != f.name.lower(), what)
        self.assertEqual(list(fields.TABLES), ["csv", "csv-agg", "csv-samples"])
        for table, cols in fields.TABLES.items():
            names = [c.name for c in cols]
            self.assertEqual(len(names), len(set(names)), f"{table}: a column twice")
            self.assertIn(table, fields.BLOCKS, f"{table}: a block of docs/records.md")
            for c in cols:
                self.assertTrue(c.unit.strip() and c.meaning.strip(), f"{table}.{c.name}")
                self.assertLessEqual(len(c.meaning), 350, f"{table}.{c.name}")
                self.assertIn(c.group, fields.GROUPS, f"{table}.{c.name}")

    def test_dims_from_the_declaration(self) -> None:
        """(e) dims.py's bookkeeping and defaults are the declaration's."""
        config = {f.name: f for f in fields.fields_of("config")}
        self.assertEqual(dims.BOOKKEEPING, {k: f.why_not for k, f in config.items()
                                            if f.dimension is False})
        self.assertEqual(dims.DEFAULTS, {m.name: dict(m.by_bench) for m in fields.MISSING})
        for k in [*dims.DEFAULTS, *dims.ORDER, *dims.PREZERO_PARAMS, *dims.ORDER_PARAMS,
                  *dims.RENAMED, *dims.CANONICAL, *dims.BYTES]:
            self.assertIn(k, config, f"dims.py names {k}, no config field")
        for k in [*dims.ORDER, *dims.DEFAULTS]:
            self.assertTrue(config[k].dimension, f"{k}: in dims.py as a dimension")

    def test_csv_header_is_declared(self) -> None:
        """(f) The header `parse --format csv` writes: the declared columns,
        then newer dimensions sorted, the zeroers', the counters'
        (pmu.EVENT_*), perf bench's and the newer columns, each group in
        its declared order, where a row has them."""
        row = fields.csv_names("row")
        config = {f.name: f for f in fields.fields_of("config")}
        rank = {g: i + 1 for i, g in enumerate(fields.GROUPS)}
        order = {c.name: i for i, c in enumerate(fields.CSV)}
        headers = {str(p.relative_to(ROOT)): parse_header(p)
                   for p in kept_logs() if p.suffix == ".log"}
        headers["synthetic: every column group"] = csv_header(every_group_log())
        groups_seen: set[str] = set()
        for name, h in headers.items():
            self.assertEqual(h[:len(row)], row, f"{name}: the declared columns first")
            extra, placed = h[len(row):], []
            for col in extra:
                c = next((c for c in fields.CSV if c.name == col or (
                    c.group == "counters" and re.fullmatch(
                        re.escape(c.name).replace("EVENT", "[a-z0-9-]+"), col))), None)
                if c is not None:
                    groups_seen.add(c.group)
                    placed.append((rank[c.group], order[c.name], col))
                elif col in config and config[col].dimension:
                    placed.append((1, 0, col))      # a newer dimension
                else:
                    self.fail(f"{name}: CSV column {col} is not declared")
            dims_cols = [c for r, _, c in placed if r == 1 and _ == 0]
            self.assertEqual(dims_cols, sorted(dims_cols), f"{name}: newer dimensions sorted")
            keyed = [(r, o) for r, o, col in placed if not col.startswith("pmu.")]
            self.assertEqual(keyed, sorted(keyed), f"{name}: columns in declared order")
            self.assertEqual([r for r, _, _ in placed], sorted(r for r, _, _ in placed),
                             f"{name}: column groups in order")
        self.assertEqual(groups_seen, {c.group for c in fields.CSV} - {"row"},
                         "every optional group exercised")

    def test_agg_and_samples_headers_are_declared(self) -> None:
        """(g) The headers `parse --rows agg` and `--rows samples` write:
        their declared columns (`csv-agg`, `csv-samples`), the dimensions
        where each declaration says, the newer columns last where a row has
        them (order=tree's entry), nothing else."""
        config = {f.name: f for f in fields.fields_of("config")}
        agg = fields.csv_names("row", "csv-agg")
        first = fields.csv_names("row", "csv-samples")
        after = fields.csv_names("after", "csv-samples")
        newer = {t: fields.csv_names("newer", t) for t in ("csv-agg", "csv-samples")}
        self.assertEqual([c.group for c in fields.AGG],
                         ["row"] * len(agg) + ["newer"] * len(newer["csv-agg"]))
        self.assertEqual(first + after + newer["csv-samples"], [c.name for c in fields.SAMPLES],
                         "after, then the newer columns, come last")
        logs = [p for p in kept_logs() if p.suffix == ".log"]
        self.assertIn("kernel-smp.log", [p.name for p in logs], "a log with groups")
        with tempfile.TemporaryDirectory() as d:
            tree = Path(d) / "tree-order.log"
            tree.write_text(tree_order_log())
            self.assertEqual(parse_header(tree, "--rows", "agg")[-2:],
                             [c for c in newer["csv-agg"] if c.startswith("tree_")],
                             "order=tree's columns, where a row has them")
            self.assertEqual(parse_header(tree, "--rows", "samples")[-2:],
                             newer["csv-samples"])
            for log in [*logs, tree]:
                self.agg_and_samples(log, config, agg, first, after, newer)

    def agg_and_samples(self, log: Path, config: dict[str, fields.Field], agg: list[str],
                        first: list[str], after: list[str],
                        newer: dict[str, list[str]]) -> None:
        """One log's --rows agg and --rows samples headers (test (g))."""
        name = str(log.relative_to(ROOT)) if log.is_relative_to(ROOT) else log.name
        for rows, declared, table in (("agg", agg, "csv-agg"),
                                      ("samples", first, "csv-samples")):
            h = parse_header(log, "--rows", rows)
            self.assertEqual(h[:len(declared)], declared, f"{name}: --rows {rows}")
            rest = h[len(declared):]
            # The newer columns last, in their declared order, where present.
            last = [c for c in newer[table] if c in rest]
            self.assertEqual(rest[len(rest) - len(last):], last,
                             f"{name}: --rows {rows}: the newer columns last")
            rest = rest[:len(rest) - len(last)]
            if rows == "samples":
                at = rest.index(after[0]) if after[0] in rest else -1
                self.assertEqual(rest[at:at + len(after)], after,
                                 f"{name}: --rows samples: {after} after the dimensions")
                known = [k for k in dims.ORDER if k not in declared]
                self.assertEqual(rest[:at], known, f"{name}: --rows samples: dims.ORDER")
                rest = rest[at + len(after):]
                self.assertEqual(rest, sorted(rest), f"{name}: newer dimensions sorted")
            for col in rest:
                self.assertTrue(col in config and config[col].dimension,
                                f"{name}: --rows {rows}: column {col} is not declared")


if __name__ == "__main__":
    unittest.main()

# SPDX-License-Identifier: GPL-2.0-only
"""make LINUX=DIR: a tree's own huge-page zeroing, taken from its
mm/memory.c as text (docs/linux-tree.md, "What is extracted").

The entry is folio_zero_user(), or clear_huge_page() in trees before it
(6.1); where the tree's x86 build links a folio_zero_user() of its own
(arch/x86/mm/memory.c, built by arch/x86/mm/Makefile), that one.  From
the entry, every function and macro of those files it names is taken,
transitively, as x86_64's default build compiles them (hzlib/cpp.py:
the #if blocks around them evaluated against cpp.CONFIG), with the
constants it uses from the tree's headers.  Nothing is rewritten: each
piece is the tree's lines, after a #line directive naming them.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from . import cpp
from .linuxtree import TreeError, make_version

MEMORY_C = "mm/memory.c"
X86_MEMORY_C = "arch/x86/mm/memory.c"
X86_MM_MAKEFILE = "arch/x86/mm/Makefile"
ENTRIES = ("folio_zero_user", "clear_huge_page")  # newest first

# The headers read for constants and for the macros the #if blocks
# test, in the order a translation unit including linux/mm.h and
# linux/highmem.h meets them; those a tree lacks are skipped.
HEADERS = (
    "include/linux/sizes.h",
    "include/vdso/page.h",
    "arch/x86/include/asm/page_types.h",
    "arch/x86/include/asm/page_64.h",
    "arch/x86/include/asm/page.h",
    "include/linux/mmzone.h",
    "include/linux/mm.h",
    "include/linux/highmem.h",
)

# Reported whether the code taken uses them or not: what a shim of the
# tree's API must give (the batch of clear_contig_highpages(), the
# gigantic-folio bound of clear_huge_page() and 6.x folio_zero_user()).
ALWAYS = ("MAX_ORDER_NR_PAGES", "PROCESS_PAGES_NON_PREEMPT_BATCH")

# Every file make LINUX= reads from a tree (scripts/setup.sh unpacks
# these from Debian's linux-source packages).
READS = ("Makefile", MEMORY_C, X86_MEMORY_C, X86_MM_MAKEFILE) + HEADERS

TEXT = "tree_memory.c"

# C's keywords and GCC's, which a piece's tokens name but nothing defines.
KEYWORDS = frozenset("""
auto break case char const continue default do double else enum extern float for
goto if inline int long register restrict return short signed sizeof static struct
switch typedef union unsigned void volatile while _Bool bool _Static_assert
typeof __typeof__ __typeof __attribute__ __always_inline __inline__ asm __asm__
__volatile__ _Alignof alignof __builtin_constant_p
""".split())
MANIFEST = "tree_memory.json"


class Refused(TreeError):
    """The tree has nothing to extract: exit status 2."""


@dataclass(eq=False)
class Piece:
    name: str
    kind: str       # function, macro
    path: str       # relative to the tree
    line: int
    end_line: int
    toks: list      # its tokens (a macro: its pp token only)
    head: list      # a function: the tokens before its body
    frames: tuple
    params: frozenset
    weak: bool = False


def _groups(toks: list, i: int, j: int) -> list[tuple[int, int]]:
    """The depth-0 parenthesized groups in toks[i:j], as (open, close)."""
    out, depth, start = [], 0, 0
    for k in range(i, j):
        t = toks[k].text
        if t in "([" and toks[k].kind == "punct":
            if depth == 0 and t == "(":
                start = k
            depth += 1
        elif t in ")]" and toks[k].kind == "punct":
            depth -= 1
            if depth == 0 and t == ")":
                out.append((start, k))
    return out


def _function_name(toks: list, i: int, j: int) -> tuple[str, int, int] | None:
    """The name and parameter list of the function whose head is
    toks[i:j] (j its body's '{'); None when it is not one.  The
    parameter list is the group followed by the body, or by attribute
    calls (__acquires(x)); a group followed by a type and a name is an
    attribute before them (__printf(1, 2) void f(...))."""
    if any(t.text == "=" for t in toks[i:j]):
        return None
    groups = _groups(toks, i, j)
    for n, (o, c) in enumerate(groups):
        nxt = groups[n + 1][0] if n + 1 < len(groups) else j
        between = toks[c + 1:nxt]
        if len(between) > 1 or (between and nxt == j):
            continue
        if o > i and toks[o - 1].kind == "id":
            return toks[o - 1].text, o, c
        return None
    return None


def _param_names(toks: list, o: int, c: int) -> set[str]:
    """The names a parameter list (toks[o..c]) declares: the last
    identifier of each parameter, or a function pointer's (*name)."""
    names, cur, depth = set(), [], 0
    for t in toks[o + 1:c] + [cpp.Tok("punct", ",", 0, 0, 0, 0)]:
        if t.text in "([" and t.kind == "punct":
            depth += 1
        elif t.text in ")]" and t.kind == "punct":
            depth -= 1
        if t.text == "," and depth == 0:
            ids = [x for x in cur if x.kind == "id"]
            ptr = [k for k in range(len(cur) - 2) if cur[k].text == "(" and cur[k + 1].text == "*"
                   and cur[k + 2].kind == "id"]
            if ptr:
                names.add(cur[ptr[0] + 2].text)
            elif ids:
                names.add(ids[-1].text)
            cur = []
        else:
            cur.append(t)
    return names


def pieces(path: str, toks: list) -> list[Piece]:
    """The functions defined and the macros #defined in a file's tokens,
    under whatever #if; prototypes and other declarations left out."""
    out: list[Piece] = []
    start, depth, k = None, 0, 0
    while k < len(toks):
        t = toks[k]
        if t.kind == "pp":
            name, rest = cpp.directive(t)
            if name == "define":
                m = re.match(r"([A-Za-z_]\w*)(\(([^)]*)\))?", rest)
                if m:
                    params = frozenset(p.strip() for p in (m.group(3) or "").split(","))
                    out.append(Piece(m.group(1), "macro", path, t.line, t.end_line, [t], [],
                                     t.frames, params))
            if depth == 0:
                start = None
            k += 1
            continue
        if start is None:
            start = k
        if t.kind == "punct" and t.text in "([":
            depth += 1
        elif t.kind == "punct" and t.text in ")]":
            depth -= 1
        elif t.kind == "punct" and t.text == ";" and depth == 0:
            start = None
        elif t.kind == "punct" and t.text == "{" and depth == 0:
            end = _close(toks, k, path)
            fn = _function_name(toks, start, k)
            if fn:
                name, o, c = fn
                out.append(Piece(name, "function", path, toks[start].line, toks[end].line,
                                 toks[start:end + 1], toks[start:k], toks[start].frames,
                                 frozenset(_param_names(toks, o, c)),
                                 weak=any(x.text == "__weak" for x in toks[start:k])))
                start = None
            k = end  # a struct's or initializer's '}': its ';' follows
        k += 1
    return out


def _first_branch(t, outer: int) -> bool:
    """Is @t in the first branch of every #if group opened inside the
    @outer blocks around the '{' being closed?"""
    return all(k == 0 for _, k in t.frames[outer:])


def _close(toks: list, k: int, path: str) -> int:
    """The index of the '}' closing the '{' at toks[k].  Braces are
    counted in one branch of each #if group inside it (the first), as
    each branch of `#ifdef X if (a) { #else if (!a) { #endif` opens one;
    nothing is evaluated, so no other function's conditions are."""
    depth, outer = 0, len(toks[k].frames)
    for j in range(k, len(toks)):
        t = toks[j]
        if t.kind != "punct" or t.text not in "{}" or not _first_branch(t, outer):
            continue
        depth += 1 if t.text == "{" else -1
        if depth == 0:
            return j
    raise TreeError(f"{path}:{toks[k].line}: '{{' never closed")


@dataclass
class Source:
    rel: str
    shown: str      # DIR/rel as given: for #line and messages
    text: str
    toks: list
    pieces: dict    # name: [Piece]


class Extraction:
    def __init__(self, tree: Path) -> None:
        self.tree = tree
        mem = tree / MEMORY_C
        if not mem.is_file():
            raise Refused(f"{tree}: no {MEMORY_C}: not a Linux tree, or one unpacked "
                          "without it (scripts/setup.sh --linux-source unpacks it)")
        self.version = make_version(tree / "Makefile")
        self.unit = cpp.Unit()
        self.headers = []
        for rel in HEADERS:
            if (tree / rel).is_file():
                self.unit.add(rel, cpp.read(tree / rel))
                self.headers.append(rel)
        self.end_of_headers = (len(self.unit.files), 0)
        self.overridden: dict[str, dict] = {}  # name: a __weak one x86 does not link
        self.sources = [self.source(MEMORY_C)]
        self.x86 = self.x86_built()
        if self.x86:
            self.sources.append(self.source(X86_MEMORY_C))

    def show(self, rel: str) -> str:
        return f"{self.tree}/{rel}"

    def rel(self, where: str) -> str:
        """DIR/FILE:LINE as FILE alone, for the hash."""
        return where.rsplit(":", 1)[0].removeprefix(f"{self.tree}/")

    def source(self, rel: str) -> Source:
        text = cpp.read(self.tree / rel)
        try:
            toks = self.unit.add(rel, text)
        except cpp.CppError as e:
            raise TreeError(f"{self.tree}/{e}") from e
        index: dict[str, list[Piece]] = {}
        for p in pieces(rel, toks):
            index.setdefault(p.name, []).append(p)
        return Source(rel, self.show(rel), text, toks, index)

    def x86_built(self) -> str | None:
        """Whether x86's build compiles arch/x86/mm/memory.c: its Makefile
        lists memory.o under obj-y or an obj-$(CONFIG_) of the table that
        is set; without that Makefile, a file there is taken as built."""
        if not (self.tree / X86_MEMORY_C).is_file():
            return None
        mk = self.tree / X86_MM_MAKEFILE
        if not mk.is_file():
            return f"{X86_MEMORY_C} (no {X86_MM_MAKEFILE}: taken as built)"
        text = re.sub(r"\\\n", " ", mk.read_text(errors="replace"))
        for m in re.finditer(r"^obj-(y|\$\((CONFIG_\w+)\))\s*[+:]?=(.*)$", text, re.M):
            if "memory.o" not in m.group(3).split():
                continue
            if m.group(1) == "y":
                return f"{X86_MEMORY_C} (obj-y in {X86_MM_MAKEFILE})"
            opt = m.group(2)
            if opt not in cpp.CONFIG:
                raise TreeError(f"{self.tree}/{X86_MM_MAKEFILE}: {opt} is not in the x86_64 "
                                "config table (scripts/hzlib/cpp.py, CONFIG): add it")
            if cpp.CONFIG[opt] is True:
                return f"{X86_MEMORY_C} (obj-$({opt}), {opt}=y, in {X86_MM_MAKEFILE})"
        return None

    def compiled(self, p: Piece, src: Source) -> bool:
        try:
            return self.unit.active(p.frames)
        except cpp.CppError as e:
            raise TreeError(f"{self.tree}/{e} (around {p.name}, {src.shown}:{p.line})") from e

    def definition(self, name: str, src: Source) -> Piece | None:
        """The compiled definition of @name in @src; two is an error."""
        got = [p for p in src.pieces.get(name, []) if self.compiled(p, src)]
        if len(got) > 1 and all(p.kind == "macro" for p in got):
            got = got[-1:]  # redefined: the last one stands
        if len(got) > 1:
            raise TreeError(f"{name} defined twice as x86_64 builds it: "
                            + ", ".join(f"{src.shown}:{p.line}" for p in got))
        return got[0] if got else None

    def resolve(self, name: str, src: Source) -> tuple[Piece, Source] | None:
        """@name as code in @src sees it: its own file's, else mm/memory.c's
        (an arch file's callee); a __weak function loses to a strong one
        of any file built, as the linker has it (recorded in overrides)."""
        for s in [src] + [s for s in self.sources if s is not src]:
            p = self.definition(name, s)
            if p and (s is src or p.kind == "function"):
                if p.kind == "function" and p.weak:
                    return self.strong(p, s)
                return p, s
        return None

    def strong(self, weak: Piece, src: Source) -> tuple[Piece, Source]:
        """The definition x86 links for the __weak @weak of @src."""
        for s in self.sources:
            p = self.definition(weak.name, s) if s is not src else None
            if p and p.kind == "function" and not p.weak:
                self.overridden[weak.name] = {
                    "name": weak.name, "weak": f"{src.shown}:{weak.line}",
                    "by": f"{s.shown}:{p.line}"}
                return p, s
        return weak, src

    def entry(self) -> tuple[Piece, Source, str | None]:
        mem = self.sources[0]
        for name in ENTRIES:
            base = self.definition(name, mem)
            if self.x86:
                arch = self.definition(name, self.sources[1])
                if arch:
                    if base and not base.weak:
                        raise TreeError(f"{name} defined in both {mem.shown}:{base.line} and "
                                        f"{self.sources[1].shown}:{arch.line}, neither weak")
                    return arch, self.sources[1], (f"{mem.shown}:{base.line}" if base else None)
            if base:
                return base, mem, None
        seen = [f"{s.shown}:{p.line}" for s in self.sources for n in ENTRIES
                for p in s.pieces.get(n, [])]
        raise Refused(f"{self.tree}: no {' or '.join(ENTRIES)} defined in {MEMORY_C}"
                      + (f" as x86_64 builds it (only under #if blocks it leaves out: "
                         f"{', '.join(seen)})" if seen else "")
                      + ": not a tree with huge-page zeroing to extract")

    def names(self, p: Piece, src: Source):
        """The names @p's compiled tokens use, less members and its own
        parameters: (token, called)."""
        toks = p.toks if p.kind == "function" else cpp.tokenize(
            self.define(p, src).body, f"{src.shown}:{p.line}")
        for n, t in enumerate(toks):
            if t.kind != "id" or t.text in p.params or t.text == p.name:
                continue
            if n and toks[n - 1].text in (".", "->"):
                continue  # a member
            if p.kind == "function" and not self.unit.active(t.frames):
                continue  # an #if block inside it that x86 leaves out
            yield t, n + 1 < len(toks) and toks[n + 1].text == "("

    def reach(self, entry: Piece, esrc: Source) -> tuple[list, list]:
        """Every piece the entry names, transitively, in the files' order;
        and the names they use that neither file defines, first use each."""
        taken = {id(entry): (entry, esrc)}
        todo = [(entry, esrc)]
        while todo:
            p, src = todo.pop()
            for t, _ in self.names(p, src):
                hit = self.resolve(t.text, src)
                if hit and id(hit[0]) not in taken:
                    taken[id(hit[0])] = hit
                    todo.append(hit)
        order = {s.rel: i for i, s in enumerate(self.sources)}
        got = sorted(taken.values(), key=lambda x: (order[x[1].rel], x[0].line))
        free: dict[str, dict] = {}
        for p, src in got:
            for t, call in self.names(p, src):
                if t.text in KEYWORDS or not (call or t.text.isupper()):
                    continue  # C's, or (lower case, not called) a local's
                if self.resolve(t.text, src):
                    continue
                line = t.line if p.kind == "function" else p.line
                f = free.setdefault(t.text, {"name": t.text, "call": call, "function": p.name,
                                             "file": src.shown, "line": line})
                f["call"] |= call
        return got, list(free.values())

    def define(self, p: Piece, src: Source) -> cpp.Define:
        """The #define a macro piece is."""
        return next(d for d in self.unit.defines[p.name]
                    if d.path == src.rel and d.line == p.line and not d.undef)

    def constant(self, name: str, pos: tuple, where: str) -> dict | None:
        d = self.unit.macro(name, pos)
        if d is None or d.params is not None:
            return None
        via: list[cpp.Define] = []
        try:
            value = self.unit.evaluate(name, pos, where, via)
        except cpp.CppError as e:
            raise TreeError(f"{self.tree}/{d.path}:{d.line}: {name}: {e}") from e
        return {"name": name, "value": value, "expr": d.body, "file": self.show(d.path),
                "line": d.line,
                "via": [f"{self.show(x.path)}:{x.line}: {x.name} {x.body}" for x in via[1:]]}


_CONDITIONAL = ("if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else", "endif")


def compiled_lines(x: "Extraction", p: Piece, src: Source) -> list[str]:
    """@p's lines as x86_64's build compiles them: the #if/#else/#endif
    lines inside a function, and the lines of the branches it leaves
    out, blank (so #line stays right), the others the tree's.  gcc sees
    none of the configuration (cpp.CONFIG) or of the tree's headers, so
    the extractor's choice of branch is made here, once, for both."""
    lines = src.text.splitlines(keepends=True)[p.line - 1:p.end_line]
    if p.kind != "function":
        return lines
    blank, code_at = set(), {}
    for t in p.toks:
        if t.kind == "pp" and cpp.directive(t)[0] in _CONDITIONAL:
            blank.update(range(t.line, t.end_line + 1))
        else:  # code, or a #define: compiled as its blocks are
            for n in range(t.line, t.end_line + 1):
                code_at.setdefault(n, t)
    # a region between two conditional lines: compiled or not as its code
    region: list[int] = []
    for n in range(p.line, p.end_line + 2):
        if n in blank or n > p.end_line:
            toks = [code_at[k] for k in region if k in code_at]
            if not toks or not x.unit.active(toks[0].frames):
                blank.update(region)
            region = []
        else:
            region.append(n)
    return ["\n" if p.line + i in blank else line for i, line in enumerate(lines)]


def hashed(x: "Extraction", constants: list, clear_pages, overrides: list) -> list[str]:
    """What the sha256 covers beside the code: the constants as the build
    defines them (name, value, expression, and the #defines it went
    through), where x86 defines clear_pages, the x86 file built and the
    __weak definitions overridden; without the tree's path or line
    numbers, so the same code and constants elsewhere have one hash."""
    out = []
    for c in constants:
        via = "; ".join(v.split(": ", 1)[1] for v in c["via"])
        out.append(f"constant {c['name']} = {c['value']}: {c['expr']}"
                   + (f" via {via}" if via else "") + "\n")
    out.append(f"clear_pages: {clear_pages.path if clear_pages else None}\n")
    out.append(f"x86_file: {x.x86}\n")
    for o in overrides:
        out.append(f"overrides: {o['name']} {x.rel(o['weak'])} by {x.rel(o['by'])}\n")
    return out


def extract(tree: Path) -> tuple[str, dict]:
    """The extracted text and its manifest."""
    try:
        return _extract(tree)
    except cpp.CppError as e:
        raise TreeError(f"{tree}/{e}") from e


def _extract(tree: Path) -> tuple[str, dict]:
    x = Extraction(tree)
    entry, esrc, overrides = x.entry()
    taken, free = x.reach(entry, esrc)
    code, out = [], []
    for p, src in taken:
        lines = src.text.splitlines(keepends=True)[p.line - 1:p.end_line]
        body = "".join(lines)
        built = "".join(compiled_lines(x, p, src))
        if not body.endswith("\n"):
            body, built = body + "\n", built + "\n"
        code.append(body)
        out.append(f'#line {p.line} "{src.shown}"\n{built}')
    constants, free_left = [], []
    for f in free:
        where = f"{f['file']}:{f['line']}"
        c = x.constant(f["name"], x.end_of_headers, where)
        if c:
            c["used"] = True
            constants.append(c)
        else:
            free_left.append(f)
    for name in ALWAYS:
        if all(c["name"] != name for c in constants):
            c = x.constant(name, x.end_of_headers, f"{tree}/{name}")
            if c:
                c["used"] = False
                constants.append(c)
    for p, src in taken:  # the file's own: FOLIO_ZERO_LOCALITY_RADIUS
        d = x.define(p, src) if p.kind == "macro" else None
        if d is None or d.params is not None:
            continue
        try:
            v = x.unit.evaluate(p.name, (d.pos[0], d.pos[1] + 1), f"{src.shown}:{p.line}")
        except cpp.CppError:
            continue  # not an integer constant: its text says what it is
        constants.append({"name": p.name, "value": v, "expr": d.body, "file": src.shown,
                          "line": p.line, "via": [], "used": True})
    clear_pages = x.unit.macro("clear_pages", x.end_of_headers)
    overrides = ([{"name": entry.name, "weak": overrides, "by": f"{esrc.shown}:{entry.line}"}]
                 if overrides else []) + list(x.overridden.values())
    extra = hashed(x, constants, clear_pages, overrides)
    sha = hashlib.sha256("".join(code + extra).encode("utf-8", "surrogateescape")).hexdigest()
    manifest = {
        "tree": str(tree),
        "version": x.version,
        "entry": entry.name,
        "entry_file": esrc.shown,
        "entry_line": entry.line,
        "overrides": overrides,
        "x86_file": x.x86,
        "taken": [{"name": p.name, "kind": p.kind, "file": src.shown, "line": p.line,
                   "end_line": p.end_line} for p, src in taken],
        "constants": constants,
        "clear_pages": (f"{x.show(clear_pages.path)}:{clear_pages.line}"
                        if clear_pages else None),
        "undefined": free_left,
        "headers": [x.show(h) for h in x.headers],
        "config": {k: v for k, v in cpp.CONFIG.items()},
        # an #ifdef of a name no file read defines anywhere (an include
        # guard is defined after its test): a header not read may
        "assumed_undefined": sorted(n for n in x.unit.assumed_undefined
                                    if n not in x.unit.defines),
        "hashed": extra,
        "sha256": sha,
        "text": TEXT,
    }
    head = (f"/* Extracted by scripts/linux-tree extract from {tree} (Linux {x.version}): "
            f"{entry.name}, sha256 {sha}.  Do not edit. */\n")
    return head + "".join(out), manifest


def write(tree: Path, outdir: Path) -> list[str]:
    """Extract into @outdir (TEXT and MANIFEST, rewritten only when they
    change); returns what to say."""
    text, manifest = extract(tree)
    outdir.mkdir(parents=True, exist_ok=True)
    for name, data in ((TEXT, text), (MANIFEST, json.dumps(manifest, indent=1) + "\n")):
        path = outdir / name
        if not path.exists() or path.read_text(errors="surrogateescape") != data:
            path.write_text(data, errors="surrogateescape")
    msgs = [f"tree {manifest['version']} {manifest['entry']} ({manifest['entry_file']}:"
            f"{manifest['entry_line']}), sha256 {manifest['sha256']}"]
    msgs += [f"took {t['kind']} {t['name']} ({t['file']}:{t['line']})" for t in manifest["taken"]]
    msgs += [f"{o['by']}: {o['name']} overrides the __weak one of {o['weak']}"
             for o in manifest["overrides"]]
    msgs += [f"constant {c['name']} = {c['value']} ({c['file']}:{c['line']})"
             for c in manifest["constants"]]
    return msgs

# SPDX-License-Identifier: GPL-2.0-only
"""Enough of C's preprocessor to read a Linux tree's sources as x86_64's
default build would (docs/linux-tree.md, "What is extracted").

tokenize() splits C text into tokens, knowing comments, string and
character literals and preprocessor lines (with their continuations);
Unit gives each token the #if/#ifdef/#elif/#else blocks around it, and
answers, lazily, whether a block is compiled: its condition is evaluated
only when something inside it is asked for, against CONFIG (the x86_64
configuration) and the #defines that precede it in the files read, as a
translation unit would see them.  What it cannot evaluate is an error
naming the file and line, never a guess.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path


class CppError(Exception):
    pass


# x86_64's default configuration, as far as the files read ask: True is
# =y, an int or str its value, None unset.  Also the compiler's own
# macros for kernel C (not assembly).  A CONFIG_ option an evaluated
# condition names that is not here is an error: add it, with its value.
CONFIG: dict[str, bool | int | str | None] = {
    # the architecture
    "CONFIG_X86": True,
    "CONFIG_X86_64": True,
    "CONFIG_X86_32": None,
    "CONFIG_64BIT": True,
    "CONFIG_MMU": True,
    "CONFIG_PAGE_SHIFT": 12,  # 4K pages only
    "CONFIG_PAGE_SIZE_4KB": True,
    "CONFIG_HIGHMEM": None,  # 32-bit only
    "CONFIG_X86_5LEVEL": True,
    "CONFIG_X86_VSYSCALL_EMULATION": True,
    "CONFIG_FLATMEM": None,
    "CONFIG_SPARSEMEM": True,
    "CONFIG_SPARSEMEM_VMEMMAP": True,
    "CONFIG_NUMA": True,
    "CONFIG_DEBUG_VIRTUAL": None,
    # the buddy allocator's largest order: x86 does not force one, so
    # mmzone.h's default (MAX_ORDER 11 in 6.1, MAX_PAGE_ORDER 10 after)
    "CONFIG_ARCH_FORCE_MAX_ORDER": None,
    "CONFIG_FORCE_MAX_ZONEORDER": None,
    # huge pages: what reaches folio_zero_user()/clear_huge_page()
    "CONFIG_TRANSPARENT_HUGEPAGE": True,
    "CONFIG_HUGETLBFS": True,
    "CONFIG_HUGETLB_PAGE": True,
    # debugging left off, as in x86_64_defconfig
    "CONFIG_PROVE_LOCKING": None,
    "CONFIG_DEBUG_ATOMIC_SLEEP": None,
    "CONFIG_DEBUG_VM": None,
    # the compiler's, for kernel C
    "__KERNEL__": True,
    "__x86_64__": True,
    "__ASSEMBLY__": None,
    "__ASSEMBLER__": None,
    "MODULE": None,
}


@dataclass
class Tok:
    kind: str  # id num str chr punct pp
    text: str  # pp: the logical line, comments and splices removed
    line: int
    end_line: int
    start: int  # offsets in the file's text
    end: int
    frames: tuple = ()  # the (Group, branch index) blocks around it


_TOKEN = re.compile(r"""
    (?P<ws>[ \t\f\v\r]+|\\\r?\n)
    |(?P<nl>\n)
    |(?P<block>/\*)
    |(?P<linec>//[^\n]*)
    |(?P<str>"(?:\\.|[^"\\\n])*")
    |(?P<chr>'(?:\\.|[^'\\\n])*')
    |(?P<num>\.?[0-9](?:[eEpP][-+]|[\w.])*)
    |(?P<id>[A-Za-z_$][\w$]*)
    |(?P<punct>\.\.\.|<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||\#\#
        |[-+*/%&|^]=|[-+*/%=&|^!~<>?:;,.()\[\]{}\#])
""", re.X)


def _directive(text: str, i: int, line: int, path: str) -> tuple[str, int, int]:
    """The logical line of the directive at @i: (its text with comments
    and splices removed, the offset after it, the line it ends on)."""
    out = []
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            break
        if c == "\\" and text.startswith("\n", i + 1):
            i, line = i + 2, line + 1
            out.append(" ")
            continue
        if c == "\\" and text.startswith("\r\n", i + 1):
            i, line = i + 3, line + 1
            out.append(" ")
            continue
        if c in "\"'":
            # A literal closed on this line; else (#error don't) a char.
            m = re.compile(r"%s(?:\\.|[^%s\\\n])*%s" % (c, c, c)).match(text, i)
            if m:
                out.append(m.group())
                i = m.end()
                continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            if j < 0:
                raise CppError(f"{path}:{line}: unterminated comment")
            line += text.count("\n", i, j)
            i = j + 2
            out.append(" ")
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        out.append(c)
        i += 1
    return "".join(out).strip(), i, line


def tokenize(text: str, path: str = "<string>") -> list[Tok]:
    """C tokens of @text; comments dropped, each preprocessor line one
    token of kind pp."""
    toks: list[Tok] = []
    i, line, bol = 0, 1, True  # bol: nothing but blanks yet on this line
    n = len(text)
    while i < n:
        if bol and text[i] == "#":
            body, j, end = _directive(text, i + 1, line, path)
            toks.append(Tok("pp", body, line, end, i, j))
            i, line = j, end
            continue
        m = _TOKEN.match(text, i)
        if not m:
            raise CppError(f"{path}:{line}: unexpected character {text[i]!r}")
        kind = m.lastgroup
        assert kind is not None
        if kind == "block":
            j = text.find("*/", i + 2)
            if j < 0:
                raise CppError(f"{path}:{line}: unterminated comment")
            line += text.count("\n", i, j)
            i = j + 2
            continue
        if kind == "nl":
            line, bol = line + 1, True
        elif kind == "ws":
            line += m.group().count("\n")
        elif kind != "linec":
            toks.append(Tok(kind, m.group(), line, line, i, m.end()))
            bol = False
        i = m.end()
    return toks


def directive(tok: Tok) -> tuple[str, str]:
    """(name, rest) of a pp token: ('ifdef', 'CONFIG_X')."""
    m = re.match(r"\s*(\w*)\s*(.*)", tok.text, re.S)
    assert m
    return m.group(1), m.group(2).strip()


@dataclass(eq=False)
class Branch:
    kind: str  # if ifdef ifndef elif else
    expr: str
    path: str
    line: int
    pos: tuple[int, int]  # (file order, offset): where it is evaluated


@dataclass(eq=False)
class Group:
    branches: list[Branch] = field(default_factory=list)


@dataclass(eq=False)
class Define:
    name: str
    params: list[str] | None  # None: object-like
    body: str
    path: str
    line: int
    end_line: int
    pos: tuple[int, int]
    frames: tuple
    undef: bool = False


_DEFINE = re.compile(r"([A-Za-z_]\w*)(\(([^)]*)\))?\s*(.*)", re.S)


class Unit:
    """Files read in include order, as one translation unit sees them."""

    def __init__(self, config: dict | None = None) -> None:
        self.config = CONFIG if config is None else config
        self.files: list[tuple[str, str, list[Tok]]] = []
        self.defines: dict[str, list[Define]] = {}
        self._cond: dict[Branch, bool] = {}
        # names an evaluated #ifdef or defined() took as undefined: no
        # #define in the files read (a header not read could have one)
        self.assumed_undefined: set[str] = set()

    def add(self, path: str, text: str) -> list[Tok]:
        """Tokenize @text, give each token its blocks, index #defines."""
        order = len(self.files)
        toks = tokenize(text, path)
        stack: list[tuple[Group, int]] = []
        for t in toks:
            if t.kind != "pp":
                t.frames = tuple(stack)
                continue
            name, rest = directive(t)
            t.frames = tuple(stack)
            pos = (order, t.start)
            if name in ("if", "ifdef", "ifndef"):
                g = Group([Branch(name, rest, path, t.line, pos)])
                stack.append((g, 0))
            elif name in ("elif", "else", "endif", "elifdef", "elifndef"):
                if not stack:
                    raise CppError(f"{path}:{t.line}: #{name} without #if")
                g, _ = stack.pop()
                if name != "endif":
                    if g.branches[-1].kind == "else":
                        raise CppError(f"{path}:{t.line}: #{name} after #else")
                    g.branches.append(Branch(name, rest, path, t.line, pos))
                    stack.append((g, len(g.branches) - 1))
            elif name in ("define", "undef"):
                m = _DEFINE.match(rest)
                if not m:
                    raise CppError(f"{path}:{t.line}: #{name} without a name")
                params = None
                if m.group(2) is not None and name == "define":
                    params = [p.strip() for p in m.group(3).split(",") if p.strip()]
                d = Define(m.group(1), params, m.group(4).strip() if name == "define" else "",
                       path, t.line, t.end_line, pos, t.frames, undef=name == "undef")
                self.defines.setdefault(d.name, []).append(d)
        if stack:
            b = stack[-1][0].branches[0]
            raise CppError(f"{path}:{b.line}: #{b.kind} without #endif")
        self.files.append((path, text, toks))
        return toks

    # --- is it compiled? -------------------------------------------------

    def active(self, frames: tuple) -> bool:
        return all(self.branch_taken(g, k) for g, k in frames)

    def branch_taken(self, g: Group, k: int) -> bool:
        return all(not self.cond(b) for b in g.branches[:k]) and self.cond(g.branches[k])

    def cond(self, b: Branch) -> bool:
        if b not in self._cond:
            self._cond[b] = self._eval_branch(b)
        return self._cond[b]

    def _eval_branch(self, b: Branch) -> bool:
        where = f"{b.path}:{b.line}"
        if b.kind == "else":
            return True
        if b.kind in ("ifdef", "ifndef", "elifdef", "elifndef"):
            name = b.expr.split()[0] if b.expr else ""
            if not re.fullmatch(r"[A-Za-z_]\w*", name):
                raise CppError(f"{where}: #{b.kind} {b.expr!r}: not a name")
            return self.defined(name, b.pos, where) == (b.kind in ("ifdef", "elifdef"))
        return self.evaluate(b.expr, b.pos, where) != 0

    # --- macros ------------------------------------------------------------

    def macro(self, name: str, pos: tuple[int, int]) -> Define | None:
        """The #define of @name in force at @pos (the last compiled #define
        or #undef before it), or None."""
        for d in reversed(self.defines.get(name, [])):
            if d.pos < pos and self.active(d.frames):
                return None if d.undef else d
        return None

    def defined(self, name: str, pos: tuple[int, int], where: str) -> bool:
        if name in self.config:
            return self.config[name] is not None
        if name.startswith("CONFIG_"):
            raise CppError(f"{where}: {name} is not in the x86_64 config table "
                       "(scripts/hzlib/cpp.py, CONFIG): add it with its value")
        if self.macro(name, pos) is not None:
            return True
        self.assumed_undefined.add(name)
        return False

    def evaluate(self, expr: str, pos: tuple[int, int], where: str,
             via: list[Define] | None = None) -> int:
        """The value of the #if expression @expr at @pos; @via collects the
        #defines expanded."""
        toks = [t for t in tokenize(expr, where) if t.kind != "pp"]
        out = self.expand([t.text for t in toks], pos, where, frozenset(), via)
        return _Parser(out, where, expr).parse()

    def expand(self, toks: list[str], pos: tuple[int, int], where: str,
           hide: frozenset, via: list[Define] | None) -> list[str]:
        out: list[str] = []
        i = 0
        while i < len(toks):
            t = toks[i]
            i += 1
            if not re.fullmatch(r"[A-Za-z_]\w*", t):
                out.append(t)
                continue
            if t == "defined":
                paren = i < len(toks) and toks[i] == "("
                j = i + 1 if paren else i
                if j >= len(toks) or (paren and (j + 1 >= len(toks) or toks[j + 1] != ")")):
                    raise CppError(f"{where}: defined without a name")
                out.append("1" if self.defined(toks[j], pos, where) else "0")
                i = j + 2 if paren else j + 1
                continue
            args = None
            if i < len(toks) and toks[i] == "(":
                args, after = _args(toks, i, where)
            if t in _BUILTIN and args is not None:
                out += self.expand(_BUILTIN[t](self, args, where), pos, where, hide, via)
                i = after
                continue
            if t in self.config:
                v = self.config[t]
                if isinstance(v, str):
                    raise CppError(f"{where}: {t} is a string ({v!r}) in an expression")
                out.append("0" if v is None else "1" if v is True else str(v))
                continue
            if t.startswith("CONFIG_"):
                self.defined(t, pos, where)  # raises: not in the table
            d = None if t in hide else self.macro(t, pos)
            if d is None or (d.params is not None and args is None):
                out.append(t)
                continue
            if via is not None:
                via.append(d)
            body = [x.text for x in tokenize(d.body, f"{d.path}:{d.line}") if x.kind != "pp"]
            if d.params is not None:
                assert args is not None
                if "#" in body or "##" in body:
                    raise CppError(f"{where}: {t} ({d.path}:{d.line}) stringizes or "
                               "pastes tokens: not evaluated here")
                if len(args) != len(d.params) and not (d.params == [] and args == [[]]):
                    raise CppError(f"{where}: {t} takes {len(d.params)} arguments")
                sub = {p: self.expand(a, pos, where, hide, via)
                       for p, a in zip(d.params, args)}
                body = [x for b in body for x in sub.get(b, [b])]
                i = after
            out += self.expand(body, pos, where, hide | {t}, via)
        return out


def _args(toks: list[str], i: int, where: str) -> tuple[list[list[str]], int]:
    """The arguments of the call whose '(' is toks[i]; and where after."""
    depth, args, cur = 0, [], []
    for j in range(i, len(toks)):
        t = toks[j]
        if t == "(":
            depth += 1
            if depth == 1:
                continue
        elif t == ")":
            depth -= 1
            if depth == 0:
                args.append(cur)
                return args, j + 1
        elif t == "," and depth == 1:
            args.append(cur)
            cur = []
            continue
        cur.append(t)
    raise CppError(f"{where}: unbalanced parentheses")


def _is_enabled(want: tuple):
    def f(u: Unit, args: list[list[str]], where: str) -> list[str]:
        if len(args) != 1 or len(args[0]) != 1:
            raise CppError(f"{where}: IS_ENABLED and its kin take one option")
        name = args[0][0]
        if name not in u.config:
            u.defined(name, (0, 0), where)  # raises for a CONFIG_ not in the table
            return ["0"]
        return ["1" if u.config[name] in want else "0"]
    return f


# include/linux/kconfig.h's tests and include/uapi/linux/const.h's
# constant suffixes, which paste tokens, built in.
_BUILTIN = {
    "IS_ENABLED": _is_enabled((True, "m")),
    "IS_BUILTIN": _is_enabled((True,)),
    "IS_MODULE": _is_enabled(("m",)),
    "IS_REACHABLE": _is_enabled((True, "m")),
    "_AC": lambda u, a, w: ["("] + a[0] + [")"],
    "_UL": lambda u, a, w: ["("] + a[0] + [")"],
    "_ULL": lambda u, a, w: ["("] + a[0] + [")"],
    "UL": lambda u, a, w: ["("] + a[0] + [")"],
    "ULL": lambda u, a, w: ["("] + a[0] + [")"],
}

_BINARY = [
    ("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="),
    ("<", ">", "<=", ">="), ("<<", ">>"), ("+", "-"), ("*", "/", "%"),
]


class _Parser:
    """An #if expression of integers: C's operators and precedence."""

    def __init__(self, toks: list[str], where: str, expr: str) -> None:
        self.t, self.i, self.where, self.expr = toks, 0, where, expr

    def fail(self, why: str) -> CppError:
        return CppError(f"{self.where}: cannot evaluate {self.expr!r}: {why}")

    def peek(self) -> str | None:
        return self.t[self.i] if self.i < len(self.t) else None

    def take(self) -> str:
        if self.i >= len(self.t):
            raise self.fail("it ends early")
        self.i += 1
        return self.t[self.i - 1]

    def parse(self) -> int:
        v = self.ternary()
        if self.peek() is not None:
            raise self.fail(f"unexpected {self.peek()!r}")
        return v

    def ternary(self) -> int:
        c = self.binary(0)
        if self.peek() != "?":
            return c
        self.take()
        a = self.ternary()
        if self.take() != ":":
            raise self.fail("? without :")
        b = self.ternary()
        return a if c else b

    def binary(self, level: int) -> int:
        if level == len(_BINARY):
            return self.unary()
        v = self.binary(level + 1)
        while self.peek() in _BINARY[level]:
            op = self.take()
            if op == "||":
                r = self.binary(level + 1)
                v = int(bool(v) or bool(r))
            elif op == "&&":
                r = self.binary(level + 1)
                v = int(bool(v) and bool(r))
            else:
                v = self.apply(op, v, self.binary(level + 1))
        return v

    def apply(self, op: str, a: int, b: int) -> int:
        if op in "/%" and b == 0:
            raise self.fail("division by zero")
        return {
            "|": lambda: a | b, "^": lambda: a ^ b, "&": lambda: a & b,
            "==": lambda: int(a == b), "!=": lambda: int(a != b),
            "<": lambda: int(a < b), ">": lambda: int(a > b),
            "<=": lambda: int(a <= b), ">=": lambda: int(a >= b),
            "<<": lambda: a << b, ">>": lambda: a >> b,
            "+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
            "/": lambda: int(a / b), "%": lambda: a - b * int(a / b),
        }[op]()

    def unary(self) -> int:
        t = self.take()
        if t == "!":
            return int(not self.unary())
        if t == "~":
            return ~self.unary()
        if t == "-":
            return -self.unary()
        if t == "+":
            return self.unary()
        if t == "(":
            v = self.ternary()
            if self.take() != ")":
                raise self.fail("unbalanced parentheses")
            return v
        m = re.fullmatch(r"(0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]*", t)
        if m:
            s = m.group(1)
            return int(s, 16) if s[:2] in ("0x", "0X") else int(s, 8 if s[0] == "0" else 10)
        m = re.fullmatch(r"'(\\?.)'", t)
        if m:
            return ord(m.group(1)[-1])
        if re.fullmatch(r"[A-Za-z_]\w*", t):
            raise self.fail(f"{t} is neither in the x86_64 config table nor a "
                    "macro of the files read")
        raise self.fail(f"unexpected {t!r}")


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="surrogateescape")

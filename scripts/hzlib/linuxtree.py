# SPDX-License-Identifier: GPL-2.0-only
"""make LINUX=DIR: the routines of a Linux tree's clear_page_64.S as
primitives (docs/linux-tree.md).

From the tree's assembled object, `nm` names the defined global text
symbols; each routine whose convention is known becomes a primitive
named linux-SHORT, written as one more X-macro list (PRIMS_TREE) that
lib/prims.h appends to PRIMS(), and a NASM wrapper that meets the
primitive's signature, void fn(void *dst, u64 len), from
arch/x86_64/linux-tree.inc.  Every other symbol is left out with the
reason, unless LINUX_ABI= names its convention.  Nothing from the tree
is written into the repository.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path

from . import display

SOURCE = "arch/x86/lib/clear_page_64.S"


@dataclass(frozen=True)
class Convention:
    name: str		# in LINUX_ABI= and the records (tree_abi=)
    macro: str		# its wrapper, a macro of arch/x86_64/linux-tree.inc
    what: str		# the register contract, for the build message


# Every register contract a wrapper can meet.  The last two are the
# series' before 7.0, whose names do not say which: LINUX_ABI= only.
CONVENTIONS = {c.name: c for c in [
    Convention("per-page", "TREE_PER_PAGE",
               "page in %rdi, 4096 bytes; called once per 4K page"),
    Convention("range", "TREE_RANGE",
               "destination %rdi, length in bytes %rcx, %rax zero; over the range"),
    Convention("npages-rsi", "TREE_NPAGES_RSI",
               "destination %rdi, page count %rsi (the 2022 RFC); over the range"),
    Convention("bytes-esi", "TREE_BYTES_ESI",
               "destination %rdi, length in bytes %esi (the 2025 v3/v4); over "
               "the range, in calls of at most 2 GiB"),
]}


@dataclass(frozen=True)
class Known:
    routine: str	# the tree's symbol
    short: str		# the primitive is linux-SHORT
    abi: str		# a CONVENTIONS key (tree_abi=)
    feature: str	# a PRIM_FEAT_ suffix
    simd: int = 0	# 1: uses SSE/AVX registers (lib/prims.h)
    named: bool = False	# its convention came from LINUX_ABI=

    @property
    def convention(self) -> Convention:
        return CONVENTIONS[self.abi]

    @property
    def what(self) -> str:
        return self.convention.what + ("; as LINUX_ABI= names it" if self.named else "")


def short_name(routine: str) -> str:
    """clear_page_erms, clear_pages_erms, __clear_pages_unrolled: erms,
    erms, unrolled."""
    short = re.sub(r"^_*clear_pages?_", "", routine) or routine.strip("_")
    return short.replace("_", "-")


# The routines whose register contract is known from their name alone.
KNOWN = [Known(r, short_name(r), abi, feat) for r, abi, feat in (
    ("clear_page_orig", "per-page", "NONE"),
    ("clear_page_rep", "per-page", "NONE"),
    ("clear_page_erms", "per-page", "ERMS"),
    ("__clear_pages_unrolled", "range", "NONE"),
)]

AMBIGUOUS = (r"^_*clear_pages?_",
             "convention ambiguous by name: the 2022 RFC's clear_pages_* took the "
             "page count in %rsi, the 2025 v3/v4 series' the length in bytes in "
             "%esi, AMD's tree has others; name it with LINUX_ABI=npages-rsi or "
             "LINUX_ABI=bytes-esi (or ROUTINE:CONVENTION)")

# Why the others are left out, by name pattern, first match wins.
LEFT_OUT = [
    (r"^clear_user_|^rep_stos_alternative$",
     "a user-copy routine: count in %rcx, returns the bytes left, "
     "recovers from faults through the exception table; not a page clear"),
    AMBIGUOUS,
    (r"", "not a routine make LINUX= knows the convention of; "
     "LINUX_ABI=ROUTINE:CONVENTION names it"),
]

# What a routine named by LINUX_ABI= needs, from its name: (pattern,
# PRIM_FEAT_ suffix, simd), first match wins.  A wrong guess is a #UD
# the kernel reports, or a primitive skipped for want of a feature.
NAMED_FEATURES = [
    (r"avx-?512", "AVX512F", 1),
    (r"avx", "AVX2", 1),
    (r"clzero\b|clzero_", "CLZERO", 0),
    (r"erms|stosb", "ERMS", 0),
    (r"movntdq|sse", "SSE2", 1),
    (r"movnt", "SSE2", 0),
    (r"", "NONE", 0),
]


class TreeError(Exception):
    pass


@dataclass(frozen=True)
class Provenance:
    version: str	# the top Makefile's, as Linux's `make kernelversion`
    describe: str | None	# `git describe --dirty --always`; None: not a git tree
    sha256: str		# of the tree's clear_page_64.S


def make_version(makefile: Path) -> str:
    """VERSION.PATCHLEVEL.SUBLEVEL followed by EXTRAVERSION, as the
    top Makefile's `kernelversion` target prints them."""
    try:
        text = makefile.read_text(errors="replace")
    except OSError as e:
        raise TreeError(f"{makefile}: {e.strerror}: the tree's version is "
                        "read from its top Makefile") from e
    v = {}
    for key in ("VERSION", "PATCHLEVEL", "SUBLEVEL", "EXTRAVERSION"):
        m = re.search(rf"^{key}\s*=[ \t]*(\S*)[ \t]*$", text, re.M)
        v[key] = m.group(1) if m else ""
    if not re.fullmatch(r"\d+", v["VERSION"]):
        raise TreeError(f"{makefile}: no numeric VERSION = line: not a Linux "
                        "tree's top Makefile")
    out = v["VERSION"]
    if v["PATCHLEVEL"]:
        out += "." + v["PATCHLEVEL"]
        if v["SUBLEVEL"]:
            out += "." + v["SUBLEVEL"]
    out += v["EXTRAVERSION"]
    if not re.fullmatch(r"[\w.+~-]+", out):
        raise TreeError(f"{makefile}: version {out!r} has characters a "
                        "record value cannot carry")
    return out


def git_describe(tree: Path) -> str | None:
    """`git describe --dirty --always` of @tree when it is the top of a
    git work tree (not a directory inside another repository); else None."""
    try:
        top = subprocess.run(["git", "-C", str(tree), "rev-parse", "--show-toplevel"],
                             capture_output=True, text=True)
    except OSError:
        return None	# no git: the tree cannot be a git tree we could read
    if top.returncode or Path(top.stdout.strip()).resolve() != tree.resolve():
        return None
    r = subprocess.run(["git", "-C", str(tree), "describe", "--dirty", "--always"],
                       capture_output=True, text=True)
    if r.returncode:
        raise TreeError(f"{tree}: git describe --dirty --always: {r.stderr.strip()}")
    return r.stdout.strip()


def provenance(src: str) -> Provenance:
    """Where @src, DIR/arch/x86/lib/clear_page_64.S, came from."""
    if not src.endswith(SOURCE):
        raise TreeError(f"{src}: not a tree's {SOURCE}")
    tree = Path(src[:-len(SOURCE)] or ".")
    return Provenance(make_version(tree / "Makefile"), git_describe(tree),
                      hashlib.sha256(Path(src).read_bytes()).hexdigest())


def text_symbols(nm: str, obj: Path) -> list[str]:
    """The defined global text symbols of @obj, in address order."""
    r = subprocess.run([nm, "--defined-only", "--numeric-sort", str(obj)],
                       capture_output=True, text=True)
    if r.returncode:
        raise TreeError(f"{nm} {obj}: {r.stderr.strip()}")
    out = []
    for line in r.stdout.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in ("T", "W"):	# global or weak text
            out.append(f[2])
    return out


def undefined(nm: str, obj: Path, src: str) -> None:
    """Refuse an object that refers to a symbol it does not define: a
    macro no stand-in defines, used as an operand ($CLEAR_QWORDS),
    reaches the assembler as a symbol and would fail only at the link,
    or link silently to a kernel or libc symbol of that name."""
    r = subprocess.run([nm, "--undefined-only", str(obj)], capture_output=True, text=True)
    if r.returncode:
        raise TreeError(f"{nm} --undefined-only {obj}: {r.stderr.strip()}")
    names = [line.split()[-1] for line in r.stdout.splitlines() if line.strip()]
    if not names:
        return
    try:
        lines = Path(src).read_text(errors="replace").splitlines()
    except OSError:
        lines = []
    where = []
    for name in names:
        at = [i + 1 for i, text in enumerate(lines) if re.search(rf"\b{re.escape(name)}\b", text)]
        where.append(f"{src}:{at[0]}: {name}" if at else f"{src}: {name}")
    raise TreeError("the routines refer to what the file does not define (a macro no "
                    "stand-in header defines, arch/x86_64/linux-tree/include, or a "
                    "symbol of the kernel): " + "; ".join(where))


def parse_abi(spec: str) -> tuple[str | None, dict[str, str]]:
    """LINUX_ABI=: a convention for every routine left out as ambiguous
    by name, and/or ROUTINE:CONVENTION pairs, comma-separated."""
    every, each = None, {}
    for item in filter(None, (x.strip() for x in spec.split(","))):
        routine, colon, conv = item.rpartition(":")
        if colon and not routine:
            raise TreeError(f"LINUX_ABI={spec}: {item!r} names no routine: "
                            "CONVENTION alone, or ROUTINE:CONVENTION")
        if conv not in CONVENTIONS:
            raise TreeError(f"LINUX_ABI={spec}: unknown convention {conv!r}: "
                            f"one of {', '.join(CONVENTIONS)} (docs/linux-tree.md)")
        if not routine:
            if every not in (None, conv):
                raise TreeError(f"LINUX_ABI={spec}: two conventions for every "
                                "ambiguous routine; name each as ROUTINE:CONVENTION")
            every = conv
        elif each.setdefault(routine, conv) != conv:
            raise TreeError(f"LINUX_ABI={spec}: {routine} named twice")
    return every, each


def named(routine: str, abi: str) -> Known:
    feat, simd = next((f, v) for pat, f, v in NAMED_FEATURES if re.search(pat, routine))
    return Known(routine, short_name(routine), abi, feat, simd, named=True)


def split(symbols: list[str], abi: str = ""
          ) -> tuple[list[Known], list[tuple[str, str]]]:
    """The routines to build (known by name, or named by @abi, LINUX_ABI=),
    and the other symbols with why."""
    every, each = parse_abi(abi)
    missing = [r for r in each if r not in symbols]
    if missing:
        raise TreeError(f"LINUX_ABI={abi}: {', '.join(missing)} not defined in the "
                        f"tree's {SOURCE}; its routines: {', '.join(symbols) or 'none'}")
    by_name = {k.routine: k for k in KNOWN}
    used, left, took_every = [], [], False
    for s in symbols:
        if s in each:
            used.append(named(s, each[s]))
        elif s in by_name:
            used.append(by_name[s])
        elif every and re.search(AMBIGUOUS[0], s):
            used.append(named(s, every))
            took_every = True
        else:
            left.append((s, next(w for pat, w in LEFT_OUT if re.search(pat, s))))
    # Known routines in hugezero's order (orig, rep, erms), as before;
    # the named ones after them, in the tree's.
    rank = {k.routine: i for i, k in enumerate(KNOWN)}
    used.sort(key=lambda k: (k.named, rank.get(k.routine, 0)))
    if every and not took_every:
        raise TreeError(f"LINUX_ABI={abi}: {every} names no routine: the tree has no "
                        "routine whose convention its name leaves ambiguous "
                        "(clear_pages_*); name one as ROUTINE:CONVENTION")
    return unique_shorts(used), left


def unique_shorts(used: list[Known]) -> list[Known]:
    """Where two routines have one short name (clear_page_erms beside a
    named clear_pages_erms), the named one is called by its whole name."""
    seen = {k.short for k in used if not k.named}
    out = []
    for k in used:
        if k.named and (k.short in seen or sum(x.short == k.short for x in used) > 1):
            k = Known(k.routine, k.routine.strip("_").replace("_", "-"), k.abi,
                      k.feature, k.simd, named=True)
        out.append(k)
    shorts = [k.short for k in out]
    clash = sorted({k.routine for k in out if shorts.count(k.short) > 1})
    if clash:
        raise TreeError(f"{', '.join(clash)}: one primitive name for two routines "
                        f"(linux-{next(k.short for k in out if k.routine == clash[0])}): "
                        "name one of them only in LINUX_ABI=")
    return out


def by_reason(left: list[tuple[str, str]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for sym, why in left:
        out.setdefault(why, []).append(sym)
    return out


def prim_id(k: Known) -> str:
    return "LINUX_" + re.sub(r"[^A-Za-z0-9]", "_", k.short).upper()


def wrapper(k: Known) -> str:
    return "linux_tree_" + re.sub(r"[^A-Za-z0-9]", "_", k.short)


def header(used: list[Known], src: str, p: Provenance) -> str:
    rows = "".join(f'\tX({prim_id(k)}, "linux-{k.short}", {wrapper(k)}, {k.simd}, '
                   f'{k.feature}, "{k.routine}")\t\\\n' for k in used)
    abis = "".join(f'\tX({prim_id(k)}, "{k.abi}")\t\\\n' for k in used)
    describe = (f'#define LINUX_TREE_DESCRIBE "{p.describe}"\n'
                if p.describe else "")
    return ("/* Generated by scripts/linux-tree from " + src + ": do not edit. */\n"
            "#define HZ_LINUX_TREE 1\n"
            f'#define LINUX_TREE_VERSION "{p.version}"\n' + describe +
            f'#define LINUX_TREE_SHA256 "{p.sha256}"\n'
            "#define PRIMS_TREE(X)\t\\\n" + rows + "\n"
            "#define PRIMS_TREE_ABI(X)\t\\\n" + abis + "\n")


def write_if_changed(path: Path, text: str) -> None:
    """So that make, which runs the generator every time (the git state
    is no file it could depend on), rebuilds only what a change touches."""
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


# rethunk=: the suffixes of the copies the Makefile assembles of the tree's
# file (RT_COPIES), each routine's RET through one thunk; clear.c looks
# each wrapper up by the same suffix (docs/hardware.md, "Return thunks").
RT_COPIES = ("rt_retbleed", "rt_srso", "rt_srso_alias", "rt_depth",
             "rtc_retbleed", "rtc_srso", "rtc_srso_alias", "rtc_depth")


def wrappers(used: list[Known], src: str, copies: tuple[str, ...] = RT_COPIES) -> str:
    """Each routine's wrapper, then its copies' (@copies: none for a
    routine assembled once)."""
    lines = [f"; Generated by scripts/linux-tree from {src}: do not edit.",
             '%include "arch/x86_64/linux-tree.inc"']
    lines += [f"{k.convention.macro} {wrapper(k)}{sfx}, {k.routine}{sfx}"
              for sfx in ("", *(f"_{c}" for c in copies)) for k in used]
    return "\n".join(lines) + "\n"


ABI_FILE = "linux-abi"


def tree_slots(prims_h: Path = Path(__file__).resolve().parents[2] / "lib" / "prims.h") -> int:
    """PRIM_TREE_MAX of lib/prims.h: how many routines a tree may add."""
    m = re.search(r"^#define PRIM_TREE_MAX (\d+)", prims_h.read_text(), re.M)
    if not m:
        raise TreeError(f"{prims_h}: no PRIM_TREE_MAX")
    return int(m.group(1))


def generate(nm: str, obj: Path, src: str, out: Path, abi: str = "") -> list[str]:
    """Write out/tree_prims.h, out/tree_wrap.asm and the messages it
    returns, one line each, to out/tree.txt (kept for a build that is
    already up to date); @abi is LINUX_ABI=."""
    undefined(nm, obj, src)
    used, left = split(text_symbols(nm, obj), abi)
    if not used:
        raise TreeError(
            f"{src}: none of the routines make LINUX= knows "
            f"({', '.join(k.routine for k in KNOWN)}) is defined there"
            + ("".join(f"; {', '.join(syms)} {'is' if len(syms) == 1 else 'are'} "
                       f"left out: {why}" for why, syms in by_reason(left).items())
               if left else "; it defines no global routine"))
    if len(used) > tree_slots():
        raise TreeError(f"{src}: {len(used)} routines make LINUX= knows "
                        f"({', '.join(k.routine for k in used)}), more than the "
                        f"{tree_slots()} slots of lib/prims.h's PRIM_TREE_MAX: raise it")
    p = provenance(src)
    out.mkdir(parents=True, exist_ok=True)
    write_if_changed(out / "tree_prims.h", header(used, src, p))
    write_if_changed(out / "tree_wrap.asm", wrappers(used, src))
    msgs = [display.tree_build_line(display.Tree(p.version, p.describe or "", p.sha256), abi)]
    msgs += [f"linux-{k.short}: {k.routine} ({k.what})" for k in used]
    msgs += [f"left out: {s}: {why}" for s, why in left]
    write_if_changed(out / "tree.txt", "".join(m + "\n" for m in msgs))
    # What LINUX_ABI= said, for a tool that makes this build again (lava
    # run): the tree alone (linux-tree.stamp) may not build without it.
    write_if_changed(out / ABI_FILE, abi + "\n")
    return msgs


# What make LINUX= and its tests read of a tree; a tree lacks some of
# the optional ones (arch/x86/mm/memory.c is a series', include/vdso/
# page.h newer than 6.1's).
UNPACK_REQUIRED = ("Makefile", SOURCE)


def unpack_cached(tarball: Path, out: Path, optional: tuple[str, ...],
                  cache: Path) -> Path:
    """unpack(), through @cache: xz is read whole (some 30 s a tree), so a
    fresh clone on a machine that unpacked the same tarball's same files
    before copies them instead.  The key is the tarball (path, size,
    mtime) and the files wanted: a new package or a new file to read
    unpacks again."""
    st = tarball.stat()
    key = hashlib.sha256(repr((str(tarball.resolve()), st.st_size, st.st_mtime_ns,
                               sorted(set(UNPACK_REQUIRED) | set(optional))))
                         .encode()).hexdigest()[:16]
    kept = cache / "unpacked" / f"{tarball.name.split('.tar')[0]}-{key}"
    if not (kept / "Makefile").is_file():
        for old in kept.parent.glob(f"{tarball.name.split('.tar')[0]}-*"):
            shutil.rmtree(old, ignore_errors=True)	# another package's
        tmp = kept.with_name(kept.name + f".tmp{os.getpid()}")
        unpack(tarball, tmp, optional)
        tmp.rename(kept)
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(kept, out)
    return out


def unpack(tarball: Path, out: Path, optional: tuple[str, ...] = ()) -> Path:
    """The top Makefile, clear_page_64.S and @optional of a linux-source
    tarball into @out (its top directory stripped); returns @out."""
    want = set(UNPACK_REQUIRED) | set(optional)
    found = set()
    try:
        with tarfile.open(tarball) as tf:
            for m in tf:
                rel = m.name.split("/", 1)[1] if "/" in m.name else ""
                if rel in want and m.isfile():
                    dst = out / rel
                    dst.parent.mkdir(parents=True, exist_ok=True)
                    f = tf.extractfile(m)
                    assert f is not None
                    dst.write_bytes(f.read())
                    found.add(rel)
                    if found == want:
                        break
    except (OSError, tarfile.TarError) as e:
        raise TreeError(f"{tarball}: {e}") from e
    lacks = set(UNPACK_REQUIRED) - found
    if lacks:
        raise TreeError(f"{tarball}: lacks {', '.join(sorted(lacks))}")
    return out

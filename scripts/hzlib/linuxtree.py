# SPDX-License-Identifier: GPL-2.0-only
"""make LINUX=DIR: the routines of a Linux tree's clear_page_64.S as
primitives (docs/linux-tree.md).

From the tree's assembled object, `nm` names the defined global text
symbols; each routine whose convention is known becomes a primitive
named linux-SHORT, written as one more X-macro list (PRIMS_TREE) that
lib/prims.h appends to PRIMS(), and a NASM wrapper that meets the
primitive's signature, void fn(void *dst, u64 len), from
arch/x86_64/linux-tree.inc.  Every other symbol is left out with the
reason.  Nothing from the tree is written into the repository.
"""
from __future__ import annotations

import hashlib
import re
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path

SOURCE = "arch/x86/lib/clear_page_64.S"


@dataclass(frozen=True)
class Known:
    routine: str	# the tree's symbol
    short: str		# the primitive is linux-SHORT
    convention: str	# a TREE_ macro of arch/x86_64/linux-tree.inc
    abi: str		# the convention's name in the records (tree_abi=)
    feature: str	# a PRIM_FEAT_ suffix
    what: str		# for the build message


# The routines whose register contract is known from their name alone.
KNOWN = [
    Known("clear_page_orig", "orig", "TREE_PER_PAGE", "per-page", "NONE",
          "page in %rdi, 4096 bytes; called once per 4K page"),
    Known("clear_page_rep", "rep", "TREE_PER_PAGE", "per-page", "NONE",
          "page in %rdi, 4096 bytes; called once per 4K page"),
    Known("clear_page_erms", "erms", "TREE_PER_PAGE", "per-page", "ERMS",
          "page in %rdi, 4096 bytes; called once per 4K page"),
    Known("__clear_pages_unrolled", "unrolled", "TREE_RANGE", "range", "NONE",
          "destination %rdi, length in bytes %rcx, %rax zero; over the range"),
]

# Why the others are left out, by name pattern, first match wins.
LEFT_OUT = [
    (r"^clear_user_|^rep_stos_alternative$",
     "a user-copy routine: count in %rcx, returns the bytes left, "
     "recovers from faults through the exception table; not a page clear"),
    (r"^clear_pages?_",
     "convention ambiguous by name: the 2022 RFC's clear_pages_* took the "
     "page count in %rsi, the 2025 v3/v4 series' the length in bytes in "
     "%esi, AMD's tree has others; LINUX_ABI= to name it is not built yet"),
    (r"", "not a routine make LINUX= knows the convention of"),
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
        if len(f) == 3 and f[1] == "T":
            out.append(f[2])
    return out


def split(symbols: list[str]) -> tuple[list[Known], list[tuple[str, str]]]:
    """The known routines present, and the other symbols with why."""
    by_name = {k.routine: k for k in KNOWN}
    used = [k for k in KNOWN if k.routine in symbols]	# hugezero's order
    left = []
    for s in symbols:
        if s in by_name:
            continue
        why = next(w for pat, w in LEFT_OUT if re.search(pat, s))
        left.append((s, why))
    return used, left


def prim_id(k: Known) -> str:
    return "LINUX_" + re.sub(r"[^A-Za-z0-9]", "_", k.short).upper()


def wrapper(k: Known) -> str:
    return "linux_tree_" + re.sub(r"[^A-Za-z0-9]", "_", k.short)


def header(used: list[Known], src: str, p: Provenance) -> str:
    rows = "".join(f'\tX({prim_id(k)}, "linux-{k.short}", {wrapper(k)}, 0, '
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


def wrappers(used: list[Known], src: str) -> str:
    lines = [f"; Generated by scripts/linux-tree from {src}: do not edit.",
             '%include "arch/x86_64/linux-tree.inc"']
    lines += [f"{k.convention} {wrapper(k)}, {k.routine}" for k in used]
    return "\n".join(lines) + "\n"


def generate(nm: str, obj: Path, src: str, out: Path) -> list[str]:
    """Write out/tree_prims.h, out/tree_wrap.asm and the messages it
    returns, one line each, to out/tree.txt (kept for a build that is
    already up to date)."""
    used, left = split(text_symbols(nm, obj))
    if not used:
        raise TreeError(
            f"{src}: none of the routines make LINUX= knows "
            f"({', '.join(k.routine for k in KNOWN)}) is defined there"
            + ("".join(f"; {s} is left out: {why}" for s, why in left)
               if left else "; it defines no global routine"))
    p = provenance(src)
    out.mkdir(parents=True, exist_ok=True)
    write_if_changed(out / "tree_prims.h", header(used, src, p))
    write_if_changed(out / "tree_wrap.asm", wrappers(used, src))
    msgs = [f"tree {p.version}" + (f" ({p.describe})" if p.describe else "")
            + f", {SOURCE} sha256 {p.sha256}"]
    msgs += [f"linux-{k.short}: {k.routine} ({k.what})" for k in used]
    msgs += [f"left out: {s}: {why}" for s, why in left]
    write_if_changed(out / "tree.txt", "".join(m + "\n" for m in msgs))
    return msgs


def extract(tarball: Path, out: Path) -> Path:
    """The top Makefile and clear_page_64.S of a linux-source tarball
    into @out (its top directory stripped); returns @out."""
    want = {"Makefile", SOURCE}
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
    if found != want:
        raise TreeError(f"{tarball}: lacks {', '.join(sorted(want - found))}")
    return out

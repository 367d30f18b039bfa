# SPDX-License-Identifier: GPL-2.0-only
"""The layering rule, enforced: lib/ -> arch/x86_64/ -> kernel/ (hosted/
beside kernel/).  Nothing includes or calls upward.

Two checks, because either alone can be fooled: the #include lines of
every source, and the undefined symbols of every kernel object file (an
`extern` written by hand, or a NASM `extern`, calls upward without an
include).  A lower layer that needs something from above takes it as an
argument or a registered callback.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from hzlib import paths  # noqa: E402

OBJS = paths.BUILD / "k"

# What each layer may include or call, lowest first.
ALLOWED = {
    "lib": {"lib"},
    "arch": {"lib", "arch"},
    "kernel": {"lib", "arch", "kernel"},
    "hosted": {"lib", "arch", "hosted"},
}
INCLUDE = re.compile(r'^\s*(?:#\s*include|%include)\s*[<"]([^">]+)[">]', re.M)


def layer_of(path: str) -> str | None:
    top = path.split("/", 1)[0]
    return top if top in ALLOWED else None


def included_layer(name: str, src: Path, root: Path) -> str | None:
    """The layer an #include names: as the build resolves it (-I. first,
    then the including file's directory), so ../ tricks count too."""
    for base in (root, src.parent):
        p = (base / name).resolve()
        if p.exists() and p.is_relative_to(root.resolve()):
            return layer_of(p.relative_to(root.resolve()).as_posix())
    return layer_of(os.path.normpath(name))


def include_violations(root: Path = ROOT) -> list[str]:
    bad = []
    for f in sorted(root.glob("**/*")):
        if f.suffix not in (".c", ".h", ".asm", ".inc") or "build" in f.parts:
            continue
        rel = f.relative_to(root).as_posix()
        me = layer_of(rel)
        if me is None:
            continue
        for m in INCLUDE.finditer(f.read_text(errors="replace")):
            target = included_layer(m.group(1), f, root)
            if target and target not in ALLOWED[me]:
                line = f.read_text(errors="replace")[:m.start()].count("\n") + 1
                bad.append(f"{rel}:{line}: {me}/ includes \"{m.group(1)}\" "
                           f"from {target}/, a layer above it")
    return bad


def nm(obj: Path, undefined: bool) -> set[str]:
    # Defined: global symbols only, so a static of the same name in a
    # lower layer cannot hide a call to a higher layer's function.
    args = ["nm", "-u", str(obj)] if undefined else \
        ["nm", "-g", "--defined-only", str(obj)]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


def symbol_violations(objs: Path = OBJS) -> list[str]:
    by_layer: dict[str, list[Path]] = {}
    for o in sorted(objs.glob("**/*.o")):
        me = layer_of(o.relative_to(objs).as_posix())
        if me:
            by_layer.setdefault(me, []).append(o)
    defined = {k: set().union(*(nm(o, False) for o in v)) if v else set()
               for k, v in by_layer.items()}
    owner: dict[str, str] = {}
    for layer, syms in defined.items():
        for s in syms:
            owner.setdefault(s, layer)
    bad = []
    for layer, files in by_layer.items():
        for o in files:
            for s in sorted(nm(o, True)):
                src = owner.get(s)
                if src and src not in ALLOWED[layer]:
                    bad.append(f"{o.relative_to(objs)}: {layer}/ calls {s}(), "
                               f"defined in {src}/, a layer above it")
    return bad


def tree_users() -> set[str]:
    """The Makefile's TREE_USERS: the files given a tree's generated
    headers (lib/prims_tree.h)."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    m = re.search(r"^TREE_USERS := (.*)$", text, re.M)
    return set(m.group(1).split()) if m else set()


def reads_tree(path: Path) -> bool:
    """Whether a source takes what the generated headers define."""
    text = path.read_text(encoding="utf-8", errors="replace")
    return bool(re.search(r'#include "lib/prims_tree\.h"|\bLINUX_TREE_\w+|\bPRIMS_TREE\b',
                          text))


class TreeUsers(unittest.TestCase):
    """Only the Makefile's TREE_USERS get a tree's generated headers: a
    file outside it that read them would silently build as if there were
    no tree, and one inside that does not would rebuild for nothing."""

    def test_tree_users_are_the_readers(self) -> None:
        users = tree_users()
        self.assertTrue(users, "no TREE_USERS in the Makefile")
        readers = {str(p.relative_to(ROOT).with_suffix("")) for d in ("lib", "kernel", "arch",
                                                                     "hosted")
                   for p in (ROOT / d).rglob("*.c") if reads_tree(p)}
        self.assertEqual(readers, users)


class Layering(unittest.TestCase):
    def test_includes_go_down_only(self) -> None:
        bad = include_violations()
        self.assertEqual(bad, [], "\n" + "\n".join(bad))

    def test_calls_go_down_only(self) -> None:
        if not any(OBJS.glob("lib/*.o")):
            self.fail(f"no kernel objects under {OBJS}: run make first")
        bad = symbol_violations()
        self.assertEqual(bad, [], "\n" + "\n".join(bad))


if __name__ == "__main__":
    unittest.main()

# SPDX-License-Identifier: GPL-2.0-only
"""order=tree proves hugezero's own orders (docs/linux-tree.md, "The
proof"): the event sequence of each Debian tree's own zeroing, compiled
over lib/tree_shim.h, equals its built-in counterpart's for every folio
size, fault class and model (tests/tree/tree_seq.c): 6.x's
clear_huge_page()/folio_zero_user() is converging-page (with the
gigantic path for 1G), 7.x's folio_zero_user() neighbourhood-last with
radius 2 in 32 MiB units (whole ranges under full and lazy).  A built-in
order altered here, or a tree's mm/memory.c mutated here, differs, and
the harness shows the first differing event; a tree calling what the
shim lacks is refused naming the function, callee, file and line.
Trees that are not unpacked skip, naming the package."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))

from hzlib import memoryc  # noqa: E402
from test_tree_extract import Trees  # noqa: E402

TOOL = ROOT / "scripts" / "linux-tree"
SHIM = ROOT / "lib" / "tree_shim.h"
CFLAGS = ["-std=gnu11", "-O1", "-g", "-Wall", "-Wextra", "-Werror", f"-I{ROOT}",
          "-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-builtin",
          "-include", str(ROOT / "hosted/rename.h")]
# The counterpart of each version's zeroing: an order= choice, its plan
# made by matrix_resolve() for each model (order=linux: 7.0's).
COUNTERPART = {"6.1": ["converging-page"], "6.12": ["converging-page"], "7.2": ["linux"]}
CASES = {"6.1": 155, "6.12": 155, "7.2": 195}


def generate(tree: Path, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(TOOL), "zero", str(tree), str(out), str(SHIM)],
                          capture_output=True, text=True, timeout=120)


# lib/ whole, as the kernel links it (the plans come from matrix_resolve()),
# compiled once a run; lib/order.c (altered by tests) and lib/tree.c (which
# sees tree_zero.h) with each harness.
_LIB: list[Path] = []
_LIB_DIR = tempfile.TemporaryDirectory()
PER_TREE = ("order.c", "tree.c")


def lib_objects() -> list[Path]:
    if not _LIB:
        for src in sorted((ROOT / "lib").glob("*.c")):
            if src.name in PER_TREE:
                continue
            obj = Path(_LIB_DIR.name) / (src.stem + ".o")
            subprocess.run(["gcc", *CFLAGS, "-c", str(src), "-o", str(obj)], check=True,
                           timeout=300)
            _LIB.append(obj)
    return _LIB


def build(tree: Path, out: Path, order_c: Path = ROOT / "lib/order.c") -> Path:
    """The harness over @tree's zeroing (and @order_c's orders)."""
    g = generate(tree, out)
    if g.returncode:
        raise AssertionError(f"linux-tree zero failed: {g.stderr}")
    exe = out / "tree_seq"
    srcs = [ROOT / "tests/tree/tree_seq.c", ROOT / "lib/tree.c", order_c, out / "tree_zero.c"]
    subprocess.run(["gcc", *CFLAGS, "-include", str(out / "tree_zero.h"), *map(str, srcs),
                    *map(str, lib_objects()), "-o", str(exe)], check=True, timeout=300)
    return exe


def run(exe: Path, args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=300)


def copy_tree(src: Path, dst: Path) -> Path:
    """The files make LINUX= reads, to mutate."""
    for rel in memoryc.READS + ("arch/x86/lib/clear_page_64.S",):
        if (src / rel).is_file():
            (dst / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(src / rel, dst / rel)
    return dst


def mutate(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert text.count(old) == 1, f"{path}: {old!r} not once"
    path.write_text(text.replace(old, new))


class TreeSeqTest(unittest.TestCase, Trees):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.t = Path(self.tmp.name)

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def proof(self, version: str) -> None:
        exe = build(self.need(version), self.t / version)
        r = run(exe, COUNTERPART[version])
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertRegex(r.stdout, rf"tree: {version}\.\d+ ")
        # 5 models (none given, none, voluntary, full, lazy) each: 4K 1
        # fault class; 2M 15; 1G 15, and 7.x's 8 at the 32M unit's edges
        self.assertIn(f"equal: {CASES[version]} cases", r.stdout)
        if version == "7.2":
            # the left range batch-1 .. batch+2 pages (fault - radius),
            # the right one batch+1 .. batch-2 (nr - 1 - radius - fault)
            self.assertIn("1G faults: 0 1 2 3 4 5 131071 131072 131073 262138 262139 262140 "
                          "262141 262142 262143 8193 8194 8195 8196 253947 253948 253949 "
                          "253950\n", r.stdout)

    def test_6_1_is_converging_page(self) -> None:
        self.proof("6.1")

    def test_6_12_is_converging_page(self) -> None:
        self.proof("6.12")

    def test_7_2_is_neighbourhood_last(self) -> None:
        self.proof("7.2")

    def test_altered_builtin_differs(self) -> None:
        """One built-in order altered: the first differing event shown."""
        cases = (("6.12", "if (it->i % 2 == 0)", "if (it->i % 2 == 1)",
                  "differ: 2M folio, fault at page 1, model off: first differing event 510\n"
                  "  tree: resched point, pages 0+1\n  built-in: resched point, pages 1+1\n"),
                 ("7.2", "u32 p = it->phase;", "u32 p = it->phase < 2 ? 1 - it->phase : 2;",
                  "differ: 2M folio, fault at page 3, model off: first differing event 0\n"
                  "  tree: might_sleep, resched point, pages 6+506\n"
                  "  built-in: might_sleep, resched point, pages 0+1\n"),
                 # a 32M unit's edge: a range one page past it in one call
                 ("7.2", "\tu32 n = MIN(it->chunk, len - it->i);\n",
                  "\tu32 n = MIN(it->chunk, len - it->i);\n\n"
                  "\tif (len - it->i == it->chunk + 1)\n\t\tn = it->chunk + 1;\n",
                  "differ: 1G folio, fault at page 8195, model none: first differing event 31\n"
                  "  tree: might_sleep, resched point, pages 0+8192\n"
                  "  built-in: might_sleep, resched point, pages 0+8193\n"),
                 # might_sleep() left out of a built-in order: its own event
                 ("6.12", "\tr->might_sleep |= !it->started && r->resched;\n", "",
                  "differ: 4K folio, fault at page 0, model off: first differing event 0\n"
                  "  tree: might_sleep, resched point, pages 0+1\n"
                  "  built-in: resched point, pages 0+1\n"))
        for version, old, new, shown in cases:
            with self.subTest(version=version, old=old):
                order_c = self.t / f"order-{version}.c"
                shutil.copy(ROOT / "lib/order.c", order_c)
                mutate(order_c, old, new)
                r = run(build(self.need(version), self.t / version, order_c),
                        COUNTERPART[version])
                self.assertEqual(r.returncode, 1, r.stdout)
                self.assertIn(shown, r.stdout)

    def mutated(self, old: str, new: str) -> tuple[subprocess.CompletedProcess, dict]:
        tree = copy_tree(self.need("7.2"), self.t / "tree")
        mutate(tree / "mm/memory.c", old, new)
        out = self.t / "out"
        exe = build(tree, out)
        return run(exe, COUNTERPART["7.2"]), json.loads((out / memoryc.MANIFEST).read_text())

    def base_sha(self) -> str:
        g = generate(self.need("7.2"), self.t / "base")
        self.assertEqual(g.returncode, 0, g.stderr)
        return json.loads((self.t / "base" / memoryc.MANIFEST).read_text())["sha256"]

    def test_radius_4_differs(self) -> None:
        base = self.base_sha()
        r, m = self.mutated("#define FOLIO_ZERO_LOCALITY_RADIUS\t2",
                            "#define FOLIO_ZERO_LOCALITY_RADIUS\t4")
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("first differing event", r.stdout)
        self.assertNotEqual(m["sha256"], base)
        self.assertIn(f"sha256 {m['sha256']}", r.stdout, "the record's sha is the text's")
        # and it is neighbourhood-last with radius 4
        exe = self.t / "out" / "tree_seq"
        self.assertEqual(run(exe, ["linux", "4"]).returncode, 0)

    def test_left_right_swapped_differs(self) -> None:
        base = self.base_sha()
        tree = self.need("7.2")
        text = (tree / "mm/memory.c").read_text()
        left = "r[1] = DEFINE_RANGE(pg.start, r[2].start - 1);"
        right = "r[0] = DEFINE_RANGE(r[2].end + 1, pg.end);"
        self.assertIn(left, text)
        tmp = copy_tree(tree, self.t / "tree")
        body = (tmp / "mm/memory.c").read_text()
        body = body.replace(left, "@L@").replace(right, left.replace("r[1]", "r[0]", 1)
                                                 .replace("pg.start, r[2].start - 1",
                                                          "r[2].end + 1, pg.end"))
        # r[0] now the left of the fault, r[1] the right
        body = body.replace("@L@", "r[1] = DEFINE_RANGE(r[2].end + 1, pg.end);")
        body = body.replace("r[0] = DEFINE_RANGE(r[2].end + 1, pg.end);",
                            "r[0] = DEFINE_RANGE(pg.start, r[2].start - 1);", 1)
        (tmp / "mm/memory.c").write_text(body)
        out = self.t / "out"
        r = run(build(tmp, out), COUNTERPART["7.2"])
        m = json.loads((out / memoryc.MANIFEST).read_text())
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("first differing event", r.stdout)
        self.assertNotEqual(m["sha256"], base)

    def test_inner_block_as_extracted(self) -> None:
        """An #if block inside a function taken runs the branch the
        extractor followed (CONFIG_TRANSPARENT_HUGEPAGE set; x86's
        clear_pages a macro), not the one gcc would pick without the
        configuration: the sequence is still order=linux's."""
        tree = copy_tree(self.need("7.2"), self.t / "tree")
        line = "\t\tcount = min(unit, nr_pages - i);\n"
        mutate(tree / "mm/memory.c", line,
               "#ifdef CONFIG_TRANSPARENT_HUGEPAGE\n" + line + "#else\n\t\tcount = min(unit, 1u);\n"
               "#endif\n#ifndef clear_pages\n\t\tcount = 1;\n#endif\n")
        r = run(build(tree, self.t / "out"), COUNTERPART["7.2"])
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn(f"equal: {CASES['7.2']} cases", r.stdout)

    def test_warnings_as_linux(self) -> None:
        """A warning Linux's default build (W=0) does not enable does not
        refuse the tree's code: -Wtype-limits (of -Wextra) here."""
        tree = copy_tree(self.need("7.2"), self.t / "tree")
        anchor = "\tmight_sleep();\n\n\tfor (i = 0; i < nr_pages; i += count) {\n"
        mutate(tree / "mm/memory.c", anchor, "\tif (nr_pages < 0)\n\t\treturn;\n" + anchor)
        r = run(build(tree, self.t / "out"), COUNTERPART["7.2"])
        self.assertEqual(r.returncode, 0, r.stdout)

    def test_unknown_callee_refused(self) -> None:
        """A callee the shim lacks fails make, naming function, callee,
        file and line; never a kernel that runs something else."""
        tree = copy_tree(self.need("7.2"), self.t / "tree")
        mem = tree / "mm/memory.c"
        text = mem.read_text()
        anchor = "\tfor (i = 0; i < ARRAY_SIZE(r); i++) {"
        self.assertEqual(text.count(anchor), 1)
        mem.write_text(text.replace(anchor, "\tkmsan_unpoison_folio(folio);\n" + anchor))
        line = mem.read_text().splitlines().index("\tkmsan_unpoison_folio(folio);") + 1
        r = subprocess.run(["make", "-C", str(ROOT), f"BUILD={self.t / 'b'}", f"LINUX={tree}",
                            f"{self.t / 'b'}/hugezero.elf"],
                           capture_output=True, text=True, timeout=600)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn(f"{tree}/mm/memory.c:{line}: folio_zero_user calls kmsan_unpoison_folio, "
                      "which hugezero's shim (lib/tree_shim.h) does not provide",
                      r.stdout + r.stderr)
        self.assertFalse((self.t / "b/hugezero.elf").exists())

    def test_no_entry_refused(self) -> None:
        tree = copy_tree(self.need("7.2"), self.t / "tree")
        mem = tree / "mm/memory.c"
        mem.write_text(mem.read_text().replace("void folio_zero_user(", "void folio_zero_other("))
        g = generate(tree, self.t / "out")
        self.assertEqual(g.returncode, 2, g.stderr)
        self.assertIn("no folio_zero_user or clear_huge_page defined in mm/memory.c", g.stderr)

    def test_no_memory_c_builds_without(self) -> None:
        tree = copy_tree(self.need("7.2"), self.t / "tree")
        (tree / "mm/memory.c").unlink()
        g = generate(tree, self.t / "out")
        self.assertEqual(g.returncode, 0, g.stderr)
        self.assertIn("no mm/memory.c", g.stdout)
        self.assertNotIn("LINUX_TREE_ZERO", (self.t / "out/tree_zero.h").read_text())


if __name__ == "__main__":
    unittest.main()

# SPDX-License-Identifier: GPL-2.0-only
"""scripts/linux-tree extract: a tree's folio_zero_user() (clear_huge_page()
in 6.1) and what it reaches, from its mm/memory.c (docs/linux-tree.md,
"What is extracted").  The real trees are Debian's linux-source-6.1,
-6.12 and -7.2, unpacked by `scripts/setup.sh --linux-source`; a case
needing one that is not there skips naming it (fails under
HZ_REQUIRE_LINUX_SOURCE=1).  The x86 override tree under
tests/data/linux-trees was written for these tests; no Linux code is in
the repository."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from hzlib import cpp, linuxtree, memoryc, paths  # noqa: E402

TOOL = ROOT / "scripts" / "linux-tree"
OVERRIDE = ROOT / "tests/data/linux-trees/x86-override"

# What each version's x86_64 build takes: (entry, {name: kind}).
EXPECTED = {
    "6.1": ("clear_huge_page", {
        "clear_huge_page": "function", "process_huge_page": "function",
        "clear_gigantic_page": "function", "clear_subpage": "function"}),
    "6.12": ("folio_zero_user", {
        "folio_zero_user": "function", "process_huge_page": "function",
        "clear_gigantic_page": "function", "clear_subpage": "function"}),
    "7.2": ("folio_zero_user", {
        "folio_zero_user": "function", "clear_contig_highpages": "function",
        "FOLIO_ZERO_LOCALITY_RADIUS": "macro"}),
}


def tree(version: str) -> Path:
    return paths.BUILD / f"linux-source-{version}"


def run(src: Path, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(TOOL), "extract", str(src), str(out)],
                          capture_output=True, text=True, timeout=60)


class UnpackCacheTest(unittest.TestCase):
    """setup's unpacking through the cache: a tarball's files are read
    out of xz once a machine, again only for a new tarball."""

    def test_once_then_copied(self) -> None:
        import tarfile
        with tempfile.TemporaryDirectory() as d:
            t = Path(d)
            src = t / "linux-source-9.9"
            for rel in linuxtree.UNPACK_REQUIRED:
                (src / rel).parent.mkdir(parents=True, exist_ok=True)
                (src / rel).write_text(f"{rel}\n")
            tb = t / "linux-source-9.9.tar.xz"
            with tarfile.open(tb, "w:xz") as tf:
                tf.add(src, arcname="linux-source-9.9")
            calls: list[Path] = []
            real = linuxtree.unpack

            def counted(tarball: Path, out: Path, optional: tuple[str, ...] = ()) -> Path:
                calls.append(tarball)
                return real(tarball, out, optional)
            linuxtree.unpack = counted  # type: ignore[assignment]
            try:
                for n in (1, 2):
                    out = linuxtree.unpack_cached(tb, t / f"out{n}", (), t / "cache")
                    self.assertEqual((out / "Makefile").read_text(), "Makefile\n")
                self.assertEqual(len(calls), 1, "the second clone copies the cache")
                os.utime(tb, ns=(1, 1))     # another tarball of the same name
                linuxtree.unpack_cached(tb, t / "out3", (), t / "cache")
                self.assertEqual(len(calls), 2)
                self.assertEqual(len(list((t / "cache" / "unpacked").iterdir())), 1,
                                 "the old tarball's files are gone")
            finally:
                linuxtree.unpack = real  # type: ignore[assignment]


class CppTest(unittest.TestCase):
    """The tokenizer and the #if evaluator, on small strings."""

    def test_tokens(self) -> None:
        src = ('/* f( */ int a = 1; // g(\n'
               'char *s = "h(\\"x\\")"; char c = \'(\';\n'
               '#define M(x) \\\n  ((x) + 1) /* one\n two */\n'
               'int b;\n')
        toks = cpp.tokenize(src)
        self.assertEqual([t.text for t in toks if t.kind == "id"],
                         ["int", "a", "char", "s", "char", "c", "int", "b"])
        [s] = [t for t in toks if t.kind == "str"]
        self.assertEqual(s.text, '"h(\\"x\\")"')
        [c] = [t for t in toks if t.kind == "chr"]
        self.assertEqual(c.text, "'('")
        [pp] = [t for t in toks if t.kind == "pp"]
        self.assertEqual((pp.text.split()[:2], pp.line, pp.end_line), (["define", "M(x)"], 3, 5))
        self.assertEqual(toks[-2].line, 6)
        [pp] = cpp.tokenize('#define URL "http://x" // gone\n')
        self.assertEqual(pp.text, 'define URL "http://x"')
        with self.assertRaisesRegex(cpp.CppError, r"x\.c:2: unterminated comment"):
            cpp.tokenize("int a;\n/* never\n", "x.c")

    def unit(self, text: str, config: dict | None = None) -> tuple[cpp.Unit, list]:
        u = cpp.Unit({**cpp.CONFIG, **(config or {})})
        return u, u.add("t.c", text)

    def live(self, text: str, config: dict | None = None) -> list[str]:
        u, toks = self.unit(text, config)
        return [t.text for t in toks if t.kind == "id" and u.active(t.frames)]

    def test_if_blocks(self) -> None:
        text = ("#if 0\nzero\n#elif defined(CONFIG_X86_64) && !defined(CONFIG_HIGHMEM)\n"
                "x86\n#else\nother\n#endif\n"
                "#define A 3\n#if (A << 2) == 12 && IS_ENABLED(CONFIG_HUGETLBFS)\nshift\n#endif\n"
                "#ifdef B\nb\n#endif\n#define B\n#ifdef B\nb2\n#endif\n"
                "#ifndef G\n#define G\ng\n#endif\n"
                "#if A > 2 ? 0 : 1\nternary\n#endif\n")
        self.assertEqual(self.live(text), ["x86", "shift", "b2", "g"])
        self.assertEqual(self.live(text, {"CONFIG_HIGHMEM": True}), ["other", "shift", "b2", "g"])

    def test_macro_values(self) -> None:
        text = ("#define SZ 0x02000000\n#define SH CONFIG_PAGE_SHIFT\n"
                "#define F(x) ((x) >> SH)\n#define N F(SZ)\n#undef SZ\n")
        u, _ = self.unit(text)
        self.assertEqual(u.evaluate("N", (0, text.index("#undef")), "t"), 8192)
        with self.assertRaisesRegex(cpp.CppError, "SZ is neither"):
            u.evaluate("N", (9, 0), "t")	# after the #undef

    def test_what_it_cannot_evaluate(self) -> None:
        for text, why in (("#if CONFIG_NOT_IN_TABLE\nx\n#endif\n", "t.c:1: CONFIG_NOT_IN_TABLE is not in"),
                          ("#if defined(CONFIG_NOPE)\nx\n#endif\n", "t.c:1: CONFIG_NOPE is not in"),
                          ("\n#if UNKNOWN > 1\nx\n#endif\n", "t.c:2: cannot evaluate .*UNKNOWN is neither"),
                          ("#if sizeof(long) == 8\nx\n#endif\n", "t.c:1: cannot evaluate")):
            with self.subTest(text=text):
                u, toks = self.unit(text)
                [x] = [t for t in toks if t.text == "x"]
                with self.assertRaisesRegex(cpp.CppError, why):
                    u.active(x.frames)
        with self.assertRaisesRegex(cpp.CppError, "t.c:1: #if without #endif"):
            self.unit("#if 1\n")
        with self.assertRaisesRegex(cpp.CppError, "t.c:1: #endif without #if"):
            self.unit("#endif\n")

    def test_only_what_is_asked_is_evaluated(self) -> None:
        u, toks = self.unit("#if UNKNOWN\nu\n#endif\n#ifdef CONFIG_HUGETLBFS\nh\n#endif\n")
        [h] = [t for t in toks if t.text == "h"]
        self.assertTrue(u.active(h.frames))


class ConstantTest(unittest.TestCase):
    """The tree's header constants as tree_zero.c defines them: one
    parenthesized operand, of the type C gives the expression."""

    def test_typed(self) -> None:
        from hzlib import treezero
        for expr, value, want in (("(_AC(1,UL) << PAGE_SHIFT)", 4096, "(4096UL)"),
                                  ("(SZ_32M >> PAGE_SHIFT)", 8192, "(8192)"),
                                  ("(~0U)", -1, "(4294967295U)"),
                                  ("(-4096UL)", -4096, "(18446744073709547520UL)"),
                                  ("(-4)", -4, "(-4)"),
                                  ("(1ULL << 40)", 1 << 40, "(1099511627776ULL)")):
            with self.subTest(expr):
                self.assertEqual(treezero._typed({"expr": expr, "value": value, "via": []}), want)


class Trees:
    """Helpers over a real tree: skip (or fail) naming a missing one."""

    def need(self, version: str) -> Path:
        t = tree(version)
        if not (t / "mm/memory.c").is_file():
            why = f"{t}/mm/memory.c is not unpacked (package linux-source-{version})"
            if os.environ.get("HZ_REQUIRE_LINUX_SOURCE") == "1":
                self.fail(f"HZ_REQUIRE_LINUX_SOURCE=1, but {why}")	# type: ignore[attr-defined]
            self.skipTest(f"{why}: scripts/setup.sh --linux-source")	# type: ignore[attr-defined]
        return t


class RealTreeTest(unittest.TestCase, Trees):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.out = Path(self.tmp.name)

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def extract(self, src: Path) -> tuple[str, dict]:
        r = run(src, self.out)
        self.assertEqual(r.returncode, 0, r.stderr)
        return ((self.out / memoryc.TEXT).read_text(errors="surrogateescape"),
                json.loads((self.out / memoryc.MANIFEST).read_text()))

    def test_each_tree(self) -> None:
        for version, (entry, taken) in EXPECTED.items():
            with self.subTest(version=version):
                src = self.need(version)
                text, m = self.extract(src)
                self.assertTrue(m["version"].startswith(version + "."), m["version"])
                self.assertEqual(m["entry"], entry)
                self.assertEqual({t["name"]: t["kind"] for t in m["taken"]}, taken)
                const = {c["name"]: c for c in m["constants"]}
                self.assertEqual(const["MAX_ORDER_NR_PAGES"]["value"], 1024)
                self.assertTrue(const["MAX_ORDER_NR_PAGES"]["file"].endswith("include/linux/mmzone.h"))
                if version == "7.2":
                    self.assertEqual(const["FOLIO_ZERO_LOCALITY_RADIUS"]["value"], 2)
                    batch = const["PROCESS_PAGES_NON_PREEMPT_BATCH"]
                    self.assertEqual((batch["value"], batch["expr"]), (8192, "(SZ_32M >> PAGE_SHIFT)"))
                    self.assertTrue(batch["used"])
                    self.assertTrue(m["clear_pages"].endswith("arch/x86/include/asm/page_64.h:110"))
                    want = {"clear_user_highpages", "preempt_model_preemptible", "cond_resched",
                            "folio_page", "DEFINE_RANGE", "range_len", "ALIGN_DOWN"}
                else:
                    self.assertNotIn("PROCESS_PAGES_NON_PREEMPT_BATCH", const)
                    self.assertIsNone(m["clear_pages"])
                    self.assertTrue(const["MAX_ORDER_NR_PAGES"]["used"])
                    want = {"clear_user_highpage", "cond_resched", "might_sleep"}
                undefined = {u["name"] for u in m["undefined"]}
                self.assertLessEqual(want, undefined)
                self.assertFalse(undefined & set(taken) | {"if", "for", "int"} & undefined)
                self.same_bytes(src, text, m)

    def same_bytes(self, src: Path, text: str, m: dict) -> None:
        """Each piece is the tree's lines, after its #line; the sha256 is
        of those lines and what else the build's behaviour depends on."""
        body = text.split("\n", 1)[1]
        code = ""
        for t in m["taken"]:
            lines = Path(t["file"]).read_text(errors="surrogateescape").splitlines(True)
            piece = "".join(lines[t["line"] - 1:t["end_line"]])
            head = f'#line {t["line"]} "{t["file"]}"\n'
            self.assertTrue(body.startswith(head + piece), t["name"])
            body = body[len(head + piece):]
            code += piece
        self.assertEqual(body, "")
        self.assertEqual(hashlib.sha256((code + "".join(m["hashed"]))
                                        .encode("utf-8", "surrogateescape")).hexdigest(),
                         m["sha256"])
        self.assertIn("clear_pages: ", "".join(m["hashed"]))
        self.assertNotIn(str(src), "".join(m["hashed"]), "the same wherever the tree is")

    def copy(self, version: str, name: str) -> Path:
        dst = self.out / name
        shutil.copytree(self.need(version), dst)
        return dst

    def test_sha_follows_the_code(self) -> None:
        src = self.need("7.2")
        _, base = self.extract(src)
        same = self.copy("7.2", "same")
        self.assertEqual(memoryc.extract(same)[1]["sha256"], base["sha256"], "not where it is")
        mem = (src / "mm/memory.c").read_text()
        radius = "#define FOLIO_ZERO_LOCALITY_RADIUS\t2"
        left = "r[1] = DEFINE_RANGE(pg.start, r[2].start - 1);"
        right = "r[0] = DEFINE_RANGE(r[2].end + 1, pg.end);"
        for name, new in (("radius", mem.replace(radius, radius[:-1] + "4")),
                          ("swapped", mem.replace(left, "@").replace(right, left.replace("r[1]", "r[0]"))
                           .replace("@", right.replace("r[0]", "r[1]")))):
            with self.subTest(name):
                self.assertNotEqual(new, mem)
                t = self.copy("7.2", name)
                (t / "mm/memory.c").write_text(new)
                _, m = memoryc.extract(t)
                self.assertNotEqual(m["sha256"], base["sha256"])
                r = {c["name"]: c["value"] for c in m["constants"]}["FOLIO_ZERO_LOCALITY_RADIUS"]
                self.assertEqual(r, 4 if name == "radius" else 2)

    def test_sha_follows_the_headers(self) -> None:
        """The constants the code's behaviour depends on are in the hash:
        another PROCESS_PAGES_NON_PREEMPT_BATCH, or x86 without its
        clear_pages (a batch of 1), is another sha256."""
        src = self.need("7.2")
        _, base = self.extract(src)
        for name, rel, old, new, batch in (
                ("8M", "include/linux/mm.h", "(SZ_32M >> PAGE_SHIFT)", "(SZ_8M >> PAGE_SHIFT)", 2048),
                ("no clear_pages", "arch/x86/include/asm/page_64.h",
                 "#define clear_pages clear_pages\n", "\n", 1)):
            with self.subTest(name):
                t = self.copy("7.2", name)
                text = (t / rel).read_text()
                self.assertEqual(text.count(old), 1)
                (t / rel).write_text(text.replace(old, new))
                _, m = memoryc.extract(t)
                const = {c["name"]: c["value"] for c in m["constants"]}
                self.assertEqual(const["PROCESS_PAGES_NON_PREEMPT_BATCH"], batch)
                self.assertNotEqual(m["sha256"], base["sha256"])

    def test_clear_pages_in_asm_page_h(self) -> None:
        """x86's #define clear_pages moved to asm/page.h (read too): the
        batch stays 32M; no #ifdef name is silently taken as undefined."""
        src = self.need("7.2")
        if not (src / "arch/x86/include/asm/page.h").is_file():
            self.skipTest(f"{src}/arch/x86/include/asm/page.h is not unpacked (unpacked before "
                          "it was read): scripts/setup.sh --linux-source")
        t = self.copy("7.2", "moved")
        p64, page = t / "arch/x86/include/asm/page_64.h", t / "arch/x86/include/asm/page.h"
        text = p64.read_text()
        define = "#define clear_pages clear_pages\n"
        self.assertEqual(text.count(define), 1)
        p64.write_text(text.replace(define, "\n"))
        page.write_text(page.read_text() + define)
        _, m = memoryc.extract(t)
        const = {c["name"]: c["value"] for c in m["constants"]}
        self.assertEqual(const["PROCESS_PAGES_NON_PREEMPT_BATCH"], 8192)
        self.assertTrue(m["clear_pages"].startswith(f"{t}/arch/x86/include/asm/page.h:"))
        self.assertNotIn("clear_pages", m["assumed_undefined"])

    def test_inner_blocks_resolved(self) -> None:
        """An #if block inside a function taken is resolved by the
        extractor, as it evaluated it, not left to gcc (which has no
        CONFIG_ and none of the tree's headers): the directive lines and
        the branch left out are blank, the line numbers kept."""
        src = self.need("7.2")
        _, base = self.extract(src)
        t = self.copy("7.2", "inner")
        mem = t / "mm/memory.c"
        line = "\t\tcount = min(unit, nr_pages - i);\n"
        text = mem.read_text()
        self.assertEqual(text.count(line), 1)
        mem.write_text(text.replace(line, "#ifdef CONFIG_TRANSPARENT_HUGEPAGE\n" + line +
                                    "#else\n\t\tcount = min(unit, 1u);\n#endif\n#ifndef clear_pages\n"
                                    "\t\thz_not_built();\n#endif\n"))
        out, m = memoryc.extract(t)
        self.assertNotIn("min(unit, 1u)", out)
        self.assertNotIn("hz_not_built", out)
        self.assertNotIn("#ifdef", out)
        self.assertIn(line, out)
        self.assertNotEqual(m["sha256"], base["sha256"], "the hash is of the tree's text")
        # every line after the blocks keeps its number under the #line
        fn = next(x for x in m["taken"] if x["name"] == "clear_contig_highpages")
        body = out.split(f'#line {fn["line"]} "{t}/mm/memory.c"\n', 1)[1].splitlines()
        lines = mem.read_text().splitlines()
        k = lines.index("\t\tclear_user_highpages(page + i, addr + i * PAGE_SIZE, count);")
        self.assertEqual(body[k - fn["line"] + 1], lines[k])

    def test_braces_in_branches(self) -> None:
        """Braces counted in one branch of each #if group: a function
        whose two branches each open a block does not end the file."""
        src = self.need("7.2")
        _, base = self.extract(src)
        t = self.copy("7.2", "braces")
        mem = t / "mm/memory.c"
        text = mem.read_text()
        at = text.index("static void clear_contig_highpages(")
        odd = ("static int hz_odd(int a)\n{\n#ifdef CONFIG_X86\n\tif (a) {\n#else\n"
               "\tif (!a) {\n#endif\n\t\treturn 1;\n\t}\n\treturn 0;\n}\n\n")
        mem.write_text(text[:at] + odd + text[at:])
        _, m = memoryc.extract(t)
        self.assertEqual(m["sha256"], base["sha256"])

    def test_look_alikes(self) -> None:
        """A comment, a string and an #if 0 block naming the entry, before
        the real one, change nothing taken."""
        src = self.need("7.2")
        _, base = self.extract(src)
        t = self.copy("7.2", "alike")
        mem = (t / "mm/memory.c").read_text()
        at = mem.index("static void clear_contig_highpages(")
        fake = ("/* void folio_zero_user(struct folio *f) { } */\n"
                "static const char hz_s[] = \"folio_zero_user(struct folio *f) { }\";\n"
                "#if 0\nstatic void clear_contig_highpages(struct page *p, unsigned long a,"
                " unsigned int n)\n{\n\thz_fake(p);\n}\n#endif\n")
        (t / "mm/memory.c").write_text(mem[:at] + fake + mem[at:])
        _, m = memoryc.extract(t)
        self.assertEqual(m["sha256"], base["sha256"])
        self.assertEqual([x["line"] - 8 for x in m["taken"]], [x["line"] for x in base["taken"]])

    def test_no_entry_refused(self) -> None:
        t = self.copy("6.12", "none")
        mem = (t / "mm/memory.c").read_text()
        (t / "mm/memory.c").write_text(mem.replace("void folio_zero_user(", "void hz_renamed("))
        r = run(t, self.out / "o")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("no folio_zero_user or clear_huge_page defined in mm/memory.c", r.stderr)


class FixtureTest(unittest.TestCase):
    """Trees written for these tests: no Linux source needed."""

    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.out = Path(self.tmp.name)

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def test_x86_override(self) -> None:
        r = run(OVERRIDE, self.out)
        self.assertEqual(r.returncode, 0, r.stderr)
        m = json.loads((self.out / memoryc.MANIFEST).read_text())
        self.assertEqual((m["version"], m["entry"]), ("6.18.0-hzoverride", "folio_zero_user"))
        self.assertTrue(m["entry_file"].endswith("arch/x86/mm/memory.c"))
        self.assertEqual([(o["name"], o["weak"], o["by"]) for o in m["overrides"]],
                         [("folio_zero_user", f"{OVERRIDE}/mm/memory.c:51",
                           f"{OVERRIDE}/arch/x86/mm/memory.c:13")])
        self.assertEqual([(t["name"], Path(t["file"]).relative_to(OVERRIDE).as_posix(), t["line"])
                          for t in m["taken"]],
                         [("clear_range", "mm/memory.c", 28), ("ZERO_TAIL_PAGES", "mm/memory.c", 40),
                          ("__folio_zero_user", "mm/memory.c", 43),
                          ("x86_wants_generic", "arch/x86/mm/memory.c", 8),
                          ("folio_zero_user", "arch/x86/mm/memory.c", 13)])
        const = {c["name"]: c["value"] for c in m["constants"]}
        self.assertEqual(const, {"PROCESS_PAGES_NON_PREEMPT_BATCH": 1, "MAX_ORDER_NR_PAGES": 1024,
                                 "ZERO_TAIL_PAGES": 1}, "no clear_pages: batches of 1")
        self.assertEqual({u["name"] for u in m["undefined"]},
                         {"folio_nr_pages", "folio_page", "clear_user_highpages", "cond_resched",
                          "min"})
        text = (self.out / memoryc.TEXT).read_text()
        self.assertIn(f'#line 13 "{OVERRIDE}/arch/x86/mm/memory.c"\nvoid folio_zero_user(', text)
        self.assertNotIn("fake_clear", text)
        self.assertNotIn("highmem_clear", text)
        self.assertNotIn("__weak", text)

    def copy(self) -> Path:
        t = self.out / "t"
        shutil.copytree(OVERRIDE, t)
        return t

    def test_override_not_built(self) -> None:
        t = self.copy()
        mk = t / "arch/x86/mm/Makefile"
        mk.write_text(mk.read_text().replace("memory.o", "other.o"))
        m = memoryc.extract(t)[1]
        self.assertEqual((m["entry_file"], m["x86_file"]), (f"{t}/mm/memory.c", None))
        self.assertEqual([x["name"] for x in m["taken"]],
                         ["clear_range", "ZERO_TAIL_PAGES", "__folio_zero_user", "folio_zero_user"])

    def test_weak_callee_overridden(self) -> None:
        """A __weak callee of mm/memory.c loses to a strong one of the x86
        file built, as the linker has it (seed 001's v3 series works by
        overriding __folio_zero_user()), and is recorded, in the hash too."""
        t = self.copy()
        base = memoryc.extract(t)[1]
        mem, arch = t / "mm/memory.c", t / "arch/x86/mm/memory.c"
        mem.write_text(mem.read_text().replace("void __folio_zero_user(struct folio *folio, "
                                               "unsigned long addr_hint)\n{",
                                               "void __weak __folio_zero_user(struct folio *folio, "
                                               "unsigned long addr_hint)\n{"))
        mem.write_text(mem.read_text().replace("void __weak folio_zero_user(", "void folio_zero_user("))
        text = arch.read_text()
        at = text.index("void folio_zero_user(")
        arch.write_text(text[:at] + "void __folio_zero_user(struct folio *folio, unsigned long "
                        "addr_hint)\n{\n\tclear_user_highpages(folio_page(folio, 0), addr_hint, "
                        "folio_nr_pages(folio));\n}\n\n")
        m = memoryc.extract(t)[1]
        self.assertEqual((m["entry"], m["entry_file"]), ("folio_zero_user", f"{t}/mm/memory.c"))
        self.assertEqual([(x["name"], Path(x["file"]).relative_to(t).as_posix()) for x in m["taken"]],
                         [("folio_zero_user", "mm/memory.c"),
                          ("__folio_zero_user", "arch/x86/mm/memory.c")])
        self.assertEqual([(o["name"], o["weak"], o["by"]) for o in m["overrides"]],
                         [("__folio_zero_user", f"{t}/mm/memory.c:43",
                           f"{t}/arch/x86/mm/memory.c:13")])
        self.assertIn("overrides: __folio_zero_user mm/memory.c by arch/x86/mm/memory.c\n",
                      m["hashed"])
        self.assertNotEqual(m["sha256"], base["sha256"])

    def test_refusals(self) -> None:
        t = self.copy()
        (t / "mm/memory.c").unlink()
        r = run(t, self.out / "o")
        self.assertEqual(r.returncode, 2)
        self.assertIn(f"{t}: no mm/memory.c", r.stderr)
        self.assertFalse((self.out / "o").exists())
        (t / "mm/memory.c").write_text("#if 0\nvoid folio_zero_user(void) { }\n#endif\n")
        (t / "arch/x86/mm/memory.c").unlink()
        r = run(t, self.out / "o")
        self.assertEqual(r.returncode, 2)
        self.assertIn(f"only under #if blocks it leaves out: {t}/mm/memory.c:2", r.stderr)

    def test_unevaluable_is_an_error(self) -> None:
        t = self.copy()
        mem = t / "mm/memory.c"
        mem.write_text(mem.read_text().replace("#ifdef CONFIG_HIGHMEM", "#if HZ_UNKNOWN > 1"))
        r = run(t, self.out / "o")
        self.assertEqual(r.returncode, 1)
        self.assertIn(f"{t}/mm/memory.c:22: cannot evaluate", r.stderr)
        self.assertIn("HZ_UNKNOWN is neither in the x86_64 config table", r.stderr)


if __name__ == "__main__":
    unittest.main()

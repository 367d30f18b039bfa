# SPDX-License-Identifier: GPL-2.0-only
"""make LINUX=DIR: a Linux tree's clear_page_64.S routines as primitives.

The trees in tests/data/linux-trees were written for these tests in
Linux's macro style (no Linux code): the merged 7.0 form (a range
routine), a 6.x form (three per-page routines), the 2022 RFC's and the
2025 v3/v4 series' forms (clear_pages_* whose convention LINUX_ABI=
names), an unknown macro and directive, a missing file, and a file with
no routine of a known convention.  The real tree is Debian's linux-source-6.12, unpacked by
`scripts/setup.sh --linux-source`; without it those cases skip."""
from __future__ import annotations

import contextlib
import csv
import fcntl
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from hzlib import display, image, linuxtree, paths, qemu  # noqa: E402

TREES = Path("tests/data/linux-trees")	# relative: as a user would type it
SOURCE = "arch/x86/lib/clear_page_64.S"
DEBIAN = paths.BUILD / "linux-source-6.12"
TARBALL = Path("/usr/src/linux-source-6.12.tar.xz")


@contextlib.contextmanager
def locked(name: str) -> Iterator[Path]:
    """build/test-tree-@name (relative, as make's BUILD=), to this process
    alone: one name is one build, shared by the modules that build the
    same tree (test_tree_zero, test_rethunk), which run beside this one
    (tests/run.py), so one make at a time goes into it and the next
    finds it made."""
    out = Path("build") / f"test-tree-{name}"
    (ROOT / out.parent).mkdir(exist_ok=True)
    with open(ROOT / f"{out}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield out


def build(tree: Path, name: str, kernel: bool = True, abi: str | None = None,
          companion: bool = True) -> tuple[subprocess.CompletedProcess[str], Path]:
    """The kernel (unless not @kernel) and the companion (unless not
    @companion) built with make LINUX=@tree (and LINUX_ABI=@abi), into
    locked(@name)."""
    with locked(name) as out:
        r = subprocess.run(["make", "--no-print-directory", f"LINUX={tree}",
                            *([f"LINUX_ABI={abi}"] if abi is not None else []),
                            f"BUILD={out}", *([f"{out}/hugezero.elf"] if kernel else []),
                            *([f"{out}/hugezero-linux"] if companion else [])], cwd=ROOT,
                           capture_output=True, text=True)
    return r, ROOT / out


def record(log: str, rtype: str, *has: str) -> str:
    """The first @rtype record of @log whose text has every one of @has."""
    for line in log.splitlines():
        if re.search(rf"@hz1 \d+ {rtype} ", line) and all(h in line for h in has):
            return line
    raise AssertionError(f"no {rtype} record with {has}")


def report(log: str) -> str:
    """`hugezero report` of @log."""
    with tempfile.NamedTemporaryFile("w", suffix=".log") as f:
        f.write(log)
        f.flush()
        return subprocess.run([sys.executable, str(ROOT / "scripts" / "hugezero"),
                               "report", f.name], capture_output=True, text=True,
                              check=True).stdout


def sha256(tree: Path) -> str:
    return hashlib.sha256((ROOT / tree / SOURCE).read_bytes()).hexdigest()


def said(out: Path) -> str:
    """What the build said of the tree's routines (scripts/linux-tree)."""
    return (out / "linux-tree" / "tree.txt").read_text()


def bare(out: Path, clear: str, *more: str) -> str:
    """The companion's bare mode (verified) of @clear over 2M folios (or
    as @more says): its records, then what it said on stderr."""
    r = subprocess.run([str(out / "hugezero-linux"), "bench=bare", "folio=2M",
                        "size=4M", f"clear={clear}", "order=contiguous-page",
                        "runs=1", "warmups=0", *more], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr[-800:]
    return r.stdout + r.stderr


def prim_names(*flags: str) -> list[str]:
    """lib/prims.c's prim_names[], preprocessed with @flags."""
    r = subprocess.run(["gcc", "-E", "-P", "-I.", *flags, "lib/prims.c"],
                       cwd=ROOT, capture_output=True, text=True, check=True)
    m = re.search(r"prim_names\[[^]]*\] = \{(.*?)\};", r.stdout, re.S)
    assert m, "prim_names[] not found"
    return re.findall(r'= "([^"]+)"', m.group(1))


# Every tree primitive over 2M and 1G folios: 1 GiB of each (TCG clears
# it in a few seconds), verified through the user's mapping.
BOTH = ("folio=2M,1G", "size=1G")


def boot(elf: Path, clear: str, *more: str) -> str:
    """A verified fault benchmark of @clear over 2M folios (or as @more
    says); the log."""
    return boot_line(elf, ["bench=fault", "folio=2M", "size=4M", f"clear={clear}",
                           "order=contiguous-page", "runs=1", "warmups=0",
                           "selftest=off", *more])


def boot_line(elf: Path, line: list[str]) -> str:
    """A verified boot of @elf with the command line @line; the log."""
    iso = image.build_iso(line, elf=elf, cache=elf.parent / "images")
    with tempfile.TemporaryDirectory(prefix="hz-tree-") as d:
        res = qemu.boot(qemu.BootSpec(iso, timeout=240), log_file=Path(d) / "log")
    ok, why = qemu.verdict(res)
    assert ok, why
    return res.log


class Refused(unittest.TestCase):
    def test_unknown_macro(self) -> None:
        tree = TREES / "unknown-macro"
        r, _ = build(tree, "unknown-macro")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn(f"{tree}/{SOURCE}:12: Error:", r.stdout + r.stderr,
                      "the assembler names the tree's file and line")

    def test_unknown_directive(self) -> None:
        tree = TREES / "unknown-directive"
        r, _ = build(tree, "unknown-directive")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn(f"{tree}/{SOURCE}:11: Error: unknown pseudo-op",
                      r.stdout + r.stderr)

    def test_operand_macro(self) -> None:
        """A macro used as an operand is a symbol to the assembler: the
        object refers to what it does not define, refused at its line
        before anything links it."""
        tree = TREES / "operand-macro"
        r, out = build(tree, "operand-macro", kernel=False)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn(f"refer to what the file does not define", r.stderr)
        self.assertIn(f"{tree}/{SOURCE}:10: CLEAR_QWORDS", r.stderr)
        self.assertNotIn("ld:", r.stdout + r.stderr, "refused before the link")

    def test_missing_file(self) -> None:
        tree = TREES / "missing"
        r, out = build(tree, "missing")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn(f"LINUX={tree}: no {tree}/{SOURCE}", r.stderr)
        self.assertFalse((out / "hugezero.elf").exists())

    def test_none_known(self) -> None:
        r, _ = build(TREES / "none-known", "none-known")
        self.assertNotEqual(r.returncode, 0)
        err = r.stderr
        for routine in ("clear_page_orig", "clear_page_rep", "clear_page_erms",
                        "__clear_pages_unrolled"):
            self.assertIn(routine, err, "what was looked for")
        self.assertRegex(err, r"clear_pages_erms is left out: convention ambiguous")


class Abi(unittest.TestCase):
    """LINUX_ABI=: the convention of a routine whose name does not say it."""

    SYMS = ["clear_pages_orig", "clear_pages_rep", "clear_pages_erms",
            "rep_stos_alternative"]

    def built(self, symbols: list[str], abi: str) -> dict[str, tuple[str, str]]:
        used, _ = linuxtree.split(symbols, abi)
        return {k.routine: (f"linux-{k.short}", k.abi) for k in used}

    def test_every_ambiguous_routine(self) -> None:
        self.assertEqual(self.built(self.SYMS, "npages-rsi"), {
            "clear_pages_orig": ("linux-orig", "npages-rsi"),
            "clear_pages_rep": ("linux-rep", "npages-rsi"),
            "clear_pages_erms": ("linux-erms", "npages-rsi")})

    def test_one_routine(self) -> None:
        used, left = linuxtree.split(self.SYMS, "clear_pages_erms:bytes-esi")
        self.assertEqual([(k.routine, k.abi, k.feature) for k in used],
                         [("clear_pages_erms", "bytes-esi", "ERMS")])
        self.assertIn("clear_pages_rep", dict(left)["clear_pages_rep"] and
                      [s for s, _ in left])
        self.assertRegex(dict(left)["clear_pages_rep"], "LINUX_ABI=npages-rsi")

    def test_one_name_for_two(self) -> None:
        with self.assertRaisesRegex(linuxtree.TreeError, "one primitive name for two"):
            linuxtree.split(["clear_pages_erms", "__clear_pages_erms"], "bytes-esi")

    def test_any_routine_and_a_clash(self) -> None:
        """A routine of no known name, and one whose short name a known
        routine has: called by its whole name."""
        got = self.built(["clear_page_erms", "clear_pages_erms",
                          "memzero_page_aligned_unrolled"],
                         "clear_pages_erms:bytes-esi,memzero_page_aligned_unrolled:range")
        self.assertEqual(got, {
            "clear_page_erms": ("linux-erms", "per-page"),
            "clear_pages_erms": ("linux-clear-pages-erms", "bytes-esi"),
            "memzero_page_aligned_unrolled": ("linux-memzero-page-aligned-unrolled",
                                              "range")})

    def test_refused(self) -> None:
        for abi, why in (("bytes", "unknown convention 'bytes': one of per-page, "
                                   "range, npages-rsi, bytes-esi"),
                         ("clear_pages_movnt:range", "clear_pages_movnt not defined "
                                                     "in the tree's"),
                         ("npages-rsi,bytes-esi", "two conventions"),
                         ("clear_pages_rep:range,clear_pages_rep:per-page", "named twice"),
                         (":range", "names no routine")):
            with self.subTest(abi=abi), self.assertRaisesRegex(linuxtree.TreeError, why):
                linuxtree.split(self.SYMS, abi)
        with self.assertRaisesRegex(linuxtree.TreeError, "npages-rsi names no routine"):
            linuxtree.split(["clear_page_erms"], "npages-rsi")

    def test_ambiguous_tree_refused_without(self) -> None:
        r, _ = build(TREES / "v2022-rfc", "v2022-none", kernel=False)
        self.assertNotEqual(r.returncode, 0)
        self.assertRegex(r.stderr, r"clear_pages_rep, clear_pages_orig, clear_pages_erms "
                         r"are left out: convention ambiguous .*LINUX_ABI=npages-rsi")

    def test_abi_without_linux(self) -> None:
        r = subprocess.run(["make", "--no-print-directory", "LINUX_ABI=npages-rsi",
                            "BUILD=build/test-tree-abi-only", "build/test-tree-abi-only/hugezero.elf"],
                           cwd=ROOT, capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("LINUX_ABI=npages-rsi without LINUX=", r.stderr)

    def test_wrong_convention_faults(self) -> None:
        """The 2022 routines told they take bytes in %esi clear past the
        folio: the companion says where and why, and dies of the signal."""
        r, out = build(TREES / "v2022-rfc", "v2022-wrong", kernel=False, abi="bytes-esi")
        self.assertEqual(r.returncode, 0, r.stdout[-1500:] + r.stderr[-1500:])
        p = subprocess.run([str(out / "hugezero-linux"), "bench=bare", "folio=2M",
                            "size=4M", "clear=linux-erms", "order=contiguous-page",
                            "runs=1", "warmups=0"], capture_output=True, text=True,
                           timeout=300)
        self.assertIn(p.returncode, (-11, -7), p.stderr[-800:])
        self.assertRegex(p.stderr, r"interrupted by SIG(SEGV|BUS) in configuration 1 "
                         r"\(bare\.2M\.linux-erms\.contiguous-page\)")
        self.assertIn("may have the wrong convention", p.stderr)
        record(p.stdout, "interrupted", "name=bare.2M.linux-erms.contiguous-page")
        self.assertRegex(p.stdout, r"@hz1 \d+ end records=")


# A routine for the wrappers alone: it clears nothing, records each
# call's destination, %rsi, and whether %rsp was 16-byte aligned at the
# call, then clobbers every callee-saved register (a patch's routine of
# the series before 7.0 may) or, as Linux's callers of the others allow,
# only %rax, %rcx, %rdx and %rdi.
CLOBBER_ALL = "".join(f"\tmovq\t$-1, %{r}\n" for r in ("rbx", "rbp", "r12", "r13", "r14", "r15"))
CLOBBER_LINUX = "".join(f"\tmovq\t$-1, %{r}\n" for r in ("rax", "rcx", "rdx", "rdi"))
SPY = """
	.text
	.globl spy
spy:
	movq	calls(%rip), %rax
	shlq	$4, %rax
	leaq	seen(%rip), %rcx
	movq	%rdi, (%rcx,%rax)
	movq	%rsi, 8(%rcx,%rax)
	leaq	8(%rsp), %rdx
	andq	$15, %rdx
	orq	%rdx, misaligned(%rip)
	incq	calls(%rip)
CLOBBER
	ret
	.bss
	.globl calls, seen, misaligned
calls:	.quad 0
misaligned:	.quad 0
seen:	.zero 16 * 64
	.section .note.GNU-stack,"",@progbits
"""

DRIVER = """
#include <stdio.h>
#include <stdlib.h>
extern unsigned long calls, misaligned, seen[];
void wrap(void *dst, unsigned long len);
/* The C caller's callee-saved registers must survive; the compiler
 * keeps these live across the call in them. */
int main(int argc, char **argv)
{
	unsigned long len = strtoul(argv[1], 0, 0), a = len * 3, b = len ^ 5;
	wrap((void *)0x100000, len);
	printf("%lu %lu %d", calls, misaligned, a == len * 3 && b == (len ^ 5));
	for (unsigned long i = 0; i < calls; i++)
		printf(" %lx:%lx", seen[2 * i], seen[2 * i + 1]);
	printf(" %d\\n", argc);
	return 0;
}
"""


class Wrappers(unittest.TestCase):
    """arch/x86_64/linux-tree.inc's wrappers on their own, around a
    routine that records its calls and clobbers every callee-saved
    register: what each passes, how often, on an aligned stack."""

    def calls(self, abi: str, length: int) -> list[str]:
        k = linuxtree.Known("spy", "spy", abi, "NONE")
        with tempfile.TemporaryDirectory(prefix="hz-wrap-") as d:
            asm = Path(d) / "wrap.asm"
            asm.write_text(linuxtree.wrappers([k], "spy", copies=()).replace(
                linuxtree.wrapper(k), "wrap"))
            polite = abi in ("per-page", "range")
            (Path(d) / "spy.s").write_text(SPY.replace(
                "CLOBBER\n", CLOBBER_LINUX if polite else CLOBBER_ALL))
            (Path(d) / "main.c").write_text(DRIVER)
            subprocess.run(["nasm", "-f", "elf64", "-I", str(ROOT) + "/", str(asm), "-o",
                            f"{d}/wrap.o"], check=True, cwd=ROOT)
            subprocess.run(["gcc", "-O2", "-o", f"{d}/t", f"{d}/main.c", f"{d}/spy.s",
                            f"{d}/wrap.o"], check=True)
            return subprocess.run([f"{d}/t", str(length)], capture_output=True, text=True,
                                  check=True).stdout.split()

    def test_each_convention(self) -> None:
        G = 1 << 30
        for abi, length, want in (
                ("per-page", 3 << 12, ["100000:", "101000:", "102000:"]),
                ("npages-rsi", 2 << 20, ["100000:200"]),
                ("bytes-esi", 2 << 20, ["100000:200000"]),
                ("bytes-esi", 5 * G, [f"100000:{2 * G:x}", f"{0x100000 + 2 * G:x}:{2 * G:x}",
                                      f"{0x100000 + 4 * G:x}:{G:x}"]),
                ("npages-rsi", 0, []), ("bytes-esi", 0, []), ("per-page", 0, [])):
            with self.subTest(abi=abi, length=length):
                out = self.calls(abi, length)
                self.assertEqual(out[0], str(len(want)), out)
                self.assertEqual(out[1], "0", "every call on a 16-byte boundary")
                self.assertEqual(out[2], "1", "the caller's registers survive")
                seen = out[3:-1]
                for got, w in zip(seen, want):
                    self.assertTrue(got.startswith(w) if w.endswith(":") else got == w,
                                    (got, w))


class Built(unittest.TestCase):
    def test_without_linux_nothing_changes(self) -> None:
        names = prim_names()
        self.assertFalse([n for n in names if n.startswith("linux-")])
        r, out = build(TREES / "v6.x", "v6.x")
        self.assertEqual(r.returncode, 0, r.stdout[-1500:] + r.stderr[-1500:])
        tree = prim_names("-include", str(out / "linux-tree" / "tree_prims.h"))
        self.assertEqual(tree, names + ["linux-orig", "linux-rep", "linux-erms"],
                         "appended to the one table, hugezero's own unchanged")

    def test_6x_form(self) -> None:
        r, out = build(TREES / "v6.x", "v6.x")
        self.assertEqual(r.returncode, 0, r.stdout[-1500:] + r.stderr[-1500:])
        self.assertRegex(said(out), r"linux-orig: clear_page_orig .*once per 4K page")
        self.assertRegex(said(out), r"left out: clear_user_erms: a user-copy routine")
        nm = subprocess.run(["nm", str(out / "hugezero.elf")], capture_output=True,
                            text=True, check=True).stdout
        for sym in ("clear_page_orig", "clear_page_rep", "clear_page_erms",
                    "linux_tree_orig", "linux_tree_rep", "linux_tree_erms"):
            self.assertRegex(nm, rf" T {sym}\n")
        self.assertNotIn("clear_user_erms", (out / "linux-tree" / "tree_wrap.asm").read_text())

    def test_70_form_boots(self) -> None:
        r, out = build(TREES / "v7.0", "v7.0")
        self.assertEqual(r.returncode, 0, r.stdout[-1500:] + r.stderr[-1500:])
        self.assertRegex(said(out), r"linux-unrolled: __clear_pages_unrolled .*over the range")
        self.assertRegex(said(out), r"left out: rep_stos_alternative")
        log = boot(out / "hugezero.elf", "linux-unrolled", *BOTH)
        self.assertRegex(log, r"ok \d+ 2M\.linux-unrolled\.contiguous-page")
        self.assertRegex(log, r"ok \d+ 1G\.linux-unrolled\.contiguous-page")
        companion = bare(out, "linux-unrolled")
        self.assertIn("ok   bare.2M.linux-unrolled.contiguous-page", companion)
        for side, text in (("kernel", log), ("companion", companion)):
            with self.subTest(side=side):
                b = record(text, "boot")
                self.assertIn(" linux_tree=7.0.0-hztest ", b,
                              "VERSION.PATCHLEVEL.SUBLEVEL and EXTRAVERSION")
                self.assertIn(f" linux_tree_sha256={sha256(TREES / 'v7.0')} ", b)
                self.assertNotIn("linux_tree_git=", b, "not a git tree of its own")
                record(text, "config", "clear=linux-unrolled ",
                       " tree_routine=__clear_pages_unrolled tree_abi=range ")
                rep = report(text)
                self.assertIn("tree primitives from Linux 7.0.0-hztest "
                              f"(clear_page_64.S sha256 {sha256(TREES / 'v7.0')[:12]})",
                              rep)
                self.assertIn("      linux-unrolled: Linux 7.0.0-hztest's "
                              "__clear_pages_unrolled, range\n", rep)

    def test_2022_form(self) -> None:
        """The page count in %rsi: every routine over 2M and 1G folios,
        booted and bare."""
        tree = TREES / "v2022-rfc"
        r, out = build(tree, "v2022", abi="npages-rsi")
        self.assertEqual(r.returncode, 0, r.stdout[-1500:] + r.stderr[-1500:])
        self.assertRegex(said(out), r"linux-rep: clear_pages_rep \(destination %rdi, "
                         r"page count %rsi .*as LINUX_ABI= names it\)")
        prims = "linux-orig,linux-rep,linux-erms"
        log = boot(out / "hugezero.elf", prims, *BOTH)
        companion = bare(out, prims, *BOTH)
        for name in prims.split(","):
            for folio in ("2M", "1G"):
                self.assertRegex(log, rf"ok \d+ {folio}\.{name}\.contiguous-page\r?\n")
                self.assertIn(f"ok   bare.{folio}.{name}.contiguous-page", companion)
        for text in (log, companion):
            self.assertIn(" linux_tree=5.18.0-rc2-hztest ", record(text, "boot"))
            record(text, "config", "clear=linux-erms ",
                   " tree_routine=clear_pages_erms tree_abi=npages-rsi ")
        self.assertIn("linux-orig: Linux 5.18.0-rc2-hztest's clear_pages_orig, npages-rsi",
                      report(log))

    def test_2025_form_seed_001(self) -> None:
        """The length in bytes in %esi: every routine over 2M and 1G
        folios; and seed 001's table, whose Linux column is the tree's
        clear_pages_erms on both sides."""
        tree = TREES / "v2025-v3"
        r, out = build(tree, "v2025", abi="bytes-esi")
        self.assertEqual(r.returncode, 0, r.stdout[-1500:] + r.stderr[-1500:])
        prims = "linux-orig,linux-rep,linux-erms"
        log = boot(out / "hugezero.elf", prims, *BOTH)
        for name in prims.split(","):
            for folio in ("2M", "1G"):
                self.assertRegex(log, rf"ok \d+ {folio}\.{name}\.contiguous-page\r?\n")
        record(log, "config", "clear=linux-orig ",
               " tree_routine=clear_pages_orig tree_abi=bytes-esi ")
        seed = ["preset=seed-001", "folio=2M", "size=4M", "clear=erms,linux-erms",
                "runs=2", "warmups=0"]
        kernel = boot_line(out / "hugezero.elf", [*seed, "selftest=off"])
        self.assertIn(" linux_clear=linux-erms", record(kernel, "preset"))
        c = subprocess.run([str(out / "hugezero-linux"), *seed, "size=8M"],
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(c.returncode, 0, c.stderr[-800:])
        self.assertIn(" linux_clear=linux-erms", record(c.stdout, "preset"))
        with tempfile.TemporaryDirectory() as d:
            (Path(d) / "k.log").write_text(kernel)
            (Path(d) / "c.log").write_text(c.stdout)
            t = subprocess.run([sys.executable, str(ROOT / "scripts" / "hugezero"), "table",
                                f"{d}/k.log", f"{d}/c.log"], capture_output=True,
                               text=True).stdout
            sp = subprocess.run([sys.executable, str(ROOT / "scripts" / "hugezero"), "split",
                                 f"{d}/c.log"], capture_output=True, text=True).stdout
        if "bare, Linux's own: erms" in sp:	# the host gave hugetlb pages
            self.assertRegex(sp, r"bare, the tree's: linux-erms of Linux 6\.15\.0-rc1-hztest "
                             r"\(sha \w{12}\) \+ converging-page")
            self.assertRegex(sp, r"the fault less the tree's clearing, .*: [\d.-]+ - [\d.]+ =")
        label = (f"  linux-erms: Linux 6.15.0-rc1-hztest's clear_pages_erms, bytes-esi "
                 f"(clear_page_64.S sha256 {sha256(tree)[:12]})")
        self.assertEqual(t.count(label), 3, "each table names the tree's routine: " + t)
        self.assertRegex(t, r"converging-page \(linux-erms\) +contiguous-page \(linux-erms\)")
        self.assertRegex(t, r"bare converging-page \(linux-erms\) +bare contiguous-page "
                         r"\(linux-erms\)")
        self.assertRegex(t, r"(?m)^  pg-sz=2MB +[\d.]+ \+- +[\d.]+% +[\d.]+ \+- ")

    def test_6x_provenance(self) -> None:
        """Per-page routines say so; hugezero's own erms, beside them, has
        no tree fields, and its report row no label."""
        r, out = build(TREES / "v6.x", "v6.x", kernel=False)
        self.assertEqual(r.returncode, 0, r.stdout[-1500:] + r.stderr[-1500:])
        text = bare(out, "erms,linux-erms")
        self.assertIn(" linux_tree=6.9.0-hztest ", record(text, "boot"))
        record(text, "config", "clear=linux-erms ",
               " tree_routine=clear_page_erms tree_abi=per-page ")
        self.assertNotIn("tree_", record(text, "config", "clear=erms "))
        rep = report(text)
        self.assertIn("linux-erms: Linux 6.9.0-hztest's clear_page_erms, per-page", rep)
        self.assertNotIn("      erms:", rep)
        with tempfile.NamedTemporaryFile("w", suffix=".log") as f:
            f.write(text)
            f.flush()
            rows = list(csv.DictReader(io.StringIO(subprocess.run(
                [sys.executable, str(ROOT / "scripts" / "hugezero"), "parse", "--format",
                 "csv", f.name], capture_output=True, text=True, check=True).stdout)))
            cmp = subprocess.run([sys.executable, str(ROOT / "scripts" / "hugezero"), "compare",
                                  f.name, "--a", "clear=erms", "--b", "clear=linux-erms"],
                                 capture_output=True, text=True).stdout
        self.assertIn("A and B differ in clear; each pair is equal in every other dimension",
                      cmp)
        self.assertIn("A: no linux-* primitives, B: linux-* primitives from Linux "
                      f"6.9.0-hztest (sha {sha256(TREES / 'v6.x')[:12]})", cmp,
                      "only the side that selects a tree's routine names the tree")
        # runs=1: each side's figure with n=1 in place of its sd.
        self.assertRegex(cmp, r"(?m)^bench=bare backing=thp folio=2M order=contiguous-page +"
                         r"[\d.]+ +\(n=1\) +[\d.]+ +\(n=1\) +[+-][\d.]+%",
                         "hugezero's erms beside the tree's, one pair")
        sha = sha256(TREES / "v6.x")
        self.assertEqual({r["clear"]: (r["linux_tree"], r["linux_tree_sha256"]) for r in rows},
                         {"erms": ("", ""), "linux-erms": ("6.9.0-hztest", sha)},
                         "parse's CSV names the tree of each tree primitive's row")
        self.assertEqual(display.clear_label(rows[1]),
                         f"linux-erms of Linux 6.9.0-hztest (sha {sha[:12]})", "as plot labels it")

    def test_two_trees_one_side(self) -> None:
        """linux-erms of two trees pooled into one side of compare would be
        two routines averaged as one: refused, naming both."""
        logs = []
        for tree in ("v6.x", "v2025-v3"):
            r, out = build(TREES / tree, {"v6.x": "v6.x", "v2025-v3": "v2025"}[tree],
                           kernel=False,
                           abi="bytes-esi" if tree == "v2025-v3" else None)
            self.assertEqual(r.returncode, 0, r.stdout[-1500:] + r.stderr[-1500:])
            logs.append(bare(out, "linux-erms").split("\nok ")[0])
        with tempfile.TemporaryDirectory() as d:
            both = Path(d) / "both.log"
            both.write_text("".join(l for log in logs for l in log.splitlines(True)
                                    if l.startswith("@hz1")))
            r = subprocess.run([sys.executable, str(ROOT / "scripts" / "hugezero"),
                                "compare", str(both), str(both)], capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertRegex(r.stderr, r"A pools linux-\* primitives of 2 trees \(Linux "
                         r"6\.15\.0-rc1-hztest \(sha \w{12}\); Linux 6\.9\.0-hztest")

    def test_git_tree(self) -> None:
        """A tree that is a git work tree of its own: git describe, and
        -dirty once a tracked file changes."""
        if not shutil.which("git"):
            self.skipTest("no git on this machine")
        with tempfile.TemporaryDirectory(prefix="hz-git-tree-") as d:
            tree = Path(d) / "linux"
            shutil.copytree(ROOT / TREES / "v6.x", tree)
            git = ["git", "-C", str(tree), "-c", "user.name=hz",
                   "-c", "user.email=hz@example.invalid"]
            for cmd in (["init", "-q"], ["add", "."], ["commit", "-qm", "tree"],
                        ["tag", "-a", "-m", "v6.12", "v6.12"]):
                subprocess.run(git + cmd, check=True, capture_output=True)
            r, out = build(tree, "git", kernel=False)
            self.assertEqual(r.returncode, 0, r.stdout[-1500:] + r.stderr[-1500:])
            self.assertIn(" linux_tree_git=v6.12 ", record(bare(out, "linux-rep"), "boot"))
            with open(tree / "Makefile", "a") as f:
                f.write("# a change under review\n")
            r, out = build(tree, "git", kernel=False)
            self.assertEqual(r.returncode, 0, r.stdout[-1500:] + r.stderr[-1500:])
            b = record(bare(out, "linux-rep"), "boot")
            self.assertIn(" linux_tree_git=v6.12-dirty ", b)
            self.assertIn(" linux_tree=6.9.0-hztest ", b)

    def test_another_tree_same_build(self) -> None:
        """Naming another tree in a build directory rebuilds what it
        changes: no rows of one tree with the objects of the other."""
        # v7.0's build, which Built and MakeTargets share, copied with its
        # times as a build directory of this test's own: only the switch
        # to v6.x is built here (a tree's build is ~16 CPU-s).
        r, v70 = build(TREES / "v7.0", "v7.0")
        self.assertEqual(r.returncode, 0, r.stdout[-1500:] + r.stderr[-1500:])
        with locked("v7.0"), locked("switch") as out:
            shutil.rmtree(ROOT / out, ignore_errors=True)
            shutil.copytree(v70, ROOT / out, symlinks=True,
                            ignore=shutil.ignore_patterns("images", "test-logs", "*.log"))
        r, out = build(TREES / "v6.x", "switch", companion=False)
        self.assertEqual(r.returncode, 0, r.stdout[-1500:] + r.stderr[-1500:])
        self.assertIn(f"make: build/test-tree-switch/ was built with LINUX={TREES}/v7.0; "
                      f"rebuilding it with LINUX={TREES}/v6.x (keep it: give "
                      f"LINUX={TREES}/v7.0 again, or each tree its own BUILD=)\n", r.stdout,
                      "the stamp's rebuild said, in one line")
        nm = subprocess.run(["nm", str(out / "hugezero.elf")], capture_output=True,
                            text=True, check=True).stdout
        self.assertIn("linux_tree_orig", nm)
        self.assertNotIn("linux_tree_unrolled", nm)


class MakeTargets(unittest.TestCase):
    """Every make target takes BUILD= and LINUX= together: make run boots
    the kernel of its BUILD=, built with the tree (scripts/hugezero
    through HZ_BUILD, which the Makefile exports)."""

    def test_run_boots_its_builds_kernel(self) -> None:
        # The v7.0 tree's build of Built (and test_rethunk), under its
        # lock: make run builds what is not yet made there, then boots it.
        quick = ("bench=fault folio=2M size=4M clear=linux-unrolled order=contiguous-page "
                 "runs=1 warmups=0 selftest=off")
        with locked("v7.0") as out:
            # Its image, by its line, is the one make run must make (the
            # tree's other tests leave images of other lines beside it).
            cfg = image.grub_cfg(quick.split())
            for old in (ROOT / out / "images").glob(
                    f"hz-*-{hashlib.sha256(cfg.encode()).hexdigest()[:12]}.iso"):
                old.unlink()
            (ROOT / out / "run.log").unlink(missing_ok=True)
            r = subprocess.run(["make", "--no-print-directory", "run", f"BUILD={out}",
                                f"LINUX={TREES / 'v7.0'}", f"QUICK={quick}"], cwd=ROOT,
                               capture_output=True, text=True, timeout=1200,
                               env={**os.environ, "HZ_NO_SETUP": "1"})
        self.assertEqual(r.returncode, 0, r.stdout[-1500:] + r.stderr[-1500:])
        log = (ROOT / out / "run.log").read_text()
        self.assertIn(" linux_tree=7.0.0-hztest ", record(log, "boot"),
                      "the boot record names the tree: its BUILD='s kernel booted")
        record(log, "config", "clear=linux-unrolled ", " tree_routine=__clear_pages_unrolled ")
        self.assertRegex(log, r"ok \d+ 2M\.linux-unrolled\.contiguous-page")
        iso = ROOT / out / "images" / image.image_name("hz", ROOT / out / "hugezero.elf",
                                                        cfg, ".iso")
        self.assertTrue(iso.exists(), "its image in its own build directory, named by "
                        f"that build: {iso.name} made")
        self.assertIn("tree primitives from Linux 7.0.0-hztest", r.stdout, "the report")


class Version(unittest.TestCase):
    """The tree's version from its top Makefile, as `make kernelversion`."""

    def version(self, text: str) -> str:
        with tempfile.TemporaryDirectory() as d:
            (Path(d) / "Makefile").write_text(text)
            return linuxtree.make_version(Path(d) / "Makefile")

    def test_forms(self) -> None:
        self.assertEqual(self.version("VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 118\n"
                                      "EXTRAVERSION =\n"), "6.12.118")
        self.assertEqual(self.version("VERSION = 7\nPATCHLEVEL = 1\nSUBLEVEL = 0\n"
                                      "EXTRAVERSION = -rc3\nNAME = Baby Opossum\n"),
                         "7.1.0-rc3")
        self.assertEqual(self.version("VERSION = 2\nPATCHLEVEL = 6\n"), "2.6")

    def test_refused(self) -> None:
        with self.assertRaisesRegex(linuxtree.TreeError, "no numeric VERSION"):
            self.version("all:\n\techo\n")
        with self.assertRaisesRegex(linuxtree.TreeError, "read from its top Makefile"):
            linuxtree.make_version(Path("/nonexistent/Makefile"))

class Debian612(unittest.TestCase):
    """Debian's linux-source-6.12: its own clear_page_64.S, built and booted."""

    def setUp(self) -> None:
        if not (ROOT / DEBIAN / SOURCE).exists():
            why = (f"{TARBALL} is installed but not unpacked" if TARBALL.exists()
                   else f"{TARBALL} is not installed")
            if os.environ.get("HZ_REQUIRE_LINUX_SOURCE") == "1":
                self.fail(f"HZ_REQUIRE_LINUX_SOURCE=1, but {why}")
            self.skipTest(f"{why}: scripts/setup.sh --linux-source")

    def test_boots_its_routines(self) -> None:
        r, out = build(DEBIAN, "linux-6.12")
        self.assertEqual(r.returncode, 0, r.stdout[-1500:] + r.stderr[-1500:])
        self.assertRegex(said(out), r"left out: rep_stos_alternative")
        log = boot(out / "hugezero.elf", "linux-orig,linux-rep,linux-erms", *BOTH)
        err = bare(out, "linux-orig,linux-rep,linux-erms", *BOTH)
        for name in ("linux-orig", "linux-rep", "linux-erms"):
            for folio in ("2M", "1G"):
                self.assertRegex(log, rf"ok \d+ {folio}\.{name}\.contiguous-page\r?\n")
                self.assertIn(f"ok   bare.{folio}.{name}.contiguous-page", err)
        version = linuxtree.make_version(ROOT / DEBIAN / "Makefile")
        self.assertRegex(version, r"^6\.12\.\d+$")
        for text in (log, err):
            b = record(text, "boot")
            self.assertIn(f" linux_tree={version} linux_tree_sha256={sha256(DEBIAN)} ", b)
            record(text, "config", "clear=linux-orig ",
                   " tree_routine=clear_page_orig tree_abi=per-page ")
        self.assertIn(f"linux-rep: Linux {version}'s clear_page_rep, per-page",
                      report(log))


if __name__ == "__main__":
    unittest.main()

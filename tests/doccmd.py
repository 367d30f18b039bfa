# SPDX-License-Identifier: GPL-2.0-only
"""How tests/test_doc_commands.py runs a document's command blocks: the
rules it states (and tests/README.md with it), each a small function of
one command's text, and the fresh clone a document runs in.

The rules, the same for every block:

- where: a fresh clone of HEAD (committed work only), a clone per
  document, where `make all iso` has run as README's `make run` leaves
  it (README itself starts from nothing); HOME a directory of the
  test's own; HZ_NO_SETUP=1 (this machine's set-up is make test's own).
- sizes: `size=` at most 32M, or 1G on a line that asks for 1G folios;
  `runs=` at most 2, `split_runs=` at most 4, `max_runs=` at most 3,
  `budget_s=` at most 10; a `preset=` line without `size=` gets
  `size=32M` (1G with folio=1G), and `folio=2M` and `runs=2` where it
  names none (a preset sizes itself to half the memory, and runs five
  passes);
  `make bench` gets BENCH_MB=16 BENCH_SPLIT_RUNS=8 BENCH_RUNS=2.
- your files: `~/linux` is Debian's 7.2 tree (build/linux-source-7.2,
  scripts/setup.sh --linux-source), `~/linux-patch` the same with
  FOLIO_ZERO_LOCALITY_RADIUS 8 instead of 2, and the clone's
  build/linux-source-7.2 that tree; so is every other tree of yours a
  dry block names (`~/src/linux-v3`: its `make -n` reads only that the
  tree is there); a log a block reads that no block before it wrote is a
  stand-in from tests/data (STAND_INS).
- as root: `sudo X` runs X.
- exit status: 0, or N where the line ends in `# exits N`.
- dry (`<!-- commands dry: WHY -->`): `make …` runs as `make -n …`,
  `scripts/setup.sh …` and `scripts/hugezero lava run …` with
  `--dry-run`, `scripts/hugezero lava job …` as written (it writes a job,
  and runs none); every other line is only checked by `bash -n`.
- not run (`<!-- commands not run: WHY -->`): every line checked by
  `bash -n` only.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
SMALL = 32 << 20
GIB = 1 << 30
RUNS_MAX = 2
SPLIT_RUNS_MAX = 4
BENCH_SMALL = "BENCH_MB=16 BENCH_SPLIT_RUNS=8 BENCH_RUNS=2"
TREE = "7.2"
RADIUS = ("#define FOLIO_ZERO_LOCALITY_RADIUS\t2", "#define FOLIO_ZERO_LOCALITY_RADIUS\t8")

# A file a block reads that no block before it wrote: what stands in for
# it (relative to tests/data), by the name the document gives it.
STAND_INS = {
    "lab.log": "kernel-bench.log",
    "before.log": "before-one-declaration/kernel-bench.log",
    "after.log": "kernel-bench.log",
    "serial.log": "before-intervals/seed-001.log",
    "logs/seed-001-server01.yaml": "lava/seed-001-icelake.output.yaml",
}


# --- one command's text --------------------------------------------------------

def commands(lines: list[str]) -> list[tuple[int, str]]:
    """A block's commands, each with its line within the block: lines
    joined where one ends in ` \\`, then as many as make one complete
    shell command (`bash -n`: a for loop is one); blank lines and lines
    of a comment alone are left out."""
    out: list[tuple[int, str]] = []
    cur, at = "", 0
    for n, line in enumerate(lines):
        if not cur and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if not cur:
            at = n
        cur = f"{cur}\n{line}" if cur else line
        if cur.endswith("\\"):
            continue
        if syntax_ok(cur):
            out.append((at, cur))
            cur = ""
    if cur:
        out.append((at, cur))
    return out


def syntax_ok(cmd: str) -> bool:
    return subprocess.run(["bash", "-n", "-c", cmd], capture_output=True).returncode == 0


def expected_status(cmd: str) -> int:
    m = re.search(r"#\s*exits (\d+)\b", cmd)
    return int(m.group(1)) if m else 0


def size_of(v: str) -> int:
    m = re.fullmatch(r"(\d+)([KMGT]?)", v)
    if not m:
        return 0
    return int(m.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30, "T": 40}[m.group(2)]


def shown_size(b: int) -> str:
    return f"{b >> 30}G" if b % GIB == 0 else f"{b >> 20}M"


def cap(cmd: str, key: str, most: int) -> str:
    """@key=N (not part of a longer key) at most @most."""
    return re.sub(rf"((?<![\w-]){key}=)(\d+)\b",
                  lambda m: m.group(1) + str(min(int(m.group(2)), most)), cmd)


def small(cmd: str) -> str:
    """The size rule."""
    target = r"(\bmake\b[^|;&#\n]*(?<![\w=-])bench(?![\w=-]))"
    if re.search(target, cmd):
        return re.sub(target, rf"\1 {BENCH_SMALL}", cmd, count=1)
    big = bool(re.search(r"(?<![\w-])folio=\S*1G", cmd))
    most = GIB if big else SMALL

    def size(m: re.Match[str]) -> str:
        b = size_of(m.group(2))
        return m.group(1) + (shown_size(min(b, most)) if b else m.group(2))
    cmd = re.sub(r"((?<![\w-])size=)(\d+[KMGT]?)(?![\w.])", size, cmd)
    cmd = cap(cmd, "split_runs", SPLIT_RUNS_MAX)
    cmd = cap(cmd, "runs", RUNS_MAX)
    cmd = cap(cmd, "max_runs", 3)
    cmd = cap(cmd, "budget_s", 10)
    if re.search(r"(?<![\w-])preset=\S+", cmd) and not re.search(r"(?<![\w-])size=", cmd):
        add = (("" if re.search(r"(?<![\w-])folio=", cmd) else "folio=2M ") +
               f"size={shown_size(most)}" +
               ("" if re.search(r"(?<![\w-])runs=", cmd) else f" runs={RUNS_MAX}"))
        cmd = re.sub(r"((?<![\w-])preset=\S+)", rf"\1 {add}", cmd, count=1)
    return cmd


def as_root(cmd: str) -> str:
    """sudo's part of @cmd, as root: `sudo -v` asks nothing, `sudo [-n] X`
    is X."""
    cmd = re.sub(r"(^|[;&|(]\s*|\n\s*)sudo -v\b", r"\1true", cmd)
    return re.sub(r"(^|[;&|(]\s*|\n\s*)sudo (-n )?", r"\1", cmd)


def dry(cmd: str) -> str | None:
    """The dry form of @cmd, or None: only `bash -n`."""
    body = cmd.strip()
    if re.match(r"^make\b", body):
        return re.sub(r"^make\b", "make -n", body)
    if re.match(r"^scripts/setup\.sh\b", body):
        return re.sub(r"^scripts/setup\.sh\b", "scripts/setup.sh --dry-run", body)
    if re.match(r"^scripts/hugezero lava run\b", body):
        return re.sub(r"^scripts/hugezero lava run\b", "scripts/hugezero lava run --dry-run",
                      body)
    if re.match(r"^scripts/hugezero lava job\b", body):
        return body
    return None


def reads(cmd: str) -> list[str]:
    """The STAND_INS files @cmd names."""
    words = set(re.findall(r"[\w./*-]+", cmd))
    out = []
    for name in STAND_INS:
        pat = re.compile(re.escape(name).replace("server01", r"[\w-]+"))
        if any(w == name or (("*" in w) and re.fullmatch(
                re.escape(w).replace(r"\*", r"[\w-]*"), name)) for w in words) or \
                any(pat.fullmatch(w) for w in words):
            out.append(name)
    return out


# --- a document's clone ------------------------------------------------------------

@dataclass
class Ran:
    cmd: str            # as the document writes it
    line: int           # in the document
    how: str            # "ran", "dry", "checked"
    status: int
    output: str
    seconds: float


class Clone:
    """A fresh clone of HEAD in @top, with a HOME of its own."""

    def __init__(self, top: Path, build: Path) -> None:
        self.top = top
        self.dir = top / "hugezero"
        self.home = top / "home"
        self.home.mkdir()
        self.build = build          # the suite's build directory: its trees
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
        subprocess.run(["git", "clone", "-q", "--no-checkout", str(ROOT), str(self.dir)],
                       check=True, capture_output=True)
        subprocess.run(["git", "-C", str(self.dir), "checkout", "-q", head], check=True,
                       capture_output=True)
        keep = ("PATH", "LANG", "LC_ALL", "TERM", "TMPDIR", "CCACHE_DIR", "HZ_QEMU",
                "HZ_QEMU_DATA", "XDG_CACHE_HOME")
        self.env = {k: v for k, v in os.environ.items() if k in keep}
        # ccache's objects are the machine's, wherever HOME points.
        self.env.setdefault("CCACHE_DIR", str(Path.home() / ".cache" / "ccache"))
        self.env.update(HOME=str(self.home), HZ_NO_SETUP="1", MAKEFLAGS="-j2")

    def tree_source(self) -> Path | None:
        src = self.build / f"linux-source-{TREE}"
        return src if (src / "mm" / "memory.c").exists() else None

    def trees(self, text: str, dry: str = "") -> str | None:
        """Your trees, where the document names them (in @text, or in
        @dry, its dry blocks: ~/src/linux-* too); why not, or None."""
        need = [p for p in ("~/linux-patch", "~/linux", f"build/linux-source-{TREE}")
                if re.search(re.escape(p) + r"(?![\w-])", text + dry)]
        need += sorted(set(re.findall(r"~/src/linux[\w-]*", dry)))
        if not need:
            return None
        src = self.tree_source()
        if src is None:
            return (f"Debian's linux-source-{TREE} is not unpacked in {self.build} "
                    "(scripts/setup.sh --linux-source): it stands in for your trees")
        for p in need:
            dest = (self.home / p[2:]) if p.startswith("~/") else self.dir / p
            if dest.exists():
                continue
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copytree(src, dest)
            if p == "~/linux-patch":
                mem = dest / "mm" / "memory.c"
                text_c = mem.read_text(errors="surrogateescape")
                if RADIUS[0] not in text_c:
                    shutil.rmtree(dest)
                    return f"{src}/mm/memory.c has no '{RADIUS[0]}' to change"
                mem.write_text(text_c.replace(RADIUS[0], RADIUS[1]), errors="surrogateescape")
        return None

    def stand_in(self, cmd: str) -> None:
        for name in reads(cmd):
            dest = self.dir / name
            if not dest.exists():
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(DATA / STAND_INS[name], dest)

    def run(self, cmd: str, timeout: float = 900) -> tuple[int, str, float]:
        t = time.monotonic()
        try:
            r = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=self.dir,
                               env=self.env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, errors="replace",
                               timeout=timeout)
            return r.returncode, r.stdout, time.monotonic() - t
        except subprocess.TimeoutExpired as e:
            out = e.stdout if isinstance(e.stdout, str) else (e.stdout or b"").decode(
                errors="replace")
            return -1, f"{out}\n(timed out after {timeout:.0f} s)", time.monotonic() - t


def quoted(words: list[str]) -> str:
    return " ".join(shlex.quote(w) for w in words)

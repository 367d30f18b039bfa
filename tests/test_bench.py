# SPDX-License-Identifier: GPL-2.0-only
"""`make bench`, the companion's headline command (docs/companion.md,
"make bench"), from a fresh clone, the two ways docs/companion.md tells a
user to run it:

- as root: it exits 0 and prints the split with Linux's hugetlb 2M and
  THP overheads per fault, each with its 95% interval paired by round,
  and the harness check;
- as an unprivileged user with no sudo, in that user's own clone: it
  exits 0, runs what it can (THP, paired), and says what it skipped and
  why (the hugetlb pages, with the command to reserve them as root).
  Where the suite runs as root that user is `nobody`; else it is the
  user running it, a `sudo` that never answers first on PATH.

Both at tests/doccmd.py's small sizes (BENCH_MB=16 BENCH_SPLIT_RUNS=8
BENCH_RUNS=2).  Correctness only: no figure is judged.  `nobody` runs
through setpriv (util-linux); its clone is made by root and given to it,
since git refuses to read a repository another user owns.
"""
from __future__ import annotations

import os
import pwd
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

import doccmd  # noqa: E402
from hzlib import paths  # noqa: E402

ROOT = doccmd.ROOT
USER = "nobody"


def overhead_lines(out: str, backing: str) -> list[str]:
    """The overhead line of @backing and the lines under it."""
    m = re.search(rf"^  Linux's overhead per fault \({backing}\): .*\n((?:    .*\n)*)", out,
                  re.M)
    return [m.group(0).split("\n")[0], *m.group(1).splitlines()] if m else []


class Bench(unittest.TestCase):
    def clone(self) -> doccmd.Clone:
        missing = [t for t in ("git", "make", "gcc", "nasm") if not shutil.which(t)]
        if missing:
            self.skipTest(f"needs {', '.join(missing)} (scripts/setup.sh installs them)")
        tmp = tempfile.TemporaryDirectory(prefix="hz-bench-")
        self.addCleanup(tmp.cleanup)
        return doccmd.Clone(Path(tmp.name), paths.BUILD)

    def test_as_root(self) -> None:
        if os.geteuid() != 0:
            self.skipTest("as root: this suite runs as another user")
        c = self.clone()
        status, out, secs = c.run(f"make bench {doccmd.BENCH_SMALL}")
        sys.stderr.write(f"\n  make bench as root: {status} ({secs:.0f} s)")
        self.assertEqual(status, 0, out[-3000:])
        for backing in ("hugetlb", "thp"):
            lines = overhead_lines(out, backing)
            self.assertTrue(lines, f"no overhead line for {backing}:\n{out[-3000:]}")
            self.assertRegex(lines[1], r"95% interval .* paired over 8 rounds", lines)
            self.assertTrue(any("median of the 8 rounds' differences" in x for x in lines),
                            lines)
        self.assertIn("harness check (plain loops", out)
        self.assertNotIn("skip linux.2M.hugetlb", out)

    def test_as_a_user_without_sudo(self) -> None:
        """As nobody where this suite runs as root; else as this user, a
        sudo that never answers first on PATH."""
        c = self.clone()
        env = dict(c.env)
        cmd = ["bash", "-c", f"make bench {doccmd.BENCH_SMALL}"]
        if os.geteuid() == 0:
            if not shutil.which("setpriv"):
                self.skipTest("needs setpriv (util-linux) to run as another user")
            try:
                user = pwd.getpwnam(USER)
            except KeyError:
                self.skipTest(f"no user {USER!r} on this machine")
            for p in (c.top, *c.top.rglob("*")):
                os.lchown(p, user.pw_uid, user.pw_gid)
            # The user's own ccache, not root's.
            env["CCACHE_DIR"] = str(c.home / ".ccache")
            cmd = ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}",
                   "--clear-groups", *cmd]
        fake = c.top / "no-sudo"
        fake.mkdir()
        (fake / "sudo").write_text("#!/bin/sh\necho 'sudo: a password is required' >&2\n"
                                   "exit 1\n")
        (fake / "sudo").chmod(0o755)
        env["PATH"] = f"{fake}:{env.get('PATH', '/usr/bin:/bin')}"
        r = subprocess.run(cmd, cwd=c.dir, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, errors="replace",
                           timeout=900)
        out = r.stdout
        self.assertEqual(r.returncode, 0, out[-3000:])
        self.assertIn("make bench: not root, and no sudo -n", out)
        if "skip linux.2M.hugetlb" in out:
            self.assertRegex(out, r"skip linux\.2M\.hugetlb: needs \d+ free 2M hugetlb pages.*"
                                  r"as root: echo \d+ > /sys/kernel/mm/hugepages/")
        lines = overhead_lines(out, "thp")
        self.assertTrue(lines, out[-3000:])
        self.assertRegex(lines[1], r"paired over 8 rounds")
        if os.geteuid() == 0:
            self.assertFalse(any(p.stat().st_uid == 0 for p in (c.dir / "build").rglob("*")),
                             "a file of root's in the user's build/")


if __name__ == "__main__":
    unittest.main()

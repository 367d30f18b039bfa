# SPDX-License-Identifier: GPL-2.0-only
"""One rule for the build directory: scripts/hzlib/paths.py's ($HZ_BUILD,
else build/).  Every tool and test takes it from there (paths.BUILD,
paths.build_dir()): none reads $HZ_BUILD itself or spells out the
repository's build/, so that `make test BUILD=b` tests b's kernel and
reads b's logs everywhere."""
from __future__ import annotations

import re
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from hzlib import paths  # noqa: E402

# Reading $HZ_BUILD, and the repository's build/ spelled out.
READ_ENV = re.compile(r"""(?:environ\s*\.\s*get\s*\(|environ\s*\[|getenv\s*\()\s*["']HZ_BUILD""")
ROOT_BUILD = re.compile(r"""\bROOT\s*/\s*["']build["']""")
# Who may, and why.
ALLOWED = {
    "scripts/hzlib/paths.py": "the rule",
    "tests/test_paths.py": "the rule's own examples",
    "tests/test_prim_row.py": "builds into a directory of its own, build/test-prim",
}


def sources() -> list[Path]:
    return sorted([*(ROOT / "tests").glob("*.py"), *(ROOT / "scripts" / "hzlib").glob("*.py"),
                   ROOT / "scripts" / "hugezero", ROOT / "scripts" / "linux-tree"])


def breaches(rel: str, text: str) -> list[str]:
    """Where @text (the file @rel) takes the build directory itself."""
    if rel in ALLOWED:
        return []
    return [f"{rel}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}"
            for rx in (READ_ENV, ROOT_BUILD) for m in rx.finditer(text)]


class BuildDirTest(unittest.TestCase):
    def test_the_rule(self) -> None:
        self.assertEqual(paths.build_dir({}), ROOT / "build")
        self.assertEqual(paths.build_dir({"HZ_BUILD": "/tmp/b"}), Path("/tmp/b"))
        self.assertEqual(paths.build_dir({"HZ_BUILD": "b"}), Path("b").absolute())

    def test_only_paths_says_it(self) -> None:
        found = [b for p in sources() for b in breaches(str(p.relative_to(ROOT)), p.read_text())]
        self.assertEqual(found, [], "take the build directory from scripts/hzlib/paths.py "
                         "(paths.BUILD, paths.build_dir())")

    def test_a_breach_is_found(self) -> None:
        for line in ('B = Path(os.environ.get("HZ_BUILD") or ROOT / "build")',
                     "b = os.environ['HZ_BUILD']", 'logs = ROOT / "build" / "test-logs"'):
            with self.subTest(line):
                self.assertTrue(breaches("tests/test_x.py", line))
        self.assertEqual(breaches("tests/test_x.py", 'env = {"HZ_BUILD": str(b)}'), [])


if __name__ == "__main__":
    unittest.main()

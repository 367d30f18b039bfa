# SPDX-License-Identifier: GPL-2.0-only
"""Damaged serial logs, by seeded mutation of real ones (tests/data/).

For thousands of mutated logs the parser must never accept a record that
differs from the original with its sequence number, must report a problem
whenever any original record is not accepted intact, and must flag every
truncation that cuts into the records.  A problem found prints the seed
that reproduces it.
"""
from __future__ import annotations

import random
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

from hzlib import records, results  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"
CASES_PER_LOG = 2500
NOISE = ["\x1b[2J", "\x1b[0;37m", "\x1b[1;1H", "\r", "garbage line\n",
         "\x00", "@hz1", "@hz1 9", "#", "\"", "=", "\n"]


def mutate(text: str, rng: random.Random) -> tuple[str, str]:
    if len(text) < 2 or "\n" not in text[:-1]:
        return text + rng.choice(NOISE), "noise"
    kind = rng.choice(["flip", "delete", "insert", "drop_line", "dup_line",
                       "swap_lines", "join_lines", "noise", "truncate",
                       "multi"])
    if kind == "multi":
        for _ in range(rng.randint(2, 6)):
            text, _k = mutate(text, rng)
        return text, kind
    if kind in ("drop_line", "dup_line", "swap_lines", "join_lines"):
        lines = text.split("\n")
        i = rng.randrange(len(lines) - 1)
        if kind == "drop_line":
            del lines[i]
        elif kind == "dup_line":
            lines.insert(i, lines[i])
        elif kind == "swap_lines":
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
        else:
            lines[i:i + 2] = [lines[i] + lines[i + 1]]
        return "\n".join(lines), kind
    pos = rng.randrange(len(text))
    if kind == "flip":
        c = chr(rng.randrange(32, 127))
        return text[:pos] + c + text[pos + 1:], kind
    if kind == "delete":
        return text[:pos] + text[pos + 1:], kind
    if kind == "insert":
        return text[:pos] + chr(rng.randrange(32, 127)) + text[pos:], kind
    if kind == "noise":
        return text[:pos] + rng.choice(NOISE) + text[pos:], kind
    return text[:pos], kind


def key(r: records.Record) -> tuple[str, tuple[tuple[str, str], ...]]:
    return r.type, tuple(sorted(r.f.items()))


class MutationTest(unittest.TestCase):
    def check_log(self, name: str, seed0: int) -> int:
        text = (DATA / name).read_text(encoding="utf-8", errors="replace")
        clean = records.parse(text)
        self.assertEqual(len(clean), 1)
        self.assertEqual(clean[0].problems, [], name)
        self.assertTrue(clean[0].complete)
        orig = {r.seq: key(r) for r in clean[0].records}
        last_record_end = text.rindex("@hz1")
        checked = 0
        for i in range(CASES_PER_LOG):
            seed = seed0 + i
            rng = random.Random(seed)
            bad, kind = mutate(text, rng)
            boots = records.parse(bad)
            accepted = [(r.seq, key(r)) for b in boots for r in b.records]
            for seq, k in accepted:
                self.assertEqual(orig.get(seq), k, f"{name} seed {seed} ({kind}): "
                                 f"record {seq} accepted but differs")
            intact = {s for s, k in accepted if orig.get(s) == k}
            # No records at all is reported too ("no hugezero records").
            flagged = not boots or any(b.problems or not b.complete for b in boots)
            if intact != set(orig) or len(accepted) != len(orig):
                self.assertTrue(flagged, f"{name} seed {seed} ({kind}): records "
                                "lost or repeated without a problem reported")
            if kind == "truncate" and len(bad) <= last_record_end:
                self.assertTrue(flagged, f"{name} seed {seed}: truncation "
                                "not flagged")
            # Numbers only ever come from intact configurations.
            for b in boots:
                for row in results.rows([b]):
                    if row["status"] == "ok":
                        self.assertNotIn("missing", str(row["reason"]))
            checked += 1
        return checked

    def test_kernel_log_mutations(self) -> None:
        self.assertEqual(self.check_log("kernel-bench.log", 1000), CASES_PER_LOG)

    def test_companion_log_mutations(self) -> None:
        self.assertEqual(self.check_log("companion-split.log", 500000), CASES_PER_LOG)


if __name__ == "__main__":
    unittest.main()

# SPDX-License-Identifier: GPL-2.0-only
"""Reading hugezero's records out of a serial log (docs/records.md).

Every record is checked before it is believed: the line must have the
record grammar, its CRC32 must match, and its sequence number must follow
the previous one.  Damaged or missing records are reported, never used,
and a boot without its closing "end" record (or whose count disagrees)
is flagged incomplete.  A companion run stopped by a signal ends with an
`interrupted` record before its "end": the boot is whole, and says where
it was cut.
"""
from __future__ import annotations

import re
import zlib
from dataclasses import dataclass, field

from . import ktap

MAGIC = "@hz1 "
# The kernel ends a line cut by the run's end (its writer stopped, or
# faulted mid-record) with this before its own lines (kernel/console.h).
CUT_MARK = " ~cut"
LINE = re.compile(r"^@hz1 (\d+) ([a-z_]+)((?: [a-z_0-9]+=(?:\"(?:[^\"\\]|\\.)*\"|[^ \"#]+))*)"
                  r" #([0-9a-f]{8})$")
FIELD = re.compile(r" ([a-z_0-9]+)=(\"(?:[^\"\\]|\\.)*\"|[^ \"#]+)")


@dataclass
class Record:
    seq: int
    type: str
    f: dict[str, str]
    line_no: int

    def int(self, key: str, default: int | None = None) -> int:
        v = self.f.get(key)
        if v is None:
            if default is None:
                raise KeyError(key)
            return default
        return int(v, 0)


@dataclass
class Boot:
    index: int
    records: list[Record] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    end_count: int | None = None
    gaps: list[tuple[int, int]] = field(default_factory=list)  # missing seqs
    # The companion's run cut by a signal: its `interrupted` record.
    interrupted: Record | None = None
    # A LAVA job log's job and device (lavalog.Job.fields()); None for a
    # serial log.
    lava: dict[str, str] | None = None

    @property
    def complete(self) -> bool:
        return self.end_count is not None and self.end_count == len(self.records)

    def first(self, rtype: str) -> Record | None:
        return next((r for r in self.records if r.type == rtype), None)

    @property
    def cut(self) -> str:
        """Where a signal stopped the run, in words; "" for a run not
        interrupted."""
        r = self.interrupted
        if r is None:
            return ""
        cfg, name = r.f.get("cfg", "none"), r.f.get("name", "none")
        where = ("between configurations" if cfg == "none" else
                 f"in configuration{'s' if ',' in cfg or '-' in cfg else ''} "
                 f"{cfg} ({name})")
        return f"interrupted by {r.f.get('signal', '?')} {where}"


def unquote(v: str) -> str:
    if not v.startswith('"'):
        return v
    out: list[str] = []
    s, i = v[1:-1], 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            n = s[i + 1]
            if n == "x" and i + 3 < len(s):
                out.append(chr(int(s[i + 2:i + 4], 16)))
                i += 4
                continue
            out.append(n)
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def parse_line(text: str, line_no: int) -> Record | str:
    """A Record, or why @text is not a valid one."""
    m = LINE.match(text)
    if not m:
        if text.endswith(CUT_MARK):
            return "record cut off as the run ended (its writer stopped or faulted)"
        return "malformed record"
    body = text[: text.rindex("#")]
    if zlib.crc32(body.encode("latin-1", errors="replace")) != int(m.group(4), 16):
        return "checksum mismatch"
    fields = {k: unquote(v) for k, v in FIELD.findall(m.group(3))}
    return Record(int(m.group(1)), m.group(2), fields, line_no)


def candidates(line: str) -> list[str]:
    """Every record-looking piece of a line: a lost newline can join two."""
    out, pos = [], line.find(MAGIC)
    while pos >= 0:
        nxt = line.find(MAGIC, pos + 1)
        out.append(line[pos:nxt if nxt >= 0 else len(line)].rstrip())
        pos = nxt
    return out


# Types that only come at the start of a boot: seeing one with a sequence
# number below the expected one means a new boot whose first records were lost.
STARTERS = ("boot", "machine", "timebase", "host")


def parse(text: str) -> list[Boot]:
    """Every boot in a log, with its valid records and its problems."""
    boots: list[Boot] = []
    cur: Boot | None = None
    expect = 1

    def new_boot(why: str | None) -> Boot:
        b = Boot(len(boots))
        if why:
            b.problems.append(why)
        boots.append(b)
        return b

    for no, raw in enumerate(ktap.clean(text).split("\n"), 1):
        for line in candidates(raw):
            rec = parse_line(line, no)
            if isinstance(rec, str):
                if cur is None:
                    cur = new_boot(None)
                cur.problems.append(f"line {no}: {rec}, left out: {line[:80]!r}")
                continue
            if rec.type == "boot" and rec.seq == 1:
                if cur is not None and cur.end_count is None:
                    cur.problems.append("boot cut off: no 'end' record")
                cur, expect = new_boot(None), 1
            elif cur is None or cur.end_count is not None or (
                    rec.seq < expect and rec.type in STARTERS):
                if cur is not None and cur.end_count is None:
                    cur.problems.append("boot cut off: no 'end' record")
                cur = new_boot("log starts inside a boot: earlier records missing")
                expect = rec.seq
                if rec.seq > 1:
                    cur.gaps.append((1, rec.seq - 1))
            if rec.seq < expect:
                cur.problems.append(f"line {no}: record {rec.seq} repeated or "
                                    "out of order, left out")
                continue
            if rec.seq > expect:
                cur.problems.append(f"records {expect}..{rec.seq - 1} missing "
                                    f"(before line {no})")
                cur.gaps.append((expect, rec.seq - 1))
            expect = rec.seq + 1
            cur.records.append(rec)
            if rec.type == "interrupted":
                cur.interrupted = rec
            if rec.type == "end":
                cur.end_count = rec.int("records", 0)
                if cur.end_count != rec.seq:
                    cur.problems.append(f"end says {cur.end_count} records but "
                                        f"is record {rec.seq}")
    if cur is not None and cur.end_count is None:
        cur.problems.append("boot cut off: no 'end' record")
    for b in boots:
        if b.end_count is not None and b.end_count != len(b.records):
            b.problems.append(f"incomplete: {len(b.records)} of {b.end_count} "
                              "records readable")
    return boots

# SPDX-License-Identifier: GPL-2.0-only
"""Reading a KTAP version 1 run out of a serial log.

Lines that are not KTAP (GRUB's screen, our own console messages) are
skipped, as KTAP allows.  The top-level plan says how many suites must
report; fewer means the run was cut short.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]")
RESULT = re.compile(r"^(?P<indent>\s*)(?P<ok>ok|not ok) (?P<num>\d+)"
                    r"(?: (?P<name>[^#]*?))?\s*(?:#\s*(?P<dir>\w+)\s*(?P<reason>.*))?$")
PLAN = re.compile(r"^(?P<indent>\s*)1\.\.(?P<n>\d+)\s*$")
DONE = re.compile(r"hugezero: done rc=(-?\d+)")


def clean(text: str) -> str:
    """Strip terminal escapes and carriage returns."""
    return ANSI.sub("", text).replace("\r", "")


@dataclass
class Result:
    depth: int
    ok: bool
    number: int
    name: str
    skip: str | None = None


@dataclass
class Run:
    started: bool = False
    plan: int | None = None
    results: list[Result] = field(default_factory=list)
    rc: int | None = None

    @property
    def top(self) -> list[Result]:
        return [r for r in self.results if r.depth == 0]

    @property
    def cases(self) -> list[Result]:
        """Leaf results: those of suites (depth 1)."""
        return [r for r in self.results if r.depth == 1]

    @property
    def failed(self) -> list[Result]:
        return [r for r in self.results if not r.ok]

    @property
    def complete(self) -> bool:
        return (self.started and self.plan is not None
                and len(self.top) == self.plan and self.rc is not None)

    @property
    def passed(self) -> bool:
        return self.complete and not self.failed and self.rc == 0


def parse(text: str) -> Run:
    """The last KTAP run in @text (a log may hold several boots)."""
    run = Run()
    for raw in clean(text).split("\n"):
        line = raw.rstrip()
        if line == "KTAP version 1":
            run = Run(started=True)
            continue
        if line.strip() == "KTAP version 1":
            continue
        m = DONE.search(line)
        if m:
            run.rc = int(m.group(1))
            continue
        if not run.started:
            continue
        m = PLAN.match(line)
        if m and not m.group("indent") and run.plan is None:
            run.plan = int(m.group("n"))
            continue
        m = RESULT.match(line)
        if m:
            depth = len(m.group("indent").expandtabs()) // 4
            skip = m.group("reason") if (m.group("dir") or "").upper() == "SKIP" else None
            run.results.append(Result(depth, m.group("ok") == "ok",
                                      int(m.group("num")),
                                      (m.group("name") or "").strip(), skip))
    return run

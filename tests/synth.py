# SPDX-License-Identifier: GPL-2.0-only
"""Synthetic hugezero logs for the host scripts' tests: records with real
checksums and sequence numbers, built a record at a time."""
from __future__ import annotations

import zlib

MACHINE = ('vendor=AuthenticAMD family=0x19 model=0x11 stepping=1 brand="AMD EPYC 9654" '
           'l3=33554432 features=erms,avx2,clzero')


def record(seq: int, rtype: str, body: str) -> str:
    head = f"@hz1 {seq} {rtype}{' ' + body if body else ''} "
    return f"{head}#{zlib.crc32(head.encode()):08x}"


class Log:
    """One boot's records; text() closes it with its end record."""

    def __init__(self, boot: str = 'version=0.2 firmware=bios cmdline="bench=fault"',
                 machine: str = MACHINE, timebase: str = "tsc_hz=1000000000 source=hpet "
                 "invariant=1 overhead_median=0", host: str | None = None) -> None:
        self.lines: list[str] = []
        self.cfgs = 0
        self.add("boot", boot)
        self.add("machine", machine)
        self.add("timebase", timebase)
        if host is not None:
            self.add("host", host)

    def add(self, rtype: str, body: str) -> "Log":
        self.lines.append(record(len(self.lines) + 1, rtype, body))
        return self

    def config(self, body: str, runs: list[dict[str, list[int]]],
               summary: str = "", samples: bool = True, run_extra: str = "") -> "Log":
        """A configuration with measured runs of the given samples by kind
        (fault, clear, access); run totals are the samples' sums."""
        self.cfgs += 1
        cfg = self.cfgs
        self.add("config", f"cfg={cfg} {body}")
        for i, kinds in enumerate(runs):
            n = len(next(iter(kinds.values())))
            totals = " ".join(f"{k}_ticks={sum(v)}" for k, v in kinds.items())
            self.add("run", f"cfg={cfg} run={i} pass=measure faults={n} resched=0 "
                     f"{totals}{' ' + run_extra if run_extra else ''}")
            for k, v in kinds.items():
                if samples:
                    self.add("samples", f"cfg={cfg} run={i} kind={k} first=0 "
                             f"v={','.join(map(str, v))} n={n}")
        self.add("summary", f"cfg={cfg} status=ok runs={len(runs)}"
                 f"{' ' + summary if summary else ''}")
        return self

    def text(self) -> str:
        n = len(self.lines) + 1
        return "\n".join(self.lines + [record(n, "end", f"records={n}")]) + "\n"


def kernel_config(**over: str) -> str:
    """A bench=fault config record's fields, some replaced or added."""
    f = {"name": "2M.erms.contiguous-page", "bench": "fault", "folio": "2M",
         "clear": "erms", "order": "contiguous-page", "chunk": "0", "radius": "0",
         "size": "4194304", "size_requested": "4194304", "folios": "2", "touch": "seq",
         "offset": "first", "access": "none", "cache": "asis", "fill": "movq", "cpl": "3",
         "warmups": "1", "runs": "2", "verify": "full", "seed": "1", "inject": "none"}
    f.update(over)
    return " ".join(f"{k}={v}" for k, v in f.items())

# SPDX-License-Identifier: GPL-2.0-only
"""QEMU tests of "the lab" (docs/hardware.md): which serial console
console=auto picks (the ACPI SPCR table's UART, else COM1, else the first
that answers) and says why; and folios faulted in memory above 4 GiB."""
from __future__ import annotations

import re
import struct
from pathlib import Path

from hzlib import paths, qemu, records

from qemu_cases import Case, all_of, expect_log, passes

FIXTURES = paths.BUILD / "acpi"
SPCR_COM2 = FIXTURES / "spcr-com2.bin"
SPCR_MMIO = FIXTURES / "spcr-mmio.bin"
SPCR_SBSA = FIXTURES / "spcr-sbsa.bin"


def spcr_table(space: int, address: int, baud_code: int,
               interface: int = 0) -> bytes:
    """An SPCR (revision 2, 80 bytes) naming a 16550 at @address in GAS
    address space @space (1 I/O port, 0 MMIO), 8 bits wide."""
    body = bytearray(80)
    body[0:4] = b"SPCR"
    struct.pack_into("<IB", body, 4, len(body), 2)
    body[10:16] = b"HZLAB "              # OEM ID
    body[16:24] = b"HZSPCR  "            # OEM table ID
    struct.pack_into("<I4sI", body, 24, 1, b"HZ  ", 1)
    body[36] = interface
    struct.pack_into("<BBBBQ", body, 40, space, 8, 0, 1, address)
    body[52] = 1                          # interrupt type: 8259
    body[53] = 3                          # IRQ 3 (COM2's)
    body[58] = baud_code
    body[59] = 0                          # no parity
    body[60] = 1                          # one stop bit
    body[62] = 0                          # VT100
    struct.pack_into("<HH", body, 64, 0xffff, 0xffff)   # not a PCI device
    body[9] = (-sum(body)) & 0xff
    assert sum(body) & 0xff == 0
    return bytes(body)


def write_fixtures() -> None:
    tables = {
        SPCR_COM2: spcr_table(1, 0x2f8, 7),
        SPCR_MMIO: spcr_table(0, 0xfedc9000, 7),
        SPCR_SBSA: spcr_table(0, 0x9000000, 7, interface=0x0e),
    }
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for path, data in tables.items():
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)


write_fixtures()


def uart(index: int, chardev: str) -> tuple[str, ...]:
    """ttyS<index> on QEMU's @chardev backend ("null", "stdio")."""
    return ("-chardev", f"{chardev},id=com{index}",
            "-device", f"isa-serial,chardev=com{index},index={index}")


# Quick boots: the console choice is printed before the self-tests, which
# are not the point here.
QUICK = ["selftest=off"]


def spcr_refused(name: str, table: Path, why: str) -> Case:
    """COM1 present, an SPCR table console=auto cannot follow, for @why."""
    return Case(name, args=QUICK, extra=("-acpitable", f"file={table}"),
                check=all_of(passes, expect_log(
                    r"hugezero: console: ttyS0 \(0x3f8\): COM1, as " + why,
                    "the SPCR table refused, and why")))



CONSOLE_CASES = [
    # COM1 present (discarding), COM2 on stdio, SPCR naming COM2.
    Case("console-auto-spcr", serial=False, args=QUICK,
         extra=(*uart(0, "null"), *uart(1, "stdio"),
                "-acpitable", f"file={SPCR_COM2}"),
         check=all_of(
             passes,
             expect_log(r"hugezero: console: ttyS1 \(0x2f8\) from the ACPI "
                        r"SPCR table, 115200 baud", "the SPCR choice"),
             expect_log(r"acpi: SPCR rev 2: interface 16550, I/O port "
                        r"0x2f8", "the SPCR table read"),
             # The output before the choice, replayed on COM2.
             expect_log(r"hugezero \S+: loader", "the banner, replayed"))),
    # COM1 absent, COM2 on stdio, no SPCR: the first UART that answers.
    Case("console-auto-first", serial=False, args=QUICK,
         extra=uart(1, "stdio"),
         check=all_of(
             passes,
             expect_log(r"hugezero: console: ttyS1 \(0x2f8\): the first "
                        r"UART that answers, as there is no ACPI SPCR table "
                        r"and COM1 does not answer; 115200 baud",
                        "the fallback to the first UART"),
             expect_log(r"hugezero \S+: loader", "the banner, replayed"))),
    # COM1 present, no SPCR: COM1, and why.
    Case("console-auto-com1", args=QUICK,
         check=all_of(
             passes,
             expect_log(r"hugezero: console: ttyS0 \(0x3f8\): COM1, as "
                        r"there is no ACPI SPCR table; 115200 baud",
                        "COM1, no SPCR"))),
    # SPCR naming COM2, which is absent; an MMIO 16550; a UART of another
    # kind: each refused, saying why, and COM1 used.
    *(spcr_refused(name, table, why) for name, table, why in [
        ("console-auto-spcr-absent", SPCR_COM2,
         r"the ACPI SPCR table's UART at 0x2f8 does not answer"),
        ("console-auto-spcr-mmio", SPCR_MMIO,
         r"the ACPI SPCR table's 16550 is MMIO at 0xfedc9000, not "
         r"supported \(I/O-port UARTs only\)"),
        ("console-auto-spcr-sbsa", SPCR_SBSA,
         r"the ACPI SPCR table's UART is interface type 0x0e, not a 16550"),
    ]),
    # An explicit console= wins over the SPCR table.
    Case("console-explicit-over-spcr", serial=False,
         args=["console=ttyS0", *QUICK],
         extra=(*uart(0, "stdio"), *uart(1, "null"),
                "-acpitable", f"file={SPCR_COM2}"),
         check=all_of(
             passes,
             expect_log(r"acpi: SPCR rev 2", "the SPCR table read"),
             lambda res: "console=auto's line printed under console=ttyS0"
             if "from the ACPI SPCR table" in res.log else None)),
]

# Memory above 4 GiB: a 12 GiB guest (q35 keeps 2 GiB of it below 4 GiB,
# the rest from 4 GiB up), 1G folios faulted and verified.  Below 4 GiB
# at most one 1G folio fits, so of 2 at least one lies above.
HIGH = 1 << 32
ABOVE_4G = ["bench=fault", "folio=1G", "size=2G", "clear=avx2",
            "order=contiguous-page", "runs=1", "warmups=0", "selftest=off"]


def folios_above_4g(res: qemu.BootResult) -> str | None:
    """The memory map has usable RAM above 4 GiB, and the folios used it."""
    log = res.log.replace("\r", "")
    usable = [(int(a, 16), int(b, 16)) for a, b in re.findall(
        r"^mem: \[(0x[0-9a-f]+), (0x[0-9a-f]+)\) usable", log, re.M)]
    if not any(end > HIGH for _, end in usable):
        return f"no usable RAM above 4 GiB in the mem: lines ({usable})"
    boots = records.parse(res.log)
    cfgs = [r for b in boots for r in b.records if r.type == "config"]
    if len(cfgs) != 1:
        return f"{len(cfgs)} config records, expected 1"
    c = cfgs[0]
    if c.int("folios") != 2 or c.int("size") != 2 << 30:
        return f"folios={c.f['folios']} size={c.f['size']}: expected 2 of 1G"
    if c.int("pa_max") < HIGH:
        return f"pa_max={c.f['pa_max']}: no folio above 4 GiB"
    if c.int("pa_min") % (1 << 30) or c.int("pa_max") % (1 << 30):
        return f"pa_min={c.f['pa_min']} pa_max={c.f['pa_max']}: not 1G-aligned"
    top = c.int("pa_max")
    if not any(lo <= top and top + (1 << 30) <= end for lo, end in usable):
        return f"pa_max={top:#x}: its folio is not in usable RAM"
    return None


HIGH_CASES = [
    Case(f"above-4g-{fw}", firmware=fw, mem="12G", args=ABOVE_4G,
         check=all_of(passes, folios_above_4g))
    for fw in ("bios", "uefi")
]

CASES = HIGH_CASES + CONSOLE_CASES

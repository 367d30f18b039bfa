# SPDX-License-Identifier: GPL-2.0-only
"""QEMU tests of "the lab" (docs/hardware.md): which serial console
console=auto picks (the ACPI SPCR table's UART, else COM1, else the first
that answers) and says why; and folios faulted in memory above 4 GiB."""
from __future__ import annotations

import re
import struct
from pathlib import Path

from hzlib import paths, qemu, records

from qemu_cases import Case, Check, all_of, expect_log, passes, run_report

FIXTURES = paths.BUILD / "acpi"
SPCR_COM2 = FIXTURES / "spcr-com2.bin"
SPCR_MMIO = FIXTURES / "spcr-mmio.bin"
SPCR_SBSA = FIXTURES / "spcr-sbsa.bin"
SPCR_AS_IS = FIXTURES / "spcr-com1-as-is.bin"
SPCR_COM2_AS_IS = FIXTURES / "spcr-com2-as-is.bin"
SPCR_BAUD5 = FIXTURES / "spcr-com1-baud5.bin"
SPCR_SHORT = FIXTURES / "spcr-short.bin"
SPCR_IN_RAM = FIXTURES / "spcr-mmio-ram.bin"
# Where q35 and pc have nothing: an MMIO 16550 there cannot answer.  (The
# address of AMD's FCH UART0 on real machines.)
NOWHERE = 0xfedc9000


def spcr_table(space: int, address: int, baud_code: int,
               interface: int = 0, access: int = 1, length: int = 80) -> bytes:
    """An SPCR (revision 2, @length bytes: 80 is the whole of it) naming a
    16550 at @address in GAS address space @space (1 I/O port, 0 MMIO),
    accessed @access (1 byte, 3 dword) at a time."""
    body = bytearray(80)
    body[0:4] = b"SPCR"
    struct.pack_into("<IB", body, 4, length, 2)
    body[10:16] = b"HZLAB "              # OEM ID
    body[16:24] = b"HZSPCR  "            # OEM table ID
    struct.pack_into("<I4sI", body, 24, 1, b"HZ  ", 1)
    body[36] = interface
    struct.pack_into("<BBBBQ", body, 40, space, 8 << (access - 1), 0, access,
                     address)
    body[52] = 1                          # interrupt type: 8259
    body[53] = 3                          # IRQ 3 (COM2's)
    body[58] = baud_code
    body[59] = 0                          # no parity
    body[60] = 1                          # one stop bit
    body[62] = 0                          # VT100
    struct.pack_into("<HH", body, 64, 0xffff, 0xffff)   # not a PCI device
    body = body[:length]
    body[9] = 0
    body[9] = (-sum(body)) & 0xff
    assert sum(body) & 0xff == 0
    return bytes(body)


def write_fixtures() -> None:
    tables = {
        SPCR_COM2: spcr_table(1, 0x2f8, 7),
        SPCR_MMIO: spcr_table(0, NOWHERE, 7, interface=0x12, access=3),
        SPCR_SBSA: spcr_table(0, 0x9000000, 7, interface=0x0e, access=3),
        SPCR_AS_IS: spcr_table(1, 0x3f8, 0),
        SPCR_COM2_AS_IS: spcr_table(1, 0x2f8, 0),
        SPCR_BAUD5: spcr_table(1, 0x3f8, 5),
        SPCR_SHORT: spcr_table(1, 0x3f8, 7, length=60),
        SPCR_IN_RAM: spcr_table(0, 0x2000000, 7, access=1),
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
# are not the point here.  bench=info: the console record says it too.
QUICK = ["selftest=off"]
INFO = ["bench=info", "selftest=off"]


def console_record(**want: str) -> Check:
    """The boot's one console record has these fields (a value ending in
    "..." is a prefix)."""
    def run(res: qemu.BootResult) -> str | None:
        recs = [r for b in records.parse(res.log) for r in b.records
                if r.type == "console"]
        if len(recs) != 1:
            return f"{len(recs)} console records, expected 1"
        f = recs[0].f
        for key, value in want.items():
            got = f.get(key)
            ok = (got is not None and got.startswith(value[:-3])
                  if value.endswith("...") else got == value)
            if not ok:
                return f"console record {key}={got!r}, expected {value!r} ({f})"
        return None
    return run


def report_says(text: str) -> Check:
    """scripts/hugezero report on the boot's log prints @text."""
    def run(res: qemu.BootResult) -> str | None:
        r = run_report(res)
        return None if r.returncode == 0 and text in r.stdout else \
            f"report (rc {r.returncode}) lacks {text!r}"
    return run


def spcr_refused(name: str, table: Path, why: str, reason: str) -> Case:
    """COM1 present, an SPCR table console=auto cannot follow, for @why
    (a pattern), the console record's reason @reason (a prefix)."""
    return Case(name, args=INFO, extra=("-acpitable", f"file={table}"),
                check=all_of(passes, expect_log(
                    r"hugezero: console: ttyS0 \(0x3f8\): COM1, as " + why,
                    "the SPCR table refused, and why"),
                    console_record(io="0x3f8", baud="115200",
                                   source="COM1 (console=auto, no usable SPCR)",
                                   reason=reason + "..."),
                    report_says("; SPCR not used: " + reason)))


def on_com2(name: str, table: Path, args: list[str], *checks: Check) -> Case:
    """COM1 present (discarding), COM2 on stdio, an SPCR @table."""
    return Case(name, serial=False, args=args,
                extra=(*uart(0, "null"), *uart(1, "stdio"),
                       "-acpitable", f"file={table}"),
                check=all_of(passes, *checks))


def spcr_as_is(name: str, table: Path, port: int, said: str,
               **record: str) -> Case:
    """An SPCR naming ttyS@port (COM1, or COM2 on stdio) at baud "as is";
    the console line's speed @said (a pattern), the console record's
    fields @record, and the output readable after."""
    io = ("0x3f8", "0x2f8")[port]
    checks = (expect_log(rf"hugezero: console: ttyS{port} \({io}\) from the "
                         r"ACPI SPCR table, baud as is " + said,
                         "the SPCR choice, its divisor kept"),
              # Still readable after: the records' checksums hold.
              expect_log(r"hugezero: done rc=0", "the end, readable"),
              console_record(io=io, baud="as-is", source="the ACPI SPCR table",
                             **record),
              report_says(f"console:  io {io} at the firmware's baud rate "
                          f"(as is, divisor {record['divisor']}), chosen "
                          f"from the ACPI SPCR table"))
    if port:
        return on_com2(name, table, INFO, *checks)
    return Case(name, args=INFO, extra=("-acpitable", f"file={table}"),
                check=all_of(passes, *checks))


CONSOLE_CASES = [
    # COM1 present (discarding), COM2 on stdio, SPCR naming COM2.
    on_com2("console-auto-spcr", SPCR_COM2, QUICK,
            expect_log(r"hugezero: console: ttyS1 \(0x2f8\) from the ACPI "
                       r"SPCR table, 115200 baud \(divisor 1 from a 1843200 "
                       r"Hz clock\)", "the SPCR choice"),
            expect_log(r"acpi: SPCR rev 2: interface 16550, I/O port "
                       r"0x2f8", "the SPCR table read"),
            # The output before the choice, replayed on COM2.
            expect_log(r"hugezero \S+: loader", "the banner, replayed")),
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
    # SPCR naming COM2, which is absent; an MMIO 16550 where nothing
    # answers (QEMU's x86 machines have no MMIO 16550: the register access
    # itself is tested on a fake window, tests/host/test_uart.c), or in
    # RAM; a UART of another kind; a table too short to be one: each
    # refused, saying why, and COM1 used.
    *(spcr_refused(name, table, why, reason) for name, table, why, reason in [
        ("console-auto-spcr-absent", SPCR_COM2,
         r"the ACPI SPCR table's UART at 0x2f8 does not answer",
         "the ACPI SPCR table's UART at 0x2f8 does not answer"),
        ("console-auto-spcr-mmio", SPCR_MMIO,
         r"the ACPI SPCR table's UART at MMIO 0xfedc9000 \(32-bit "
         r"registers\) does not answer",
         "the ACPI SPCR table's UART at MMIO 0xfedc9000 (32-bit registers) "
         "does not answer"),
        # A broken table pointing into RAM: not written to.
        ("console-auto-spcr-mmio-ram", SPCR_IN_RAM,
         r"the ACPI SPCR table's UART at MMIO 0x2000000 is RAM in the memory "
         r"map, not a device",
         "the ACPI SPCR table's UART at MMIO 0x2000000 is RAM"),
        ("console-auto-spcr-sbsa", SPCR_SBSA,
         r"the ACPI SPCR table's UART is interface type 0x0e, not a 16550",
         "the ACPI SPCR table's UART is interface type 0x0e, not a 16550"),
        ("console-auto-spcr-short", SPCR_SHORT,
         r"the ACPI SPCR table is unreadable \(60 bytes, too short \(an "
         r"SPCR has at least 80\)\)",
         "the ACPI SPCR table is unreadable (60 bytes, too short"),
    ]),
    # SPCR naming COM1 at baud "as is" (code 0), or a code not known: the
    # divisor GRUB left (1, 115200 baud) kept, and said.
    spcr_as_is("console-auto-spcr-as-is", SPCR_AS_IS, 0,
               r"\(divisor 1: 115200 baud from a 1843200 Hz clock\)",
               divisor="1", clock="1843200"),
    spcr_as_is("console-auto-spcr-baud-unknown", SPCR_BAUD5, 0,
               r"\(divisor 1: 115200 baud from a 1843200 Hz clock\) \(baud "
               r"code 5 not known \(3, 4, 6, 7 or 0\): as is\)",
               divisor="1", note="baud code 5 not known (3, 4, 6, 7 or 0): as is"),
    # SPCR naming COM2, baud "as is": nobody programmed COM2, so it keeps
    # QEMU's reset divisor, 12 (9600 baud), and hugezero leaves it so.
    spcr_as_is("console-auto-spcr-as-is-com2", SPCR_COM2_AS_IS, 1,
               r"\(divisor 12: 9600 baud from a 1843200 Hz clock\)",
               divisor="12"),
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

# SPDX-License-Identifier: GPL-2.0-only
"""Checks of the built kernel image that the boot loader relies on."""
from __future__ import annotations

import struct
from pathlib import Path

MB2_MAGIC = 0xE85250D6
PF_X, PF_W = 1, 2


def check(path: Path) -> list[str]:
    """Problems with @path as a multiboot2 kernel; empty when it is fine."""
    data = path.read_bytes()
    errs: list[str] = []
    if data[:4] != b"\x7fELF" or data[4] != 2:
        return [f"{path}: not an ELF64 file"]
    # The multiboot2 header: 8-byte aligned in the first 32 KiB.
    found = None
    for off in range(0, min(len(data), 32768) - 16, 8):
        magic, arch, length, csum = struct.unpack_from("<IIII", data, off)
        if magic == MB2_MAGIC and (magic + arch + length + csum) & 0xFFFFFFFF == 0:
            found = off
            break
    if found is None:
        errs.append("no valid multiboot2 header in the first 32 KiB")
    phoff, = struct.unpack_from("<Q", data, 32)
    phentsize, phnum = struct.unpack_from("<HH", data, 54)
    for i in range(phnum):
        p_type, p_flags = struct.unpack_from("<II", data, phoff + i * phentsize)
        vaddr, = struct.unpack_from("<Q", data, phoff + i * phentsize + 16)
        if p_type == 1 and (p_flags & PF_X) and (p_flags & PF_W):
            errs.append(f"segment {i} at {vaddr:#x} is writable and executable")
    return errs

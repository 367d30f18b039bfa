# SPDX-License-Identifier: GPL-2.0-only
"""Boot images whose GRUB entry passes given boot arguments.

QEMU's -kernel cannot load a multiboot2 kernel, so every QEMU run goes
through GRUB: we write a grub.cfg with the arguments and let grub-mkrescue
make a hybrid image (El Torito for BIOS, an EFI system partition for UEFI,
bootable as a CD or as a USB disk).  Images are cached by content.
"""
from __future__ import annotations

import hashlib
import re
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path

from . import paths

GRUB_CFG = """\
serial --unit=0 --speed=115200 --word=8 --parity=no --stop=1
terminal_input serial console
terminal_output serial console
set timeout=0
set default=0
menuentry "hugezero {label}" {{
	multiboot2 {kernel} {args}
	boot
}}
"""


class ImageError(Exception):
    pass


def grub_cfg(args: list[str], kernel: str = "/boot/hugezero.elf",
             label: str = "harness") -> str:
    for a in args:
        if any(c in a for c in "\n\r{}"):
            raise ImageError(f"boot argument {a!r} contains characters "
                             "a GRUB menu entry cannot carry")
    quoted = " ".join(shlex.quote(a) for a in args)
    return GRUB_CFG.format(label=label, kernel=kernel, args=quoted)


def build_name(elf: Path) -> str:
    """The name @elf's images carry: its build directory's (build,
    base, patched), so that images of several builds share a cache,
    and a hash of its whole path, so that two clones' `build` do not
    take each other's images for their own old ones."""
    d = elf.absolute().parent
    name = re.sub(r"[^-A-Za-z0-9_+]", "_", d.name) or "build"
    return f"{name}.{hashlib.sha256(str(d).encode()).hexdigest()[:6]}"


def kernel_hash(elf: Path) -> str:
    return hashlib.sha256(elf.read_bytes()).hexdigest()[:12]


def image_name(prefix: str, elf: Path, cfg: str, ext: str = "") -> str:
    """PREFIX-BUILD-KERNEL-CFG.EXT: the build directory's name, the
    kernel's hash and that of the grub.cfg with its boot line."""
    return (f"{prefix}-{build_name(elf)}-{kernel_hash(elf)}-"
            f"{hashlib.sha256(cfg.encode()).hexdigest()[:12]}{ext}")


# What follows PREFIX-BUILD- in an image's name: KERNEL-CFG[.EXT].
HASHES = r"([0-9a-f]{12})-[0-9a-f]{12}(?:\.iso|\.0|\.efi)?"


def prune(cache: Path, prefix: str, elf: Path) -> None:
    """Images of @elf's build made from another kernel are stale (a
    20 MB ISO each); another build's are kept, so a base and a patched
    build's images lie side by side.  Names without a build (made
    before images were named by build) are stale too."""
    build, kernel = build_name(elf), kernel_hash(elf)
    for p in cache.glob(f"{prefix}-*"):
        rest = p.name[len(prefix) + 1:]
        m = re.fullmatch(HASHES, rest[len(build) + 1:]) \
            if rest.startswith(build + "-") else re.fullmatch(HASHES, rest)
        if not m or m.group(1) == kernel:
            continue
        if p.is_dir():
            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink(missing_ok=True)


def build_iso(args: list[str], elf: Path = paths.ELF,
              cache: Path = paths.BUILD / "images") -> Path:
    """An ISO (also a USB disk image) that boots @elf with @args."""
    if not elf.exists():
        raise ImageError(f"{elf} does not exist: run '{paths.make_command(elf.parent)}' first")
    if shutil.which("grub-mkrescue") is None:
        raise ImageError("grub-mkrescue not found: run scripts/setup.sh")
    cfg = grub_cfg(args)
    out = cache / image_name("hz", elf, cfg, ".iso")
    if out.exists():
        return out
    cache.mkdir(parents=True, exist_ok=True)
    prune(cache, "hz", elf)
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        root = Path(tmp) / "iso"
        (root / "boot" / "grub").mkdir(parents=True)
        shutil.copy(elf, root / "boot" / "hugezero.elf")
        (root / "boot" / "grub" / "grub.cfg").write_text(cfg)
        part = Path(tmp) / "out.iso"
        r = subprocess.run(["grub-mkrescue", "-o", str(part), str(root)],
                           capture_output=True, text=True)
        if r.returncode != 0 or not part.exists():
            raise ImageError("grub-mkrescue failed:\n" + r.stderr)
        part.replace(out)
    return out


def netboot_base(cache: Path = paths.BUILD / "images") -> Path:
    """grub-mknetdir's tree (BIOS core.0, UEFI core.efi, modules), made once."""
    base = cache / "netboot-base"
    if (base / "boot" / "grub" / "i386-pc" / "core.0").exists() and \
            (base / "boot" / "grub" / "x86_64-efi" / "core.efi").exists():
        return base
    if shutil.which("grub-mknetdir") is None:
        raise ImageError("grub-mknetdir not found: run scripts/setup.sh")
    tmp = cache / "netboot-base.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    r = subprocess.run(["grub-mknetdir", f"--net-directory={tmp}",
                        "--subdir=boot/grub"], capture_output=True, text=True)
    if r.returncode != 0:
        raise ImageError("grub-mknetdir failed:\n" + r.stderr)
    shutil.rmtree(base, ignore_errors=True)
    tmp.replace(base)
    return base


def build_netdir(args: list[str], elf: Path = paths.ELF,
                 cache: Path = paths.BUILD / "images") -> Path:
    """A TFTP tree whose grub.cfg boots @elf with @args over the network."""
    if not elf.exists():
        raise ImageError(f"{elf} does not exist: run '{paths.make_command(elf.parent)}' first")
    base = netboot_base(cache)
    cfg = grub_cfg(args)
    out = cache / image_name("net", elf, cfg)
    prune(cache, "net", elf)
    if (out / "boot" / "grub" / "grub.cfg").exists():
        return out
    grub = out / "boot" / "grub"
    grub.mkdir(parents=True, exist_ok=True)
    for sub in (base / "boot" / "grub").iterdir():
        link = grub / sub.name
        if not link.exists():
            link.symlink_to(sub.resolve())
    shutil.copy(elf, out / "boot" / "hugezero.elf")
    (grub / "grub.cfg").write_text(cfg)
    return out

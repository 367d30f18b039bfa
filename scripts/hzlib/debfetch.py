# SPDX-License-Identifier: GPL-2.0-only
"""A linux-source package bookworm has not (linux-source-7.2, Debian
unstable's), for scripts/setup.sh --linux-source: its .deb fetched once
into a cache outside build/, verified against the archive's Packages
index, and the tarball in it kept beside it (docs/setup.md)."""
from __future__ import annotations

import hashlib
import lzma
import tarfile
import urllib.error
import urllib.request
from pathlib import Path, PurePosixPath

from .linuxtree import TreeError

MIRROR = "http://deb.debian.org/debian"
INDEX = "dists/unstable/main/binary-all/Packages.xz"


class NoNetwork(TreeError):
    pass


def parse_index(text: str) -> dict[str, dict[str, str]]:
    """The stanzas of a Packages index by package name (the last one of
    a name wins; unstable's binary-all has one)."""
    out: dict[str, dict[str, str]] = {}
    for stanza in text.split("\n\n"):
        fields: dict[str, str] = {}
        key = None
        for line in stanza.splitlines():
            if line[:1] in (" ", "\t") and key:
                fields[key] += "\n" + line.strip()
            elif ":" in line:
                key, _, value = line.partition(":")
                fields[key] = value.strip()
        if "Package" in fields:
            out[fields["Package"]] = fields
    return out


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _get(url: str, timeout: float = 60) -> urllib.request.addinfourl:
    try:
        return urllib.request.urlopen(url, timeout=timeout)
    except (urllib.error.URLError, OSError) as e:
        raise NoNetwork(f"no network: {url}: {getattr(e, 'reason', e)}") from e


def fetch(package: str, cache: Path, mirror: str = MIRROR) -> tuple[Path, str]:
    """The verified .deb of @package in @cache, downloaded when it is not
    there; and its version.  Without the index (no network), a .deb
    verified before is used."""
    cache.mkdir(parents=True, exist_ok=True)
    try:
        with _get(f"{mirror}/{INDEX}") as r:
            index = parse_index(lzma.decompress(r.read()).decode("utf-8", "replace"))
    except lzma.LZMAError as e:
        raise TreeError(f"{mirror}/{INDEX}: not an xz Packages index: {e}") from e
    except NoNetwork:
        seen = sorted(cache.glob(f"{package}_*.deb.verified"))
        for v in reversed(seen):
            deb = v.with_suffix("")
            if deb.is_file() and sha256(deb) == v.read_text().strip():
                return deb, deb.name.split("_")[1]
        raise
    if package not in index:
        raise TreeError(f"{mirror}/{INDEX}: no {package}")
    st = index[package]
    want = st.get("SHA256", "").lower()
    if len(want) != 64 or "Filename" not in st:
        raise TreeError(f"{mirror}/{INDEX}: {package}'s stanza has no SHA256 or Filename")
    deb = cache / PurePosixPath(st["Filename"]).name
    if not (deb.is_file() and sha256(deb) == want):
        part = deb.with_name(deb.name + ".part")
        with _get(f"{mirror}/{st['Filename']}", timeout=300) as r, part.open("wb") as f:
            for block in iter(lambda: r.read(1 << 20), b""):
                f.write(block)
        got = sha256(part)
        if got != want:
            part.unlink()
            raise TreeError(f"{mirror}/{st['Filename']}: sha256 {got}, the index says "
                            f"{want}: refused")
        part.replace(deb)
    deb.with_name(deb.name + ".verified").write_text(want + "\n")
    return deb, st.get("Version", "")


def tarball(deb: Path, package: str) -> Path:
    """usr/src/PACKAGE.tar.xz of @deb, kept beside it (read from the .deb
    once)."""
    out = deb.parent / f"{package}.tar.xz"
    if out.is_file() and out.stat().st_mtime >= deb.stat().st_mtime:
        return out
    member = f"usr/src/{package}.tar.xz"
    try:
        with deb.open("rb") as f:
            if f.read(8) != b"!<arch>\n":
                raise TreeError(f"{deb}: not a Debian package")
            while True:
                head = f.read(60)
                if len(head) < 60:
                    raise TreeError(f"{deb}: no data.tar member")
                name = head[:16].decode().strip().rstrip("/")
                size = int(head[48:58])
                if name.startswith("data.tar"):
                    break
                f.seek(size + size % 2, 1)
            with tarfile.open(fileobj=f, mode="r|*") as tf:
                for m in tf:
                    if m.name.lstrip("./") == member and m.isfile():
                        src = tf.extractfile(m)
                        assert src is not None
                        part = out.with_name(out.name + ".part")
                        with part.open("wb") as dst:
                            for block in iter(lambda: src.read(1 << 20), b""):
                                dst.write(block)
                        part.replace(out)
                        return out
    except (OSError, tarfile.TarError, ValueError) as e:
        raise TreeError(f"{deb}: {e}") from e
    raise TreeError(f"{deb}: no {member}")

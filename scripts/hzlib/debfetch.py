# SPDX-License-Identifier: GPL-2.0-only
"""A linux-source package bookworm has not (linux-source-7.2, Debian
unstable's), for scripts/setup.sh --linux-source: its .deb fetched once
into a cache outside build/, verified against the archive's Packages
index, the index against the archive's signed InRelease (gpgv and
debian-archive-keyring where the machine has them: over plain HTTP a
checksum alone catches corruption, not tampering), and the tarball in
it kept beside it (docs/setup.md)."""
from __future__ import annotations

import hashlib
import lzma
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
import urllib.error
import urllib.request
from pathlib import Path, PurePosixPath

from .linuxtree import TreeError

MIRROR = "http://deb.debian.org/debian"
RELEASE = "dists/unstable/InRelease"
INDEX = "dists/unstable/main/binary-all/Packages.xz"
# Debian's archive keys (package debian-archive-keyring); HZ_SETUP_DEBIAN_KEYRING
# another (the tests' own).
KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"


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


def _signed_text(text: str) -> str:
    """The signed part of a clearsigned file (RFC 4880, 7.1)."""
    m = re.search(r"-----BEGIN PGP SIGNED MESSAGE-----\n(?:.+\n)*\n(.*?)\n"
                  r"-----BEGIN PGP SIGNATURE-----", text, re.S)
    if not m:
        raise TreeError(f"{RELEASE}: not a clearsigned file")
    return re.sub(r"^- ", "", m.group(1), flags=re.M)


def release(raw: bytes, where: str) -> tuple[str, str]:
    """InRelease's signed text, and how it was verified: gpgv with the
    keyring (a bad signature refused), or, without them, said to be not."""
    keyring = os.environ.get("HZ_SETUP_DEBIAN_KEYRING", KEYRING)
    gpgv = shutil.which("gpgv")
    if not gpgv or not Path(keyring).is_file():
        lack = "gpgv" if not gpgv else keyring
        return (_signed_text(raw.decode("utf-8", "replace")),
                f"InRelease's signature not checked: no {lack} (packages gpgv, "
                "debian-archive-keyring): the index is only checked against it")
    with tempfile.TemporaryDirectory() as d:
        src, out = Path(d) / "InRelease", Path(d) / "signed"
        src.write_bytes(raw)
        r = subprocess.run([gpgv, "--keyring", keyring, "--output", str(out), str(src)],
                           capture_output=True, text=True, timeout=60)
        if r.returncode:
            why = (r.stderr.strip().splitlines() or ["no reason given"])[-1]
            raise TreeError(f"{where}: its signature is not one of {keyring}'s ({why}): refused")
        return out.read_text("utf-8", "replace"), f"InRelease signed ({keyring}, gpgv)"


def index_sha(signed: str, where: str) -> str:
    """The SHA256 InRelease gives the Packages index."""
    m = re.search(r"^SHA256:\n((?:[ \t].*\n?)*)", signed, re.M)
    for line in (m.group(1).splitlines() if m else []):
        f = line.split()
        if len(f) == 3 and f[2] == INDEX.removeprefix("dists/unstable/"):
            return f[0].lower()
    raise TreeError(f"{where}: no SHA256 of {INDEX.removeprefix('dists/unstable/')}")


def fetch(package: str, cache: Path, mirror: str = MIRROR) -> tuple[Path, str, str]:
    """The verified .deb of @package in @cache, downloaded when it is not
    there; its version; and how the index was verified.  Without the
    index (no network), a .deb verified before is used."""
    cache.mkdir(parents=True, exist_ok=True)
    try:
        with _get(f"{mirror}/{RELEASE}") as r:
            signed, how = release(r.read(), f"{mirror}/{RELEASE}")
        with _get(f"{mirror}/{INDEX}") as r:
            raw = r.read()
        want_index = index_sha(signed, f"{mirror}/{RELEASE}")
        if hashlib.sha256(raw).hexdigest() != want_index:
            raise TreeError(f"{mirror}/{INDEX}: sha256 {hashlib.sha256(raw).hexdigest()}, "
                            f"InRelease says {want_index}: refused")
        index = parse_index(lzma.decompress(raw).decode("utf-8", "replace"))
    except lzma.LZMAError as e:
        raise TreeError(f"{mirror}/{INDEX}: not an xz Packages index: {e}") from e
    except NoNetwork:
        seen = sorted(cache.glob(f"{package}_*.deb.verified"))
        for v in reversed(seen):
            deb = v.with_suffix("")
            if deb.is_file() and sha256(deb) == v.read_text().strip():
                return deb, deb.name.split("_")[1], "verified before (no network)"
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
    return deb, st.get("Version", ""), how


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

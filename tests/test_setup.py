# SPDX-License-Identifier: GPL-2.0-only
"""scripts/setup.sh's QEMU decisions, against a fake machine: its release
file, apt sources, qemu-system-x86_64, apt-get and sudo are stand-ins in a
temporary directory, so nothing here installs or changes anything."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SETUP = ROOT / "scripts" / "setup.sh"
INSTALL = "install -y -q --no-install-recommends --no-remove -t bookworm-backports qemu-system-x86"
OURS = "sources.list.d/hugezero-bookworm-backports.sources"


def script(path: Path, body: str) -> None:
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)


class Machine:
    def __init__(self, d: Path, codename: str = "bookworm", qemu: str = "7.2.22") -> None:
        self.d = d
        self.bin = d / "bin"
        self.apt = d / "apt"
        self.log = d / "apt-get.log"
        (self.apt / "sources.list.d").mkdir(parents=True)
        self.bin.mkdir()
        (d / "os-release").write_text(f'NAME="Debian GNU/Linux"\nVERSION_CODENAME={codename}\n')
        self.set_qemu(qemu)
        script(self.bin / "apt-get", 'echo "$*" >> "$FAKE_LOG"\n'
               'case " $* " in *" $FAKE_APT_FAIL "*) exit 100;; esac\n')
        script(self.bin / "sudo", 'exec "$@"\n')

    def set_qemu(self, version: str) -> None:
        script(self.bin / "qemu-system-x86_64",
               f"echo 'QEMU emulator version {version} (fake)'\n")

    def setup(self, *args: str, ci: bool = False, fail: str = "none",
              env_more: dict[str, str] | None = None,
              make: bool = False) -> tuple[int, str, list[str]]:
        """setup.sh @args (or, @make, the Makefile's setup target)."""
        env = {k: v for k, v in os.environ.items() if k not in ("CI", "HZ_NO_SETUP")}
        env.update(env_more or {})
        env.update(PATH=f"{self.bin}:{env.get('PATH', '/usr/bin:/bin')}",
                   HZ_SETUP_OS_RELEASE=str(self.d / "os-release"),
                   HZ_SETUP_APT_ETC=str(self.apt), FAKE_LOG=str(self.log),
                   FAKE_APT_FAIL=fail)
        if ci:
            env["CI"] = "true"
        # Never the machine's own apt-get: only the stand-in may answer.
        assert shutil.which("apt-get", path=env["PATH"]) == str(self.bin / "apt-get")
        if self.log.exists():
            self.log.unlink()
        cmd = (["make", "--no-print-directory", "-C", str(ROOT), "setup", *args] if make
               else ["sh", str(SETUP), *args])
        r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
        calls = self.log.read_text().splitlines() if self.log.exists() else []
        return r.returncode, r.stdout + r.stderr, calls


class SetupQemuTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.m = Machine(Path(self.tmp.name))

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def backports_calls(self, calls: list[str]) -> list[str]:
        return [c for c in calls if "backports" in c or c == "update -q"]

    def base_installs(self, out: str) -> None:
        if "setup: installing:" in out:
            self.skipTest("this machine lacks a base package; setup.sh would install it first")

    def test_ci_on_bookworm_upgrades_qemu(self) -> None:
        rc, out, calls = self.m.setup(ci=True)
        self.assertEqual(rc, 0, out)
        self.assertIn(INSTALL, calls)
        self.assertIn("upgrading qemu-system-x86 from bookworm-backports", out)
        src = (self.m.apt / OURS).read_text()
        self.assertIn("Suites: bookworm-backports", src)
        self.assertIn("Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg", src)
        # Once QEMU is new enough, nothing more.
        self.m.set_qemu("10.0.2")
        rc, out, calls = self.m.setup(ci=True)
        self.assertEqual((rc, self.backports_calls(calls)), (0, []), out)

    def test_a_source_already_there_is_used(self) -> None:
        (self.m.apt / "sources.list.d" / "bp.list").write_text(
            "deb http://deb.debian.org/debian bookworm-backports main contrib\n")
        rc, out, calls = self.m.setup("--backports")
        self.assertEqual(rc, 0, out)
        self.assertIn(INSTALL, calls)
        self.assertFalse((self.m.apt / OURS).exists())

    def test_a_commented_source_does_not_count(self) -> None:
        (self.m.apt / "sources.list").write_text(
            "# deb http://deb.debian.org/debian bookworm-backports main\n")
        rc, out, _ = self.m.setup("--backports")
        self.assertEqual(rc, 0, out)
        self.assertTrue((self.m.apt / OURS).exists())

    def test_nothing_without_ci_or_asking(self) -> None:
        rc, out, calls = self.m.setup()
        self.assertEqual((rc, self.backports_calls(calls)), (0, []), out)
        self.assertFalse((self.m.apt / OURS).exists())

    def test_ccache_is_optional(self) -> None:
        """Installed as root (or beside what is missing); a user without
        root is told, and make goes on without it."""
        no = {"HZ_SETUP_CCACHE": str(self.m.d / "no-ccache")}
        rc, out, calls = self.m.setup(env_more={**no, "HZ_SETUP_UID": "0"})
        self.base_installs(out.replace("setup: installing: ccache (optional)", ""))
        self.assertEqual(rc, 0, out)
        self.assertTrue(any(c.startswith("install ") and c.endswith(" ccache") for c in calls),
                        calls)
        # No network or no package: said, and make goes on.
        rc, out, _ = self.m.setup(env_more={**no, "HZ_SETUP_UID": "0"}, fail="install")
        self.assertEqual(rc, 0, out)
        self.assertIn("could not install ccache (optional", out)
        rc, out, calls = self.m.setup(env_more={**no, "HZ_SETUP_UID": "1000"})
        self.assertEqual((rc, calls), (0, []), out)
        self.assertIn("setup: not installed: ccache (optional", out)
        rc, out, _ = self.m.setup(env_more={**no, "HZ_NO_SETUP": "1"})
        self.assertIn("missing ccache, for builds (package ccache, optional)", out)

    def test_nothing_on_other_releases(self) -> None:
        (self.m.d / "os-release").write_text("VERSION_CODENAME=trixie\n")
        rc, out, calls = self.m.setup(ci=True)
        self.assertEqual((rc, self.backports_calls(calls)), (0, []), out)

    def test_unreachable_backports_keeps_bookworm_qemu(self) -> None:
        for step in ("update", "install"):
            rc, out, calls = self.m.setup(ci=True, fail=step)
            self.base_installs(out)
            self.assertEqual(rc, 0, out)
            self.assertIn("bookworm-backports unavailable: keeping QEMU 7.2", out)
            # The source it added is taken away again.
            self.assertFalse((self.m.apt / OURS).exists(), step)

    def test_dry_run_changes_nothing(self) -> None:
        rc, out, calls = self.m.setup("--dry-run", ci=True)
        self.assertEqual((rc, calls), (0, []), out)
        self.assertIn(f"would run: apt-get {INSTALL}", out)
        self.assertIn(f"would add the source {self.m.apt / OURS}", out)
        self.assertFalse((self.m.apt / OURS).exists())
        rc, out, calls = self.m.setup("--dry-run", "--private-qemu", str(self.m.d / "q"))
        self.assertEqual((rc, calls), (0, []), out)
        self.assertIn("would download qemu-system-x86 qemu-system-common "
                      "qemu-system-data seabios", out)
        self.assertFalse((self.m.d / "q").exists())


def deb(path: Path, members: dict[str, bytes]) -> None:
    """A Debian package (an ar archive) whose data.tar.xz holds @members."""
    import io
    import tarfile
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w:xz") as tf:
        for name, body in members.items():
            info = tarfile.TarInfo("./" + name)
            info.size = len(body)
            tf.addfile(info, io.BytesIO(body))
    out = b"!<arch>\n"
    for name, body in (("debian-binary", b"2.0\n"), ("data.tar.xz", data.getvalue())):
        out += f"{name:<16}{0:<12}{0:<6}{0:<6}{100644:<8}{len(body):<10}`\n".encode()
        out += body + (b"\n" if len(body) % 2 else b"")
    path.write_bytes(out)


def tree_tarball(path: Path, top: str, version: str) -> None:
    """A linux-source tarball made here (not Linux's): the files read and
    one that is not."""
    import io
    import tarfile
    with tarfile.open(path, "w:xz") as tf:
        for rel in ("Makefile", "arch/x86/lib/clear_page_64.S", "mm/memory.c",
                    "include/linux/mm.h", "arch/x86/lib/other.S"):
            body = (f"VERSION = {version}\n" if rel == "Makefile" else "/* test */\n").encode()
            info = tarfile.TarInfo(f"{top}/{rel}")
            info.size = len(body)
            tf.addfile(info, io.BytesIO(body))


READ = ["Makefile", "arch/x86/lib/clear_page_64.S", "include/linux/mm.h", "mm/memory.c"]


class SetupLinuxSourceTest(unittest.TestCase):
    """--linux-source: bookworm's 6.1 and 6.12 by apt when their tarballs
    are missing, unstable's 7.2 fetched from a mirror made here (a file:
    URL) and verified, then the files read of each unpacked."""

    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.m = Machine(Path(self.tmp.name))
        d = self.m.d
        self.src, self.build, self.cache, self.mirror = (d / "src", d / "build", d / "cache",
                                                         d / "mirror")
        for x in (self.src, self.build):
            x.mkdir()
        self.env = {"HZ_SETUP_LINUX_SRC": str(self.src), "HZ_SETUP_LINUX_BUILD": str(self.build),
                    "HZ_SETUP_CACHE": str(self.cache),
                    "HZ_SETUP_DEBIAN_MIRROR": self.mirror.as_uri()}

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def setup(self, *args: str, **env: str) -> tuple[int, str, list[str]]:
        return self.m.setup(*args, env_more={**self.env, **env})

    def make_tarballs(self) -> None:
        for v in ("6.1", "6.12"):
            tree_tarball(self.src / f"linux-source-{v}.tar.xz", f"linux-source-{v}", "6")

    def make_mirror(self, sha: str | None = None) -> str:
        import hashlib
        import lzma
        pool = self.mirror / "pool/main/l/linux"
        pool.mkdir(parents=True)
        inner = self.m.d / "inner.tar.xz"
        tree_tarball(inner, "linux-source-7.2", "7")
        name = "linux-source-7.2_7.2.13-1_all.deb"
        deb(pool / name, {"usr/src/linux-source-7.2.tar.xz": inner.read_bytes()})
        real = hashlib.sha256((pool / name).read_bytes()).hexdigest()
        index = self.mirror / "dists/unstable/main/binary-all"
        index.mkdir(parents=True)
        text = ("Package: apfs-dkms\nVersion: 1\nFilename: pool/a.deb\nSHA256: " + "0" * 64 +
                "\n\nPackage: linux-source-7.2\nSource: linux\nVersion: 7.2.13-1\n"
                "Description: Linux kernel source\n a continuation line\n"
                f"Filename: pool/main/l/linux/{name}\nSize: 1\nSHA256: {sha or real}\n\n")
        (index / "Packages.xz").write_bytes(lzma.compress(text.encode()))
        self.sign_release(hashlib.sha256((index / "Packages.xz").read_bytes()).hexdigest())
        return name

    def gpg(self, *args: str) -> None:
        subprocess.run(["gpg", "--batch", "--homedir", str(self.gnupg), "--pinentry-mode",
                        "loopback", "--passphrase", "", *args], check=True, capture_output=True,
                       timeout=60)

    def sign_release(self, index_sha: str, sign: bool = True) -> None:
        """dists/unstable/InRelease, clearsigned by a key made here (the
        keyring setup is given: HZ_SETUP_DEBIAN_KEYRING), listing the
        index's sha256."""
        if not shutil.which("gpg"):
            self.skipTest("no gpg (package gnupg) to sign the test mirror's InRelease")
        self.gnupg = self.m.d / "g"
        if not self.gnupg.exists():
            self.gnupg.mkdir(mode=0o700)
            self.addCleanup(subprocess.run, ["gpgconf", "--homedir", str(self.gnupg), "--kill",
                                             "all"], capture_output=True)
            self.gpg("--quick-gen-key", "hugezero test <test@invalid>", "ed25519", "sign", "never")
            keyring = self.m.d / "keyring.gpg"
            self.gpg("--output", str(keyring), "--export")
            self.env["HZ_SETUP_DEBIAN_KEYRING"] = str(keyring)
        rel = self.mirror / "dists/unstable"
        (rel / "Release").write_text("Suite: unstable\nSHA256:\n"
                                     f" {'0' * 64} 1 main/binary-amd64/Packages.xz\n"
                                     f" {index_sha} 1 main/binary-all/Packages.xz\n")
        (rel / "InRelease").unlink(missing_ok=True)
        self.gpg("--output", str(rel / "InRelease"), "--clearsign", str(rel / "Release"))

    def files(self, v: str) -> list[str]:
        out = self.build / f"linux-source-{v}"
        return sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())

    def test_installs_when_missing(self) -> None:
        rc, out, calls = self.setup("--linux-source", HZ_SETUP_DEBIAN_MIRROR="http://127.0.0.1:9")
        if not re.search(r"setup: installing: ?linux-source-6\.1 linux-source-6\.12 *\n", out):
            self.skipTest("this machine lacks a base package; setup.sh would install it too")
        self.assertIn("install -y -q --no-install-recommends linux-source-6.1 linux-source-6.12",
                      calls)
        self.assertEqual(rc, 1, "the fake apt-get installs nothing")
        self.assertIn(f"no {self.src}/linux-source-6.1.tar.xz after installing linux-source-6.1",
                      out)

    def test_unpacks_the_files_read(self) -> None:
        self.make_tarballs()
        name = self.make_mirror()
        rc, out, calls = self.setup("--linux-source")
        self.assertEqual((rc, calls), (0, []), out)
        for v in ("6.1", "6.12", "7.2"):
            self.assertEqual(self.files(v), READ, v)
        self.assertIn(f"{name} (7.2.13-1), sha256 verified", out)
        self.assertTrue((self.cache / name).is_file(), "kept in the cache")
        rc, out, calls = self.setup("--linux-source")
        self.assertEqual(rc, 0, out)
        self.assertNotIn("unpacking", out, "done once")
        # Unpacked again where make LINUX= reads more than was unpacked
        # (asm/page.h, once): linux-source-V.reads says what was.
        stamp = self.build / "linux-source-6.1.reads"
        self.assertIn("arch/x86/include/asm/page.h\n", stamp.read_text())
        stamp.write_text(stamp.read_text().replace("arch/x86/include/asm/page.h\n", ""))
        rc, out, calls = self.setup("--linux-source")
        self.assertEqual(rc, 0, out)
        self.assertIn("unpacking the files make LINUX= reads of", out)
        self.assertIn("linux-source-6.1.tar.xz", out)
        self.assertNotIn("linux-source-6.12.tar.xz", out)
        # Fetched once: the mirror may go, the cache's tarball stays.
        shutil.rmtree(self.mirror)
        shutil.rmtree(self.build / "linux-source-7.2")
        rc, out, calls = self.setup()
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.files("7.2"), READ, "from the cache, without --linux-source")

    def test_index_parsing(self) -> None:
        sys.path.insert(0, str(ROOT / "scripts"))
        from hzlib import debfetch
        got = debfetch.parse_index("Package: a\nVersion: 1\nDescription: x\n more\n\n"
                                   "Package: linux-source-7.2\nVersion: 7.2.13-1\n"
                                   "Filename: pool/l.deb\nSHA256: ab\n")
        self.assertEqual(set(got), {"a", "linux-source-7.2"})
        self.assertEqual(got["a"]["Description"], "x\nmore")
        self.assertEqual((got["linux-source-7.2"]["Filename"], got["linux-source-7.2"]["SHA256"]),
                         ("pool/l.deb", "ab"))

    def test_checksum_mismatch_refused(self) -> None:
        self.make_tarballs()
        name = self.make_mirror(sha="1" * 64)
        rc, out, calls = self.setup("--linux-source")
        self.assertEqual(rc, 1, out)
        self.assertRegex(out, rf"{name}: sha256 [0-9a-f]{{64}}, the index says 1{{64}}: refused")
        self.assertFalse(list(self.cache.glob("*.deb*")), "nothing kept")
        self.assertEqual(self.files("7.2") if (self.build / "linux-source-7.2").exists() else [],
                         [])

    def test_index_verified_by_inrelease(self) -> None:
        """The index against InRelease's sha256, InRelease's signature by
        gpgv against the keyring; without gpgv's keyring, said."""
        self.make_tarballs()
        self.make_mirror()
        rc, out, _ = self.setup("--linux-source")
        self.assertEqual(rc, 0, out)
        self.assertIn(f"InRelease signed ({self.env['HZ_SETUP_DEBIAN_KEYRING']}, gpgv)", out)
        shutil.rmtree(self.cache)
        shutil.rmtree(self.build / "linux-source-7.2")
        rel = self.mirror / "dists/unstable/InRelease"
        signed = rel.read_text()
        for what, text, env, want in (
                ("tampered", signed.replace(" 1 main/binary-all", " 2 main/binary-all"), {},
                 "InRelease: its signature is not one of"),
                ("another index", None, {},
                 "Packages.xz: sha256 [0-9a-f]{64}, InRelease says 1{64}: refused"),
                ("no keyring", signed, {"HZ_SETUP_DEBIAN_KEYRING": str(self.m.d / "none.gpg")},
                 "InRelease's signature not checked: no .*none.gpg")):
            with self.subTest(what):
                if text is None:
                    self.sign_release("1" * 64)
                else:
                    rel.write_text(text)
                rc, out, _ = self.setup("--linux-source", **env)
                self.assertRegex(out, want)
                self.assertEqual(rc, 0 if what == "no keyring" else 1, out)
                if rc:
                    self.assertFalse(list(self.cache.glob("*.deb*")), "nothing kept")

    def test_no_network(self) -> None:
        self.make_tarballs()
        rc, out, calls = self.setup("--linux-source", HZ_SETUP_DEBIAN_MIRROR="http://127.0.0.1:9")
        self.assertEqual(rc, 0, out)
        self.assertIn("setup: no network: linux-source-7.2 not fetched; the 7.2 cases skip", out)
        self.assertEqual(self.files("6.12"), READ)
        self.assertFalse((self.build / "linux-source-7.2").exists())

    def test_dry_run(self) -> None:
        self.make_tarballs()
        rc, out, calls = self.setup("--dry-run", "--linux-source")
        self.assertEqual((rc, calls), (0, []), out)
        self.assertIn(f"would unpack the files make LINUX= reads of {self.src}/linux-source-6.1.tar.xz",
                      out)
        self.assertIn("would fetch linux-source-7.2 of Debian unstable", out)
        self.assertEqual(list(self.build.iterdir()), [])
        self.assertFalse(self.cache.exists())


class SetupLabTest(unittest.TestCase):
    """--lab: lava-dispatcher, tftpd-hpa and ipmitool, without
    recommends, only those missing (their programs are stand-ins here)."""

    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.m = Machine(Path(self.tmp.name))
        self.lava_run = self.m.d / "lava-run"
        self.tftpd = self.m.d / "in.tftpd"
        self.ipmitool = self.m.d / "ipmitool"

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def setup(self, *args: str) -> tuple[int, str, list[str]]:
        os.environ["HZ_SETUP_LAVA_RUN"] = str(self.lava_run)
        os.environ["HZ_SETUP_TFTPD"] = str(self.tftpd)
        os.environ["HZ_SETUP_IPMITOOL"] = str(self.ipmitool)
        try:
            return self.m.setup(*args)
        finally:
            for k in ("LAVA_RUN", "TFTPD", "IPMITOOL"):
                del os.environ["HZ_SETUP_" + k]

    def lab_installs(self, calls: list[str]) -> list[str]:
        return [c for c in calls if "lava" in c or "tftpd" in c or "ipmitool" in c]

    def test_installs_what_is_missing(self) -> None:
        rc, out, calls = self.setup("--lab")
        self.assertEqual(rc, 0, out)
        [call] = self.lab_installs(calls)
        self.assertRegex(call, r"^install -y -q --no-install-recommends .*"
                         r"\bipmitool\b.*\blava-dispatcher\b.*\btftpd-hpa\b")
        script(self.tftpd, "")
        script(self.ipmitool, "")
        rc, out, calls = self.setup("--lab")
        [call] = self.lab_installs(calls)
        self.assertIn("lava-dispatcher", call)
        self.assertNotIn("tftpd-hpa", call)
        script(self.lava_run, "")
        rc, out, calls = self.setup("--lab")
        self.assertEqual((rc, self.lab_installs(calls)), (0, []), out)

    def test_not_without_asking(self) -> None:
        rc, out, calls = self.setup()
        self.assertEqual((rc, self.lab_installs(calls)), (0, []), out)

    def test_dry_run(self) -> None:
        rc, out, calls = self.setup("--dry-run", "--lab")
        self.assertEqual((rc, calls), (0, []), out)
        self.assertRegex(out, r"would run: apt-get install -y -q --no-install-recommends "
                         r".*ipmitool.*lava-dispatcher.*tftpd-hpa")


class SetupLabServerTest(unittest.TestCase):
    """--lab-server: postgresql first, then lava-server and lavacli with
    the cluster started (lava-server's postinst creates its database only
    where PostgreSQL runs), a cluster started here stopped again; the
    programs, pg_lsclusters and pg_ctlcluster are stand-ins."""

    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.m = Machine(Path(self.tmp.name))
        d = self.m.d
        self.pg = d / "pg"
        self.env = {"HZ_SETUP_PG_LIB": str(self.pg),
                    "HZ_SETUP_LAVA_SERVER": str(d / "lava-server"),
                    "HZ_SETUP_LAVACLI": str(d / "lavacli"),
                    "HZ_SETUP_LAVA_WORKER": str(d / "lava-worker"),
                    "FAKE_CLUSTER": "down",
                    # No linux-source tree of this machine is unpacked.
                    "HZ_SETUP_LINUX_SRC": str(d / "src"), "HZ_SETUP_CACHE": str(d / "cache"),
                    "HZ_SETUP_LINUX_BUILD": str(d / "build")}
        script(self.m.bin / "pg_lsclusters",
               'echo "15  main    5432 $FAKE_CLUSTER   postgres /var/lib/postgresql/15/main x.log"\n')
        script(self.m.bin / "pg_ctlcluster", 'echo "pg_ctlcluster $*" >> "$FAKE_LOG"\n')

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def setup(self, *args: str, fail: str = "none", **env: str) -> tuple[int, str, list[str]]:
        return self.m.setup(*args, fail=fail, env_more={**self.env, **env})

    def lab(self, calls: list[str]) -> list[str]:
        return [c for c in calls if re.search(r"postgres|lava|pg_ctl", c)]

    def test_order(self) -> None:
        rc, out, calls = self.setup("--lab-server")
        self.assertEqual(rc, 0, out)
        first, start, second, stop = self.lab(calls)
        self.assertRegex(first, r"^install -y -q --no-install-recommends .*"
                         r"\blava-dispatcher\b.*\bpostgresql\b")
        self.assertNotRegex(first, r"lava-server|lavacli")
        self.assertEqual((start, stop), ("pg_ctlcluster 15 main start",
                                         "pg_ctlcluster 15 main stop"))
        self.assertEqual(second, "install -y -q --no-install-recommends lava-server lavacli")

    def test_a_running_cluster_is_left_running(self) -> None:
        (self.pg / "15" / "bin").mkdir(parents=True)
        script(self.pg / "15" / "bin" / "postgres", "")
        rc, out, calls = self.setup("--lab-server", FAKE_CLUSTER="online")
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.lab(calls), [
            "install -y -q --no-install-recommends lava-dispatcher",
            "install -y -q --no-install-recommends lava-server lavacli"])

    def test_a_failed_install_stops_the_cluster(self) -> None:
        rc, out, calls = self.setup("--lab-server", fail="lavacli")
        self.assertNotEqual(rc, 0, out)
        self.assertEqual(self.lab(calls)[-1], "pg_ctlcluster 15 main stop")

    def test_idempotent(self) -> None:
        (self.pg / "15" / "bin").mkdir(parents=True)
        for p in (self.pg / "15" / "bin" / "postgres", self.m.d / "lava-server",
                  self.m.d / "lavacli", self.m.d / "lava-worker"):
            script(p, "")
        rc, out, calls = self.setup("--lab-server")
        self.assertEqual((rc, self.lab(calls)), (0, []), out)

    def test_not_without_asking(self) -> None:
        rc, out, calls = self.setup()
        self.assertEqual((rc, self.lab(calls)), (0, []), out)

    def test_dry_run_and_no_setup(self) -> None:
        rc, out, calls = self.setup("--dry-run", "--lab-server")
        self.assertEqual((rc, calls), (0, []), out)
        self.assertIn("would run: pg_ctlcluster 15 main start", out)
        self.assertIn("would run: apt-get install -y -q --no-install-recommends "
                      "lava-server lavacli", out)
        rc, out, calls = self.setup("--lab-server", HZ_NO_SETUP="1")
        self.assertEqual((rc, calls), (0, []), out)
        got = re.findall(r"(?m)^setup: HZ_NO_SETUP=1: missing (.*)$", out)
        d = self.m.d
        for want in (f"PostgreSQL's server ({self.pg}/*/bin/postgres) (package postgresql)",
                     f"{d / 'lava-server'} (package lava-server)",
                     f"{d / 'lavacli'} (package lavacli)",
                     f"{d / 'lava-worker'} (package lava-dispatcher)"):
            self.assertIn(want, got, out)


class NoSetupTest(unittest.TestCase):
    """HZ_NO_SETUP=1: nothing installed, unpacked or added; what the same
    run would have set up is listed, a line each with its package."""

    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.m = Machine(Path(self.tmp.name))
        d = self.m.d
        (d / "src").mkdir()
        self.tarball = d / "src" / "linux-source-6.12.tar.xz"
        self.tarball.write_bytes(b"not unpacked here")
        self.env = {"HZ_NO_SETUP": "1", "HZ_SETUP_LAVA_RUN": str(d / "lava-run"),
                    "HZ_SETUP_TFTPD": str(d / "in.tftpd"),
                    "HZ_SETUP_TFTPD_DEFAULT": str(d / "tftpd-hpa"),
                    "HZ_SETUP_IPMITOOL": str(d / "ipmitool"),
                    "HZ_SETUP_LINUX_SRC": str(d / "src"),
                    "HZ_SETUP_LINUX_BUILD": str(d / "build"),
                    "HZ_SETUP_CACHE": str(d / "cache")}

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def missing(self, out: str) -> list[str]:
        return re.findall(r"(?m)^setup: HZ_NO_SETUP=1: missing (.*)$", out)

    def test_lists_only(self) -> None:
        d = self.m.d
        rc, out, calls = self.m.setup("--lab", "--linux-source", ci=True, env_more=self.env)
        self.assertEqual((rc, calls), (0, []), out)
        got = self.missing(out)
        for want in (f"{d / 'lava-run'} (package lava-dispatcher)",
                     f"{d / 'in.tftpd'} (package tftpd-hpa)",
                     f"{d / 'tftpd-hpa'} (package tftpd-hpa)",
                     f"{d / 'ipmitool'} (package ipmitool)",
                     f"{d / 'build'}/linux-source-6.12/mm/memory.c (package "
                     "linux-source-6.12, unpacked by scripts/setup.sh --linux-source)",
                     f"{d / 'src'}/linux-source-6.1.tar.xz (package linux-source-6.1)",
                     f"{d / 'build'}/linux-source-7.2/mm/memory.c (package linux-source-7.2, "
                     f"of Debian unstable, fetched into {d / 'cache'} and unpacked by "
                     "scripts/setup.sh --linux-source)",
                     "QEMU >= 9.0 for TCG x2APIC, QEMU 7.2 here (package "
                     "qemu-system-x86 of bookworm-backports)"):
            self.assertIn(want, got, out)
        self.assertEqual(len(got), len(out.splitlines()), "nothing but the list: " + out)
        self.assertFalse((self.m.apt / OURS).exists(), "no source added")
        self.assertFalse((d / "build").exists(), "nothing unpacked")
        self.assertFalse((d / "cache").exists(), "nothing fetched")

    def test_present_is_not_listed(self) -> None:
        d = self.m.d
        for name in ("lava-run", "in.tftpd", "ipmitool"):
            script(d / name, "")
        (d / "tftpd-hpa").write_text('TFTP_DIRECTORY="/srv/tftp"\n')
        self.m.set_qemu("10.0.2")
        self.tarball.unlink()   # else its two files are missing, unpacked
        rc, out, calls = self.m.setup("--lab", ci=True, env_more=self.env)
        self.assertEqual((rc, calls), (0, []), out)
        got = self.missing(out)
        self.assertFalse([g for g in got if str(d) in g or "QEMU" in g], out)

    def test_private_qemu(self) -> None:
        q = self.m.d / "q"
        rc, out, calls = self.m.setup("--private-qemu", str(q), env_more=self.env)
        self.assertEqual((rc, calls), (0, []), out)
        self.assertIn(f"{q}/usr/bin/qemu-system-x86_64 (package qemu-system-x86 of "
                      "bookworm-backports, unpacked by --private-qemu)", self.missing(out))
        self.assertFalse(q.exists())

    def test_make_setup_honours_it(self) -> None:
        """make setup, as make run, bench and test call it; HZ_NO_SETUP=1
        given on make's line or in the environment."""
        env = {**self.env, "HZ_SETUP_LINUX_SRC": str(self.m.d / "none")}
        del env["HZ_NO_SETUP"]
        for how in ("line", "environment"):
            with self.subTest(how=how):
                rc, out, calls = self.m.setup(
                    *(["HZ_NO_SETUP=1"] if how == "line" else []), ci=True,
                    env_more={**env, **({"HZ_NO_SETUP": "1"} if how != "line" else {})},
                    make=True)
                self.assertEqual((rc, calls), (0, []), out)
                self.assertIn("QEMU >= 9.0 for TCG x2APIC, QEMU 7.2 here (package "
                              "qemu-system-x86 of bookworm-backports)", self.missing(out))

    def test_help_names_the_releases(self) -> None:
        r = subprocess.run(["sh", str(SETUP), "--help"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0)
        for release in ("Debian 12 bookworm", "Debian 13 trixie", "Ubuntu 22.04", "24.04",
                        "HZ_NO_SETUP=1"):
            self.assertIn(release, r.stdout)


if __name__ == "__main__":
    unittest.main()

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Install what hugezero needs on Debian or Ubuntu, and only what is missing.
# Called by `make run`, `make bench` and `make test`; safe to run again (it
# then does nothing).
#
#   scripts/setup.sh [--dry-run] [--backports]
#   scripts/setup.sh [--dry-run] --private-qemu [DIR]
#   scripts/setup.sh [--dry-run] --linux-source
#   scripts/setup.sh [--dry-run] --lab
#   scripts/setup.sh [--dry-run] --lab-server
#   HZ_NO_SETUP=1 scripts/setup.sh [OPTIONS]
#
# HZ_NO_SETUP=1 (also on make's line: make HZ_NO_SETUP=1 test) installs,
# unpacks and adds nothing: for a machine whose tools came from elsewhere,
# it lists what the same run would have set up, one line per missing thing
# with the package that provides it, and exits 0.
# QEMU's TCG emulates x2APIC from 9.0 on; Debian bookworm has 7.2, its
# backports 10.0.  On bookworm with an older QEMU, --backports (implied
# by CI=true: a fresh machine of its own) upgrades qemu-system-x86 from
# bookworm-backports, adding that source if no source names it; when that
# fails, bookworm's QEMU stays and the x2APIC boot test skips.
# --private-qemu unpacks bookworm-backports' QEMU into DIR (default
# build/qemu) and changes nothing else on the machine; it prints the
# HZ_QEMU and HZ_QEMU_DATA settings the tests then use.
# --linux-source also installs Debian's linux-source-6.1 and -6.12, fetches
# Debian unstable's linux-source-7.2 (not in bookworm: its .deb downloaded
# once into ${XDG_CACHE_HOME:-~/.cache}/hugezero and verified against the
# archive's Packages index; without network it says so and the 7.2 cases
# skip), and unpacks from each only the files make LINUX= and its tests
# read (the top Makefile, clear_page_64.S, mm/memory.c and the headers:
# scripts/hzlib/memoryc.py, READS) into build/linux-source-VERSION
# (docs/linux-tree.md); where a package or the cache is there, every run
# unpacks what is not.
# --lab also installs lava-dispatcher (its lava-run runs LAVA jobs without a
# server: the lab tests, docs/lab.md), tftpd-hpa (a TFTP deploy needs it)
# and ipmitool (docs/lab.md's server: console and power through its BMC),
# without their recommends (lava-dispatcher's pull in some 800 MB).
# --lab-server installs a LAVA server for one machine (docs/lab.md, "A
# one-machine lab"; scripts/hugezero lava server start runs it): postgresql
# first, then, with its cluster started by pg_ctlcluster (no systemd
# needed) so that lava-server's postinst creates the database and runs the
# migrations, lava-server and lavacli without their recommends; a cluster
# it started is stopped again.  Also lava-dispatcher, for its lava-worker.
# --dry-run says what would be run or written, and does none of it.
#
# Releases: written for and run on Debian 12 bookworm (amd64), every
# option.  Read, not run, elsewhere: on Debian 13 trixie and Ubuntu 22.04
# and 24.04 it asks apt for the same package names (on Ubuntu some are in
# universe); --backports and CI=true act on bookworm only, so the
# release's QEMU stays (trixie's 10.0 has TCG x2APIC; Ubuntu 22.04's 6.2
# and 24.04's 8.2 have not, and the x2APIC boots skip); --private-qemu
# unpacks bookworm-backports' QEMU, whose libraries another release may
# not have (it then names those missing); --linux-source asks for
# linux-source-6.1 and -6.12, which Ubuntu's archive has not (apt then
# fails); whether a release has lava-dispatcher (--lab) is apt's to
# say.  Without apt-get it names the packages to install by hand.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
# Where the release and apt's sources are (the tests point them elsewhere).
OS_RELEASE=${HZ_SETUP_OS_RELEASE:-/etc/os-release}
APT_ETC=${HZ_SETUP_APT_ETC:-/etc/apt}
BACKPORTS_URI=http://deb.debian.org/debian
QEMU_X2APIC=900		# major * 100 + minor
# What qemu-system-x86 needs from backports (ipxe-qemu: bookworm's will do).
PRIVATE_DEBS="qemu-system-x86 qemu-system-common qemu-system-data seabios"

# The trees --linux-source unpacks: bookworm's by apt, unstable's fetched.
LINUX_APT="6.1 6.12"
LINUX_UNSTABLE="7.2"
LINUX_SRC=${HZ_SETUP_LINUX_SRC:-/usr/src}		# the packages' tarballs
LINUX_BUILD=${HZ_SETUP_LINUX_BUILD:-${HZ_BUILD:-$ROOT/build}}	# make's BUILD=: linux-source-V
LINUX_CACHE=${HZ_SETUP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hugezero}
LINUX_MIRROR=${HZ_SETUP_DEBIAN_MIRROR:-http://deb.debian.org/debian}
# --lab's programs (root's: /usr/sbin is not on every user's PATH).
LAVA_RUN=${HZ_SETUP_LAVA_RUN:-/usr/bin/lava-run}
TFTPD=${HZ_SETUP_TFTPD:-/usr/sbin/in.tftpd}
# tftpd-hpa's settings, where lava-dispatcher reads its TFTP_DIRECTORY.
TFTPD_DEFAULT=${HZ_SETUP_TFTPD_DEFAULT:-/etc/default/tftpd-hpa}
IPMITOOL=${HZ_SETUP_IPMITOOL:-/usr/bin/ipmitool}
# --lab-server's: PostgreSQL's servers (one directory a major version), the
# LAVA server's command and lavacli.
PG_LIB=${HZ_SETUP_PG_LIB:-/usr/lib/postgresql}
LAVA_SERVER=${HZ_SETUP_LAVA_SERVER:-/usr/bin/lava-server}
LAVACLI=${HZ_SETUP_LAVACLI:-/usr/bin/lavacli}
LAVA_WORKER=${HZ_SETUP_LAVA_WORKER:-/usr/bin/lava-worker}

dry=0 backports=0 private="" linux_source=0 lab=0 lab_server=0
[ "${CI:-}" = true ] && backports=1
while [ $# -gt 0 ]; do
	case $1 in
	--dry-run) dry=1 ;;
	--backports) backports=1 ;;
	--linux-source) linux_source=1 ;;
	--lab) lab=1 ;;
	--lab-server) lab_server=1 ;;
	--private-qemu)
		private=$ROOT/build/qemu
		case ${2:-} in -* | "") ;; *) private=$2; shift ;; esac ;;
	-h | --help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "setup: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
	shift
done

run() {		# run COMMAND..., or say it under --dry-run
	if [ $dry = 1 ]; then
		echo "setup: would run: $*"
	else
		"$@"
	fi
}

SUDO=""
root() {	# as root: directly, through sudo, or not at all
	if [ "$(id -u)" != 0 ] && [ -z "$SUDO" ]; then
		if command -v sudo >/dev/null 2>&1; then
			SUDO=sudo
		elif [ $dry = 0 ]; then
			echo "setup: not root and no sudo; as root run: $*" >&2
			return 1
		fi
	fi
	run $SUDO "$@"
}

# The QEMU on PATH as major * 100 + minor; 0 when there is none.
qemu_version() {
	v=$(qemu-system-x86_64 --version 2>/dev/null | sed -n \
		's/^QEMU emulator version \([0-9][0-9]*\)\.\([0-9][0-9]*\).*/\1 \2/p')
	# shellcheck disable=SC2086
	set -- $v 0 0
	echo $(($1 * 100 + $2))
}

codename() {
	sed -n 's/^VERSION_CODENAME=["'\'']\{0,1\}\([a-z]*\).*/\1/p' "$OS_RELEASE" 2>/dev/null
}

# Does any apt source (not commented out) name bookworm-backports?
have_backports_source() {
	for f in "$APT_ETC"/sources.list "$APT_ETC"/sources.list.d/*.list \
		"$APT_ETC"/sources.list.d/*.sources; do
		[ -f "$f" ] && grep -v '^[[:space:]]*#' "$f" |
			grep -q '[[:space:]]bookworm-backports\([[:space:]]\|$\)' && return 0
	done
	return 1
}

# qemu-system-x86 (and the qemu-system-common, qemu-system-data and
# seabios it needs) from bookworm-backports, system-wide.
qemu_from_backports() {
	added=""
	file=$APT_ETC/sources.list.d/hugezero-bookworm-backports.sources
	echo "setup: QEMU $1 has no TCG x2APIC: upgrading qemu-system-x86 from bookworm-backports"
	if ! have_backports_source; then
		if [ $dry = 1 ]; then
			echo "setup: would add the source $file"
		else
			echo "setup: adding the source $file"
			printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
				"$BACKPORTS_URI" | root tee "$file" >/dev/null
			added=$file
		fi
	fi
	export DEBIAN_FRONTEND=noninteractive
	# --no-remove: never take anything else away to make room for it.
	if root apt-get update -q &&
	   root apt-get install -y -q --no-install-recommends --no-remove \
		-t bookworm-backports qemu-system-x86; then
		[ $dry = 1 ] || echo "setup: $(qemu-system-x86_64 --version | head -n 1)"
		return 0
	fi
	# Unreachable, or refused: keep bookworm's QEMU; the x2APIC test skips.
	[ -z "$added" ] || root rm -f "$added"
	echo "setup: bookworm-backports unavailable: keeping QEMU $1 (the x2APIC boot test will skip)" >&2
}

# bookworm-backports' QEMU unpacked into $1, with an apt state of its own
# (APT_CONFIG): nothing installed, no source added, no system lock taken.
private_qemu() {
	dir=$1
	exe=$dir/usr/bin/qemu-system-x86_64
	apt=$dir/apt
	if [ ! -x "$exe" ]; then
		run mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs"
		if [ $dry = 1 ]; then
			echo "setup: would write $apt/sources.list and $apt/apt.conf"
		else
			echo "deb $BACKPORTS_URI bookworm-backports main" >"$apt/sources.list"
			cat >"$apt/apt.conf" <<-EOF
			Dir::Etc::sourcelist "$apt/sources.list";
			Dir::Etc::sourceparts "/nonexistent";
			Dir::State::Lists "$apt/lists";
			Dir::Cache "$apt/cache";
			APT::Sandbox::User "$(id -un)";
			EOF
			rm -f "$apt"/debs/*.deb
		fi
		run env APT_CONFIG="$apt/apt.conf" apt-get update -q
		if [ $dry = 1 ]; then
			echo "setup: would download $PRIVATE_DEBS into $apt/debs and unpack them into $dir"
			return 0
		fi
		# shellcheck disable=SC2086
		(cd "$apt/debs" && APT_CONFIG="$apt/apt.conf" apt-get download $PRIVATE_DEBS)
		for deb in "$apt"/debs/*.deb; do
			dpkg -x "$deb" "$dir"
		done
	fi
	# Its libraries are bookworm's, installed with bookworm's QEMU.
	if missing=$(ldd "$exe" | grep 'not found'); then
		echo "setup: $exe lacks libraries (install qemu-system-x86 first):" >&2
		echo "$missing" >&2
		return 1
	fi
	echo "setup: $("$exe" --version | head -n 1) in $dir; for the tests:"
	echo "export HZ_QEMU=$exe HZ_QEMU_DATA=$dir/usr/share/qemu:$dir/usr/share/seabios"
}

missing="" lacking="" updated=0
need() {	# need PACKAGE WHAT TEST...: WHAT, from PACKAGE, is there if TEST
	pkg=$1 what=$2
	shift 2
	if ! "$@" >/dev/null 2>&1; then
		missing="$missing $pkg"
		lacking="$lacking$what (package $pkg)
"
	fi
}
has() { command -v "$1"; }
# want PACKAGE WHAT TEST...: as need, for what only speeds things up: it is
# installed as root, or beside what need installs; else said, not fatal.
optional="" optional_lacking=""
want() {
	pkg=$1 what=$2
	shift 2
	if ! "$@" >/dev/null 2>&1; then
		optional="$optional $pkg"
		optional_lacking="$optional_lacking$what (package $pkg, optional)
"
	fi
}
# need_server PACKAGE WHAT TEST...: as need, installed once PostgreSQL runs.
server_missing=""
need_server() {
	before=$missing
	need "$@"
	[ "$missing" = "$before" ] || server_missing="$server_missing $1"
	missing=$before
}

need gcc gcc has gcc
need binutils ld has ld
need binutils addr2line has addr2line
need make make has make
need nasm nasm has nasm
need python3 /usr/bin/python3 test -x /usr/bin/python3
need qemu-system-x86 qemu-system-x86_64 has qemu-system-x86_64
need grub-common grub-mkrescue has grub-mkrescue
need grub-pc-bin "GRUB's BIOS modules (/usr/lib/grub/i386-pc)" test -d /usr/lib/grub/i386-pc
need grub-efi-amd64-bin "GRUB's UEFI modules (/usr/lib/grub/x86_64-efi)" test -d /usr/lib/grub/x86_64-efi
need xorriso xorriso has xorriso
need mtools mformat has mformat
need ipxe-qemu "iPXE's ROM for QEMU (efi-virtio.rom)" sh -c 'ls /usr/lib/ipxe/qemu/efi-virtio.rom || ls /usr/share/qemu/efi-virtio.rom'
need python3-matplotlib "matplotlib of /usr/bin/python3" test -d /usr/lib/python3/dist-packages/matplotlib
need python3-scipy "scipy of /usr/bin/python3" test -d /usr/lib/python3/dist-packages/scipy
for v in $LINUX_APT; do
	[ $linux_source = 0 ] ||
		need linux-source-$v "$LINUX_SRC/linux-source-$v.tar.xz" test -f "$LINUX_SRC/linux-source-$v.tar.xz"
done
[ $lab = 0 ] || need lava-dispatcher "$LAVA_RUN" test -x "$LAVA_RUN"
[ $lab = 0 ] || need tftpd-hpa "$TFTPD" test -x "$TFTPD"
[ $lab = 0 ] || need tftpd-hpa "$TFTPD_DEFAULT" test -f "$TFTPD_DEFAULT"
[ $lab = 0 ] || need ipmitool "$IPMITOOL" test -x "$IPMITOOL"
[ $lab_server = 0 ] ||
	need postgresql "PostgreSQL's server ($PG_LIB/*/bin/postgres)" sh -c "ls $PG_LIB/*/bin/postgres"
[ $lab_server = 0 ] || need lava-dispatcher "$LAVA_WORKER" test -x "$LAVA_WORKER"
[ $lab_server = 0 ] || need_server lava-server "$LAVA_SERVER" test -x "$LAVA_SERVER"
[ $lab_server = 0 ] || need_server lavacli "$LAVACLI" test -x "$LAVACLI"
need ovmf "OVMF's UEFI firmware (/usr/share/OVMF)" sh -c 'ls /usr/share/OVMF/OVMF_CODE*.fd || ls /usr/share/ovmf/OVMF.fd'
# The Makefile uses ccache where it finds it: builds in a second tree's
# or clone's directory then compile only what differs.
want ccache "ccache, for builds" test -x "${HZ_SETUP_CCACHE:-$(command -v ccache)}"

# A tree is set up under --linux-source, or where its package's tarball
# (or, for unstable's, the cache's) is there already.
tarball_of() {
	case " $LINUX_UNSTABLE " in
	*" $1 "*) echo "$LINUX_CACHE/linux-source-$1.tar.xz" ;;
	*) echo "$LINUX_SRC/linux-source-$1.tar.xz" ;;
	esac
}
want_tree() { [ $linux_source = 1 ] || [ -f "$(tarball_of "$1")" ]; }

# unpack VERSION TARBALL: the files read of the tree, once (xz is read
# whole: some 30 s a tree), again only when the tarball is newer; through
# the cache, so a fresh clone on this machine copies them instead.
# unpacked DIR TARBALL: DIR holds the files read now (DIR.reads, written
# last by unpack_tree, lists them: a tree unpacked before make LINUX=
# read one more, or whose unpacking was cut short, is unpacked again),
# unpacked after TARBALL.
unpacked() {
	[ -n "$TREE_READS" ] || TREE_READS=$(/usr/bin/python3 "$ROOT/scripts/linux-tree" reads)
	[ -f "$1/mm/memory.c" ] && [ "$(cat "$1.reads" 2>/dev/null)" = "$TREE_READS" ] &&
		[ -f "$2" ] && [ "$1/Makefile" -nt "$2" ]
}
TREE_READS=

unpack_tree() {
	out=$LINUX_BUILD/linux-source-$1
	if unpacked "$out" "$2"; then
		return 0
	fi
	echo "setup: unpacking the files make LINUX= reads of $2 into $out"
	rm -rf "$out" "$out.reads"
	/usr/bin/python3 "$ROOT/scripts/linux-tree" unpack "$2" "$out" "$LINUX_CACHE" >/dev/null
	touch "$out/Makefile"
	[ -n "$TREE_READS" ] || TREE_READS=$(/usr/bin/python3 "$ROOT/scripts/linux-tree" reads)
	printf '%s\n' "$TREE_READS" >"$out.reads"
}

# Debian unstable's linux-source-VERSION: the .deb verified into the cache.
unstable_tree() {
	out=$LINUX_BUILD/linux-source-$1
	if unpacked "$out" "$(tarball_of "$1")"; then
		return 0
	fi
	if [ $dry = 1 ]; then
		echo "setup: would fetch linux-source-$1 of Debian unstable into $LINUX_CACHE" \
			"(verified against $LINUX_MIRROR's Packages index) and unpack it into $out"
		return 0
	fi
	rc=0
	tb=$(/usr/bin/python3 "$ROOT/scripts/linux-tree" fetch linux-source-$1 \
		"$LINUX_CACHE" "$LINUX_MIRROR") || rc=$?
	case $rc in
	0) unpack_tree "$1" "$tb" ;;
	3) echo "setup: no network: linux-source-$1 not fetched; the $1 cases" \
		"skip naming it (run scripts/setup.sh --linux-source again online)" >&2 ;;
	*) return 1 ;;
	esac
}

# HZ_NO_SETUP=1: what this run would have set up, listed, nothing done.
if [ "${HZ_NO_SETUP:-}" = 1 ]; then
	printf '%s%s' "$lacking" "$optional_lacking" | sed 's/^/setup: HZ_NO_SETUP=1: missing /'
	for v in $LINUX_APT $LINUX_UNSTABLE; do
		want_tree $v || continue
		out=$LINUX_BUILD/linux-source-$v
		case " $LINUX_UNSTABLE " in
		*" $v "*) how="of Debian unstable, fetched into $LINUX_CACHE and unpacked" ;;
		*) how="unpacked" ;;
		esac
		[ -f "$out/mm/memory.c" ] ||
			echo "setup: HZ_NO_SETUP=1: missing $out/mm/memory.c" \
				"(package linux-source-$v, $how by scripts/setup.sh --linux-source)"
	done
	v=$(qemu_version)
	if [ -n "$private" ]; then
		[ -x "$private/usr/bin/qemu-system-x86_64" ] ||
			echo "setup: HZ_NO_SETUP=1: missing $private/usr/bin/qemu-system-x86_64" \
				"(package qemu-system-x86 of bookworm-backports, unpacked by --private-qemu)"
	elif [ $backports = 1 ] && [ "$v" -lt $QEMU_X2APIC ] && [ "$(codename)" = bookworm ]; then
		echo "setup: HZ_NO_SETUP=1: missing QEMU >= 9.0 for TCG x2APIC, QEMU" \
			"$((v / 100)).$((v % 100)) here (package qemu-system-x86 of bookworm-backports)"
	fi
	exit 0
fi

if [ -n "$optional" ]; then
	if [ -n "$missing" ]; then
		missing="$missing$optional"
	elif [ "${HZ_SETUP_UID:-$(id -u)}" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		# Alone, and with no apt or network it must not stop make.
		echo "setup: installing:$optional (optional)"
		export DEBIAN_FRONTEND=noninteractive
		# shellcheck disable=SC2086
		{ root apt-get update -q && updated=1 &&
		  root apt-get install -y -q --no-install-recommends $optional; } ||
			echo "setup: could not install$optional (optional: make works" \
				"without it)" >&2
	else
		echo "setup: not installed:$optional (optional: make works without it;" \
			"as root, apt-get install$optional)" >&2
	fi
fi
if [ -n "$missing" ]; then
	# One package can be named by several checks.
	missing=$(printf '%s\n' $missing | sort -u | tr '\n' ' ')
	echo "setup: installing:$missing"
	if ! command -v apt-get >/dev/null 2>&1; then
		echo "setup: no apt-get here; install these by hand:$missing" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	root apt-get update -q
	updated=1
	# shellcheck disable=SC2086
	root apt-get install -y -q --no-install-recommends $missing
fi

# The clusters pg_lsclusters lists as down, as "VERSION NAME" lines.
clusters_down() {
	pg_lsclusters --no-header 2>/dev/null | awk '$4 == "down" { print $1, $2 }'
}

# lava-server's postinst creates its database and runs the migrations only
# where PostgreSQL runs ("Skipping database creation" otherwise): start the
# clusters that are down, install, and stop again those started here.
if [ -n "$server_missing" ]; then
	echo "setup: installing:$server_missing (with PostgreSQL running, for its database)"
	if ! command -v apt-get >/dev/null 2>&1; then
		echo "setup: no apt-get here; install these by hand:$server_missing" >&2
		exit 1
	fi
	if [ $dry = 1 ] && ! command -v pg_lsclusters >/dev/null 2>&1; then
		echo "setup: would start PostgreSQL's cluster (pg_ctlcluster VERSION main start)"
		started=""
	else
		started=$(clusters_down)
	fi
	echo "$started" | while read -r ver name; do
		[ -z "$ver" ] || root pg_ctlcluster "$ver" "$name" start
	done
	export DEBIAN_FRONTEND=noninteractive
	[ $updated = 1 ] || root apt-get update -q
	rc=0
	# shellcheck disable=SC2086
	root apt-get install -y -q --no-install-recommends $server_missing || rc=$?
	echo "$started" | while read -r ver name; do
		[ -z "$ver" ] || root pg_ctlcluster "$ver" "$name" stop
	done
	[ $rc = 0 ] || exit $rc
fi

# The files read of each tree only; also without --linux-source where a
# package (or the cache) is there, so that a plain `make test` after
# `make clean` runs the trees' cases again.
for v in $LINUX_APT; do
	want_tree $v || continue
	tb=$(tarball_of $v)
	if [ $dry = 1 ]; then
		[ -f "$LINUX_BUILD/linux-source-$v/mm/memory.c" ] ||
			echo "setup: would unpack the files make LINUX= reads of $tb into $LINUX_BUILD/linux-source-$v"
	elif [ ! -f "$tb" ]; then
		echo "setup: no $tb after installing linux-source-$v" >&2
		exit 1
	else
		unpack_tree $v "$tb"
	fi
done
for v in $LINUX_UNSTABLE; do
	want_tree $v || continue
	unstable_tree $v || exit 1
done

if [ -n "$private" ]; then
	private_qemu "$private"
	exit
fi
v=$(qemu_version)
if [ $backports = 1 ] && [ "$v" -lt $QEMU_X2APIC ] && [ "$(codename)" = bookworm ]; then
	qemu_from_backports "$((v / 100)).$((v % 100))"
fi
exit 0

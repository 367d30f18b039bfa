#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Install what hugezero needs on Debian or Ubuntu, and only what is missing.
# Called by `make run` and `make test`; safe to run again (it then does nothing).
set -eu

missing=""
need() {	# need PACKAGE TEST...
	pkg=$1
	shift
	if ! "$@" >/dev/null 2>&1; then
		missing="$missing $pkg"
	fi
}
has() { command -v "$1"; }

need gcc has gcc
need binutils has ld
need binutils has addr2line
need make has make
need nasm has nasm
need python3 test -x /usr/bin/python3
need qemu-system-x86 has qemu-system-x86_64
need grub-common has grub-mkrescue
need grub-pc-bin test -d /usr/lib/grub/i386-pc
need grub-efi-amd64-bin test -d /usr/lib/grub/x86_64-efi
need xorriso has xorriso
need mtools has mformat
need ipxe-qemu sh -c 'ls /usr/lib/ipxe/qemu/efi-virtio.rom || ls /usr/share/qemu/efi-virtio.rom'
need python3-matplotlib test -d /usr/lib/python3/dist-packages/matplotlib
need python3-scipy test -d /usr/lib/python3/dist-packages/scipy
need ovmf sh -c 'ls /usr/share/OVMF/OVMF_CODE*.fd || ls /usr/share/ovmf/OVMF.fd'

[ -z "$missing" ] && exit 0
# One package can be named by several checks.
missing=$(printf '%s\n' $missing | sort -u | tr '\n' ' ')
echo "setup: installing:$missing"
if ! command -v apt-get >/dev/null 2>&1; then
	echo "setup: no apt-get here; install these by hand:$missing" >&2
	exit 1
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=sudo
	else
		echo "setup: not root and no sudo; as root run: apt-get install$missing" >&2
		exit 1
	fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Make tests/data/lava's LAVA logs again (README.md): as root, with
# lava-dispatcher installed (scripts/setup.sh --lab) and the kernel built.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
scripts=$here/../../../scripts

# An ISO whose GRUB entry passes the given boot arguments.
iso() {
	/usr/bin/python3 -c 'import sys; sys.path.insert(0, sys.argv[1])
from hzlib import image; print(image.build_iso(sys.argv[2:]))' "$scripts" "$@"
}

# run JOB-ID DEVICE LOG BOOT-ARGS...: lava-run's log stream into LOG.
run() {
	id=$1 dev=$2 log=$3
	shift 3
	tmp=$(mktemp -d)
	sed "s|@ISO@|$(iso "$@")|" "$here/job.yaml" > "$tmp/job.yaml"
	lava-run --job-id "$id" --device "$here/device-$dev.yaml" \
		--output-dir "$tmp/out" "$tmp/job.yaml" 2> "$log" || true
	rm -rf "$tmp"
}

small="folio=2M size=4M runs=2 warmups=0 selftest=off"
# shellcheck disable=SC2086
run 101 milan "$here/fault-2M.lava-run.yaml" bench=fault $small clear=erms order=contiguous-page
# shellcheck disable=SC2086
run 201 milan "$here/seed-001-milan.lava-run.yaml" preset=seed-001 $small clear=erms,rep
# A server's output.yaml holds the lines the dispatcher sent, each with
# "- " before it (lava_scheduler_app's logs API; lavacli jobs logs --raw).
# shellcheck disable=SC2086
run 202 icelake "$here/seed-001-icelake.lava-run.tmp" preset=seed-001 $small clear=erms,rep
sed 's/^/- /' "$here/seed-001-icelake.lava-run.tmp" > "$here/seed-001-icelake.output.yaml"
rm "$here/seed-001-icelake.lava-run.tmp"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Make tests/data/lava-run's logs again (README.md): as root, with
# lava-dispatcher installed (scripts/setup.sh --lab) and the kernel built.
# Each is lava-run's log stream of a job `scripts/hugezero lava job`
# writes, as `lava run` submits it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
hz=$here/../../../scripts/hugezero

# run JOB-ID NAME LAVA-JOB-OPTIONS... -- BOOT-ARGS...: NAME.lava-run.yaml.
run() {
	id=$1 name=$2
	shift 2
	tmp=$(mktemp -d)
	"$hz" lava job --device-type qemu --device-out "$tmp/device.yaml" \
		-o "$tmp/job.yaml" "$@"
	lava-run --job-id "$id" --device "$tmp/device.yaml" \
		--output-dir "$tmp/out" "$tmp/job.yaml" 2> "$here/$name.lava-run.yaml" || true
	rm -rf "$tmp"
}

seed="preset=seed-001 folio=2M size=4M runs=2 warmups=0 selftest=off clear=erms,rep"
# shellcheck disable=SC2086
run 301 fault -- bench=fault folio=2M size=8M clear=erms,rep order=contiguous-page \
	runs=2 selftest=off &
run 302 crash -- crash=pf selftest=off &
wait
# A strategy TCG cannot run (AVX-512): skipped with its reason.
run 305 skip -- bench=fault folio=2M size=4M clear=avx512,erms order=contiguous-page \
	runs=2 selftest=off &
# shellcheck disable=SC2086
run 303 seed-001-milan --cpu EPYC-Milan -- $seed &
# shellcheck disable=SC2086
run 304 seed-001-icelake --cpu Icelake-Server -- $seed &
wait

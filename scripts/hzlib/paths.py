# SPDX-License-Identifier: GPL-2.0-only
"""Where things are: the repository, its build directory, firmware."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Mapping

ROOT = Path(__file__).resolve().parents[2]
# The build directory every tool takes its kernel, companion and images
# from: $HZ_BUILD (make passes its BUILD= so, to every target), else
# build/.  One variable, so `make run BUILD=b` boots b's kernel and
# `lava job` packs b's image and checks its line with b's parser.
BUILD_ENV = "HZ_BUILD"


def build_dir(env: Mapping[str, str] | None = None) -> Path:
    """$HZ_BUILD (relative: to the current directory), else ROOT/build."""
    given = (os.environ if env is None else env).get(BUILD_ENV, "")
    return Path(given).absolute() if given else ROOT / "build"


BUILD = build_dir()
ELF = BUILD / "hugezero.elf"
ISO = BUILD / "hugezero.iso"
COMPANION = BUILD / "hugezero-linux"



def make_command(build: Path) -> str:
    """The make that builds into @build: `make`, or `make BUILD=@build`."""
    return "make" if build.absolute() == ROOT / "build" else f"make BUILD={build}"


OVMF_CODE_CANDIDATES = [
    "/usr/share/OVMF/OVMF_CODE_4M.fd",
    "/usr/share/OVMF/OVMF_CODE.fd",
    "/usr/share/ovmf/OVMF.fd",
]
OVMF_VARS_CANDIDATES = [
    "/usr/share/OVMF/OVMF_VARS_4M.fd",
    "/usr/share/OVMF/OVMF_VARS.fd",
]


def first_existing(paths: list[str]) -> str | None:
    for p in paths:
        if os.path.exists(p):
            return p
    return None

# SPDX-License-Identifier: GPL-2.0-only
"""The names the C tables declare, read from them: the host tools write
none of their own (tests/test_display.py holds them to it).

  ORDER[id]   lib/order.h's ORDERS(): ORDER["CONVERGING"] is
              "converging-page"; ORDERS, the words in their order
  FOLIOS      lib/params.c's folio_names, smallest first; FOLIO[id]
              by lib/params.h's enum folio_size: FOLIO["FOLIO_2M"] is "2M"
  PRIM[id]    lib/prims.h's PRIMS(): PRIM["ERMS"] is "erms"; PRIMS
  BENCH[id]   lib/params.h's BENCH_KINDS(): BENCH["SPLIT"] is "split"
  ORDER_LINUX, ORDER_TREE   the two orders outside ORDERS() that order=
              also takes (lib/params.c's order_choice_names)

They are read from the sources, so that a tool works before a build and
a name changed in C changes here with it; an id a tool names that the C
no longer has raises KeyError at import, not a wrong row later.
"""
from __future__ import annotations

import re
from pathlib import Path

LIB = Path(__file__).resolve().parents[2] / "lib"


class CNamesError(Exception):
    pass


def _text(name: str) -> str:
    try:
        return (LIB / name).read_text(encoding="utf-8")
    except OSError as e:
        raise CNamesError(f"lib/{name}: {e}") from e


def _xmacro(text: str, macro: str) -> dict[str, str]:
    """X(ID, "word", ...) rows of `#define MACRO(X)`, in order."""
    m = re.search(rf"^#define {macro}\(X\)(.*?)(?:\n(?!\t)|\Z)", text, re.S | re.M)
    if not m:
        raise CNamesError(f"no #define {macro}(X)")
    return dict(re.findall(r'X\((\w+),\s*"([^"]+)"', m.group(1)))


def _array(text: str, name: str) -> tuple[str, ...]:
    m = re.search(rf"{name}\[\]\s*=\s*\{{([^}}]*)\}}", text)
    if not m:
        raise CNamesError(f"no {name}[]")
    return tuple(re.findall(r'"([^"]+)"', m.group(1)))


ORDER: dict[str, str] = _xmacro(_text("order.h"), "ORDERS")
ORDERS: tuple[str, ...] = tuple(ORDER.values())
FOLIOS: tuple[str, ...] = _array(_text("params.c"), "folio_names")
_SIZES = re.search(r"enum folio_size \{([^}]*)\}", _text("params.h"))
if not _SIZES:
    raise CNamesError("lib/params.h: no enum folio_size")
FOLIO: dict[str, str] = dict(zip((x.strip() for x in _SIZES.group(1).split(",")
                                  if x.strip() and x.strip() != "FOLIO_COUNT"), FOLIOS))
PRIM: dict[str, str] = _xmacro(_text("prims.h"), "PRIMS")
PRIMS: tuple[str, ...] = tuple(PRIM.values())
BENCH: dict[str, str] = _xmacro(_text("params.h"), "BENCH_KINDS")
_CHOICES = re.search(r'order_choice_names\[\]\s*=\s*\{\s*ORDERS\(\w+\)\s*"([^"]+)",\s*"([^"]+)"',
                     _text("params.c"))
if not _CHOICES:
    raise CNamesError("lib/params.c: no order_choice_names[] = { ORDERS(...) \"linux\", "
                      "\"tree\" }")
ORDER_LINUX, ORDER_TREE = _CHOICES.group(1), _CHOICES.group(2)

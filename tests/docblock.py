"""A generated block on a docs page, kept as the command prints it.

The block lies between two marker comments; `CIVDSL_UPDATE_GOLDEN=1` rewrites it from the fresh text
instead of comparing, after a deliberate change.
"""
from __future__ import annotations

import os
from pathlib import Path

UPDATE = os.environ.get("CIVDSL_UPDATE_GOLDEN") == "1"


def check_block(page: Path, start: str, end: str, fresh: str, hint: str) -> None:
    text = page.read_text(encoding="utf-8")
    assert start in text and end in text, f"{page.name} lacks the markers {start!r} ... {end!r}"
    head, rest = text.split(start, 1)
    current, tail = rest.split(end, 1)
    fresh = "\n" + fresh + "\n"
    if UPDATE:
        page.write_text(head + start + fresh + end + tail, encoding="utf-8")
        current = fresh
    assert current == fresh, f"the generated block of {page.name} is stale: {hint}"

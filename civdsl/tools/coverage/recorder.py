"""Turning coverage recording on and off, and collecting what ran.

The generated code of rules compiled while recording is on adds the key of each site it runs to one
set (`units.COVERAGE.hits`); rules compiled while it is off record nothing and are the same code as
without this feature. A program compiled before recording started would record nothing, so the
programs the scenario runner keeps per process are forgotten whenever recording starts or stops (the
simulator keys its own on whether coverage is on): instrumented and plain programs never mix either.

Recording never touches a game: no state, no dice, no step budget; a game plays the same with it on.
"""
from __future__ import annotations

from ...compiler.units import COVERAGE


def active() -> bool:
    return COVERAGE.on


def start() -> None:
    """Record from now on, from nothing."""
    COVERAGE.hits.clear()
    COVERAGE.files.clear()
    COVERAGE.on = True
    _forget_programs()


def stop() -> tuple[set[str], set[str]]:
    """Stop recording: (the keys of the sites that ran, the rule files of the rulesets compiled)."""
    hits, files = set(COVERAGE.hits), set(COVERAGE.files)
    COVERAGE.on = False
    COVERAGE.hits.clear()
    COVERAGE.files.clear()
    _forget_programs()
    return hits, files


def _forget_programs() -> None:
    from ..scenarios import build
    build._PROGRAMS.clear()

"""Spelling help for diagnostics: "did you mean ...?"."""
from __future__ import annotations

import difflib


def suggest(name: str, candidates) -> str | None:
    """The closest known name to a misspelt one, if any is close enough."""
    matches = difflib.get_close_matches(str(name), [str(c) for c in candidates], n=1, cutoff=0.75)
    return matches[0] if matches else None

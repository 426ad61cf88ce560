"""Re-parsing only what an edit touched.

A rule file is a list of top-level declarations, and the grammar reads each on its own, so after an
edit only the declarations around the changed lines need parsing again: the lines from the start of
the declaration before the change to the end of the one after it are parsed alone (preceded by as many
empty lines as come before them, so that every position comes out as in the whole file), and the
declarations before and after are kept — those after moved by the number of lines the edit added or
removed. Any doubt (no earlier tree, declarations sharing a line at the edge, a region that does not
parse) falls back to parsing the whole text, which also gives the exact syntax diagnostics.
"""
from __future__ import annotations

import dataclasses

from ...language import ast as A
from ...language.diagnostics import CivError, Span
from ...language.parser import parse_text

_FIELDS: dict[type, list[str]] = {}


def moved(value, delta: int):
    """A syntax tree value with every position `delta` lines further down."""
    t = type(value)
    if t is Span:
        return Span(value.file, value.line + delta, value.col, value.end_line + delta if value.end_line else 0,
                    value.end_col)
    if t is list:
        return [moved(x, delta) for x in value]
    if t is tuple:
        return tuple(moved(x, delta) for x in value)
    if dataclasses.is_dataclass(value):
        names = _FIELDS.get(t)
        if names is None:
            names = _FIELDS[t] = [f.name for f in dataclasses.fields(value)]
        return t(*[moved(getattr(value, n), delta) for n in names])
    return value


def _end(item) -> int:
    return item.span.end_line or item.span.line


def reparse(old_text: str, old_tree: A.RuleFile, new_text: str, path: str) -> tuple[A.RuleFile, bool]:
    """The tree of `new_text`, parsing as little as possible; and whether only a region was parsed.
    Raises `CivError` (from a whole parse) when the new text does not parse."""
    old, new = old_text.split("\n"), new_text.split("\n")
    items = old_tree.items
    if not items or old_tree.path != path:
        return parse_text(new_text, path), False
    p = 0
    while p < len(old) and p < len(new) and old[p] == new[p]:
        p += 1
    if p == len(old) == len(new):
        return old_tree, True
    s = 0
    while s < len(old) - p and s < len(new) - p and old[-1 - s] == new[-1 - s]:
        s += 1
    first, last = p + 1, len(old) - s           # the changed lines of the old text (last < first: an insertion)
    delta = len(new) - len(old)
    i0 = max([i for i, it in enumerate(items) if it.span.line <= first] or [0])
    i0 = max(i0 - 1, 0)
    while i0 > 0 and _end(items[i0 - 1]) >= items[i0].span.line:
        i0 -= 1
    after = [i for i, it in enumerate(items) if _end(it) >= max(last, first)]
    i1 = min(after[0] + 1, len(items) - 1) if after else len(items) - 1
    while i1 < len(items) - 1 and items[i1 + 1].span.line <= _end(items[i1]):
        i1 += 1
    start = 1 if i0 == 0 else items[i0].span.line
    end = len(old) if i1 == len(items) - 1 else _end(items[i1])
    if start > first or end < last or end + delta < start - 1:
        return parse_text(new_text, path), False
    region = "\n" * (start - 1) + "\n".join(new[start - 1:end + delta])
    try:
        middle = parse_text(region, path).items
    except CivError:
        return parse_text(new_text, path), False
    tail = items[i1 + 1:]
    if delta:
        tail = [moved(it, delta) for it in tail]
    return A.RuleFile(path, items[:i0] + middle + tail), True

"""`civdsl fmt`: the canonical layout of rule files.

A file is parsed with the grammar and printed again from its tokens and comments (`format/`): spacing
within lines, indentation and blank lines are canonical; line breaks are the author's, so every token
keeps its line number (rule files are cited by `file:line` in logs, diagnostics and docs); every comment
is kept, on its line. Formatting is idempotent, and a file is only rewritten when the formatted text
parses to the same syntax tree (FMT001 otherwise). The rules, one by one, are in `docs/cli.md` (fmt).
"""
from __future__ import annotations

from dataclasses import fields, is_dataclass

from .diagnostics import Span, error
from .format.fallback import layout_only
from .format.layout import render
from .format.tokens import Unreadable, read
from .limits import room_to_recurse
from .parser import parse_text


def format_text(text: str) -> str:
    """The canonical text of a rule file. Text that does not parse (a fragment of a file) gets its layout
    (indentation, blank lines, trailing spaces) made canonical, its spacing within lines kept."""
    try:
        return render(read(text))
    except Unreadable:
        return layout_only(text)


def shape(node):
    """A syntax tree without positions, to compare a file before and after formatting."""
    if isinstance(node, list):
        return [shape(x) for x in node]
    if isinstance(node, tuple):
        return tuple(shape(x) for x in node)
    if isinstance(node, Span):
        return None
    if is_dataclass(node):
        return (type(node).__name__,) + tuple(shape(getattr(node, f.name)) for f in fields(node)
                                              if f.name not in ("span", "path"))
    return node


def format_file_text(text: str, path: str) -> str:
    """The formatted text; raises `CivError` if the file does not parse or formatting would change it."""
    before = parse_text(text, path)
    try:
        formatted = render(read(text))
    except Unreadable:  # pragma: no cover - the real parser accepted the text
        formatted = None
    if formatted == text:
        return formatted
    after = parse_text(formatted, path) if formatted is not None else None
    with room_to_recurse():
        same = after is not None and shape(before.items) == shape(after.items)
    if not same:
        raise error("FMT001", "formatting would change the meaning of this file; it was left as it is",
                    Span(path, 1, 1), "please report this as a bug")
    return formatted

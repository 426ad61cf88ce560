"""Where a bad value came from, when an overlay gave it.

A rule that fails at run time is reported at the line that used the value (`a - b` in the edition's
file). When the value was put there by a house rule or an option (`modify param loss { value: "four" }`),
that line is the one to fix, so a run-time error of a rule gains a related location for each parameter
or thing field the failing rule reads whose value an overlay set. Only overlays are named: a value the
edition itself declares is the edition's own business.

Found from the effective rules and their history (`Ruleset.history`), after the error, so a game that
does not fail pays nothing.
"""
from __future__ import annotations

from dataclasses import fields, is_dataclass

from ..language import ast as A
from ..language.diagnostics import CivError, Span

CHANGED = ("modified", "replaced")
MAX_NODES = 200_000  # a failing rule's expression is walked at most this far


def _inside(outer: Span, inner: Span) -> bool:
    if outer.file != inner.file:
        return False
    start = (outer.line, outer.col) <= (inner.line, inner.col)
    end_line = outer.end_line or outer.line
    return start and (inner.line < end_line or inner.line == end_line and inner.col <= (outer.end_col or inner.col))


def _children(node):
    if isinstance(node, list):
        return node
    if isinstance(node, tuple):
        return list(node)
    if is_dataclass(node) and not isinstance(node, Span):
        return [getattr(node, f.name) for f in fields(node) if f.name != "span"]
    return []


def _failing_node(decls, span: Span):
    """The statement or field whose source starts at `span`, searched in the effective rules."""
    stack = list(decls)  # (a modified thing's fields may come from another file than the thing)
    seen = 0
    best = None
    while stack and seen < MAX_NODES:
        node = stack.pop()
        seen += 1
        s = getattr(node, "span", None)
        if isinstance(s, Span) and isinstance(node, (A.Stmt, A.Expr, A.Field)):
            if not _inside(s, span):
                continue
            if (s.line, s.col) == (span.line, span.col) and isinstance(node, (A.Stmt, A.Expr, A.Field)):
                best = node if best is None else best
        stack.extend(c for c in _children(node) if c is not None and not isinstance(c, (str, int, float, bool)))
    return best


def _names_read(node) -> tuple[set[str], set[str]]:
    """The plain names and the field names (`x.name`) an expression or statement reads."""
    names: set[str] = set()
    attrs: set[str] = set()
    stack, seen = [node], 0
    while stack and seen < MAX_NODES:
        n = stack.pop()
        seen += 1
        if isinstance(n, A.Name):
            names.add(n.id)
        elif isinstance(n, A.Attr):
            attrs.add(n.name)
        stack.extend(c for c in _children(n) if c is not None and not isinstance(c, (str, int, float, bool)))
    return names, attrs


def overlay_sources(ruleset, span: Span | None) -> list[tuple[Span, str]]:
    """Related locations: the overlay lines that set a value the rule at `span` reads."""
    if span is None or not any(note in CHANGED for hist in ruleset.history.values() for _s, note in hist):
        return []
    node = _failing_node(list(ruleset.decls.values()), span)
    if node is None:
        return []
    names, attrs = _names_read(node)
    related: list[tuple[Span, str]] = []
    for (kind, name), decl in ruleset.decls.items():
        notes = [note for _s, note in ruleset.history.get((kind, name), [])]
        if not any(note in CHANGED for note in notes):
            continue
        if isinstance(decl, A.Param) and name in names:
            related.append((decl.span, f"`{name}` is given its value here, by an overlay"))
        elif isinstance(decl, A.Entity):
            for f in decl.fields:
                if f.name in attrs and not _inside(decl.span, f.span):
                    related.append((f.span, f"`{f.name}` of \"{name}\" is given its value here, by an overlay"))
    return related


def name_overlay_sources(ruleset, exc: CivError) -> None:
    """Add the overlay sources to a run-time error's diagnostics (in place; never fails)."""
    for d in exc.diagnostics:
        if d.code.startswith("RUN") and d.span is not None:
            try:
                extra = overlay_sources(ruleset, d.span)
            except RecursionError:  # pragma: no cover - the walks are iterative
                extra = []
            d.related.extend(r for r in extra if r not in d.related)

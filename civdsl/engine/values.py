"""Runtime values of the language that are not plain JSON: dice, tables, entities, callables.

Also the runtime error type: every failure while rules execute is a `RuleError` with the source span
of the statement or expression that failed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..language.diagnostics import CivError, Diagnostic, Span


class RuleError(CivError):
    """A rule failed while running; carries the rule's location."""

    def __init__(self, code: str, message: str, span: Span | None, hint: str | None = None):
        super().__init__(Diagnostic(code, message, span, "error", hint))
        self.code = code


class IllegalAction(RuleError):
    """`fail "..."` in a rule: the attempted action is not allowed."""


@dataclass(eq=False)
class Die:
    """A die and its faces (numbers, names or records)."""
    name: str
    faces: list

    def __repr__(self):
        return self.name


@dataclass(eq=False)
class TableValue:
    """A lookup table; rows map an int, an int range or a string to a value."""
    name: str
    die: Die | None
    rows: list[tuple[Any, Any, Any]]

    def lookup(self, key):
        for i, (lo, hi, value) in enumerate(self.rows):
            if isinstance(lo, int) and isinstance(key, int) and not isinstance(key, bool):
                if not lo <= key <= hi:
                    continue
            elif lo != key:
                continue
            if callable(value):  # a row read while the game evaluates its constants (by a parameter)
                if not EVALUATE:
                    raise RuntimeError("a table row was read before the game evaluated its constants")
                value = EVALUATE[-1](value)
                self.rows[i] = (lo, hi, value)
            return value
        raise KeyError(key)

    def __repr__(self):
        return self.name


@dataclass(eq=False)
class EntityObj:
    """One declared thing (card, calamity, wonder...): its kind and its fields with defaults applied."""
    kind: str
    name: str
    fields: dict[str, Any] = field(default_factory=dict)
    span: Span | None = None


@dataclass(eq=False)
class Callable_:
    """A procedure or a thing's block as a value: its parameters and its compiled function, called as
    `fn(ctx, call_site_span, *args)` (None until the program is built)."""
    name: str
    params: list[str]
    fn: Callable | None
    span: Span
    this: str | None = None

    def __repr__(self):
        return self.name


@dataclass(eq=False)
class Builtin:
    """A function the interpreter provides (generic: counting, dice, zones, map queries)."""
    name: str
    fn: Callable
    arity: tuple[int, int]
    doc: str = ""

    def __repr__(self):
        return self.name


@dataclass(eq=False)
class LazyField:
    """A thing's field not yet evaluated: evaluated on first use (parameters may read fields and fields
    may read parameters), then replaced by its value."""
    fn: Callable
    kind_field: Any
    span: Span
    owner: "EntityObj"
    name: str
    forcing: bool = False


FORCE: list = []  # the running game's field evaluator, set while a game initializes its constants
EVALUATE: list = []  # the running game's evaluator of table rows, set while a game initializes its constants


def field_value(v):
    """The value of a stored field: `(value,)`, a block, or a `LazyField` to evaluate now."""
    if type(v) is tuple:
        return v[0]
    if type(v) is LazyField:
        if not FORCE:
            raise RuntimeError("a thing's field was read before the game evaluated its constants")
        return FORCE[-1](v)
    return v

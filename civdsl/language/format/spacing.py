"""The spaces between two tokens on one line — the whole of canonical spacing, rule by rule.

Each rule follows what the shipped rule files do almost everywhere (`docs/cli.md`, fmt, lists them):

- one space between words, around binary operators (`+ - * / // % ** == != < > <= >= in not in and or`),
  around `=`, `+=`, `-=`, and after `,` and `:`;
- none before `,` and `:`, none around `.` and `..` (`0..food_max`, `p.food`), none after a sign (`-1`);
- none inside `( )` and `[ ]`, none before the `(` of a call or of parameters (`f(x)`, `procedure f(p)`)
  and before the `[` of an index (`xs[1]`);
- one space inside `{ }`, of records and blocks alike (`{ value: 5 }`, `{ return x }`); `{}` when empty;
- two spaces between units written on one line: declarations, statements, fields, table rows
  (`table t { 2: 55  3: 47 }`, `kind k { a: int  b: text }`).
"""
from __future__ import annotations

from .tokens import CLOSERS, OPENERS, Tok

UNIT_GAP = 2
_TIGHT_BEFORE = frozenset({",", ":", "."})
_TIGHT_AFTER_PARENTS = {"(": frozenset({"call", "params"}), "[": frozenset({"index"})}


def gap(a: Tok, b: Tok) -> int:
    """How many spaces go between `a` and `b`, written one after the other on one line."""
    if b.unit and a.text not in OPENERS:
        return UNIT_GAP
    if a.text in OPENERS:
        if b.text == OPENERS[a.text]:
            return 0                                   # `{}`, `[]`, `f()`
        return 1 if a.text == "{" else 0
    if b.text in CLOSERS:
        return 1 if b.text == "}" else 0
    if b.text in _TIGHT_BEFORE or a.text == ".":
        return 0
    if a.text == "..":
        return 1 if a.last else 0                      # `in 0.. = 0`: the range has no upper bound
    if b.text == "..":
        return 0
    if a.text == "-" and a.rule == "neg":
        return 0
    if b.rule in _TIGHT_AFTER_PARENTS.get(b.text, ()):
        return 0
    return 1

"""Names in generated code: each says what it stands for, so that the text written for a rule depends
only on the rule (see `units.py`)."""
from __future__ import annotations

from ..engine.runtime import LOCAL_PREFIX
from ..language import ast as A

_CONST_PREFIX = {"callable": "_c_", "die": "_d_", "table": "_tb_", "builtin": "_B_", "builtin_fn": "_b_"}


def is_int(e: A.Expr) -> bool:
    return isinstance(e, A.Literal) and type(e.value) is int


def procedure_function(name: str) -> str:
    """The namespace name of a procedure's generated function."""
    return "_p_" + name


def flag(name: str) -> str:
    """The local holding whether the local `name` is a player."""
    return "_P" + LOCAL_PREFIX + name


def local(name: str) -> str:
    """The Python local of a rule's local (rule names are ASCII identifiers: see the grammar)."""
    return LOCAL_PREFIX + name


def hexed(text: str) -> str:
    """A text as an identifier's tail (names of things may hold any character)."""
    return text.encode("utf-8").hex()


def const_name(kind: str, what) -> str:
    """The namespace name of something generated code uses: a span, a value, a procedure as a value, a
    thing's block or fields, a die, a table, a builtin."""
    if kind == "span":
        return f"_s{id(what)}"
    if kind == "value":
        return f"_k{id(what)}"
    if kind == "block":
        return f"_cb_{hexed(what[0])}_{what[1]}"
    if kind == "fields":
        return f"_f_{hexed(what)}"
    return f"{_CONST_PREFIX[kind]}{what}"

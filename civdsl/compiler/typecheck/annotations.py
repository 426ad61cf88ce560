"""The type vocabulary of annotations: `param x: int in 0.. = 4`, `player var v: list of text = []`,
`procedure f(p: player, n: int)` and the field types of kinds.

An annotation is parsed as a tuple (`("list", ("ref", "advance"))`); this turns it into a `Ty`, or
says what is wrong with it (an unknown type name, with a "did you mean"; a type nested too deeply).
The walk is a loop, never a recursion, so a 10,000-deep `list of list of ...` costs nothing.
"""
from __future__ import annotations

from ...language.names import suggest
from . import types as T

SIMPLE = {"int": T.INT, "number": T.NUMBER, "text": T.TEXT, "bool": T.BOOL, "player": T.PLAYER,
          "area": T.TEXT, "record": T.OPEN_RECORD, "list": T.list_of(T.UNKNOWN), "zone": T.zone_of(T.UNKNOWN),
          "die": T.DIE, "table": T.TABLE, "thing": T.thing(None), "any": T.ANY}
CONTAINERS = {"list"}    # `NAME of T`
MAX_ANNOTATION_DEPTH = 8  # `list of list of ... int`, deeper is TYP017
VOCABULARY = sorted(SIMPLE) + ["ref KIND", "list of T"]
OTHER_NAMES = {"integer": "int", "float": "number", "decimal": "number", "string": "text", "str": "text",
               "boolean": "bool", "dict": "record", "map": "record", "array": "list"}  # other languages' words


def resolve(ann, kinds, allow_block: bool = False) -> tuple[T.Ty, tuple[str, str, str | None] | None]:
    """(the type, None) or (UNKNOWN, (code, message, hint)) for an annotation tuple."""
    chain: list[str] = []
    node = ann
    while True:
        if len(chain) > MAX_ANNOTATION_DEPTH:
            return T.UNKNOWN, ("TYP017", f"the type nests more than {MAX_ANNOTATION_DEPTH} levels deep",
                               "declare a shallower type, or `any`")
        if not isinstance(node, tuple) or not node:
            return T.UNKNOWN, None
        name = node[0]
        if name == "ref":
            kind = node[1]
            if kind not in kinds:
                guess = suggest(kind, list(kinds))
                return T.UNKNOWN, ("TYP001", f"unknown kind `{kind}` in the type `ref {kind}`",
                                   f"did you mean `ref {guess}`?" if guess else
                                   f"kinds: {', '.join(sorted(kinds)) or 'none'}")
            base = T.thing(kind)
            break
        if len(node) > 1:
            if name not in CONTAINERS:
                return T.UNKNOWN, ("TYP001", f"`{name} of ...` is not a type: only `list of T` takes an item type",
                                   "write `list of T`")
            chain.append(name)
            node = node[1]
            continue
        if name == "block" and allow_block:
            base = T.BLOCK
            break
        if name not in SIMPLE:
            guess = OTHER_NAMES.get(name) or suggest(name, list(SIMPLE) + (["block"] if allow_block else []))
            return T.UNKNOWN, ("TYP001", f"unknown type `{name}`",
                               f"did you mean `{guess}`?" if guess else f"types: {', '.join(VOCABULARY)}")
        base = SIMPLE[name]
        break
    for _ in chain:
        base = T.list_of(base)
    return base, None

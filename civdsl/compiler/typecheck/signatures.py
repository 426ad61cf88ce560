"""Declared signatures of the built-in functions (`engine/builtins.py`): what each argument must be, and
what the call gives.

A parameter is a word: `list` (a list, a zone, or a record's keys), `num`, `text`, `die`, `die|table`,
`kind` (a text naming a kind), `map`, `player`, `owner` (a player or none), `get` (a record, a table
or a thing's name), `any`. The result is a function of the arguments' types. A built-in with no entry
here is called with no check and gives an unknown value: add its line when adding a built-in
(`tests/test_typecheck.py` lists the missing ones).
"""
from __future__ import annotations

from . import types as T


def _item(args):
    return T.item_of(args[0]) if args else T.UNKNOWN


def _same_list(args):
    a = args[0] if args else T.UNKNOWN
    return T.list_of(a.arg) if a.tag in T.LISTLIKE else T.list_of(T.UNKNOWN) if a.tag == "record" else T.UNKNOWN


def _extreme(args):
    """`min`/`max`: the items are all of one sort, or the call fails: the first one known says which."""
    if len(args) == 1:
        return _item(args)
    known = [a for a in args if not T.is_loose(a)]
    if known:
        out = T.NEVER
        for a in known:
            out = T.join(out, a)
        return out
    return T.UNKNOWN


def _sum(args):
    item = _item(args)
    return T.INT if item.tag == "int" else T.NUMBER if item.tag in T.NUMERIC else T.UNKNOWN


def _face(args):
    """`roll(d)`: a die's face; `roll(t)`: a table's row (the checker knows the faces' type by the die)."""
    a = args[0] if args else T.UNKNOWN
    if a.tag in ("die", "table"):
        return a.arg
    return T.UNKNOWN


def _get(args):
    """`get(r, key, default)`: the record's value, or the default. The key is not known here, so only a
    record whose values are all numbers (or all texts) says something: a default of the other sort makes
    the result a number in some cases and not in others (TYP013 where a number is needed). A text default
    where the values are not known does too: where a number is needed, the default fails whenever it is
    taken, and a default never taken would not be a text."""
    if len(args) != 3:
        return T.UNKNOWN
    fields = T.record_fields(args[0]) if args[0].tag == "record" else None
    if not fields:  # (values not known: a text default still makes the result no sure number)
        return T.either(T.NUMBER, args[2]) if args[2].tag in T.TEXTUAL else T.UNKNOWN
    values = T.NEVER
    for t in fields.values():
        values = T.join(values, t)
    default = args[2]
    if values.tag in T.NUMERIC and default.tag in T.TEXTUAL:
        return T.either(values, default)
    if default.tag in T.NUMERIC and values.tag in T.TEXTUAL:
        return T.either(default, values)
    return T.UNKNOWN


def _const(t):
    return lambda args: t


# name: (parameters, optional parameters from, result)
SIGNATURES: dict[str, tuple[list[str], object]] = {
    "len": (["list"], _const(T.INT)),
    "count": (["list", "any"], _const(T.INT)),
    "sum": (["list"], _sum),
    "min": (["any"] * 9, _extreme),
    "max": (["any"] * 9, _extreme),
    "any": (["list"], _const(T.BOOL)),
    "all": (["list"], _const(T.BOOL)),
    "abs": (["num"], lambda a: a[0] if a and a[0].tag in ("int", "number") else T.NUMBER),
    "floor": (["num"], _const(T.INT)),
    "ceil": (["num"], _const(T.INT)),
    "sorted": (["list"], _same_list),
    "reversed": (["list"], _same_list),
    "first": (["list"], _item),
    "last": (["list"], _item),
    "top": (["list", "num"], _same_list),
    "unique": (["list"], _same_list),
    "range": (["num", "num"], _const(T.list_of(T.INT))),
    "measure": (["text", "record"], _const(T.NONE)),
    "str": (["any"], _const(T.TEXT)),
    "int": (["any"], _const(T.INT)),
    "join": (["list", "any"], _const(T.TEXT)),
    "index_of": (["list", "any"], _const(T.INT)),
    "keys": (["record"], _const(T.list_of(T.TEXT))),
    "get": (["get", "any", "any"], _get),
    "roll": (["die|table", "num"], _face),
    "rolls": (["die", "num"], lambda a: T.list_of(_face(a))),
    "random_pick": (["list"], _item),
    "shuffled": (["list"], _same_list),
    "others": (["player"], _const(T.list_of(T.PLAYER))),
    "player_at": (["num"], _const(T.PLAYER)),
    "entities": (["kind"], _const(T.UNKNOWN)),  # list of things of that kind: the checker knows the kind
    "kind_of": (["any"], _const(T.TEXT)),
    "zone": (["text"], _const(T.zone_of(T.UNKNOWN))),
    "areas": (["map"], _const(T.list_of(T.TEXT))),
    "area": (["map", "text"], _const(T.UNKNOWN)),  # a record of the map's attributes: the checker knows them
    "neighbours": (["map", "text", "text"], _const(T.list_of(T.TEXT))),
    "pieces": (["text", "owner", "text"], _const(T.INT)),
    "place": (["text", "owner", "text", "num"], _const(T.NONE)),
    "take": (["text", "owner", "text", "num"], _const(T.NONE)),
    "areas_of": (["owner", "text"], _const(T.list_of(T.TEXT))),
    "owners_at": (["text", "text"], _const(T.list_of(T.PLAYER))),
    "occupied": (["text"], _const(T.list_of(T.TEXT))),
    "total_pieces": (["owner", "text"], _const(T.INT)),
}


_ACCEPTED = {   # parameter -> (the tags it takes, what it wants, in words)
    "list": (T.LISTLIKE | {"record"}, "a list, a zone or a record"),
    "num": (T.NUMERIC, "a number"),
    "text": (T.TEXTUAL, "a text"),
    "kind": (T.TEXTUAL, "a kind's name"),
    "map": (T.TEXTUAL | {"map"}, "a map"),
    "die": ({"die"}, "a die"),
    "die|table": ({"die", "table"}, "a die or a table"),
    "player": ({"player"}, "a player"),
    "owner": ({"player"}, "a player or none"),
    "get": (T.TEXTUAL | {"record", "table"}, "a record, a table or a thing's name"),
    "record": ({"record"}, "a record"),
}


def refuses(param: str, t: T.Ty) -> str | None:
    """What is wrong with giving a value of type `t` for a parameter `param` (None: nothing certain)."""
    accepted = _ACCEPTED.get(param)
    if accepted is None or t.tag in accepted[0] or t.tag in T.LOOSE:
        return None
    return accepted[1]

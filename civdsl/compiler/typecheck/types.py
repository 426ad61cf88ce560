"""The types of rule values, how they combine, and how they read in diagnostics.

A type is a small immutable value (`Ty`). The checker is sound-ish rather than complete: wherever it
cannot tell what a value is, the type is `UNKNOWN`, which accepts every operation and never causes a
diagnostic, so a type error is reported only where the rules certainly go wrong. `ANY` (written `any`
in an annotation) behaves the same, on purpose.

Types are bounded: a type nested deeper than `MAX_DEPTH` or a record with more than `MAX_KEYS` known
keys becomes `UNKNOWN` (or an open record), so hostile rule files cannot make the checker slow.
"""
from __future__ import annotations

MAX_DEPTH = 12        # nesting of list/record/zone types the checker keeps track of
MAX_KEYS = 256        # keys of a record type the checker keeps track of


_MADE: dict = {}
MAX_MADE = 200_000


class Ty:
    """One type: `tag` names the sort (int, text, list, record...), `arg` its parameters."""

    __slots__ = ("tag", "arg", "_hash")

    def __new__(cls, tag: str, arg=None):
        """One object per type (hash-consed): equal types are the same object, and few are made."""
        key = (tag, arg)
        t = _MADE.get(key)
        if t is None:
            if len(_MADE) > MAX_MADE:
                _MADE.clear()
            t = _MADE[key] = object.__new__(cls)
            t.tag, t.arg, t._hash = tag, arg, hash(key)
        return t

    def __eq__(self, other):
        return self is other or (isinstance(other, Ty) and self._hash == other._hash and self.tag == other.tag
                                 and self.arg == other.arg)

    def __hash__(self):
        return self._hash

    def __repr__(self):
        return f"Ty({show(self)})"


UNKNOWN = Ty("unknown")   # not known: accepts anything, never an error
ANY = Ty("any")           # declared `any`: the same, by choice
OPAQUE = Ty("opaque")     # data from outside the rules (a param's empty list a house rule fills): unchecked
NEVER = Ty("never")       # no value yet (a parameter before its callers are walked): `join`'s neutral element;
#                           what is made of it is NEVER too, so that a later round can still refine it
NONE = Ty("none")
INT = Ty("int")
NUMBER = Ty("number")     # whole or decimal
TEXT = Ty("text")
BOOL = Ty("bool")
PLAYER = Ty("player")
DIE = Ty("die", UNKNOWN)
TABLE = Ty("table", UNKNOWN)
MAP = Ty("map")           # a map's name (a map declaration as a value)
BLOCK = Ty("block")       # a thing's block, a procedure or a built-in function: something to call
OPEN_RECORD = Ty("record", (None, True))

NUMERIC = {"int", "number", "bool"}
TEXTUAL = {"text", "thing"}
LISTLIKE = {"list", "zone"}
LOOSE = {"unknown", "any", "never", "none", "opaque", "either"}   # (either: a number or something else)


def value_type(v) -> Ty:
    """The type of a plain value (a literal, an area's attribute in a map file)."""
    if isinstance(v, bool):
        return BOOL
    if isinstance(v, int):
        return INT
    if isinstance(v, float):
        return NUMBER
    if isinstance(v, str):
        return TEXT
    return NONE if v is None else UNKNOWN


def thing(kind: str | None) -> Ty:
    """A text that names a declared thing (of `kind`; None: of some kind)."""
    return Ty("thing", kind)


def list_of(item: Ty) -> Ty:
    return Ty("list", item if depth(item) < MAX_DEPTH else UNKNOWN)


def zone_of(item: Ty) -> Ty:
    return Ty("zone", item if depth(item) < MAX_DEPTH else UNKNOWN)


def record(fields: dict[str, Ty] | None, is_open: bool = False) -> Ty:
    """A record with known keys (`fields`, in order) — `is_open`: it may hold other keys too."""
    if fields is None:
        return OPEN_RECORD
    if len(fields) > MAX_KEYS:
        return OPEN_RECORD
    items = tuple((k, v if depth(v) < MAX_DEPTH else UNKNOWN) for k, v in fields.items())
    return Ty("record", (items, is_open))


EMPTY_RECORD = Ty("record", ((), False))   # `{}`: a record with no key (yet)

MAYBE = "?"   # a record type's key that only some of the records it stands for have


def _sure(items) -> dict[str, tuple[Ty, bool]]:
    return {k.removeprefix(MAYBE): (v, not k.startswith(MAYBE)) for k, v in items}


def record_fields(t: Ty) -> dict[str, Ty] | None:
    """A record type's known keys, or None for a record of any keys."""
    items, is_open = t.arg
    if items is None or is_open:
        return None
    return dict(items)


def record_keys(t: Ty) -> dict[str, Ty]:
    items, _ = t.arg
    return dict(items or ())


def item_of(t: Ty) -> Ty:
    """The type of the items met when going through a value (`for`, comprehensions, `first`)."""
    if t.tag in LISTLIKE:
        return t.arg
    if t.tag == "record":
        return TEXT
    return NEVER if t.tag == "never" else UNKNOWN


def depth(t: Ty) -> int:
    """How deeply a type nests (bounded work: types deeper than `MAX_DEPTH` are never built)."""
    if t.tag in LISTLIKE:
        return 1 + depth(t.arg)
    if t.tag == "record" and t.arg[0]:
        return 1 + max((depth(v) for _, v in t.arg[0]), default=0)
    return 0


def is_loose(t: Ty) -> bool:
    """Types that accept every operation: nothing is reported about them."""
    return t.tag in LOOSE


def join(a: Ty, b: Ty) -> Ty:
    """The type of a value that is sometimes an `a`, sometimes a `b` (generous: none joins anything,
    two records join their keys; two unrelated types give UNKNOWN)."""
    if a is b or a == b:  # (types are made once each: `is` nearly always decides)
        return a
    if a.tag == "never" or a.tag == "none":
        return b if b.tag != "never" else a
    if b.tag == "never" or b.tag == "none":
        return a
    if a.tag == "opaque" or b.tag == "opaque":
        return OPAQUE
    if a.tag == "either" or b.tag == "either" or (a.tag in NUMERIC and b.tag in TEXTUAL) \
            or (a.tag in TEXTUAL and b.tag in NUMERIC):
        return _either(a, b)
    if a.tag in ("unknown", "any") or b.tag in ("unknown", "any"):
        return UNKNOWN
    if a.tag in NUMERIC and b.tag in NUMERIC:
        return NUMBER
    if a.tag in TEXTUAL and b.tag in TEXTUAL:
        return thing(None) if a.tag == b.tag == "thing" else TEXT
    if a.tag == b.tag and a.tag in LISTLIKE:
        return Ty(a.tag, join(a.arg, b.arg))
    if a.tag in LISTLIKE and b.tag in LISTLIKE:
        return list_of(join(a.arg, b.arg))
    if a.tag == b.tag == "record":
        fa, fb = a.arg, b.arg
        if fa[0] is None or fb[0] is None:
            return OPEN_RECORD
        is_open = fa[1] or fb[1]
        da, db = _sure(fa[0]), _sure(fb[0])
        keys: dict[str, Ty] = {}
        for k in list(da) + [k for k in db if k not in da]:
            (ta, sa), (tb, sb) = da.get(k, (NEVER, False)), db.get(k, (NEVER, False))
            sure = is_open or (sa and sb)  # (a key only some of the records have: reading it may fail)
            keys[k if sure else MAYBE + k] = join(ta, tb)
        return record(keys, is_open)
    return UNKNOWN


def either(number: Ty, other: Ty) -> Ty:
    """A value that is a number in some cases and a text in others (the branches of an `if`, a variable
    or a parameter given both): shown, it is fine; computed with, it fails in some games (TYP013)."""
    return Ty("either", (number, other))


def _either(a: Ty, b: Ty) -> Ty:
    num, txt = NEVER, NEVER
    for t in (a, b):
        if t.tag == "either":
            num, txt = join(num, t.arg[0]), join(txt, t.arg[1])
        elif t.tag in NUMERIC:
            num = join(num, t)
        elif t.tag in TEXTUAL:
            txt = join(txt, t)
        else:
            return UNKNOWN
    return either(num, txt)


def accepts(want: Ty, got: Ty) -> bool:
    """Whether a value of type `got` may be given where `want` is declared (generous: only certain
    mismatches are refused; none is accepted everywhere, like the kinds' field types)."""
    if is_loose(want) or is_loose(got) or want == got:
        return True
    w, g = want.tag, got.tag
    if w in ("int", "number"):
        return g in NUMERIC
    if w == "bool":
        return g in NUMERIC
    if w == "text":
        return g in TEXTUAL
    if w == "thing":
        return g == "text" or (g == "thing" and (want.arg is None or got.arg is None or want.arg == got.arg))
    if w == "list":
        return g in LISTLIKE and accepts(want.arg, got.arg)
    if w == "zone":
        return g == "zone"
    if w == "record":
        return g == "record"
    if w == "block":
        return g == "block"
    return w == g


def show(t: Ty) -> str:
    """A type as a diagnostic names it."""
    tag = t.tag
    if tag == "thing":
        return f"a thing of kind `{t.arg}`" if t.arg else "a thing's name"
    if tag == "list":
        inner = t.arg
        return "a list" if is_loose(inner) else f"a list of {_plural(inner)}"
    if tag == "zone":
        return "a zone"
    if tag == "either":
        return f"{show(t.arg[0])} or {show(t.arg[1])}"
    if tag == "record":
        items, is_open = t.arg
        if not items:
            return "a record"
        keys = ", ".join(k.removeprefix(MAYBE) for k, _ in items[:6]) + (", ..." if len(items) > 6 or is_open else "")
        return f"a record {{{keys}}}"
    return {"int": "a whole number", "number": "a number", "text": "a text", "bool": "a truth value",
            "none": "none", "player": "a player", "die": "a die", "table": "a table", "map": "a map",
            "block": "a block", "unknown": "a value", "opaque": "a value", "any": "any value",
            "never": "no value"}.get(tag, tag)


def _plural(t: Ty) -> str:
    s = show(t)
    for article in ("a ", "an "):
        if s.startswith(article):
            s = s[len(article):]
            head, _, rest = s.partition(" ")
            return (head + "s " + rest).strip() if not head.endswith("s") else s
    return s


def annotation_text(ann) -> str:
    """An annotation tuple (`("list", ("int",))`) as written (bounded: deep ones are cut short)."""
    parts, node, n = [], ann, 0
    while isinstance(node, tuple) and n < 8:
        if node[0] == "ref":
            parts.append(f"ref {node[1]}")
            node = None
            break
        parts.append(node[0])
        node = node[1] if len(node) > 1 else None
        n += 1
    return " of ".join(parts) + (" of ..." if node is not None else "")

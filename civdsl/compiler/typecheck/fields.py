"""Reading a field or a key: `x.name` and `x[k]` — a thing's field of its kind, a player's counter,
variable or zone, a record's key — and the misspelt names among them (TYP010), and texts one slip away
from a thing's name where the rules hold things (REF002).

A mixin of `infer.Inference`.
"""
from __future__ import annotations

from ...language import ast as A
from ...language.diagnostics import Span
from ...language.names import suggest
from . import types as T
from .facts import Locals

PLAYER_BUILTIN = {"seat": T.INT, "index": T.INT, "name": T.TEXT}


class FieldWalk:
    """Field and key reads."""

    def near_thing(self, e: A.Expr, kind: str | None) -> None:
        """REF002: a text literal where the rules hold things of `kind`, that names none but is one slip
        away from one (a text far from every thing's name is taken as meant: "none", "no one")."""
        if not (isinstance(e, A.Literal) and isinstance(e.value, str)) or e.value in self.env.entity_kind:
            return
        env = self.env
        if e.value in env.player_fields or e.value in env.globals or e.value in env.kinds:
            return  # (a name of something else the rules declare: `["food", "wood"]`, goods and food)
        names = self.env.prog.by_kind.get(kind, []) if kind else list(self.env.entity_kind)
        guess = suggest(e.value, names)
        if guess is not None and _one_slip(e.value, guess):
            self.err("REF002", f"\"{e.value}\" names no {kind or 'thing'}, where the rules hold "
                     f"{'things of kind `' + kind + '`' if kind else 'things'}", e.span, f"did you mean \"{guess}\"?")

    def near_area(self, e: A.Expr) -> None:
        """REF002: a text of a thing's field (`start_areas: ["Cartage"]`) that names no map area and no
        thing, but is one slip away from an area's or a thing's name."""
        if not (isinstance(e, A.Literal) and isinstance(e.value, str)):
            return
        env, v = self.env, e.value
        if v in env.entity_kind or v in env.player_fields or v in env.globals or v in env.kinds:
            return
        index = env.slip_index()
        if v in index.get(v, ()):   # (an area's name)
            return
        near = sorted({n for k in _deletions(v) for n in index.get(k, ()) if _one_slip(v, n)
                       and v.lower() != n.lower()})   # ("Aces" for `aces`: a title, not a slip)
        if near:
            self.err("REF002", f"\"{v}\" names no map area or thing, and is one slip away from \"{near[0]}\"",
                     e.span, f"did you mean \"{near[0]}\"?")

    def e_Attr(self, e: A.Attr, L: Locals):
        obj_e = e.obj
        if isinstance(obj_e, A.Literal) and isinstance(obj_e.value, str) and obj_e.value not in self.env.entity_kind:
            guess = self.suggest(obj_e.value, self.env.entity_kind)
            self.err("TYP010", f"\"{obj_e.value}\" is not a declared thing, so it has no `{e.name}`", obj_e.span,
                     f"did you mean \"{guess}\"?" if guess else "name a declared thing")
            return T.NEVER
        return self.attr(self.ty(obj_e, L), e.name, e.span)

    def attr(self, obj: T.Ty, name: str, span: Span) -> T.Ty:
        env, tag = self.env, obj.tag
        if tag == "never":
            return T.NEVER
        if tag == "player":
            kind = env.player_fields.get(name)
            if kind in ("counter", "track"):
                return T.INT
            if kind == "var":
                return self.var_type(("player", name))
            if kind == "zone":
                return self.zone_type(("player", name))
            if name in PLAYER_BUILTIN:
                return PLAYER_BUILTIN[name]
            self.no_player_field(name, span)
            return T.NEVER
        if tag == "thing":
            return self.thing_field(obj.arg, name, span)
        if tag == "text":
            return self.thing_field(None, name, span)
        if tag == "record":
            items, is_open = obj.arg
            keys = dict(items or ())
            if name in keys:
                return keys[name]
            if items is None or is_open:
                return self.unknown_attr(name, span)
            if name in env.assigned_keys:
                return T.UNKNOWN
            if T.MAYBE + name in keys:  # (a key some of the records have: rules read it where they know it is
                # there, `if o.n == 0 { return } ... o.card`, so it is not reported; unless the others have
                # a key one slip away from it instead: a misspelt key where one of the records is made)
                odd = [k.removeprefix(T.MAYBE) for k in keys if k.startswith(T.MAYBE) and k != T.MAYBE + name
                       and _one_slip(k.removeprefix(T.MAYBE), name)]
                if odd:
                    self.err("TYP010", f"some of the records read here have `{odd[0]}` where the others have `{name}`",
                             span, f"a misspelt key where one of them is made? give every record `{name}`")
                return keys[T.MAYBE + name]
            keys = {k.removeprefix(T.MAYBE): v for k, v in keys.items()}
            guess = self.suggest(name, keys)
            self.err("TYP010", f"the record has no key `{name}` (its keys: {', '.join(keys)})", span,
                     f"did you mean `{guess}`?" if guess else None)
            return T.NEVER
        if tag == "die":
            if name == "faces":
                return T.list_of(obj.arg)
        elif tag == "zone":
            if name == "owner":
                return T.PLAYER
        elif tag == "opaque":
            return T.OPAQUE
        elif tag in ("unknown", "any", "none", "map", "block", "either"):
            return self.unknown_attr(name, span)
        hint = {"die": "a die has `faces`", "zone": "a zone has `owner`; its items are read with `for` or `[i]`",
                "list": "a list's items are read with `for`, `[i]` or a comprehension"}.get(tag)
        self.err("TYP010", f"{T.show(obj)} has no `{name}`", span, hint)
        return T.NEVER

    def no_player_field(self, name: str, span: Span) -> None:
        fields = list(self.env.player_fields) + list(PLAYER_BUILTIN)
        guess = self.suggest(name, fields)
        self.err("TYP010", f"a player has no counter, variable or zone `{name}`", span,
                 f"did you mean `{guess}`?" if guess else "declare it: `player counter NAME = 0`")

    def thing_field(self, kind: str | None, name: str, span: Span) -> T.Ty:
        env = self.env
        if name == "name":
            return T.thing(kind)
        if name == "kind":
            return T.TEXT
        if kind is not None:
            fields = env.kinds.get(kind, {})
            if name in fields:
                return fields[name][0]
            guess = self.suggest(name, list(fields) + ["name", "kind"])
            self.err("TYP010", f"things of kind `{kind}` have no field `{name}`", span,
                     f"did you mean `{guess}`?" if guess else f"fields of {kind}: {', '.join(fields) or 'none'}")
            return T.NEVER
        found = env.field_anywhere.get(name)
        if found is not None:
            return found
        guess = self.suggest(name, list(env.field_anywhere) + ["name", "kind"])
        self.err("TYP010", f"no kind of thing has a field `{name}`", span,
                 f"did you mean `{guess}`?" if guess else "a text reads the fields of the thing it names")
        return T.NEVER

    def unknown_attr(self, name: str, span: Span) -> T.Ty:
        """`x.name` where the checker does not know what `x` is: `name` must be a field or key of something."""
        env = self.env
        if name in env.universe:
            return T.UNKNOWN
        guess = self.suggest(name, env.universe)
        self.err("TYP010", f"nothing has a field, counter or key `{name}`", span,
                 f"did you mean `{guess}`?" if guess else
                 "no player field, field of a kind or record key of the rules has that name")
        return T.NEVER

    def e_Index(self, e: A.Index, L: Locals):
        obj = self.ty(e.obj, L)
        key = self.ty(e.key, L)
        if obj.tag == "never":
            return T.NEVER
        lit = e.key.value if isinstance(e.key, A.Literal) else None
        tag = obj.tag
        if tag == "player":
            if isinstance(lit, str):
                return self.attr(obj, lit, e.key.span)
            if key.tag in T.NUMERIC or key.tag in ("player", "list", "record"):
                self.err("TYP011", f"a player's field is named by a text, not {T.show(key)}", e.span)
            return T.UNKNOWN
        if tag in T.LISTLIKE:
            if not T.is_loose(key) and key.tag not in T.NUMERIC:
                self.err("TYP011", f"{T.show(obj)} is indexed by position (a whole number from 1), not {T.show(key)}",
                         e.span)
            return obj.arg
        if tag == "record":
            if isinstance(lit, str):
                return self.attr(obj, lit, e.key.span)
            keys = T.record_keys(obj)
            out = T.NEVER
            for v in keys.values():
                out = T.join(out, v)
            return T.UNKNOWN if out.tag == "never" or obj.arg[1] or obj.arg[0] is None else out
        if tag == "table":
            return obj.arg
        if tag in T.TEXTUAL or tag in T.NUMERIC or tag in ("die",):
            self.err("TYP011", f"{T.show(obj)} cannot be indexed", e.span,
                     "lists, zones, records, tables and players are indexed")
        return T.NEVER


def _one_slip(a: str, b: str) -> bool:
    """Whether `a` is `b` with one letter dropped, doubled, added, changed, or two neighbours swapped."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                                  and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def _deletions(word: str) -> set[str]:
    """`word` and every text it gives with one letter dropped: two words one slip apart share one."""
    return {word} | {word[:i] + word[i + 1:] for i in range(len(word))}

"""Expressions of the rule language, checked and written as Python source (a mixin of `Emitter`).

Names are resolved on the way (unknown names, wrong arity and misuse of declarations are diagnostics)
and the type tests a rule's value needs are written inline, with the fast path first: a local known to
hold a player or a record reads it directly (see `scope.py`). Evaluation order is the language's: left
to right, `and`/`or` short-circuit, each operand evaluated once.
"""
from __future__ import annotations

import re

from ..engine.budget import ITEMS_PER_UNIT
from ..engine.builtins import REGISTRY
from ..engine.runtime import LOCAL_PREFIX
from ..language import ast as A
from ..language.diagnostics import CivError
from ..language.first_guesses import name_hint
from ..language.parser import parse_expr
from .naming import flag, is_int, local, procedure_function
from .scope import PLAYER, RECORD, Scope

OUTLINE_DEPTH = 30   # deeper subexpressions become functions of their own (Python's parser nests ~200 deep)
_SIMPLE_LITERALS = (int, str, bool, type(None))
_COMPARE_OPS = {"==", "!=", "<", ">", "<=", ">="}
_SHORT = 120  # an operand's source short enough to be written twice (see `_compare`)
_ARITHMETIC = {"+": "_add", "-": "_sub", "*": "_mul"}  # operators that may grow a value (see `engine.budget`)
_TEMPLATE_LIKE = re.compile(r"\{([A-Za-z_][^{}]*)\}")  # `{expression}` as a log text holds it


class Expressions:
    """Writing expressions (a mixin of `Emitter`)."""

    def expr(self, e: A.Expr, scope: Scope) -> str:
        """Python source for the expression; names are checked and diagnostics recorded on the way."""
        if self.depth >= OUTLINE_DEPTH and self.fn is not None:
            return self._outline(e, scope)
        self.depth += 1
        try:
            return getattr(self, "e_" + type(e).__name__)(e, scope)
        finally:
            self.depth -= 1

    def _name_or_temp(self, src: str) -> tuple[str, str]:
        """(what to test and read, what to evaluate first): a local is read twice; anything else once."""
        if src.startswith(LOCAL_PREFIX) and src.isidentifier():
            return src, src
        t = self.temp()
        return t, f"({t} := {src})"

    def e_Literal(self, e: A.Literal, scope):
        v = e.value
        if isinstance(v, str):
            self.comp.strings.add(v)
            if "{" in v and _TEMPLATE_LIKE.search(v):
                self._template_outside_log(v, e)
        if type(v) in _SIMPLE_LITERALS or (type(v) is float and v == v and v not in (float("inf"), -float("inf"))):
            return repr(v)
        return self.const("value", v)

    def e_Name(self, e: A.Name, scope: Scope):
        n, comp = e.id, self.comp
        if n in scope.names:
            scope.read.add(n)
            return local(n)
        kind = self.lookup("global", n)
        if kind:
            comp.used.add(n)
        if kind == "counter":
            return f"c.state.counters[{n!r}]"
        if kind in ("var", "param", "track"):
            return f"c.state.vars[{n!r}]"
        if kind == "zone":
            return f"_ZoneRef(None, {n!r}, c.state.zones[{n!r}])"
        if kind == "die":
            return self.const("die", n)
        if kind == "table":
            return self.const("table", n)
        if kind == "procedure":
            return self.const("callable", n)
        if kind == "map":
            return repr(n)
        if n == "players":
            return "list(c.state.players)"
        if n == "num_players":
            return "len(c.state.players)"
        if n == "round":
            return "c.state.round"
        if n in REGISTRY:
            return self.const("builtin", n)
        candidates = list(comp.globals) + list(scope.names) + list(REGISTRY) + ["players", "round", "num_players"]
        if n in ("player", "option", "this"):
            hint = f"`{n}` is only bound inside " + {"player": "phases, victory fields and heuristics",
                                                     "option": "heuristics", "this": "an entity's blocks"}[n]
        else:
            hint = name_hint(n) or comp.did_you_mean(n, candidates)
        comp.err("UNK001", f"unknown name `{n}`", e.span, hint)
        return "None"

    def e_ListLit(self, e: A.ListLit, scope):
        return "[" + ", ".join(self.expr(i, scope) for i in e.items) + "]"

    def e_RecordLit(self, e: A.RecordLit, scope):
        return "{" + ", ".join(f"{k!r}: {self.expr(v, scope)}" for k, v in zip(e.keys, e.values)) + "}"

    def e_Comprehension(self, e: A.Comprehension, scope: Scope):
        source = self.expr(e.iterable, scope)
        if ":=" in source:  # Python forbids assignment expressions in a comprehension's source
            source = self._outline(e.iterable, scope)
        had = e.var in scope.names
        was_read = e.var in scope.read
        hidden = scope.hide(e.var)
        scope.names.add(e.var)
        try:
            body = self.expr(e.expr, scope)
            cond = f" if {self.expr(e.cond, scope)}" if e.cond is not None else ""
        finally:
            scope.unhide(e.var, hidden)
            if not had:
                scope.names.discard(e.var)
            if not was_read:
                scope.read.discard(e.var)  # the comprehension's own variable is not read from outside
        return f"[{body} for {local(e.var)} in _each(c, {source}){cond}]"

    def e_Attr(self, e: A.Attr, scope: Scope):
        comp, name = self.comp, e.name
        if self._area_call(e.obj, scope):  # `area(m, a).name`: no copy of the area's record
            m, a = (self.expr(x, scope) for x in e.obj.args)
            comp.used.add(name)
            return f"_area_attr(c, {m}, {a}, {name!r})"
        obj = self.expr(e.obj, scope)
        comp.used.add(name)
        kind = self.lookup("field", name)
        if kind in ("counter", "var", "zone"):  # a player's field, or a record's key of the same name
            test, value, certain = self._player_test(e.obj, scope, obj)
            if kind == "zone":
                read = f"_ZoneRef({value}, {name!r}, {value}.zones[{name!r}])"
            else:
                read = f"{value}.{'counters' if kind == 'counter' else 'vars'}[{name!r}]"
            if certain == PLAYER:
                return read
            if certain == RECORD:
                return f"{value}[{name!r}]"
            if kind == "zone":
                return f"({read} if {test} else _get_attr(_prog, {value}, {name!r}))"
            return (f"({read} if {test} else {value}[{name!r}] if type({value}) is dict "
                    f"else _get_attr(_prog, {value}, {name!r}))")
        if isinstance(e.obj, A.Name) and scope.kinds.get(e.obj.id) == RECORD and e.obj.id in scope.names:
            return f"{obj}[{name!r}]"

        if isinstance(e.obj, A.Literal):
            if isinstance(e.obj.value, str) and self.lookup("value field", (e.obj.value, name)):
                t = self.temp()  # the field's value once the game has evaluated it: `(value,)`
                fields = self.const("fields", e.obj.value)
                return f"({t}[0] if type({t} := {fields}[{name!r}]) is tuple else _field_value({t}))"
            return f"_get_attr(_prog, {obj}, {name!r})"
        value, first = self._name_or_temp(obj)
        return f"({value}[{name!r}] if type({first}) is dict else _get_attr(_prog, {value}, {name!r}))"

    def e_Index(self, e: A.Index, scope):
        """`x[k]`: a list's item (from 1), a record's key or a player's counter inline, anything else by
        `get_index`."""
        obj, key = self.expr(e.obj, scope), self.expr(e.key, scope)
        kind = self._local_kind(e.obj, scope)
        if kind == RECORD:
            return f"{obj}[{key}]"
        t = self.temp()
        if kind == PLAYER:  # a counter named by a text (`player[name]`)
            k = self.temp()
            return (f"({t}[{k}] if type({k} := {key}) is str and {k} in ({t} := {obj}.counters) "
                    f"else _get_index({obj}, {k}, _prog))")
        if is_int(e.key) and e.key.value >= 1:
            return f"({t}[{e.key.value - 1}] if type({t} := {obj}) is list else _get_index({t}, {key}, _prog))"
        k = self.temp()  # both read once, the list or record first
        return (f"({t}[{k} - 1] if ((type({t} := {obj}) is list) & (type({k} := {key}) is int)) and {k} > 0 "
                f"else {t}[{k}] if type({t}) is dict else _get_index({t}, {k}, _prog))")

    def e_Call(self, e: A.Call, scope: Scope):
        comp, span = self.comp, e.span
        if isinstance(e.func, A.Name) and e.func.id not in scope.names:
            n = e.func.id
            if n in REGISTRY:
                b = REGISTRY[n]
                lo, hi = b.arity
                if not lo <= len(e.args) <= hi:
                    want = str(lo) if lo == hi else f"{lo} to {hi}"
                    comp.err("ARG001", f"`{n}` takes {want} argument{'s' if hi != 1 else ''}, got {len(e.args)}",
                             span)
                if n == "get" and len(e.args) == 3 and self._area_call(e.args[0], scope):
                    m, a, k, d = [self.expr(x, scope) for x in [*e.args[0].args, *e.args[1:]]]
                    return f"_area_get(c, {m}, {a}, {k}, {d})"
                args = [self.expr(a, scope) for a in e.args]
                if n == "get" and len(args) == 3:
                    return f"_record_get(c, {', '.join(args)})"
                if n in ("len", "count") and len(args) == 1:
                    t = self.temp()
                    return f"(len({t}) if type({t} := {args[0]}) is list else {self.const('builtin_fn', n)}(c, {t}))"
                if n == "roll" and len(args) == 1 and isinstance(e.args[0], A.Name) \
                        and e.args[0].id not in scope.names and self.lookup("global", e.args[0].id) == "die":
                    return f"_roll_one(c, {args[0]})"  # a declared die: no need to ask what was rolled
                fn = self.const("builtin_fn", n)
                return f"{fn}(c{''.join(', ' + a for a in args)})"
            if self.lookup("global", n) == "procedure":
                comp.used.add(n)
                decl = self.lookup("procedure", n)
                if len(decl.params) != len(e.args):
                    comp.err("ARG001", f"procedure `{n}` takes {len(decl.params)} arguments, got {len(e.args)}",
                             span, related=[(decl.span, "declared here")])
                args = [self.expr(a, scope) for a in e.args]
                if len(decl.params) != len(e.args):
                    return "None"
                return f"{procedure_function(n)}(c, {self.span(span)}{''.join(', ' + a for a in args)})"
        func = self.expr(e.func, scope)
        args = [self.expr(a, scope) for a in e.args]
        optional = isinstance(e.func, A.Attr)
        return f"_call_value(c, {func}, [{', '.join(args)}], {self.span(span)}, {optional})"

    def e_BinOp(self, e: A.BinOp, scope):
        a, b = self.expr(e.left, scope), self.expr(e.right, scope)
        if e.op == "..":
            return f"_range(c, {a}, {b})"
        if e.op in _ARITHMETIC:
            if e.op == "+" and isinstance(e.left, A.ListLit):
                return self.joined(a, b, len(e.left.items), literal_first=True)
            if e.op == "+" and isinstance(e.right, A.ListLit):
                return self.joined(a, b, len(e.right.items), literal_first=False)
            return self._arithmetic(e.op, a, b, is_int(e.left), is_int(e.right))
        if e.op == "/":
            return f"_div({a}, {b})"
        if e.op == "**":
            return f"_pow({a}, {b})"
        if e.op not in ("//", "%"):
            raise AssertionError(e.op)
        return f"({a} {e.op} {b})"

    def joined(self, a: str, b: str, items: int, literal_first: bool) -> str:
        """`[..] + x` or `x + [..]` (a list literal of `items` items): joined inline while the result is
        short enough to cost no work (see `engine.budget`), else by the runtime, which pays for it."""
        room = ITEMS_PER_UNIT - items
        if room <= 0:
            return f"_add(c, {a}, {b})"
        if literal_first:
            t = self.temp()
            return f"({a} + {t} if type({t} := {b}) is list and len({t}) < {room} else _add(c, {a}, {t}))"
        t = self.temp()
        return f"({t} + {b} if type({t} := {a}) is list and len({t}) < {room} else _add(c, {t}, {b}))"

    def _arithmetic(self, op: str, a: str, b: str, a_small: bool = False, b_small: bool = False) -> str:
        """`a + b`, `a - b`, `a * b`: whole numbers made inline while the result stays below `_BIG`,
        everything else (larger numbers, texts, lists) through the runtime, which bounds what it builds
        and refuses a product past the bound before making it. So every whole number a rule makes is
        within its bound, and nothing needs checking where numbers are kept.
        `&`: both sides are always evaluated, left first."""
        slow, r = f"{_ARITHMETIC[op]}(c, ", self.temp()
        if b_small:
            ta = self.temp()
            return (f"({r} if type({ta} := {a}) is int and _NBIG < ({r} := {ta} {op} {b}) < _BIG "
                    f"else {slow}{ta}, {b}))")
        if a_small:
            tb = self.temp()
            return (f"({r} if type({tb} := {b}) is int and _NBIG < ({r} := {a} {op} {tb}) < _BIG "
                    f"else {slow}{a}, {tb}))")
        ta, tb = self.temp(), self.temp()
        return (f"({r} if ((type({ta} := {a}) is int) & (type({tb} := {b}) is int)) "
                f"and _NBIG < ({r} := {ta} {op} {tb}) < _BIG else {slow}{ta}, {tb}))")

    def e_Compare(self, e: A.Compare, scope):
        if len(e.ops) == 1 and e.ops[0] in ("in", "not in") and self._local_player_zone(e.operands[1], scope):
            item, zone = self.expr(e.operands[0], scope), e.operands[1]
            test, owner, certain = self._player_test(zone.obj, scope, self.expr(zone.obj, scope))
            self.comp.used.add(zone.name)
            z = self.temp()  # (a zone of many items is searched by the runtime, paid for)
            found = f"({item} in {z} if len({z} := {owner}.zones[{zone.name!r}]) < 16 else _in(c, {item}, {z}))"
            if certain != PLAYER:
                found = f"({found} if {test} else _in(c, {item}, _get_attr(_prog, {owner}, {zone.name!r})))"
            return found if e.ops[0] == "in" else f"(not {found})"
        operands = [self.expr(o, scope) for o in e.operands]
        scalar = [self._scalar(o, scope) for o in e.operands]
        if len(e.ops) == 1:
            return self._compare(e.ops[0], operands[0], operands[1], scalar[0] or scalar[1])
        parts, left = [], operands[0]
        for i, op in enumerate(e.ops):  # a < b < c: each operand read once, stopping at the first false
            right, cheap = operands[i + 1], scalar[i] or scalar[i + 1]
            if i + 1 < len(e.ops):
                t = self.temp()
                parts.append(self._compare(op, left, f"({t} := {right})", cheap))
                left = t
            else:
                parts.append(self._compare(op, left, right, cheap))
        return "(" + " and ".join(parts) + ")"

    def _scalar(self, e: A.Expr, scope: Scope) -> bool:
        """Whether `e` is certainly a number, text, truth value or none (a literal, a global counter):
        comparing anything with it costs no walk."""
        if isinstance(e, A.Literal):
            return type(e.value) in _SIMPLE_LITERALS
        if isinstance(e, A.Neg):
            return self._scalar(e.operand, scope)
        return isinstance(e, A.Name) and e.id not in scope.names and self.lookup("global", e.id) == "counter"

    def _local_player_zone(self, e: A.Expr, scope: Scope) -> bool:
        """`local.zone` for a player's zone: membership in it reads the zone's items directly (the local
        is read after the item, as the language's left-to-right order wants)."""
        return (isinstance(e, A.Attr) and isinstance(e.obj, A.Name) and e.obj.id in scope.names
                and self.lookup("field", e.name) == "zone")

    def _compare(self, op: str, a: str, b: str, cheap: bool) -> str:
        """One comparison; two lists or records are compared by the runtime, which bounds the walk
        (`cheap`: one side is certainly a plain value, so the comparison is inline)."""
        if op == "in":
            return f"_in(c, {a}, {b})"
        if op == "not in":
            return f"(not _in(c, {a}, {b}))"
        if op not in _COMPARE_OPS:
            raise AssertionError(op)
        if cheap:
            return f"({a} {op} {b})"
        ta, tb = self.temp(), self.temp()
        if len(b) <= _SHORT:  # `b` written twice, one of them run: a list or record `a` is rare
            return (f"(({ta} {op} {b}) if type({ta} := {a}) not in _NESTED else "
                    f"_compare(c, {op!r}, {ta}, {tb}) if type({tb} := {b}) in _NESTED else {ta} {op} {tb})")
        return (f"(_compare(c, {op!r}, {ta}, {tb}) if (type({ta} := {a}) in _NESTED) & (type({tb} := {b}) in _NESTED) "
                f"else {ta} {op} {tb})")

    def e_BoolOp(self, e: A.BoolOp, scope):
        if e.op not in ("and", "or"):
            raise AssertionError(e.op)
        return f"({self.expr(e.left, scope)} {e.op} {self.expr(e.right, scope)})"

    def e_Not(self, e: A.Not, scope):
        return f"(not {self.expr(e.operand, scope)})"

    def e_Neg(self, e: A.Neg, scope):
        return f"(-{self.expr(e.operand, scope)})"

    def e_IfExpr(self, e: A.IfExpr, scope):
        cond = self.expr(e.cond, scope)
        return f"({self.expr(e.then, scope)} if {cond} else {self.expr(e.orelse, scope)})"

    def e_Choose(self, e: A.Choose, scope):
        self.comp.choose_tags.add(e.tag)
        who, options = self.expr(e.who, scope), self.expr(e.options, scope)
        if isinstance(e.who, A.Name) and scope.kinds.get(e.who.id) == PLAYER and e.who.id in scope.names \
                and (isinstance(e.options, (A.ListLit, A.Comprehension))
                     or isinstance(e.options, A.BinOp) and e.options.op == ".."):  # a player, and a list of options
            return f"c.game.decide({who}, {e.tag!r}, {options}, {self.span(e.span)})"
        return f"_choose(c, {who}, {e.tag!r}, {options}, {self.span(e.span)})"

    def e_ChooseSubset(self, e: A.ChooseSubset, scope):
        self.comp.choose_tags.add(e.tag)
        who = self.expr(e.who, scope)  # evaluated as written: who, how many, the items
        lo = self.expr(e.lo, scope) if e.lo is not None else "None"
        hi = self.expr(e.hi, scope) if e.hi is not None else "None"
        items = self.expr(e.items, scope)
        return f"_choose_subset(c, {who}, {e.tag!r}, {lo}, {hi}, {e.exact}, {items}, {self.span(e.span)})"

    def _template_outside_log(self, text: str, e: A.Literal) -> None:
        """LNT008 for a text that reads like a `log` text (`"{player} wins"`, the braces holding an
        expression): only `log` and `fail` fill those in."""
        inner = _TEMPLATE_LIKE.search(text).group(1)
        try:
            parse_expr(inner, e.span)
        except CivError:
            return
        self.comp.warn("LNT008", f"the text \"{{{inner}}}\" is not filled in: only `log` and `fail` texts are",
                       e.span, f"join the value to the text instead: `\"...\" + str({inner}) + \"...\"`")

    @staticmethod
    def _area_call(e: A.Expr, scope: Scope) -> bool:
        """`area(m, a)`, the builtin, called with its two arguments."""
        return (isinstance(e, A.Call) and isinstance(e.func, A.Name) and e.func.id == "area"
                and e.func.id not in scope.names and len(e.args) == 2)

    @staticmethod
    def _local_kind(e: A.Expr, scope: Scope) -> str | None:
        """PLAYER or RECORD when `e` is a local certain to hold one."""
        return scope.kinds.get(e.id) if isinstance(e, A.Name) and e.id in scope.names else None

    def _player_test(self, e: A.Expr, scope: Scope, obj: str) -> tuple[str, str, str | None]:
        """How to test that `obj` (the code of `e`) is a player: (the test, the value to read, what is
        certain: PLAYER, RECORD or None). A local of known kind needs no test; one bound once is tested
        once; anything else each time, evaluated once."""
        if isinstance(e, A.Name) and e.id in scope.names:
            kind = scope.kinds.get(e.id)
            if kind is not None:
                return ("True" if kind == PLAYER else "False"), obj, kind
            if e.id in scope.fixed:
                scope.flags.add(e.id)
                return flag(e.id), obj, None
        test, first = self._name_or_temp(obj)
        return f"type({first}) is _Player", test, None

    def _outline(self, e: A.Expr, scope: Scope) -> str:
        """A subexpression as a function of its own, called with the locals it reads: keeps generated
        expressions shallow, and lets a comprehension's source use temporaries."""
        inner = Scope(scope.names, scope.kinds)
        saved = (self.fn, self.depth)
        fn = self.mod.function(f"_o{self.temp()}{self.unit.name if self.unit else ''}", [],
                               getattr(e, "span", None))
        self.fn, self.depth = fn, 0
        try:
            text = self.expr(e, inner)
        finally:
            self.fn, self.depth = saved
        used = sorted(inner.read)
        scope.read.update(used)
        fn.params = ["c"] + [local(n) for n in used]
        fn.add(0, f"return {text}", fn.span)
        return f"{fn.name}(c{''.join(', ' + local(n) for n in used)})"

"""Expressions compiled to Python source, then to one function each.

A closure per AST node costs a Python call per node; most expressions of a ruleset (names, fields,
arithmetic, comparisons, calls) can instead become a single Python expression evaluated in one call.
The generated code only ever contains: literals written with `repr`, the context `c`, and names bound
in a private namespace (helpers and constants) — never text taken from a rule file as code. Anything
not handled here (comprehensions, decisions, chained comparisons, ranges) is embedded as the closure
the compiler already built, so both paths have the same semantics and the same errors.
"""
from __future__ import annotations

from typing import Callable

from ..engine.builtins import REGISTRY
from ..engine.state import Player, ZoneRef
from ..language import ast as A

_SIMPLE_LITERALS = (int, float, str, bool, type(None))
_COMPARE_OPS = {"==": "==", "!=": "!=", "<": "<", ">": ">", "<=": "<=", ">=": ">="}


class ExprCodegen:
    """Generates and builds expression functions for one compiler."""

    def __init__(self, compiler):
        from .compiler import _add, _div, _in, _iterable, _range, call_callable, get_attr, get_index
        self.comp = compiler
        self.ns: dict[str, object] = {
            "Player": Player, "ZoneRef": ZoneRef, "get_attr": get_attr, "get_index": get_index,
            "_add": _add, "_div": _div, "_in": _in, "call_callable": call_callable, "prog": compiler.prog,
            "_iterable": _iterable, "_range": _range,
        }
        self.counter = 0

    def const(self, value) -> str:
        self.counter += 1
        name = f"_k{self.counter}"
        self.ns[name] = value
        return name

    def temp(self) -> str:
        self.counter += 1
        return f"_t{self.counter}"

    def build(self, e: A.Expr, scope, fallback: Callable) -> Callable:
        """One function for the whole expression, or `fallback` when it is a single embedded closure."""
        try:
            src = self.gen(e, scope)
            if src is None:
                return fallback
            return eval(f"lambda c: {src}", self.ns)  # noqa: S307 - generated from the AST, see module doc
        except (SyntaxError, RecursionError, MemoryError):  # nesting beyond Python's parser: keep closures
            return fallback

    def embed(self, e: A.Expr, scope) -> str:
        return f"{self.const(self.comp.closure(e, scope))}(c)"

    def gen(self, e: A.Expr, scope) -> str | None:
        method = getattr(self, "g_" + type(e).__name__, None)
        src = method(e, scope) if method else None
        return src

    def sub(self, e: A.Expr, scope) -> str:
        return self.gen(e, scope) or self.embed(e, scope)

    # -- nodes ----------------------------------------------------------------------------------------
    def g_Literal(self, e: A.Literal, scope):
        if type(e.value) in _SIMPLE_LITERALS:
            return repr(e.value)
        return self.const(e.value)

    def g_Name(self, e: A.Name, scope):
        n = e.id
        if n in scope.names:
            return f"c.locals[{n!r}]"
        kind = self.comp.globals.get(n)
        prog = self.comp.prog
        if kind == "counter":
            return f"c.game.state.counters[{n!r}]"
        if kind in ("var", "param", "track"):
            return f"c.game.state.vars[{n!r}]"
        if kind == "zone":
            return f"ZoneRef(None, {n!r}, c.game.state.zones[{n!r}])"
        if kind == "die":
            return self.const(prog.dice[n])
        if kind == "table":
            return self.const(prog.tables[n])
        if kind == "procedure":
            return self.const(prog.procedures[n])
        if kind == "map":
            return repr(n)
        if n == "players":
            return "list(c.game.state.players)"
        if n == "num_players":
            return "len(c.game.state.players)"
        if n == "round":
            return "c.game.state.round"
        if n in REGISTRY:
            return self.const(REGISTRY[n])
        return None

    def g_Attr(self, e: A.Attr, scope):
        obj = self.sub(e.obj, scope)
        name = e.name
        kind = self.comp.player_fields.get(name)
        if kind in ("counter", "var", "zone"):
            t = self.temp()
            store = {"counter": "counters", "var": "vars", "zone": "zones"}[kind]
            fast = f"{t}.{store}[{name!r}]"
            if kind == "zone":
                fast = f"ZoneRef({t}, {name!r}, {fast})"
            return f"({fast} if type({t} := {obj}) is Player else get_attr(prog, {t}, {name!r}))"
        t = self.temp()  # records are the other frequent case: read them inline
        return f"({t}[{name!r}] if type({t} := {obj}) is dict else get_attr(prog, {t}, {name!r}))"

    def g_Index(self, e: A.Index, scope):
        return f"get_index({self.sub(e.obj, scope)}, {self.sub(e.key, scope)}, prog)"

    def g_Call(self, e: A.Call, scope):
        if not (isinstance(e.func, A.Name) and e.func.id not in scope.names):
            return None
        n = e.func.id
        args = ", ".join(self.sub(a, scope) for a in e.args)
        if n == "get" and len(e.args) == 3:  # records are read inline; tables and things by the builtin
            r, k, d = (self.sub(a, scope) for a in e.args)
            t = self.temp()
            return f"({t}.get({k}, {d}) if type({t} := {r}) is dict else {self.const(REGISTRY[n].fn)}(c, {t}, {k}, {d}))"
        if n in REGISTRY:
            fn = self.const(REGISTRY[n].fn)
            return f"{fn}(c{', ' if args else ''}{args})"
        if self.comp.globals.get(n) == "procedure":
            return f"call_callable(c, {self.const(self.comp.prog.procedures[n])}, [{args}], {self.const(e.span)})"
        return None

    def g_BinOp(self, e: A.BinOp, scope):
        a, b = self.sub(e.left, scope), self.sub(e.right, scope)
        if e.op == "..":
            return f"_range({a}, {b})"
        if e.op == "+":  # whole numbers added inline; lists, texts and zones through `_add`
            ta, tb = self.temp(), self.temp()
            return (f"({ta} + {tb} if (type({ta} := {a}) is int) & (type({tb} := {b}) is int) "
                    f"else _add({ta}, {tb}))")  # `&`: both sides are always evaluated, left first
        if e.op == "/":
            return f"_div({a}, {b})"
        return f"({a} {e.op} {b})"

    def g_Compare(self, e: A.Compare, scope):
        if len(e.ops) != 1:
            return None
        a, b = self.sub(e.operands[0], scope), self.sub(e.operands[1], scope)
        op = e.ops[0]
        if op == "in":
            return f"_in({a}, {b})"
        if op == "not in":
            return f"(not _in({a}, {b}))"
        return f"({a} {_COMPARE_OPS[op]} {b})"

    def g_BoolOp(self, e: A.BoolOp, scope):
        return f"({self.sub(e.left, scope)} {e.op} {self.sub(e.right, scope)})"

    def g_Not(self, e: A.Not, scope):
        return f"(not {self.sub(e.operand, scope)})"

    def g_Neg(self, e: A.Neg, scope):
        return f"(-{self.sub(e.operand, scope)})"

    def g_IfExpr(self, e: A.IfExpr, scope):
        return f"({self.sub(e.then, scope)} if {self.sub(e.cond, scope)} else {self.sub(e.orelse, scope)})"

    def g_ListLit(self, e: A.ListLit, scope):
        return "[" + ", ".join(self.sub(i, scope) for i in e.items) + "]"

    def g_RecordLit(self, e: A.RecordLit, scope):
        return "{" + ", ".join(f"{k!r}: {self.sub(v, scope)}" for k, v in zip(e.keys, e.values)) + "}"

    def g_Comprehension(self, e: A.Comprehension, scope):
        if e.var in scope.names:
            return None  # shadowing a local: the closure saves and restores it
        source = self.sub(e.iterable, scope)
        if ":=" in source:  # Python forbids assignment expressions in a comprehension's iterable
            source = f"{self.const(eval(f'lambda c: {source}', self.ns))}(c)"  # noqa: S307 - generated
        scope.names.add(e.var)
        try:
            body = self.sub(e.expr, scope)
            cond = f" if {self.sub(e.cond, scope)}" if e.cond is not None else ""
        finally:
            scope.names.discard(e.var)
        return f"[{body} for c.locals[{e.var!r}] in _iterable({source}){cond}]"

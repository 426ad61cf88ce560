"""The walk of statements: what each statement does to the types of locals and shared values (variables,
params, zones, a procedure's results), and the type errors of statements (a text written to a counter,
an assignment that does not fit a declared variable, `for` over a number).

A mixin of `infer.Inference`.
"""
from __future__ import annotations

from ...language import ast as A
from . import types as T
from .expressions import WALKS
from .facts import Locals
from .fields import PLAYER_BUILTIN


class StmtWalk:
    """The `s_*` walks, one per statement class."""

    def body(self, stmts: list[A.Stmt], L: Locals) -> None:
        walks = WALKS
        for s in stmts:
            f = walks.get(type(s))
            if f is None:
                f = walks[type(s)] = getattr(type(self), "s_" + type(s).__name__)
            f(self, s, L)

    # ---- statements ---------------------------------------------------------------------------------------
    def s_Let(self, s: A.Let, L: Locals):
        L.give(s.name, self.ty(s.value, L))

    def s_Assign(self, s: A.Assign, L: Locals):
        value = self.ty(s.value, L)
        t = s.target
        if isinstance(t, A.Name):
            n = t.id
            if L.has(n) or n not in self.env.globals:
                old = L.get(n)
                L.give(n, self.combined(s.op, old, value, s))
                return
            kind = self.env.globals.get(n)
            if kind == "counter":
                self.counter_write(s.op, value, s.value, f"`{n}`")
            elif kind == "var":
                self.var_write(("global", n), s.op, value, s)
            elif kind == "param":
                self.facts.grow(self.facts.params, n, self.combined(s.op, self.param_type(n), value, s))
            return
        obj = self.ty(t.obj, L)
        if isinstance(t, A.Attr):
            kind = self.env.player_fields.get(t.name)
            if obj.tag in T.LOOSE or obj.tag == "player":
                if kind in ("counter", "track"):
                    self.counter_write(s.op, value, s.value, f"the counter `{t.name}`")
                elif kind == "var":
                    self.var_write(("player", t.name), s.op, value, s)
                if obj.tag == "player" or kind is not None:
                    return
            if kind is None:
                return  # NAM003 (the compiler)
            self.err("TYP011", f"`.{t.name} {s.op}` sets a player's counter or variable, but this is {T.show(obj)}",
                     s.span, "only players have counters and variables")
            return
        key = self.ty(t.key, L)
        lit = t.key.value if isinstance(t.key, A.Literal) and isinstance(t.key.value, str) else None
        if obj.tag == "player":
            if lit is not None:
                kind = self.env.player_fields.get(lit)
                if kind in ("counter", "track"):
                    self.counter_write(s.op, value, s.value, f"the counter `{lit}`")
                elif kind == "var":
                    self.var_write(("player", lit), s.op, value, s)
                elif kind == "zone":
                    self.err("TYP011", f"`{lit}` is a zone and cannot be assigned", t.key.span,
                             "use `add`, `remove` or `move` to change a zone")
                elif lit not in PLAYER_BUILTIN:
                    self.no_player_field(lit, t.key.span)
            else:
                names = self.names_in(t.key)
                if names and all(self.env.player_fields.get(n) in ("counter", "track") for n in names):
                    self.counter_write(s.op, value, s.value, "the counter it names (" + ", ".join(sorted(names)) + ")")
                self._any_player(value)
            return
        if obj.tag == "record" or T.is_loose(obj):
            if s.op != "=":  # (`r[k] += v` changes a key the record has, and adds none: a key it does not
                #               have stops the game, so the record's keys stay as they are)
                if obj.tag == "record":
                    self.record_change(obj, lit, t, value, s)
                return
            if lit is not None:
                self.env.assigned_keys.add(lit)
            self.record_write(t.obj, lit, value, L)
            return
        if obj.tag in T.LISTLIKE or obj.tag in T.TEXTUAL or obj.tag in T.NUMERIC:
            self.err("TYP011", f"`[..] {s.op}` changes a record's key or a player's counter, not {T.show(obj)}'s items",
                     s.span, "lists are values: build a new list and assign it")
        del key

    def _any_player(self, value: T.Ty) -> None:
        f = self.facts
        new = T.join(f.any_player_field, value)
        if new != f.any_player_field:
            f.any_player_field = new
            f.log.append(("any_player_field", None))

    def names_in(self, key: A.Expr) -> set[str] | None:
        """The texts a key can be, where the rules spell them out: `goods[i]`, with `param goods` a list of
        texts nothing assigns to (None where the checker cannot tell)."""
        if isinstance(key, A.Index):
            key = key.obj
        if not isinstance(key, A.Name) or self.env.globals.get(key.id) != "param" or key.id in self.env.pinned:
            return None
        d = self.env._params.get(key.id)
        value = d.value if d is not None else None
        if key.id in self.facts.params or not isinstance(value, A.ListLit) or not value.items:
            return None
        out = set()
        for item in value.items:
            if not (isinstance(item, A.Literal) and isinstance(item.value, str)):
                return None
            out.add(item.value)
        return out

    def record_change(self, obj: T.Ty, lit: str | None, t: A.Index, value: T.Ty, s: A.Assign) -> None:
        """`r[k] += v`: the key must be one the record has; where its values are numbers, `v` must be one
        (a text joined to a number gives a text, which the rules then compute with as a number)."""
        if lit is not None:
            held = self.attr(obj, lit, t.key.span)
        else:
            held = T.NEVER
            for v in T.record_keys(obj).values():
                held = T.join(held, v)
        if held.tag in T.NUMERIC and value.tag in T.TEXTUAL:
            self.err("TYP011", f"the record holds numbers here; `{s.op}` gives it {T.show(value)}",
                     getattr(s.value, "span", s.span), "add a number: a text joined to a number is a text")

    def record_write(self, target: A.Expr, key: str | None, value: T.Ty, L: Locals) -> None:
        """`r["k"] = v`: the record held by a local, a variable or a parameter gains the key."""
        added = T.record({key: value}, True) if key is not None else T.OPEN_RECORD  # (keys added: open)
        if isinstance(target, A.Name):
            if L.has(target.id):
                L.give(target.id, added)
            elif self.env.globals.get(target.id) == "var":
                self.facts.grow(self.facts.vars, ("global", target.id), added)
            elif self.env.globals.get(target.id) == "param":
                self.facts.grow(self.facts.params, target.id, added)
        elif isinstance(target, A.Attr) and self.env.player_fields.get(target.name) == "var":
            self.facts.grow(self.facts.vars, ("player", target.name), added)

    def combined(self, op: str, old: T.Ty, value: T.Ty, s) -> T.Ty:
        if op == "=":
            return value
        return self.arith("+" if op == "+=" else "-", old, value, s.span)

    def counter_write(self, op: str, value: T.Ty, e: A.Expr, what: str) -> None:
        if self.mixed([value], getattr(e, "span", None), what):
            return
        if value.tag not in T.NUMERIC and not T.is_loose(value):
            self.err("TYP016", f"{what} holds whole numbers; `{op}` gives it {T.show(value)}", e.span if hasattr(
                e, "span") else None, "counters hold whole numbers: keep other values in a `var`")

    def var_write(self, key: tuple[str, str], op: str, value: T.Ty, s) -> None:
        declared = self.env.var_declared.get(key)
        current = self.var_type(key)
        new = self.combined(op, current, value, s)
        if declared is not None:
            if not T.accepts(declared, new):
                self.err("TYP016", f"variable `{key[1]}` is declared {T.show(declared)}; this gives it {T.show(new)}",
                         s.span, "assign a value of the declared type, or declare the variable `any`")
            return
        self.facts.grow(self.facts.vars, key, new)

    def number_expected(self, t: T.Ty, e: A.Expr, what: str) -> None:
        if self.mixed([t], getattr(e, "span", None), what):
            return
        if t.tag not in T.NUMERIC and not T.is_loose(t):
            self.err("TYP016", f"{what} must be a number, not {T.show(t)}", getattr(e, "span", None))

    def s_If(self, s: A.If, L: Locals):
        for cond, body in s.branches:
            self.ty(cond, L)
            self.body(body, L)
        self.body(s.orelse, L)

    def s_For(self, s: A.For, L: Locals):
        it = self.ty(s.iterable, L)
        L.give(s.var, self.item(it, s.iterable, "`for`"))
        self.body(s.body, L)

    def s_Repeat(self, s: A.Repeat, L: Locals):
        n = self.ty(s.count, L)
        if n.tag not in ("int", "bool") and not T.is_loose(n) and n.tag != "number":
            self.err("TYP011", f"`repeat` needs a whole number of times, not {T.show(n)}", s.count.span
                     if hasattr(s.count, "span") else s.span)
        self.body(s.body, L)

    def s_While(self, s: A.While, L: Locals):
        self.ty(s.cond, L)
        self.body(s.body, L)

    def s_Return(self, s: A.Return, L: Locals):
        t = self.ty(s.value, L)
        if L.ret is None:
            return
        what, name = L.ret
        table = {"proc": self.facts.proc_ret, "block": self.facts.block_ret, "orig": self.facts.orig_ret}[what]
        self.facts.grow(table, name, t)

    def s_Break(self, s, L):
        pass

    s_Continue = s_Skip = s_EndGame = s_Break

    def s_Log(self, s: A.Log, L: Locals):
        for p in s.parts:
            if not isinstance(p, str):
                self.ty(p, L)

    def s_Fail(self, s: A.Fail, L: Locals):
        for p in s.parts:
            if not isinstance(p, str):
                self.ty(p, L)

    def s_ExprStmt(self, s: A.ExprStmt, L: Locals):
        self.ty(s.expr, L)

    def s_ZoneOp(self, s: A.ZoneOp, L: Locals):
        item = self.ty(s.item, L) if s.item is not None else None
        for role, e in (("source", s.source), ("destination", s.dest)):
            if e is None:
                continue
            z = self.ty(e, L)
            if not T.is_loose(z) and z.tag != "zone":
                what = "zone" if s.op == "shuffle" else role
                self.err("TYP011", f"the {what} of `{s.op}` must be a zone, not {T.show(z)}",
                         getattr(e, "span", s.span),
                         "zones are declared with `player zone NAME` or `global zone NAME`")
        if item is not None and s.dest is not None:
            key = self.zone_key(s.dest, L)
            if key is None:
                f = self.facts
                new = T.join(f.any_zone, item)
                if new != f.any_zone:
                    f.any_zone = new
                    f.log.append(("any_zone", None))
            else:
                self.facts.grow(self.facts.zones, key, item)

    def zone_key(self, e: A.Expr, L: Locals) -> tuple[str, str] | None:
        if isinstance(e, A.Name) and not L.has(e.id) and self.env.globals.get(e.id) == "zone":
            return ("global", e.id)
        if isinstance(e, A.Attr) and self.env.player_fields.get(e.name) == "zone":
            return ("player", e.name)
        if isinstance(e, A.Index) and isinstance(e.key, A.Literal) \
                and self.env.player_fields.get(e.key.value) == "zone":
            return ("player", e.key.value)
        return None

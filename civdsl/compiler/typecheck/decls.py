"""The walk of declarations: what each kind of declaration's expressions and bodies must be (a counter's
initial value a number, a thing's fields of their kind's types, a procedure's parameters what its callers
give), and `function`, which walks a body with its locals kept from round to round.

A mixin of `infer.Inference` (it reads `self.facts`, `self.env` and the statement and expression walks).
"""
from __future__ import annotations

from ...language import ast as A
from . import types as T
from .facts import Locals

MAX_LOCAL_WALKS = 3     # walks of one function's body until its locals' types settle


class DeclWalk:
    """The `d_*` walks, one per declaration class, and the bodies they hold."""

    def d_Param(self, d: A.Param):
        t = self.expr_in(d.value, {})
        declared = self.env.declared_param(d)
        if declared is not None and not T.accepts(declared, t) and d.name not in self.env.overlay_params:
            self.err("TYP016", f"param `{d.name}` is declared {T.show(declared)}, but its value is {T.show(t)}",
                     d.span, "give it a value of the declared type")

    def d_Counter(self, d: A.Counter):
        names = {"player": T.PLAYER} if d.scope == "player" else {}
        for e in (d.lo, d.hi):
            if e is not None:
                self.number_expected(self.expr_in(e, {}), e, "a counter's bound")
        self.number_expected(self.expr_in(d.init, names), d.init, "a counter's initial value")

    def d_Var(self, d: A.Var):
        names = {"player": T.PLAYER} if d.scope == "player" else {}
        t = self.expr_in(d.init, names)
        declared = self.env.var_declared.get((d.scope, d.name))
        if declared is not None and not T.accepts(declared, t):
            self.err("TYP016", f"variable `{d.name}` is declared {T.show(declared)}, but starts as {T.show(t)}",
                     d.span, "give it a value of the declared type")

    def d_Die(self, d: A.Die):
        self.expr_in(d.faces, {})

    def d_Table(self, d: A.Table):
        types = [self.expr_in(r.value, {}) for r in d.rows]
        kinds = {x.arg for x in types if x.tag == "thing" and x.arg}
        if len(kinds) == 1 and len(types) > 1:  # (rows naming things of one kind, and a text among them)
            for r, x in zip(d.rows, types):
                if x.tag == "text":
                    self.near_thing(r.value, next(iter(kinds)))

    def d_Track(self, d: A.Track):
        for f in d.fields:
            self.expr_in(f.value, {})

    def d_Sequence(self, d: A.Sequence):
        for k in (d.turns.keys if d.turns else []):
            self.expr_in(k, {"player": T.PLAYER})

    def d_Setup(self, d: A.Setup):
        self.function(d, d.body, {}, set())

    def d_Victory(self, d: A.Victory):
        for f in d.fields:
            if f.name in ("check", "finish"):
                continue
            names = {} if f.name in ("game_over", "max_rounds") else {"player": T.PLAYER}
            t = self.expr_in(f.value, names)
            if f.name == "max_rounds":
                self.number_expected(t, f.value, "`max_rounds`")

    def d_Heuristic(self, d: A.Heuristic):
        self.read("options", d.name)
        option = self.facts.options.get(d.name, T.UNKNOWN)
        score = self.expr_in(d.expr, {"player": T.PLAYER, "option": option})
        self.number_expected(score, d.expr, "a heuristic's score")

    def d_View(self, d: A.View):
        names = {"player": T.UNKNOWN}
        if d.of:
            names[d.of] = T.PLAYER
        for item in d.items:
            self.expr_in(item.expr, names)

    def d_DecisionText(self, d: A.DecisionText):
        self.read("items", d.name)
        for f in d.fields:
            self.expr_in(f.value, {"player": T.PLAYER, "option": self.facts.items.get(d.name, T.UNKNOWN)})

    def d_Headline(self, d: A.Headline):
        self.read("measures", d.name)
        names = {"m": self.facts.measures.get(d.name, T.UNKNOWN), "player": T.UNKNOWN}
        if d.when is not None:
            self.expr_in(d.when, names)
        for p in d.parts:
            if not isinstance(p, str):
                self.expr_in(p, names)

    def d_Invariant(self, d: A.Invariant):
        self.expr_in(d.expr, {})

    def expr_in(self, e: A.Expr, names: dict[str, T.Ty]) -> T.Ty:
        """An expression outside statements, with these names bound (none: one set of locals for all,
        unless one such expression is inside another's comprehension)."""
        if not names and not self.outside.types:
            return self.ty(e, self.outside)
        return self.ty(e, Locals(names, names))

    # ---- declarations with bodies -----------------------------------------------------------------------
    def d_Entity(self, d: A.Entity) -> None:
        env = self.env
        kind = env.kinds.get(d.kind)
        if kind is None or env.entity_kind.get(d.name) != d.kind:
            return
        for f in d.fields:
            t = self.expr_in(f.value, {})
            field = kind.get(f.name)
            if field is None or field[0].tag == "block":
                continue
            want = field[0]
            self.refs(want, f.value, d, f)
            if want.tag == "text" or (want.tag == "list" and want.arg.tag == "text"):
                for item in (f.value.items if isinstance(f.value, A.ListLit) else [f.value]):
                    self.near_area(item)
            if not T.accepts(want, t) and not env.overlaid_field(d, f):
                self.err("TYP003", f"`{f.name}` of {d.kind} \"{d.name}\" must be {T.show(want)}, got {T.show(t)}",
                         f.span, "give a value of the field's type")
        for b in d.blocks:
            self.read("block_args", (b.name, len(b.params)))
            args = self.facts.block_args.get((b.name, len(b.params)))
            types, fixed = {"this": T.thing(d.kind)}, {"this"}
            for i, p in enumerate(b.params):
                declared = env.block_declared.get((d.name, b.name, i))
                if declared is not None:
                    types[p] = declared
                    fixed.add(p)
                elif b.name in env.block_values:
                    types[p] = T.UNKNOWN   # the block is handed around as a value: called with anything
                else:
                    types[p] = args[i] if args is not None else T.NEVER
            self.function(b, b.body, types, fixed, ("block", b.name))

    def refs(self, want: T.Ty, value: A.Expr, d: A.Entity, f: A.Field) -> None:
        """REF001 for a text that a `ref KIND` (or `list of ref KIND`) field gives and no thing of that kind
        has as name (also in an option, whose things no game start evaluates in `civdsl check`)."""
        items, where = [value], f"`{f.name}` of {d.kind} \"{d.name}\""
        if want.tag == "list" and isinstance(value, A.ListLit):
            want, items, where = want.arg, value.items, "each item of " + where
        if want.tag != "thing" or not want.arg:
            return
        names = self.env.prog.by_kind.get(want.arg, [])
        for item in items:
            if isinstance(item, A.Literal) and isinstance(item.value, str) \
                    and self.env.entity_kind.get(item.value) != want.arg:
                guess = self.suggest(item.value, names)
                self.err("REF001", f"{where} names {want.arg} \"{item.value}\", which does not exist", f.span,
                         f"did you mean \"{guess}\"?" if guess else f"declare `{want.arg} \"{item.value}\" {{ ... }}`")

    def d_Procedure(self, d: A.Procedure) -> None:
        env = self.env
        self.read("escaped", d.name)
        self.read("proc_args", d.name)
        escaped = d.name in self.facts.escaped
        args = self.facts.proc_args.get(d.name)
        declared = env.proc_declared.get(d.name, [])
        types, fixed = {}, set()
        for i, p in enumerate(d.params):
            if i < len(declared) and declared[i] is not None:
                types[p] = declared[i]
                fixed.add(p)
            elif escaped:
                types[p] = T.UNKNOWN  # the procedure is handed around as a value: called with anything
            else:
                types[p] = args[i] if args is not None and i < len(args) else T.NEVER
        self.function(d, d.body, types, fixed, ("proc", d.name))

    def returns_of(self, d: A.Procedure, name: str) -> T.Ty:
        """What the procedure `d` (an original an overlay replaced) gives, called as `name` is."""
        args = None if name in self.facts.escaped else self.facts.proc_args.get(name)
        types = {p: (args[i] if args is not None and i < len(args) else T.UNKNOWN) for i, p in enumerate(d.params)}
        report, again, self.report = self.report, self._again, False
        try:
            for _ in range(MAX_LOCAL_WALKS):  # (until its locals and what it gives settle)
                mark, self._again = len(self.facts.log), False
                self.function(("orig", id(d)), d.body, types, set(), ("orig", name))
                if not self._again and len(self.facts.log) == mark:
                    break
        finally:
            self.report, self._again = report, again
        r = self.facts.orig_ret.get(name, T.NEVER)
        return T.UNKNOWN if r.tag in ("never", "none") else r

    def d_Phase(self, d: A.Phase) -> None:
        player = T.UNKNOWN if d.order is not None and d.order.mode == "once" else T.PLAYER
        for k in (d.order.keys if d.order else []):
            self.expr_in(k, {"player": T.PLAYER})
        if d.when is not None:
            self.expr_in(d.when, {"player": player})
        for s in d.steps:
            self.function(s, s.body, {"player": player}, {"player"})

    def function(self, node, body: list[A.Stmt], types: dict[str, T.Ty], fixed: set[str], ret=None) -> None:
        """A body, walked once a round; its locals (kept from round to round, keyed by `node`) only grow,
        and a round in which they grew is not the last."""
        key = node if isinstance(node, tuple) else id(node)
        L = self._locals.get(key)
        if L is None:
            L = self._locals[key] = Locals(types, fixed, ret)
            if self._owned is not None:
                self._owned.add(key)
        else:
            if self._owned is not None and key not in self._owned:
                L = self._locals[key] = L.copy()  # the base check's locals: copied before they change
                self._owned.add(key)
            for name, t in types.items():
                if name in fixed:
                    L.types[name] = t
                else:
                    L.give(name, t)
        L.start_walk()
        self.body(body, L)
        L.end_walk()
        if L.changed:
            self._again = True  # (its own locals grew: walked again)

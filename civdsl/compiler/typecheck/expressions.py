"""The walk of expressions (other than field reads and calls: `fields`, `calls`): literals, names,
lists, records, comprehensions and the operators — what values each gives and which values it cannot take
(TYP011; TYP013 for a value that is a number in some cases and a text in others).

A mixin of `infer.Inference`.
"""
from __future__ import annotations

from ...engine.builtins import REGISTRY
from ...language import ast as A
from ...language.diagnostics import Span
from . import types as T
from .facts import Locals

_ORDERED = {"<", ">", "<=", ">="}


WALKS: dict[type, object] = {}  # syntax class -> its walk (`e_*`, `s_*`), unbound: a walk holds no method
#                                 bound to itself, so it is freed as soon as it is done with


class ExprWalk:
    """The `e_*` walks of values and operators."""

    def ty(self, e: A.Expr, L: Locals) -> T.Ty:
        f = WALKS.get(type(e))
        if f is None:
            f = WALKS[type(e)] = getattr(type(self), "e_" + type(e).__name__)
        return f(self, e, L)

    def e_Literal(self, e: A.Literal, L):
        t = self.literals.get(id(e))  # (the same in every walk: worked out once per check)
        if t is None:
            v = e.value
            kind = self.env.entity_kind.get(v) if type(v) is str else None
            t = self.literals[id(e)] = T.thing(kind) if kind else T.value_type(v)
        return t

    def e_Name(self, e: A.Name, L: Locals):
        n = e.id
        L.seen.add(n)  # (`L.has`, inline: the commonest node)
        t = L.types.get(n)
        if t is not None:
            return t
        env = self.env
        kind = env.globals.get(n)
        if kind == "param":
            return self.param_type(n)
        if kind in ("counter",):
            return T.INT
        if kind == "var":
            return self.var_type(("global", n))
        if kind == "zone":
            return self.zone_type(("global", n))
        if kind in ("die", "table", "track"):  # (their own walks report what is wrong in them)
            report, self.report = self.report, False
            try:
                return {"die": env.die_type, "table": env.table_type, "track": env.track_type}[kind](n, self)
            finally:
                self.report = report
        if kind == "map":
            return T.MAP
        if kind == "procedure":
            if n not in self.facts.escaped:
                self.facts.escaped.add(n)
                self.facts.log.append(("escaped", n))
            return T.BLOCK
        if n == "players":
            return T.list_of(T.PLAYER)
        if n in ("num_players", "round"):
            return T.INT
        if n in REGISTRY:
            return T.BLOCK
        return T.NEVER  # (the compiler resolved every name: a local read before the walk met its `let`)

    def e_ListLit(self, e: A.ListLit, L):
        if not e.items:
            return T.list_of(T.NEVER)  # `[]`: a list that joins with what is added to it
        t = T.NEVER
        types = [self.ty(i, L) for i in e.items]
        for x in types:
            t = T.join(t, x)
        kinds = {x.arg for x in types if x.tag == "thing" and x.arg}
        if len(kinds) == 1 and len(types) > 1:  # things of one kind, and a text among them: a misspelt thing?
            for item, x in zip(e.items, types):
                if x.tag == "text":
                    self.near_thing(item, next(iter(kinds)))
        return T.list_of(t)

    def e_RecordLit(self, e: A.RecordLit, L):
        fields: dict[str, T.Ty] = {}
        for k, v in zip(e.keys, e.values):
            t = self.ty(v, L)
            if len(fields) <= T.MAX_KEYS:
                fields[k] = t
        if not fields:  # `{}`: no key yet. Filled in later key by key (`r[k] = v` opens it: see
            #              `record_write`) or replaced by whole records, whose keys it then stands for
            return T.EMPTY_RECORD
        return T.record(fields)

    def e_Comprehension(self, e: A.Comprehension, L: Locals):
        it = self.ty(e.iterable, L)
        saved = L.types.get(e.var)
        was_fixed = e.var in L.fixed
        L.types[e.var] = self.item(it, e.iterable, "a comprehension")
        L.fixed.add(e.var)
        try:
            if e.cond is not None:
                self.ty(e.cond, L)
            out = self.ty(e.expr, L)
        finally:
            if saved is None:
                L.types.pop(e.var, None)
            else:
                L.types[e.var] = saved
            if not was_fixed:
                L.fixed.discard(e.var)
        return T.list_of(out)

    def e_BinOp(self, e: A.BinOp, L):
        a, b = self.ty(e.left, L), self.ty(e.right, L)
        if e.op == "..":
            for t, side in ((a, e.left), (b, e.right)):
                if t.tag not in T.NUMERIC and not T.is_loose(t):
                    self.err("TYP011", f"a range `a..b` goes between whole numbers, not {T.show(t)}",
                             getattr(side, "span", e.span))
            return T.list_of(T.INT)
        return self.arith(e.op, a, b, e.span)

    def arith(self, op: str, a: T.Ty, b: T.Ty, span: Span) -> T.Ty:
        if a.tag == "never" or b.tag == "never":
            return T.NEVER
        if op not in ("+", "*"):
            if self.mixed((a, b), span, f"`{op}`"):
                return T.NEVER
            text = next((t for t in (a, b) if t.tag in T.TEXTUAL), None)
            if text is not None:  # (whatever the other side is: no text takes `-`, `/`, `//`, `%`, `**`)
                self.err("TYP011", f"cannot apply `{op}` to {T.show(text)}", span, _op_hint(op))
                return T.NEVER
        if a.tag == "either" or b.tag == "either":  # (`+`, `*`: numbers in some cases, texts in others)
            return T.either(T.NUMBER, T.TEXT)
        if T.is_loose(a) or T.is_loose(b):
            if op in ("+", "*") and (a.tag in T.TEXTUAL or b.tag in T.TEXTUAL):
                return T.TEXT  # (joined, or repeated a number of times: a text, if it does not fail)
            if op in ("-", "/", "//", "%", "**"):
                return T.NUMBER  # (only numbers take these: what they give, if they do not fail, is one)
            return T.UNKNOWN
        ta, tb = a.tag, b.tag
        num_a, num_b = ta in T.NUMERIC, tb in T.NUMERIC
        if num_a and num_b:
            if op in ("+", "-", "*", "//", "%"):
                return T.INT if ta != "number" and tb != "number" else T.NUMBER
            return T.NUMBER
        if op == "+":
            if ta in T.TEXTUAL or tb in T.TEXTUAL:  # (`"coast " + g`: a number joined to a text, on purpose)
                return T.TEXT
            if ta in T.LISTLIKE and tb in T.LISTLIKE:
                return T.list_of(T.join(a.arg, b.arg))
        if op == "*":
            for seq, n in ((a, b), (b, a)):
                if n.tag in ("int", "bool") and (seq.tag in T.TEXTUAL or seq.tag == "list"):
                    return T.TEXT if seq.tag in T.TEXTUAL else seq
        self.err("TYP011", f"cannot apply `{op}` to {T.show(a)} and {T.show(b)}", span, _op_hint(op))
        return T.NEVER

    def e_Neg(self, e: A.Neg, L):
        t = self.ty(e.operand, L)
        if t.tag == "never":
            return t
        if self.mixed([t], e.span, "`-`"):
            return T.NEVER
        if t.tag not in T.NUMERIC and not T.is_loose(t):
            self.err("TYP011", f"cannot negate {T.show(t)}", e.span, "`-x` is for numbers")
            return T.NEVER
        return T.INT if t.tag == "bool" else t

    def e_Compare(self, e: A.Compare, L):
        types = [self.ty(o, L) for o in e.operands]
        for i, op in enumerate(e.ops):
            a, b = types[i], types[i + 1]
            if op in _ORDERED:
                self.ordered([a, b], e.operands[i:i + 2], e.span, op)
            elif op in ("in", "not in") and not T.is_loose(b):
                if b.tag in T.NUMERIC or b.tag in ("player", "die"):
                    self.err("TYP011", f"`{op}` looks in a list, a zone, a record or a text, not {T.show(b)}", e.span)
                elif b.tag in T.LISTLIKE and b.arg.tag == "thing":
                    self.near_thing(e.operands[i], b.arg.arg)
            if op in ("==", "!="):
                for x, other in ((a, e.operands[i + 1]), (b, e.operands[i])):
                    if x.tag == "thing":
                        self.near_thing(other, x.arg)
        return T.BOOL

    def ordered(self, types: list[T.Ty], exprs, span: Span, op: str = "min/max") -> None:
        """`<`, `min`, `max`...: numbers with numbers, texts with texts, lists with lists."""
        if sum(1 for t in types if not T.is_loose(t) or t.tag == "either") > 1 \
                and self.mixed(types, span, f"`{op}`"):
            return
        sorts = set()
        for t in types:
            if T.is_loose(t):
                continue
            s = "number" if t.tag in T.NUMERIC else "text" if t.tag in T.TEXTUAL else "list" if \
                t.tag in T.LISTLIKE else t.tag
            if s in ("player", "record", "die", "table", "block", "map"):
                self.err("TYP011", f"`{op}` cannot order {T.show(t)}", span,
                         "order numbers with numbers, texts with texts, lists with lists")
                return
            sorts.add(s)
        if len(sorts) > 1:
            shown = " and ".join(T.show(t) for t in types if not T.is_loose(t))
            self.err("TYP011", f"`{op}` cannot compare {shown}", span,
                     "comparing a number with a text stops the game: convert one with `int(..)` or `str(..)`")

    def e_BoolOp(self, e: A.BoolOp, L):
        return T.join(self.ty(e.left, L), self.ty(e.right, L))

    def e_Not(self, e: A.Not, L):
        self.ty(e.operand, L)
        return T.BOOL

    def e_IfExpr(self, e: A.IfExpr, L):
        self.ty(e.cond, L)
        a, b = self.ty(e.then, L), self.ty(e.orelse, L)
        # A number in one branch and a text in the other: legal where the value is shown ("held" or a
        # price), an error where it is computed with (`join` gives `either`, reported there: TYP013).
        return T.join(a, b)

    def mixed(self, types, span: Span, what: str) -> bool:
        """TYP013 where a number is needed and the value is a number in some cases and a text in others."""
        for t in types:
            if t.tag == "either":
                self.err("TYP013", f"{what} needs a number, but this value is {T.show(t.arg[0])} in some cases and "
                         f"{T.show(t.arg[1])} in others", span,
                         "give it a number in every case: both branches of an `if`, every assignment, every call")
                return True
        return False

    def e_Choose(self, e: A.Choose, L):
        who = self.ty(e.who, L)
        self.chooser(who, e)
        item = self.item(self.ty(e.options, L), e.options, "`chooses`")
        self.facts.grow(self.facts.options, e.tag, item)
        self.facts.grow(self.facts.items, e.tag, item)
        return item

    def e_ChooseSubset(self, e: A.ChooseSubset, L):
        who = self.ty(e.who, L)
        self.chooser(who, e)
        for x in (e.lo, e.hi):
            if x is not None:
                self.number_expected(self.ty(x, L), x, "how many items are chosen")
        item = self.item(self.ty(e.items, L), e.items, "`chooses subset`")
        self.facts.grow(self.facts.options, e.tag, T.list_of(item))
        self.facts.grow(self.facts.items, e.tag, item)
        return T.list_of(item)

    def chooser(self, who: T.Ty, e) -> None:
        if not T.is_loose(who) and who.tag != "player":
            self.err("TYP011", f"only a player can choose, not {T.show(who)}", e.span)



def _op_hint(op: str) -> str:
    if op == "+":
        return "`+` adds numbers, joins lists and joins texts"
    if op == "*":
        return "`*` multiplies numbers, or repeats a text or a list a whole number of times"
    return f"`{op}` is for numbers: a value the rules compute with must be a number"

"""Declared ranges, checked where the values are constants: `param loss: int in 0.. = 4`, kind
fields (`cost: int in 0..`) and the initial values of counters (`player counter food in 0..15 = 3`).

`constant` folds what a game would compute before it starts without reading any state: numbers,
`-`, `+ - * //`, parameters with constant values and the constant fields of named things. Anything
else is not constant and is not checked here (bounded: a chain of parameters at most `MAX_FOLD` deep).
"""
from __future__ import annotations

from ...language import ast as A
from ...language.diagnostics import Diagnostic

MAX_FOLD = 40
_NOT = object()


class Folder:
    """Constant values of expressions, given the ruleset's params and things."""

    def __init__(self, env):
        self.env = env
        self.params = {d.name: d for d in env.of(A.Param)}
        self.entities = {d.name: d for d in env.of(A.Entity)}

    def constant(self, e, depth: int = 0):
        """The value of `e` if it is a number known before the game starts, else `_NOT`."""
        if depth > MAX_FOLD or e is None:
            return _NOT
        if isinstance(e, A.Literal):
            v = e.value
            return v if isinstance(v, (int, float)) and not isinstance(v, bool) else _NOT
        if isinstance(e, A.Neg):
            v = self.constant(e.operand, depth + 1)
            return _NOT if v is _NOT else -v
        if isinstance(e, A.BinOp) and e.op in ("+", "-", "*", "//"):
            a = self.constant(e.left, depth + 1)
            b = self.constant(e.right, depth + 1)
            if a is _NOT or b is _NOT or (e.op == "//" and b == 0):
                return _NOT
            if abs(a) > 1e15 or abs(b) > 1e15:
                return _NOT
            return {"+": a + b, "-": a - b, "*": a * b}.get(e.op, a // b if e.op == "//" else _NOT)
        if isinstance(e, A.Name) and e.id in self.params and self.env.globals.get(e.id) == "param":
            if e.id in self._assigned:
                return _NOT
            return self.constant(self.params[e.id].value, depth + 1)
        if isinstance(e, A.Attr) and isinstance(e.obj, A.Literal) and e.obj.value in self.entities:
            ent = self.entities[e.obj.value]
            f = next((f for f in ent.fields if f.name == e.name), None)
            if f is not None:
                return self.constant(f.value, depth + 1)
        return _NOT

    @property
    def _assigned(self) -> set[str]:
        return self.env.assigned_globals


def outside(folder: Folder, value, lo, hi):
    """A description of how the constant `value` lies outside `lo..hi` (None: inside, or not constant)."""
    v = folder.constant(value)
    if v is _NOT:
        return None
    low = folder.constant(lo) if lo is not None else None
    high = folder.constant(hi) if hi is not None else None
    if low is not _NOT and low is not None and v < low:
        return v, f"{_n(low)}..{'' if high in (None, _NOT) else _n(high)}"
    if high is not _NOT and high is not None and v > high:
        return v, f"{'' if low in (None, _NOT) else _n(low)}..{_n(high)}"
    return None


def _n(x) -> str:
    return str(int(x)) if isinstance(x, float) and x.is_integer() else str(x)


def check_ranges(env, folder: Folder) -> list[Diagnostic]:
    """TYP014 for params and things' fields outside their declared ranges; TYP015 (a warning) for a
    counter whose constant initial value is outside its bounds (it is clamped)."""
    out: list[Diagnostic] = []
    for d in env.of(A.Param):
        if d.lo is None and d.hi is None:
            continue
        if d.name in env.overlay_params:
            continue  # reported by the overlay check, with the original declaration
        bad = outside(folder, d.value, d.lo, d.hi)
        if bad:
            out.append(Diagnostic("TYP014", f"param `{d.name}` is {_n(bad[0])}, outside its range {bad[1]}", d.span,
                                  "error", "give a value inside the declared range"))
    kinds = {k.name: k for k in env.of(A.Kind)}
    for e in env.of(A.Entity):
        kind = kinds.get(e.kind)
        if kind is None:
            continue
        given = {f.name: f for f in e.fields}
        for kf in kind.fields:
            if kf.lo is None and kf.hi is None:
                continue
            f = given.get(kf.name)
            value, span = (f.value, f.span) if f is not None else (kf.default, kf.span)
            if value is None:
                continue
            bad = outside(folder, value, kf.lo, kf.hi)
            if bad:
                related = [(kf.span, f"`{kf.name}` of {e.kind} is declared in {bad[1]} here")]
                if f is not None and env.overlaid_field(e, f):  # the original declaration first
                    related.insert(0, (e.span, f"{e.kind} \"{e.name}\" is declared here"))
                out.append(Diagnostic("TYP014", f"`{kf.name}` of {e.kind} \"{e.name}\" is {_n(bad[0])}, outside its "
                                      f"range {bad[1]}", span, "error", "give a value inside the declared range",
                                      related))
    for d in env.of(A.Counter):
        bad = outside(folder, d.init, d.lo, d.hi)
        if bad:
            out.append(Diagnostic("TYP015", f"counter `{d.name}` starts at {_n(bad[0])}, outside its bounds {bad[1]}: "
                                  "it is clamped", d.span, "warning", "start it inside its bounds"))
    return out

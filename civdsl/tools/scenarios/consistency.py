"""The consistency pass on a scenario's injected state.

A scenario sets counters, zones and the board by hand, and a hand-made state can be one no game reaches:
monuments without their points, tokens on the board that were never taken from the stock. After the
state is set, every `invariant` of the ruleset is evaluated; one that does not hold is reported with
what does not match — the player (or thing) for which an `all([...])` fails, and both sides of the
comparison that fails, with their values — as a warning (`consistency: error` makes it a failure,
`consistency: off` skips the pass).
"""
from __future__ import annotations

from typing import Any

from ...compiler.compiler import compile_expression
from ...engine.builtins import fmt
from ...engine.views import look
from ...language import ast as A
from ...language.diagnostics import CivError
from ..ruleview import source_of

MAX_SHOWN = 3   # failing items named per invariant


def check_invariants(game) -> list[str]:
    """One line per invariant of the ruleset that does not hold in the game's state as it is."""
    decls = {d.name: d for d in game.rs.of(A.Invariant)}
    out = []
    for name, fn, span in game.program.invariants:
        try:
            holds = _evaluate(game, fn, {})
        except CivError as exc:
            out.append(f"invariant \"{name}\" cannot be evaluated on this state: {exc.diagnostics[0].message}")
            continue
        if holds:
            continue
        detail = None
        if name in decls:
            try:
                detail = why(game, decls[name].expr, {})
            except CivError:
                detail = None
        where = f"{game.rs.display(span.file)}:{span.line}" if span else "?"
        out.append(f"invariant \"{name}\" ({where}) does not hold" + (f": {detail}" if detail else ""))
    return out


def _evaluate(game, fn, bindings: dict[str, Any]):
    """A compiled expression's value in the game's state, changing nothing."""
    def run():
        game.c.locals = dict(bindings)
        return fn(game.c)
    return look(game, None, True, run)


_compiled: dict[tuple, tuple] = {}  # ids of the expression and program, locals -> (expression, program, function)


def _value(game, expr: A.Expr, bindings: dict[str, Any]):
    key = (id(expr), id(game.program), tuple(bindings))
    hit = _compiled.get(key)
    if hit is None or hit[0] is not expr or hit[1] is not game.program:
        if len(_compiled) > 1000:
            _compiled.clear()
        hit = _compiled[key] = (expr, game.program, compile_expression(game.program, expr, list(bindings)))
    return _evaluate(game, hit[2], bindings)


def _text(expr: A.Expr) -> str:
    return " ".join(source_of(expr.span).split()) or "the condition"


def why(game, expr: A.Expr, bindings: dict[str, Any]) -> str | None:
    """Why `expr` is false with these locals, as far as its shape tells: the items for which an
    `all([... for x in xs])` fails, the conjunct of an `and` that fails, both sides of a comparison."""
    if isinstance(expr, A.Call) and isinstance(expr.func, A.Name) and expr.func.id == "all" \
            and len(expr.args) == 1 and isinstance(expr.args[0], A.Comprehension):
        comp = expr.args[0]
        items = _value(game, comp.iterable, bindings)
        failing = []
        for item in list(items) if isinstance(items, (list, tuple)) else []:
            inner = {**bindings, comp.var: item}
            if comp.cond is not None and not _value(game, comp.cond, inner):
                continue
            if not _value(game, comp.expr, inner):
                failing.append((item, inner))
        if not failing:
            return None
        parts = []
        for item, inner in failing[:MAX_SHOWN]:
            reason = why(game, comp.expr, inner)
            parts.append(f"for {comp.var} = {fmt(item)}" + (f", {reason}" if reason else ""))
        more = f" (and {len(failing) - MAX_SHOWN} more)" if len(failing) > MAX_SHOWN else ""
        return "; ".join(parts) + more
    if isinstance(expr, A.BoolOp) and expr.op == "and":
        left = _value(game, expr.left, bindings)
        return why(game, expr.left if not left else expr.right, bindings)
    if isinstance(expr, A.Compare) and len(expr.operands) == 2:
        a, b = expr.operands
        left, right = _value(game, a, bindings), _value(game, b, bindings)
        op = expr.ops[0]
        if isinstance(b, A.Literal):
            return f"{_text(a)} is {fmt(left)} (wanted {op} {_text(b)})"
        if isinstance(a, A.Literal):
            return f"{_text(b)} is {fmt(right)} (wanted {_text(a)} {op})"
        return f"{_text(a)} is {fmt(left)}, {_text(b)} is {fmt(right)} (wanted {op})"
    return None

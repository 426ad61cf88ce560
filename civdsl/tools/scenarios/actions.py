"""Running one action of a scenario: a phase (for one player, or everyone in the phase's order; or one
step of it), an expression such as a procedure call, some rounds, or the whole game."""
from __future__ import annotations

import dataclasses
from typing import Any

from ...compiler.compiler import compile_expression
from ...engine.interpreter import Game, GameResult
from ...engine.runtime import PY_ERRORS, EndOfGame, rule_error
from ...language.diagnostics import error
from ...language.names import suggest
from ...language.parser import parse_expr
from .build import owner
from .files import ACTIONS, Scenario, Step


def check_action(game: Game, sc: Scenario, step: Step) -> None:
    """One action per step (SCN008); a phase and a step the rules have (SCN009)."""
    run, at = step.action, step.where
    actions = [k for k in ACTIONS if k in run]
    if len(actions) != 1 or (("player" in run or "step" in run) and actions != ["phase"]):
        raise error("SCN008", f"`{'run' if at == ('run',) else 'a step'}` takes one of: phase (with optional "
                    "player" + (" and step" if at != ("run",) else "") + "), call, rounds, game", sc.span(*at))
    if "phase" in run:
        name = run["phase"]
        if name not in game.program.phases:
            guess = suggest(name, game.program.phases)
            raise error("SCN009", f"unknown phase `{name}`", sc.span(*at, "phase"),
                        f"did you mean `{guess}`?" if guess else f"phases: {', '.join(game.program.phases)}")
        if "step" in run:
            steps = [s[0] for s in game.program.phases[name].steps]
            if run["step"] not in steps:
                guess = suggest(run["step"], steps)
                raise error("SCN009", f"phase `{name}` has no step `{run['step']}`", sc.span(*at, "step"),
                            f"did you mean `{guess}`?" if guess else f"its steps: {', '.join(steps)}")


def run_action(game: Game, sc: Scenario, step: Step) -> Any:
    """Run a step's action; the value of a `call`, the `GameResult` when the game ended, else None.
    A failing rule raises `CivError` (the failing step is rolled back)."""
    check_action(game, sc, step)
    run, at = step.action, step.where
    try:
        if "phase" in run:
            who = owner(game, sc, run["player"], *at, "player") if "player" in run else None
            if "step" in run:
                return _one_step(game, run["phase"], run["step"], who)
            game.run_phase(run["phase"], who)
            return None
        if "call" in run:
            return _call(game, sc, run["call"], sc.span(*at, "call"))
        if "rounds" in run:
            for _ in range(run["rounds"]):
                if game.play_round():
                    return game.finish("victory")
            return None
        return game.run()
    except EndOfGame:
        return game.finish("ended by rule")


def _one_step(game: Game, phase: str, step: str, who) -> None:
    """One step of a phase, for `who` or for every participant in the phase's order (its `when`
    condition and skips apply as in play)."""
    phases = game.program.phases
    whole = phases[phase]
    phases[phase] = dataclasses.replace(whole, steps=[s for s in whole.steps if s[0] == step])
    try:
        game.run_phase(phase, who)
    finally:
        phases[phase] = whole


def _call(game: Game, sc: Scenario, text: str, span) -> Any:
    expr = parse_expr(text, span)
    names = [f"P{i}" for i in range(1, len(game.state.players) + 1)]
    fn = compile_expression(game.program, expr, names)
    c = game.c
    c.locals = {n: p for n, p in zip(names, game.state.players)}
    c.span = span
    game.fresh_budget()
    try:
        return game.transaction(fn)
    except PY_ERRORS as exc:
        raise rule_error(exc, c.span) from None


def ended(value: Any) -> bool:
    return isinstance(value, GameResult)

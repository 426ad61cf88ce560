"""Check and play what an input built, the way a user would: the judges' common ending."""
from __future__ import annotations

from civdsl.api import new_game
from civdsl.engine.agents import make_agents
from civdsl.engine.interpreter import Game
from civdsl.language.diagnostics import CivError
from civdsl.tools.checker import check_paths

from .core import Seen

PLAY_ROUNDS = 2        # rounds played of a mutated or generated game that checks


def check_clean(paths: list[str], seen: Seen) -> bool:
    """`civdsl check` the paths; True when there is no error."""
    diags, _ = check_paths(paths)
    seen.diagnostics(diags)
    return not any(d.severity == "error" for d in diags)


def play(program, seen: Seen, players: int = 1, agents: list | None = None) -> None:
    """Play a few rounds with the default budgets: they must stop everything."""
    try:
        Game(program, players, 1, make_agents(agents or [], players, 1), max_rounds=PLAY_ROUNDS).run()
    except CivError as exc:
        seen.diagnostics(exc.diagnostics)


def play_config(cfg, seen: Seen) -> None:
    """A config's game, a few rounds long."""
    cfg.max_rounds = min(cfg.max_rounds or PLAY_ROUNDS, PLAY_ROUNDS) if isinstance(cfg.max_rounds, (int, type(None))) \
        else cfg.max_rounds
    try:
        new_game(cfg, logging=True).run()
    except CivError as exc:
        seen.diagnostics(exc.diagnostics)

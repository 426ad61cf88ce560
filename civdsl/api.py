"""The library API behind the CLI: load a program for a config, make and play games.

Everything here raises `CivError` (with diagnostics) for anything a user can get wrong.
"""
from __future__ import annotations


from pathlib import Path

from . import ast as A
from .agents import make_agents
from .compiler import Program, compile_ruleset
from .config import GameConfig
from .diagnostics import CivError, error
from .editions import find_edition
from .interpreter import Game, GameResult
from .loader import Ruleset, load_ruleset


def load_program(edition: str, options: list[str] | None = None, house_rules: list[str] | None = None) -> Program:
    """Load, check and compile an edition with options and house rules; errors raise `CivError`."""
    rs = load_ruleset(find_edition(edition), options=options, house_rules=house_rules)
    prog, diags = compile_ruleset(rs)
    errors = [d for d in diags if d.severity == "error"]
    if errors:
        raise CivError(errors)
    return prog


def compile_entry(entry: Path) -> Program:
    """Compile one entry file with its own folder's parent as the rulesets root."""
    rs = load_ruleset(entry, root=Path(entry).resolve().parent.parent)
    prog, diags = compile_ruleset(rs)
    errors = [d for d in diags if d.severity == "error"]
    if errors:
        raise CivError(errors)
    return prog


def allowed_players(rs: Ruleset) -> list[int] | None:
    """The player counts the edition's `game { players: .. }` allows (a number, list or range)."""
    v = rs.game_field("players")
    if v is None:
        return None
    if isinstance(v, A.Literal) and isinstance(v.value, int):
        return [v.value]
    if isinstance(v, A.BinOp) and v.op == ".." and isinstance(v.left, A.Literal) and isinstance(v.right, A.Literal):
        return list(range(v.left.value, v.right.value + 1))
    if isinstance(v, A.ListLit) and all(isinstance(i, A.Literal) for i in v.items):
        return [i.value for i in v.items]
    return None


def new_game(cfg: GameConfig, program: Program | None = None, *, agents=None, logging: bool = True,
             echo=None, check_invariants: bool = False) -> Game:
    """A game ready to `run()`, for a complete config."""
    if not cfg.edition:
        raise error("CFG014", "no edition given", None, "pass --edition NAME or set `edition:` in the config")
    prog = program or load_program(cfg.edition, cfg.options, cfg.house_rules)
    allowed = allowed_players(prog.ruleset)
    players = cfg.players or (allowed[0] if allowed else 1)
    if allowed and players not in allowed:
        raise error("CFG015", f"edition `{prog.ruleset.edition()}` is played by {allowed[0]}–{allowed[-1]} "
                    f"players, not {players}", None, "change `players`")
    agents = agents if agents is not None else make_agents(cfg.agents, players, cfg.seed)
    return Game(prog, players, cfg.seed, agents, logging=logging, echo=echo, max_rounds=cfg.max_rounds,
                check_invariants=check_invariants)


def play(cfg: GameConfig, **kw) -> tuple[Game, GameResult]:
    game = new_game(cfg, **kw)
    return game, game.run()

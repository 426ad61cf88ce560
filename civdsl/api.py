"""The library API behind the CLI: load a program for a config, make and play games.

Everything here raises `CivError` (with diagnostics) for anything a user can get wrong.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from .compiler.compiler import compile_ruleset
from .engine.agents import make_agents, with_presets
from .engine.budget import GAME_BUDGET
from .engine.interpreter import Game, GameResult
from .engine.program import Program
from .language import ast as A
from .language.config import GameConfig
from .language.diagnostics import CivError, Diagnostic, error
from .language.editions import find_edition
from .language.loader import Ruleset, load_ruleset
from .language.names import suggest
from .language.paths import writable_log


def load_program(edition: str, options: list[str] | None = None, house_rules: list[str] | None = None) -> Program:
    """Load, check and compile an edition with options and house rules; errors raise `CivError`."""
    rs = load_ruleset(find_edition(edition), options=options, house_rules=house_rules)
    prog, diags = compile_ruleset(rs)
    errors = [d for d in diags if d.severity == "error"]
    if errors:
        raise CivError(errors)
    return prog


def compile_entry(entry: Path, options: list[str] | None = None) -> Program:
    """Compile one entry file (with `options` switched on) with its own folder's parent as the rulesets
    root."""
    rs = load_ruleset(entry, options=options, root=Path(entry).resolve().parent.parent)
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
             echo=None, check_invariants: bool = False, game_budget: int = GAME_BUDGET) -> Game:
    """A game ready to `run()`, for a complete config (`game_budget`: see `engine.budget`)."""
    if not cfg.edition:
        raise error("CFG014", "no edition given", None, "pass --edition NAME or set `edition:` in the config")
    prog = program or load_program(cfg.edition, cfg.options, cfg.house_rules)
    allowed = allowed_players(prog.ruleset)
    players = cfg.players or (allowed[0] if allowed else 1)
    if allowed and players not in allowed:
        raise error("CFG015", f"edition `{prog.ruleset.edition()}` is played by {allowed[0]}–{allowed[-1]} "
                    f"players, not {players}", cfg.span("players"), "change `players`")
    if agents is None:
        try:
            agents = make_agents(cfg.agents, players, cfg.seed)
        except CivError as exc:
            exc.diagnostics[0].span = exc.diagnostics[0].span or cfg.span("agents")
            raise
        agents = with_presets(agents, cfg.choices, lambda tag, seat: cfg.span("choices", tag, seat))
    return Game(prog, players, cfg.seed, agents, logging=logging, echo=echo, max_rounds=cfg.max_rounds,
                check_invariants=check_invariants, game_budget=game_budget)


def check_config(cfg: GameConfig) -> list[Diagnostic]:
    """Everything wrong with a config, each at its place in the file: the edition exists, its options
    exist, the house rules load and check, the player count is allowed, the agents and the fixed
    `choices` fit (the set-up is played to try them), and `log:` may be written (without `--force`)."""
    if not cfg.edition and ({"edition", "*"} & set(cfg.dropped)):
        return []  # (the config's own problem with `edition` is reported by `config.read_config`)
    try:
        if not cfg.edition:
            raise error("CFG014", "no edition given", cfg.span(), "set `edition:` in the config")
        try:
            entry = find_edition(cfg.edition)
        except CivError as exc:
            exc.diagnostics[0].span = cfg.span("edition")
            raise
        known = load_ruleset(entry).options
    except CivError as exc:
        return exc.diagnostics
    diags: list[Diagnostic] = []
    for i, name in enumerate(cfg.options):
        if name not in known:
            guess = suggest(name, sorted(known))
            diags.append(Diagnostic("CFG010", f"edition `{cfg.edition}` has no option `{name}`", cfg.span("options", i),
                                    hint=(f"did you mean `{guess}`? " if guess else "") +
                                    f"options: {', '.join(sorted(known)) or 'none'}"))
    options = [o for o in cfg.options if o in known]
    house_rules: list[str] = []
    for hr in cfg.house_rules:  # one at a time: a house rule that does not load hides no other problem
        try:
            load_ruleset(entry, options=options, house_rules=[*house_rules, hr])
            house_rules.append(hr)
        except CivError as exc:
            diags.extend(exc.diagnostics)
    try:
        program = load_program(cfg.edition, options, house_rules)
        game = new_game(replace(cfg, options=options, house_rules=house_rules), program, logging=False)
        game.start()
    except CivError as exc:
        diags.extend(exc.diagnostics)
    if cfg.log:
        try:
            writable_log(cfg.log, False, cfg.span("log"))
        except CivError as exc:
            diags.extend(exc.diagnostics)
    return diags


def play(cfg: GameConfig, **kw) -> tuple[Game, GameResult]:
    game = new_game(cfg, **kw)
    return game, game.run()

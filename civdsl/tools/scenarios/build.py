"""The game a scenario describes: its edition, options and house rules compiled (once per process while
the files are unchanged), set up from the seed (with fixed set-up dice), and the scenario's state set
on top. Scripted decisions answer the run only: the set-up is played by random agents from the seed.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ...api import allowed_players, load_program
from ...engine.agents import RandomAgent, ScriptedAgent
from ...engine.interpreter import Game
from ...engine.state import NEUTRAL, NEUTRAL_NAME, Player
from ...language.diagnostics import CivError, error
from ...language.names import suggest
from ...language.paths import edition_entry, house_rule_file, scenario_home
from .files import Scenario
from .trace import ScenarioAgent, Tracer


def _edition_ref(sc: Scenario) -> str:
    """An edition name, or a path relative to the scenario file to an edition inside the folder above
    the scenario's folder (or a rulesets root): the path policy of `language/paths.py`."""
    named = edition_entry(sc.data["edition"], Path(sc.path).absolute().parent, scenario_home(sc.path))
    if named.path is None:
        raise error("SCN012", f"edition: {named.problem}", sc.span("edition"),
                    "a scenario names its edition by name (`civdsl list`) or by a path to the edition it tests, "
                    "such as `..` for a scenario in the edition's `scenarios/` folder")
    return named.path


def _house_rules(sc: Scenario) -> list[str]:
    """The scenario's house rules as files, under the path policy (`language/paths.py`): shipped
    variants by name, or `.civ` files inside the folder above the scenario's folder (SCN011)."""
    base, home = Path(sc.path).absolute().parent, scenario_home(sc.path)
    out = []
    for i, raw in enumerate(sc.data.get("house_rules", [])):
        hr = house_rule_file(raw, base, home)
        if hr.path is None:
            raise error("SCN011", f"house_rules[{i}]: {hr.problem}", sc.span("house_rules", i),
                        "a scenario names a house rule by a shipped variant's name (`civdsl list`) or by a path "
                        "to a `.civ` file inside the folder above its own (`../my-rule.civ` from `scenarios/`)")
        out.append(hr.path)
    return out


_NEUTRAL_OWNER = Player(NEUTRAL, NEUTRAL_NAME)   # the owner of pieces that belong to no player


def owner(game: Game, sc: Scenario, key: str, *where) -> Player | None:
    if key == "global":
        return None
    if key == NEUTRAL_NAME and ("pieces" in where or "totals" in where):
        return _NEUTRAL_OWNER
    seat = int(key[1:])
    if seat > len(game.state.players):
        raise error("SCN004", f"`{key}` does not exist in a {len(game.state.players)}-player game", sc.span(*where))
    return game.state.players[seat - 1]


def holder(game: Game, who: Player | None):
    st = game.state
    return (who.counters, who.vars, who.zones) if who else (st.counters, st.vars, st.zones)


def _with_players(game: Game, value: Any) -> Any:
    """A variable's value from YAML, where a text naming a player (`P2`) stands for that player."""
    if isinstance(value, str):
        return next((p for p in game.state.players if p.name == value), value)
    if isinstance(value, list):
        return [_with_players(game, v) for v in value]
    if isinstance(value, dict):
        return {k: _with_players(game, v) for k, v in value.items()}
    return value


def set_state(game: Game, sc: Scenario, state: dict, *at) -> None:
    """Set the values of `state` (found at key path `at` in the file) on the game."""
    for key, values in state.items():
        if key == "pieces":
            _set_pieces(game, sc, values, *at)
            continue
        who = owner(game, sc, key, *at, key)
        counters, vars_, zones = holder(game, who)
        for name, value in values.items():
            where = sc.span(*at, key, name)
            if name in counters:
                if not isinstance(value, int) or isinstance(value, bool):
                    raise error("SCN005", f"`{name}` is a counter: give a whole number, not {value!r}", where)
                counters[name] = value
            elif name in zones:
                if not isinstance(value, list):
                    raise error("SCN005", f"`{name}` is a zone: give a list, not {value!r}", where)
                zones[name][:] = list(value)
            elif name in vars_:
                vars_[name] = _with_players(game, value)
            else:
                known = list(counters) + list(vars_) + list(zones)
                guess = suggest(name, known)
                raise error("SCN006", f"{key} has no counter, variable or zone `{name}`", where,
                            f"did you mean `{guess}`?" if guess else f"known: {', '.join(sorted(known))}")


def area(game: Game, sc: Scenario, name: str, *where) -> str:
    """An area some loaded map knows. Without any map, pieces may lie on any named area (as for `place`)."""
    maps = game.state.maps
    if maps and not any(name in m.areas for m in maps.values()):
        known = sorted({a for m in maps.values() for a in m.areas})
        guess = suggest(name, known)
        hint = (f"did you mean `{guess}`?" if guess else
                f"known areas: {', '.join(known[:12])}" + (f" and {len(known) - 12} more" if len(known) > 12 else ""))
        raise error("SCN010", f"no map has an area `{name}`", sc.span(*where), hint)
    return name


def piece_count(sc: Scenario, n: Any, *where) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise error("SCN005", f"a number of pieces is a whole number of at least 0, not {n!r}", sc.span(*where),
                    "write how many pieces of that kind lie there, e.g. `token: 3`")
    return n


def _set_pieces(game: Game, sc: Scenario, areas: dict, *at) -> None:
    """Replace the whole board: the set-up's pieces go, the listed ones are placed."""
    placed: dict[tuple[str, int, str], int] = {}
    for name, owners in areas.items():
        area(game, sc, name, *at, "pieces", name)
        for key, kinds in owners.items():
            who = owner(game, sc, key, *at, "pieces", name, key)
            for kind, n in kinds.items():
                placed[(name, who.index, kind)] = piece_count(sc, n, *at, "pieces", name, key, kind)
    game.state.pieces.clear()
    for key, n in placed.items():
        game.state.pieces[key] = n


def _agents(sc: Scenario, players: int, seed: int, setup_agents: list) -> list:
    """The agents of the run: scripted where `decisions` has a list, random from the seed elsewhere
    (the set-up's agent, so that its stream goes on). Format 2 seats a `ScenarioAgent` everywhere, so
    that a step may script any player and decisions may be answered by their labels too."""
    decisions = sc.data.get("decisions") or {}
    for key in decisions:
        if int(key[1:]) > players:
            raise error("SCN004", f"`{key}` does not exist in a {players}-player game", sc.span("decisions", key))
    if sc.format == 2:
        return [ScenarioAgent(decisions.get(f"P{i}"), setup_agents[i - 1]) for i in range(1, players + 1)]
    return [ScriptedAgent(decisions[f"P{i}"]) if f"P{i}" in decisions else setup_agents[i - 1]
            for i in range(1, players + 1)]


_PROGRAMS: dict[tuple, tuple[Any, list]] = {}


def _stamps(files: list[str]) -> list:
    """When and how big each source file was: a cached program is reused only while these hold."""
    out = []
    for f in files:
        try:
            st = Path(f).stat()
            out.append((f, st.st_mtime_ns, st.st_size))
        except OSError:
            out.append((f, None, None))
    return out


def program_for(ref: str, options: list[str], house: list[str]):
    """The compiled rules of a scenario. A folder of scenarios names one edition again and again, so a
    program is compiled once per process and reused while none of its source files has changed."""
    key = (ref, tuple(options), tuple(house))
    hit = _PROGRAMS.get(key)
    if hit is not None and _stamps(hit[0].ruleset.files) == hit[1]:
        return hit[0]
    program = load_program(ref, options, house)
    _PROGRAMS[key] = (program, _stamps(program.ruleset.files))
    return program


def build_game(sc: Scenario, edition: str | None = None) -> Game:
    """The game a scenario describes, set up and with its state applied (not yet run).

    `edition` plays the scenario under another edition than the one it names (`civdsl test --edition`):
    how an edition's worked examples come out under other rules. The game's `tracer` records every
    decision from here on (see `trace.Tracer`); `setup_dice_left` the set-up dice never rolled."""
    d = sc.data
    house = _house_rules(sc)
    try:
        program = program_for(edition or _edition_ref(sc), d.get("options", []), house)
    except CivError as exc:
        for diag in exc.diagnostics:
            if diag.span is None:
                diag.span = sc.span("edition")
        raise
    allowed = allowed_players(program.ruleset) or [1]
    players = d.get("players", allowed[0])
    if players not in allowed:
        raise error("SCN007", f"edition `{program.ruleset.edition()}` is played by {allowed[0]}–{allowed[-1]} players, "
                    f"not {players}", sc.span("players"))
    seed = d.get("seed", 0)
    # Decisions script the run, not the set-up: the set-up is played by random agents from the seed. A
    # player without scripted decisions keeps that agent (and its stream) for the run.
    setup_agents = [RandomAgent(seed, i) for i in range(1, players + 1)]
    run_agents = _agents(sc, players, seed, setup_agents)
    game = Game(program, players, seed, setup_agents)
    setup_dice = list(d.get("setup_dice", []))
    if setup_dice:  # the state is created by `init`: the fixed dice go in after it, before the set-up rolls
        created = game.init

        def init_then_fix_dice():
            created()
            game.state.forced_dice = setup_dice
        game.init = init_then_fix_dice
    game.start(run_setup=d.get("run_setup", True))
    if setup_dice:
        del game.init  # (the class's own again)
    game.setup_dice_left = list(game.state.forced_dice) if setup_dice else []
    game.state.forced_dice = []
    if d.get("state"):
        set_state(game, sc, d["state"], "state")
    game.agents = run_agents
    for p, agent in zip(game.state.players, game.agents):
        p.agent = agent.name
    game.events.clear()
    game.state.forced_dice = list(d.get("dice", []))
    Tracer(game)  # (sets `game.tracer`)
    return game

"""Scenario files: worked examples and rule tests that rule authors write in YAML.

A scenario names an edition, sets up a precise state (counters, variables, zones, the pieces on the
map), fixes dice and decisions, runs one action (a phase, an expression such as a procedure call, some
rounds, or the whole game) and states what must hold afterwards. Scripted decisions answer the run
only: the set-up is played by random agents from the seed. `run_scenario` returns the differences
between expected and actual, each with the rule (file:line) that last changed the value, so a failing
scenario reads like a rulebook erratum.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from ..api import allowed_players, load_program
from ..compiler.compiler import compile_expression
from ..engine.agents import RandomAgent, ScriptedAgent
from ..engine.builtins import fmt
from ..engine.interpreter import Game
from ..engine.runtime import PY_ERRORS, EndOfGame, rule_error
from ..engine.state import NEUTRAL, NEUTRAL_NAME, Player, owner_name, to_jsonable
from ..language.diagnostics import CivError, Diagnostic, Span, error
from ..language.names import suggest
from ..language.parser import parse_expr
from ..language.paths import edition_entry, files_under, house_rule_file, scenario_home
from ..language.yamlfile import fmt_path, locate, node_span, parse_yaml, read_text, schema_problems, strict_validator


def scenario_schema() -> dict:
    text = resources.files("civdsl").joinpath("scenario.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


_VALIDATOR = strict_validator(scenario_schema())


@dataclass
class Scenario:
    """A loaded, schema-valid scenario and where its parts are in the file."""

    path: str
    data: dict
    root: yaml.Node | None

    @property
    def title(self) -> str:
        return self.data["scenario"]

    def span(self, *where) -> Span:
        return node_span(self.path, locate(self.root, list(where)))


@dataclass
class Outcome:
    """The verdict on one scenario: the differences found (empty when it passed)."""

    scenario: Scenario
    problems: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.problems


def is_scenario_file(path: Path) -> bool:
    """A YAML file whose top level has a `scenario:` key (configs and other YAML are skipped)."""
    try:
        head = path.read_text(encoding="utf-8", errors="replace")[:4000]
    except OSError:
        return False
    return any(line.startswith("scenario:") for line in head.splitlines())


def find_scenarios(paths: list[str], notes: list[Diagnostic] | None = None) -> list[Path]:
    """The scenario files named, and those under the folders named (not following a symbolic link out
    of a folder: LOAD007, added to `notes`)."""
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            found, skipped = files_under(p, (".yaml", ".yml"))
            out.extend(f for f in found if is_scenario_file(f))
            if notes is not None:
                notes.extend(skipped)
        elif p.is_file():
            out.append(p)
        else:
            raise error("SCN003", f"no such file or folder `{raw}`")
    return out


def load_scenario(path: str) -> Scenario:
    text = read_text(path, "SCN", "scenario")
    root, data = parse_yaml(text, path, "SCN")
    if data is None:
        data = {}
    problems = [Diagnostic("SCN002", f"{fmt_path(where)}: {what}", node_span(path, locate(root, where)), hint=hint)
                for where, what, hint in schema_problems(_VALIDATOR, data)]
    if problems:
        raise CivError(sorted(problems, key=Diagnostic.sort_key))
    return Scenario(path, data, root)


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


def _owner(game: Game, sc: Scenario, key: str, *where) -> Player | None:
    if key == "global":
        return None
    if key == NEUTRAL_NAME and where[1] == "pieces":
        return _NEUTRAL_OWNER
    seat = int(key[1:])
    if seat > len(game.state.players):
        raise error("SCN004", f"`{key}` does not exist in a {len(game.state.players)}-player game", sc.span(*where))
    return game.state.players[seat - 1]


_NEUTRAL_OWNER = Player(NEUTRAL, NEUTRAL_NAME)   # the owner of pieces that belong to no player


def _holder(game: Game, owner: Player | None):
    st = game.state
    return (owner.counters, owner.vars, owner.zones) if owner else (st.counters, st.vars, st.zones)


def _with_players(game: Game, value: Any) -> Any:
    """A variable's value from YAML, where a text naming a player (`P2`) stands for that player."""
    if isinstance(value, str):
        return next((p for p in game.state.players if p.name == value), value)
    if isinstance(value, list):
        return [_with_players(game, v) for v in value]
    if isinstance(value, dict):
        return {k: _with_players(game, v) for k, v in value.items()}
    return value


def _set_state(game: Game, sc: Scenario) -> None:
    for key, values in (sc.data.get("state") or {}).items():
        if key == "pieces":
            _set_pieces(game, sc, values)
            continue
        owner = _owner(game, sc, key, "state", key)
        counters, vars_, zones = _holder(game, owner)
        for name, value in values.items():
            where = sc.span("state", key, name)
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


def _area(game: Game, sc: Scenario, area: str, *where) -> str:
    """An area some loaded map knows. Without any map, pieces may lie on any named area (as for `place`)."""
    maps = game.state.maps
    if maps and not any(area in m.areas for m in maps.values()):
        known = sorted({a for m in maps.values() for a in m.areas})
        guess = suggest(area, known)
        hint = (f"did you mean `{guess}`?" if guess else
                f"known areas: {', '.join(known[:12])}" + (f" and {len(known) - 12} more" if len(known) > 12 else ""))
        raise error("SCN010", f"no map has an area `{area}`", sc.span(*where), hint)
    return area


def _piece_count(sc: Scenario, n: Any, *where) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise error("SCN005", f"a number of pieces is a whole number of at least 0, not {n!r}", sc.span(*where),
                    "write how many pieces of that kind lie there, e.g. `token: 3`")
    return n


def _set_pieces(game: Game, sc: Scenario, areas: dict) -> None:
    """Replace the whole board: the set-up's pieces go, the listed ones are placed."""
    placed: dict[tuple[str, int, str], int] = {}
    for area, owners in areas.items():
        _area(game, sc, area, "state", "pieces", area)
        for key, kinds in owners.items():
            owner = _owner(game, sc, key, "state", "pieces", area, key)
            for kind, n in kinds.items():
                placed[(area, owner.index, kind)] = _piece_count(sc, n, "state", "pieces", area, key, kind)
    game.state.pieces.clear()
    for key, n in placed.items():
        game.state.pieces[key] = n


def _agents(sc: Scenario, players: int, seed: int) -> list:
    """The agents of the run: scripted where `decisions` has a list, random from the seed elsewhere."""
    decisions = sc.data.get("decisions") or {}
    for key in decisions:
        if int(key[1:]) > players:
            raise error("SCN004", f"`{key}` does not exist in a {players}-player game", sc.span("decisions", key))
    return [ScriptedAgent(decisions[f"P{i}"]) if f"P{i}" in decisions else RandomAgent(seed, i)
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


def _program(ref: str, options: list[str], house: list[str]):
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
    how an edition's worked examples come out under other rules."""
    d = sc.data
    house = _house_rules(sc)
    try:
        program = _program(edition or _edition_ref(sc), d.get("options", []), house)
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
    run_agents = _agents(sc, players, seed)
    # Decisions script the run, not the set-up: the set-up is played by random agents from the seed. A
    # player without scripted decisions keeps that agent (and its stream) for the run.
    setup_agents = [RandomAgent(seed, i) for i in range(1, players + 1)]
    game = Game(program, players, seed, setup_agents)
    game.start(run_setup=d.get("run_setup", True))
    _set_state(game, sc)
    game.agents = [run if isinstance(run, ScriptedAgent) else setup for run, setup in zip(run_agents, setup_agents)]
    for p, agent in zip(game.state.players, game.agents):
        p.agent = agent.name
    game.events.clear()
    game.state.forced_dice = list(d.get("dice", []))
    return game


def _run(game: Game, sc: Scenario) -> Any:
    run = sc.data["run"]
    if len(run) != 1 and not (set(run) == {"phase", "player"}):
        raise error("SCN008", "`run` takes one of: phase (with optional player), call, rounds, game", sc.span("run"))
    if "phase" in run:
        name = run["phase"]
        if name not in game.program.phases:
            guess = suggest(name, game.program.phases)
            raise error("SCN009", f"unknown phase `{name}`", sc.span("run", "phase"),
                        f"did you mean `{guess}`?" if guess else None)
        who = _owner(game, sc, run["player"], "run", "player") if "player" in run else None
        game.run_phase(name, who)
        return None
    if "call" in run:
        expr = parse_expr(run["call"], sc.span("run", "call"))
        names = [f"P{i}" for i in range(1, len(game.state.players) + 1)]
        fn = compile_expression(game.program, expr, names)
        c = game.c
        c.locals = {n: p for n, p in zip(names, game.state.players)}
        c.span = sc.span("run", "call")
        game.fresh_budget()
        try:
            return game.transaction(fn)
        except PY_ERRORS as exc:
            raise rule_error(exc, c.span) from None
    if "rounds" in run:
        for _ in range(run["rounds"]):
            if game.play_round():
                break
        return None
    try:
        return game.run()
    except EndOfGame:
        return game.finish("ended by rule")


def _last_change(game: Game, target: str) -> str | None:
    for ev in reversed(game.events):
        if ev.get("type") == "set" and ev.get("target") == target:
            return ev.get("rule")
        if ev.get("type") in ("add", "remove") and ev.get("zone") == target:
            return ev.get("rule")
        if ev.get("type") == "move" and target in (ev.get("source"), ev.get("to")):
            return ev.get("rule")
    return None


def _compare_state(game: Game, sc: Scenario, key: str, expected: dict, out: Outcome) -> None:
    owner = _owner(game, sc, key, "expect", key)
    counters, vars_, zones = _holder(game, owner)
    prefix = f"{owner.name}." if owner else ""
    for name, want in expected.items():
        if name in counters:
            got = counters[name]
        elif name in zones:
            got = to_jsonable(zones[name])
        elif name in vars_:
            got = to_jsonable(vars_[name])
        else:
            guess = suggest(name, list(counters) + list(vars_) + list(zones))
            raise error("SCN006", f"{key} has no counter, variable or zone `{name}`", sc.span("expect", key, name),
                        f"did you mean `{guess}`?" if guess else None)
        if got != want:
            rule = _last_change(game, prefix + name)
            where = f"   (last changed at {rule})" if rule else "   (unchanged by the run)"
            out.problems.append(f"{prefix}{name}: expected {fmt(want)}, got {fmt(got)}{where}")
            if rule:
                out.rules.append(rule)


def _last_piece_change(game: Game, area: str, owner: str | None = None, kind: str | None = None) -> str | None:
    """The rule of the last `place`/`take` on the area (of the owner, of the kind, when given)."""
    for ev in reversed(game.events):
        if (ev.get("type") in ("place", "take") and ev.get("area") == area
                and owner in (None, ev.get("owner")) and kind in (None, ev.get("kind"))):
            return ev.get("rule")
    return None


def _piece_problem(out: Outcome, what: str, want: str, got: str, rule: str | None) -> None:
    where = f"   (last changed at {rule})" if rule else "   (unchanged by the run)"
    out.problems.append(f"pieces {what}: expected {want}, got {got}{where}")
    if rule:
        out.rules.append(rule)


def _compare_pieces(game: Game, sc: Scenario, expected: dict, out: Outcome) -> None:
    """Listed counts must match; an area or owner given as `{}` must hold no pieces at all."""
    st = game.state
    for area, owners in expected.items():
        _area(game, sc, area, "expect", "pieces", area)
        here = sorted((o, k, n) for (o, k), n in st.pieces.by_area.get(area, {}).items())
        if not owners:
            if here:
                got = ", ".join(f"{owner_name(st.players, o)} {k} {n}" for o, k, n in here)
                _piece_problem(out, area, "no pieces", got, _last_piece_change(game, area))
            continue
        for key, kinds in owners.items():
            owner = _owner(game, sc, key, "expect", "pieces", area, key)
            if not kinds:
                mine = [f"{k} {n}" for o, k, n in here if o == owner.index]
                if mine:
                    _piece_problem(out, f"{area} {owner.name}", "no pieces", ", ".join(mine),
                                   _last_piece_change(game, area, owner.name))
                continue
            for kind, want in kinds.items():
                want = _piece_count(sc, want, "expect", "pieces", area, key, kind)
                got = st.pieces.at(area, owner.index, kind)
                if got != want:
                    _piece_problem(out, f"{area} {owner.name} {kind}", str(want), str(got),
                                   _last_piece_change(game, area, owner.name, kind))


def _matches(event: dict, want: dict) -> bool:
    return all(to_jsonable(event.get(k)) == v for k, v in want.items())


def run_scenario(sc: Scenario, edition: str | None = None) -> Outcome:
    """Build, run and judge one scenario (under `edition` if given). User mistakes in the file raise `CivError`."""
    out = Outcome(sc)
    expect = sc.data["expect"]
    game = build_game(sc, edition)
    value = None
    try:
        value = _run(game, sc)
    except CivError as exc:
        want = expect.get("error")
        got = exc.diagnostics[0]
        if want is None:
            out.problems.append(f"the run failed: {got.headline()}")
            return out
        if got.code != want["code"] or want.get("message", "") not in got.message:
            out.problems.append(f"expected error {want['code']} {want.get('message', '')!r}, got {got.headline()}")
            return out
    else:
        if "error" in expect:
            out.problems.append(f"expected error {expect['error']['code']}, but the run succeeded")
    for key, values in expect.items():
        if key == "pieces":
            _compare_pieces(game, sc, values, out)
        elif key.startswith("P") or key == "global":
            _compare_state(game, sc, key, values, out)
    if "result" in expect and to_jsonable(value) != expect["result"]:
        out.problems.append(f"result: expected {fmt(expect['result'])}, got {fmt(to_jsonable(value))}")
    if "winners" in expect or "reason" in expect:
        res = value if hasattr(value, "winners") else None
        if res is None:
            out.problems.append("`winners`/`reason` need `run: {game: true}`")
        else:
            if "winners" in expect and res.winners != expect["winners"]:
                out.problems.append(f"winners: expected {expect['winners']}, got {res.winners}")
            if "reason" in expect and res.reason != expect["reason"]:
                out.problems.append(f"reason: expected {expect['reason']!r}, got {res.reason!r}")
    pos = 0
    for i, want in enumerate(expect.get("log", [])):
        while pos < len(game.events) and not _matches(game.events[pos], want):
            pos += 1
        if pos == len(game.events):
            out.problems.append(f"log[{i}]: no event {json.dumps(want)} (in order) in the log")
            break
        pos += 1
    fired = {e.get("rule") for e in game.events}
    for rule in expect.get("fired", []):
        if not any(f and (f == rule or f.endswith("/" + rule)) for f in fired):
            out.problems.append(f"fired: no event was caused by {rule}")
    left = game.state.forced_dice
    if left:
        out.problems.append(f"{len(left)} fixed dice were never rolled: {left}")
    for p, agent in zip(game.state.players, game.agents):
        if isinstance(agent, ScriptedAgent) and agent.answers:
            out.problems.append(f"{p.name} has {len(agent.answers)} scripted decisions left: {agent.answers}")
    return out


def run_paths(paths: list[str], edition: str | None = None) -> tuple[list[Outcome], list[Diagnostic]]:
    """Run every scenario under the paths; broken scenario files are diagnostics."""
    outcomes: list[Outcome] = []
    diags: list[Diagnostic] = []
    for f in find_scenarios(paths, diags):
        try:
            outcomes.append(run_scenario(load_scenario(str(f)), edition))
        except CivError as exc:
            diags.extend(exc.diagnostics)
    return outcomes, diags

"""Scenario files: worked examples and rule tests that rule authors write in YAML.

A scenario names an edition, sets up a precise state, fixes dice and decisions, runs one action (a
phase, an expression such as a procedure call, some rounds, or the whole game) and states what must
hold afterwards. `run_scenario` returns the differences between expected and actual, each with the
rule (file:line) that last changed the value, so a failing scenario reads like a rulebook erratum.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft7Validator

from .agents import RandomAgent, ScriptedAgent
from .api import allowed_players, load_program
from .builtins import fmt
from .compiler import EndOfGame
from .diagnostics import CivError, Diagnostic, Span, error
from .interpreter import Game
from .names import suggest
from .parser import parse_expr
from .state import Player, to_jsonable
from .yamlfile import fmt_path, locate, node_span, parse_yaml, read_text, schema_problems


def scenario_schema() -> dict:
    text = resources.files(__package__).joinpath("scenario.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


_VALIDATOR = Draft7Validator(scenario_schema())


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


def find_scenarios(paths: list[str]) -> list[Path]:
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            out.extend(f for f in sorted(p.rglob("*.y*ml")) if is_scenario_file(f))
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
    """An edition name, or a path relative to the scenario file."""
    ref = sc.data["edition"]
    rel = Path(sc.path).parent / ref
    if rel.exists():
        return str(rel)
    return ref


def _owner(game: Game, sc: Scenario, key: str, *where) -> Player | None:
    if key == "global":
        return None
    seat = int(key[1:])
    if seat > len(game.state.players):
        raise error("SCN004", f"`{key}` does not exist in a {len(game.state.players)}-player game", sc.span(*where))
    return game.state.players[seat - 1]


def _holder(game: Game, owner: Player | None):
    st = game.state
    return (owner.counters, owner.vars, owner.zones) if owner else (st.counters, st.vars, st.zones)


def _set_state(game: Game, sc: Scenario) -> None:
    for key, values in (sc.data.get("state") or {}).items():
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
                vars_[name] = value
            else:
                known = list(counters) + list(vars_) + list(zones)
                guess = suggest(name, known)
                raise error("SCN006", f"{key} has no counter, variable or zone `{name}`", where,
                            f"did you mean `{guess}`?" if guess else f"known: {', '.join(sorted(known))}")


def _agents(sc: Scenario, players: int, seed: int) -> list:
    decisions = sc.data.get("decisions") or {}
    for key in decisions:
        if int(key[1:]) > players:
            raise error("SCN004", f"`{key}` does not exist in a {players}-player game", sc.span("decisions", key))
    return [ScriptedAgent(decisions[f"P{i}"]) if f"P{i}" in decisions else RandomAgent(seed, i)
            for i in range(1, players + 1)]


def build_game(sc: Scenario) -> Game:
    """The game a scenario describes, set up and with its state applied (not yet run)."""
    d = sc.data
    try:
        base = Path(sc.path).parent
        house = [str((base / h).resolve()) for h in d.get("house_rules", [])]
        program = load_program(_edition_ref(sc), d.get("options", []), house)
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
    game = Game(program, players, seed, _agents(sc, players, seed))
    game.start(run_setup=d.get("run_setup", True))
    _set_state(game, sc)
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
        from .compiler import Compiler, Scope
        comp = Compiler(game.program.ruleset)
        comp.prog = game.program
        comp._declare_globals()
        names = [f"P{i}" for i in range(1, len(game.state.players) + 1)]
        fn = comp.expr(expr, Scope(names))
        errors = [d for d in comp.diags if d.severity == "error"]
        if errors:
            raise CivError(errors)
        c = game.c
        c.locals = {n: p for n, p in zip(names, game.state.players)}
        c.span = sc.span("run", "call")
        c.steps = 0
        try:
            return game.transaction(fn)
        except (TypeError, ValueError, KeyError, IndexError, ZeroDivisionError) as exc:
            from .compiler import _py_error
            from .values import RuleError
            raise RuleError("RUN001", _py_error(exc), c.span) from None
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


def _matches(event: dict, want: dict) -> bool:
    return all(to_jsonable(event.get(k)) == v for k, v in want.items())


def run_scenario(sc: Scenario) -> Outcome:
    """Build, run and judge one scenario. User mistakes in the file raise `CivError`."""
    out = Outcome(sc)
    expect = sc.data["expect"]
    game = build_game(sc)
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
        if key.startswith("P") or key == "global":
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


def run_paths(paths: list[str]) -> tuple[list[Outcome], list[Diagnostic]]:
    """Run every scenario under the paths; broken scenario files are diagnostics."""
    outcomes: list[Outcome] = []
    diags: list[Diagnostic] = []
    for f in find_scenarios(paths):
        try:
            outcomes.append(run_scenario(load_scenario(str(f))))
        except CivError as exc:
            diags.extend(exc.diagnostics)
    return outcomes, diags

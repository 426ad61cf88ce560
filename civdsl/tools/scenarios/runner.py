"""Running a scenario: build the game, run each step, compare its `expect`, and collect the verdict.

Every difference names the rule (file:line) that last changed the value, so a failing scenario reads
like a rulebook erratum. Warnings (the consistency pass on injected state) do not fail a scenario
unless it says `consistency: error`. The trace of decisions is kept for `civdsl test --trace` and shown
under a failure caused by a scripted answer that was never used.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ...engine.agents import ScriptedAgent
from ...engine.interpreter import GameResult
from ...language.diagnostics import CivError, Diagnostic, error
from .actions import run_action
from .build import build_game, set_state
from .consistency import check_invariants
from .expect import Context, Report, check
from .files import Scenario, Step, find_scenarios, load_scenario
from .trace import ScenarioAgent, leftover


@dataclass
class Outcome:
    """The verdict on one scenario: the differences found (empty when it passed), warnings, and the
    decisions of the run (`trace`, one line each, under a heading per step in format 2)."""

    scenario: Scenario
    problems: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    trace: list[str] = field(default_factory=list)
    show_trace: bool = False   # a leftover scripted answer: the trace explains it
    places: list[tuple] = field(default_factory=list)   # the key path in the file of each problem
    warning_places: list[tuple] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.problems

    def add(self, text: str, at: tuple = ("expect",), rule: str | None = None) -> None:
        self.problems.append(text)
        self.places.append(at)
        if rule:
            self.rules.append(rule)


def _consistency(game, sc: Scenario, out: Outcome, prefix: str, at: tuple) -> None:
    mode = sc.data.get("consistency", "warn" if sc.format == 2 else "off")
    if mode in ("off", False):  # (YAML reads a plain `off` as false)
        return
    for line in check_invariants(game):
        text = f"{prefix}state: {line}"
        if mode == "error":
            out.add(text, at)
        else:
            out.warnings.append(text)
            out.warning_places.append(at)


def _players_in(game, sc: Scenario, decisions: dict, at: tuple) -> None:
    for key in decisions:
        if int(key[1:]) > len(game.state.players):
            raise error("SCN004", f"`{key}` does not exist in a {len(game.state.players)}-player game",
                        sc.span(*at, key))


def run_scenario(sc: Scenario, edition: str | None = None) -> Outcome:
    """Build, run and judge one scenario (under `edition` if given). User mistakes in the file raise `CivError`."""
    out = Outcome(sc)
    game = build_game(sc, edition)
    tracer = game.tracer
    multi = sc.format == 2
    if game.setup_dice_left:
        out.add(f"{len(game.setup_dice_left)} fixed set-up dice were never rolled: {game.setup_dice_left}",
                ("setup_dice",))
    if sc.data.get("state"):
        _consistency(game, sc, out, "", ("state",))
    result: GameResult | None = None
    steps = sc.steps()
    stop = False
    for step in steps:
        prefix = f"{step.label}: " if multi else ""
        rep = Report(out, prefix, step.expect_where if step.expect is not None else step.where)
        tracer.step = step.number
        if result is not None:
            rep.problem(f"the game ended in an earlier step ({result.reason}); this step cannot run")
            break
        run = step.action
        if run.get("state"):
            set_state(game, sc, run["state"], *step.where, "state")
            _consistency(game, sc, out, prefix, step.where + ("state",))
        pushed = _push_script(game, sc, step)
        saved_dice = None
        if "dice" in run:
            saved_dice, game.state.forced_dice = game.state.forced_dice, list(run["dice"])
        start = len(game.events)
        value, failed = None, None
        try:
            for _ in range(run.get("times", 1)):
                value = run_action(game, sc, step)
                if isinstance(value, GameResult):
                    result = value
                    break
        except CivError as exc:
            if exc.diagnostics and exc.diagnostics[0].code.startswith("SCN"):
                raise
            failed = exc
        expect = step.expect or {}
        stop = False
        if failed is not None:
            want, got = expect.get("error"), failed.diagnostics[0]
            if want is None:
                notes = "".join(f"; {r}: {note}" for r, note in got.related)
                out.add(f"{prefix}the run failed: {got.headline()}{notes}", step.where)
                out.show_trace = out.show_trace or got.code.startswith("AGT")  # a script that does not fit
                stop = True
            elif got.code != want["code"] or want.get("message", "") not in got.message:
                rep.problem(f"expected error {want['code']} {want.get('message', '')!r}, got {got.headline()}")
                stop = True
        elif "error" in expect:
            rep.problem(f"expected error {expect['error']['code']}, but the run succeeded")
        if stop and not multi:
            out.trace = _trace_lines(tracer, steps, multi)
            return out
        if not stop:
            check(Context(game, sc, start, tracer.of_step(step.number), value, result), expect, step.expect_where,
                  rep)
        if saved_dice is not None:
            left, game.state.forced_dice = game.state.forced_dice, saved_dice
            if left:
                out.add(f"{prefix}{len(left)} fixed dice were never rolled: {left}", step.where + ("dice",))
        for p, agent in pushed:
            left = agent.pop()
            if left:
                out.show_trace = True
                out.add(prefix + leftover(p.name, left, tracer.of_step(step.number)).message(),
                        step.where + ("decisions", p.name))
        if stop:
            break
    if stop:  # a step failed: what the later steps and the whole run would show says nothing more
        out.trace = _trace_lines(tracer, steps, multi)
        return out
    if multi and sc.data.get("expect"):
        check(Context(game, sc, 0, tracer.entries, None, result), sc.data["expect"], ("expect",),
              Report(out, "after the last step: ", ("expect",)))
    left = game.state.forced_dice
    if left:
        out.add(f"{len(left)} fixed dice were never rolled: {left}", ("dice",))
    for p, agent in zip(game.state.players, game.agents):
        if isinstance(agent, ScriptedAgent) and agent.answers and getattr(agent, "scripted", True):
            why = leftover(p.name, agent.answers, tracer.entries)
            out.add(why.message(), ("decisions", p.name))
            out.show_trace = True
    out.trace = _trace_lines(tracer, steps, multi)
    return out


def _push_script(game, sc: Scenario, step: Step) -> list:
    """A step's own `decisions`: each player's list answers that step only."""
    decisions = step.action.get("decisions") or {}
    _players_in(game, sc, decisions, step.where + ("decisions",))
    pushed = []
    for key, answers in decisions.items():
        p = game.state.players[int(key[1:]) - 1]
        agent = game.agents[p.index]
        if isinstance(agent, ScenarioAgent):
            agent.push(answers)
            pushed.append((p, agent))
    return pushed


def _trace_lines(tracer, steps: list[Step], multi: bool) -> list[str]:
    if not multi:
        return tracer.lines() or ["(no decisions)"]
    out = []
    for step in steps:
        lines = tracer.lines(step.number)
        out.append(f"{step.label}:" + ("" if lines else " no decisions"))
        out.extend("  " + line for line in lines)
    if tracer.dropped:
        out.append(f"... and {tracer.dropped} more decision(s) not recorded")
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

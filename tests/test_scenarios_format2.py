"""Scenario format 2: steps with their own `expect`, negative and structural expectations, expressions,
set-up dice, the trace of decisions, the consistency pass on injected state and typed differences —
and format 1 files keep working as they did."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from jsonschema import Draft7Validator

from civdsl.interfaces.cli import main
from civdsl.language.diagnostics import CivError
from civdsl.tools.scenarios import build_game, find_scenarios, load_scenario, run_scenario, scenario_schema

ROOT = Path(__file__).resolve().parent.parent
STEPS = ROOT / "tests" / "data" / "scenarios_format2" / "steps"


@pytest.fixture()
def edition(tmp_path) -> Path:
    """A copy of the small `steps` edition; scenarios go in its `scenarios/` folder."""
    shutil.copytree(STEPS, tmp_path / "steps")
    return tmp_path / "steps"


def _scenario(edition: Path, body: str, name: str = "s.yaml", format2: bool = True) -> Path:
    head = ("format: 2\n" if format2 else "") + "scenario: test\nsource: test\nedition: ..\n"
    p = edition / "scenarios" / name
    p.parent.mkdir(exist_ok=True)
    p.write_text(head + body, encoding="utf-8")
    return p


def _run(path: Path):
    return run_scenario(load_scenario(str(path)))


def _line(text: str) -> int:
    lines = (STEPS / "game.civ").read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


MARKET = """setup_dice: [3, 4]
steps:
  - title: P1's income
    phase: market
    step: income
    player: P1
    dice: [5]
    expect:
      P1: {gold: 8}
      P2: {gold: 4}
  - phase: market
    step: buy
    player: P1
    decisions: {P1: ["3 point(s) for 3 gold"]}
    expect:
      P1: {gold: 5, points: 3}
      offered:
        - {tag: "points to buy", exactly: [0, 1, 2, "3 point(s) for 3 gold"]}
        - {tag: "points to buy", player: P1, include: [3], exclude: [4]}
      asked: ["points to buy"]
      not_asked: [draw]
  - phase: draw
    state:
      global: {deck: [Gold]}
    expect:
      P1: {hand: [Gold]}
      drawn: Gold
      P2: {hand: {size: 0}}
      asked: [{tag: draw, player: P1}]
  - call: "reward(P2, 12)"
    expect:
      game_over: true
      score: {P2: 12}
      breakdown: {P2: {bonus: 12, bought: 0}}
      P2.points: 12
      round: 0
      never: [{type: decision}]
"""


def test_steps_each_with_their_own_expect_pass(edition):
    outcome = _run(_scenario(edition, MARKET))
    assert outcome.passed, outcome.problems
    assert outcome.warnings == []


def test_a_failing_step_is_named_with_its_title_or_action(edition):
    text = MARKET.replace("P1: {gold: 8}", "P1: {gold: 9}").replace("P1: {hand: [Gold]}", "P1: {hand: [Salt]}")
    problems = _run(_scenario(edition, text)).problems
    assert problems[0] == (f"step 1 (P1's income): P1.gold: expected 9, got 8   (last changed at "
                           f"steps/game.civ:{_line('player.gold += roll(d6)')})")
    assert problems[1].startswith("step 3 (phase draw): P1.hand: expected [Salt], got [Gold]")


def test_set_up_dice_are_fixed_and_must_all_be_rolled(edition):
    game = build_game(load_scenario(str(_scenario(edition, MARKET))))
    assert [p.counters["gold"] for p in game.state.players] == [3, 4]
    extra = _run(_scenario(edition, MARKET.replace("setup_dice: [3, 4]", "setup_dice: [3, 4, 6]")))
    assert extra.problems == ["1 fixed set-up dice were never rolled: [6]"]


def test_a_step_s_dice_and_decisions_must_be_used_in_that_step(edition):
    text = MARKET.replace("dice: [5]", "dice: [5, 2]").replace('decisions: {P1: ["3 point(s) for 3 gold"]}',
                                                               'decisions: {P1: ["3 point(s) for 3 gold", 1]}')
    problems = _run(_scenario(edition, text)).problems
    assert problems == ["step 1 (P1's income): 1 fixed dice were never rolled: [2]",
                        "step 2 (phase market step buy for P1): P1 has 1 scripted decisions left: [1]"]


def test_a_leftover_answer_names_the_decision_answered_automatically(edition, capsys):
    text = MARKET.replace("    state:\n      global: {deck: [Gold]}\n",
                          "    state:\n      global: {deck: [Gold]}\n    decisions: {P1: [Gold]}\n")
    path = _scenario(edition, text)
    outcome = _run(path)
    draw_line = _line('chooses "draw"')
    where = f"steps/game.civ:{draw_line}"
    assert outcome.problems == [f"step 3 (phase draw): P1 has 1 scripted decisions left: ['Gold'] — probably meant "
                                f"for \"draw\" at {where}, answered automatically with its only option Gold"]
    assert main(["test", str(path)]) == 1
    out = capsys.readouterr().out
    assert "decisions (asked, and answered automatically when there was a single option):" in out
    assert f"P1 answered automatically \"draw\" at {where}: its only option was Gold" in out


def test_trace_prints_every_decision_asked_and_answered_automatically(edition, capsys):
    path = _scenario(edition, MARKET)
    assert main(["test", "--trace", str(path)]) == 0
    out = capsys.readouterr().out
    assert "step 1 (P1's income): no decisions" in out
    assert ("P1 asked \"points to buy\" at steps/game.civ:" in out and
            "none | 1 point(s) for 1 gold | 2 point(s) for 2 gold | 3 point(s) for 3 gold → 3 point(s) for 3 gold"
            in out)
    assert "P1 answered automatically \"draw\"" in out
    assert main(["test", "--trace", "--format", "json", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["scenarios"][0]["format"] == 2 and any("asked" in t for t in data["scenarios"][0]["trace"])


@pytest.mark.parametrize("expect, problem", [
    ("never: [{type: decision, tag: draw}]", "never[0]: an event {\"type\": \"decision\", \"tag\": \"draw\"} happened"),
    ("not_asked: [draw]", "not_asked[0]: the decision \"draw\" came up 1 time(s)"),
    ("asked: [drw]", "asked[0]: no decision \"drw\" came up (did you mean \"draw\"?)"),
    ("game_over: true", "game_over: expected the game to be over, but it is not"),
    ("P2: {hand: {size: 1}}", "P2.hand: expected 1 item(s), got 0: []"),
    ("P1: {hand: {includes: [Salt], excludes: [Gold]}}", "P1.hand: expected to include Salt, got [Gold]"),
    ("P1: {gold: {at_least: 9}}", "P1.gold: expected at least 9, got 5"),
    ("len(deck) + 1: 2", "len(deck) + 1: expected 2, got 1"),
    ("totals: [{P1: {token: 1}}]", "totals P1 token on the board: expected 1, got 0"),
])
def test_negative_structural_and_expression_expectations_fail_with_a_message(edition, expect, problem):
    block = ("      P1: {hand: [Gold]}\n      drawn: Gold\n      P2: {hand: {size: 0}}\n"
             "      asked: [{tag: draw, player: P1}]\n")
    text = MARKET.replace(block, f"      {expect}\n")
    problems = _run(_scenario(edition, text)).problems
    assert any(p.startswith(f"step 3 (phase draw): {problem}") for p in problems), problems


def test_offered_options_are_compared_by_value_or_label(edition):
    text = MARKET.replace('exactly: [0, 1, 2, "3 point(s) for 3 gold"]', "exactly: [0, 1, 2]")
    problems = _run(_scenario(edition, text)).problems
    assert problems == ["step 2 (phase market step buy for P1): offered[0] \"points to buy\": expected exactly "
                        "[0, 1, 2], offered none | 1 point(s) for 1 gold | 2 point(s) for 2 gold | "
                        "3 point(s) for 3 gold"]


def test_a_typo_in_an_expect_key_is_a_located_diagnostic(edition):
    path = _scenario(edition, MARKET.replace("      game_over: true\n", "      game_ovr: true\n"))
    with pytest.raises(CivError) as exc:
        _run(path)
    d = exc.value.diagnostics[0]
    assert d.code == "SCN013" and "game_ovr" in d.message and "did you mean `game_over`?" in d.hint
    assert path.read_text(encoding="utf-8").splitlines()[d.span.line - 1].strip().startswith("game_ovr")


def test_run_and_steps_together_are_refused(edition):
    with pytest.raises(CivError) as exc:
        load_scenario(str(_scenario(edition, "run: {phase: draw}\n" + MARKET)))
    assert exc.value.diagnostics[0].code == "SCN008"


def test_an_unknown_step_of_a_phase_suggests_the_name(edition):
    with pytest.raises(CivError) as exc:
        _run(_scenario(edition, MARKET.replace("step: income", "step: incme")))
    d = exc.value.diagnostics[0]
    assert d.code == "SCN009" and d.hint == "did you mean `income`?"


def test_format_2_reads_a_plain_none_as_none_and_format_1_shows_types(edition):
    body2 = "steps:\n  - call: \"[none, 5]\"\n    expect:\n      result: [none, 5]\n"
    assert _run(_scenario(edition, body2)).passed
    quoted = _run(_scenario(edition, body2.replace("result: [none, 5]", "result: [\"none\", 5]"), "q.yaml"))
    assert quoted.problems == ["step 1 (call [none, 5]): result: expected [none, 5] (list of text, number), got "
                               "[none, 5] (list of none, number)"]
    body1 = "run: {call: \"[none, 5]\"}\nexpect:\n  result: [none, 5]\n"
    old = _run(_scenario(edition, body1, "old.yaml", format2=False))
    assert old.problems == ["result: expected [none, 5] (list of text, number), got [none, 5] (list of none, number)"
                            " — a YAML `none` is the text \"none\" in format 1: write null, or use `format: 2`"]


def test_the_consistency_pass_warns_about_injected_state_that_breaks_an_invariant(edition, capsys):
    text = 'state:\n  P1: {hand: [Grain, Salt, Iron]}\nsteps:\n  - call: "len(P1.hand)"\n    expect: {result: 3}\n'
    path = _scenario(edition, text)
    outcome = _run(path)
    assert outcome.passed
    hand = _line("a hand holds at most 2 cards")
    assert outcome.warnings == [f"state: invariant \"a hand holds at most 2 cards\" (steps/game.civ:{hand}) does not "
                                "hold: for p = P1, len(p.hand) is 3 (wanted <= 2)"]
    assert main(["test", str(path)]) == 0
    out = capsys.readouterr().out
    assert "    warning: state: invariant \"a hand holds at most 2 cards\"" in out and "1 warning(s)" in out
    strict = _run(_scenario(edition, "consistency: error\n" + text, "strict.yaml"))
    assert not strict.passed and strict.problems[0].startswith("state: invariant")
    assert _run(_scenario(edition, "consistency: off\n" + text, "off.yaml")).warnings == []
    step = 'steps:\n  - call: "1"\n    state: {P2: {bonus: 4}}\n'
    warned = _run(_scenario(edition, step, "step.yaml")).warnings
    assert warned == [f"step 1 (call 1): state: invariant \"points are the bonus and what was bought\" (steps/game.civ:"
                      f"{_line('points are the bonus')}) does not hold: for p = P2, p.points is 0, p.bonus is 4 "
                      "(wanted >=)"]


def test_format_1_files_keep_their_output(edition, capsys):
    path = _scenario(edition, "state:\n  P1: {hand: [Grain, Salt, Iron]}\nrun: {phase: draw, player: P1}\n"
                              "expect:\n  P1: {points: 1}\n", "old.yaml", format2=False)
    outcome = _run(path)
    assert outcome.warnings == []  # format 1: the consistency pass is off unless the file asks for it
    assert outcome.problems == ["P1.points: expected 1, got 0   (unchanged by the run)"]


def test_the_game_ending_in_a_step_stops_the_later_steps(edition):
    body = ('steps:\n  - call: "reward(P1, 10)"\n  - rounds: 1\n    expect:\n      game_over: true\n'
            '      winners: [P1]\n      reason: victory\n')
    outcome = _run(_scenario(edition, body))
    assert outcome.passed, outcome.problems
    later = _run(_scenario(edition, body + "  - phase: draw\n", "later.yaml"))
    assert later.problems == ["step 3 (phase draw): the game ended in an earlier step (victory); this step cannot run"]


def test_the_schema_describes_format_2_and_the_shipped_examples_follow_it():
    schema = scenario_schema()
    Draft7Validator.check_schema(schema)
    assert set(schema["properties"]) >= {"format", "steps", "setup_dice", "consistency"}
    examples = [p for p in find_scenarios([str(ROOT / "rulesets")]) if load_scenario(str(p)).format == 2]
    assert len(examples) >= 3
    for p in examples:
        outcome = run_scenario(load_scenario(str(p)))
        assert outcome.passed, (p, outcome.problems)
        assert outcome.warnings == [], (p, outcome.warnings)


def test_the_docs_worked_example_is_the_shipped_file_and_its_transcripts_replay(capsys, monkeypatch):
    from tests.test_docs_transcripts import matches, transcripts
    page = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    shipped = ROOT / "rulesets/avalon-hill-1981/scenarios/steps-conflict-then-surplus.yaml"
    assert "```yaml\n" + shipped.read_text(encoding="utf-8") + "```" in page
    runs = transcripts(page)
    assert len(runs) >= 2
    monkeypatch.chdir(ROOT)
    for command, shown in runs:
        main(command.split()[1:])
        out = capsys.readouterr().out.splitlines()
        assert matches(shown, out), (command, out)


def test_a_script_that_runs_out_fails_the_step_with_the_options_and_the_trace(edition, capsys):
    path = _scenario(edition, MARKET.replace('decisions: {P1: ["3 point(s) for 3 gold"]}', "decisions: {P1: []}"))
    outcome = _run(path)
    assert len(outcome.problems) == 1 and outcome.show_trace
    assert outcome.problems[0].startswith("step 2 (phase market step buy for P1): the run failed: ")
    assert ("error[AGT001]: the script has no answer left for P1's decision \"points to buy\" (options: none, "
            "1 point(s) for 1 gold, 2 point(s) for 2 gold, 3 point(s) for 3 gold)") in outcome.problems[0]
    assert main(["test", str(path)]) == 1
    assert "(not answered: the step failed)" in capsys.readouterr().out


def test_a_fork_of_a_scenario_game_decides_on_its_own(edition):
    game = build_game(load_scenario(str(_scenario(edition, MARKET))))
    twin = game.fork()
    twin.run_phase("draw", twin.state.players[0])
    assert len(twin.state.players[0].zones["hand"]) == 1 and len(game.state.players[0].zones["hand"]) == 0
    assert game.tracer.entries == []  # the copy's decisions are not the scenario's

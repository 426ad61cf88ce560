"""The rough edges a new game's author hit (issue 25): fixed dice with an expected error, `fail` texts
filled in, `{...}` that cannot be filled (LNT008), a thing's name used as a key (LNT001), `count(list,
value)`, a bounded `**`, and `check --simulate` grouping failures that are alike."""
from __future__ import annotations

from pathlib import Path

import pytest
from one_file import one_file_edition

from civdsl.api import compile_entry
from civdsl.compiler.compiler import compile_ruleset
from civdsl.engine.agents import HeuristicAgent, RandomAgent
from civdsl.engine.interpreter import Game
from civdsl.language.diagnostics import CivError, Diagnostic
from civdsl.language.loader import load_ruleset
from civdsl.tools.scenario import load_scenario, run_scenario
from civdsl.tools.simulate import MAX_LOGS, _group_diagnostic, simulate

BASE = """
game "edges" { players: 1..3 }
die d6 = 1..6
player counter x = 0
phase roll {
  player.x = roll(d6)
  if player.x == 6 { fail "{player} rolled a six ({player.x})" }
}
sequence { phases: roll }
victory { max_rounds: 3 }
"""


def diagnostics(tmp_path, text: str) -> list:
    _, diags = compile_ruleset(load_ruleset(one_file_edition(tmp_path, text)))
    return diags


# ---- fixed dice and an expected error ----------------------------------------------------------------------
def scenario(tmp_path, body: str) -> list[str]:
    one_file_edition(tmp_path, BASE)
    path = tmp_path / "rulesets" / "t" / "scenarios" / "s.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text("scenario: s\nedition: ..\n" + body, encoding="utf-8")
    return run_scenario(load_scenario(str(path))).problems


def test_fixed_dice_and_an_expected_error_go_together(tmp_path):
    assert scenario(tmp_path, "dice: [6]\nrun: {phase: roll, player: P1}\n"
                              "expect:\n  error: {code: RUN030, message: \"P1 rolled a six (6)\"}\n  P1: {x: 0}\n") == []


def test_a_fixed_die_not_rolled_is_still_reported(tmp_path):
    problems = scenario(tmp_path, "dice: [6, 3]\nrun: {phase: roll, player: P1}\nexpect:\n  error: {code: RUN030}\n")
    assert problems == ["1 fixed dice were never rolled: [3]"]


def test_a_failing_step_keeps_its_fixed_dice_rolled_but_undoes_the_rest(tmp_path):
    game = Game(compile_entry(one_file_edition(tmp_path, BASE)), 1, 1, [RandomAgent(1, 1)])
    game.start()
    game.state.forced_dice = [6, 2]
    words = game.state.rng.bookmark()
    with pytest.raises(CivError):
        game.run_phase("roll", None)
    assert game.state.forced_dice == [2] and game.state.players[0].counters["x"] == 0
    assert game.state.rng.bookmark() == words


def test_a_heuristic_cannot_take_a_fixed_die(tmp_path):
    text = BASE.replace("player.x = roll(d6)", 'player.x = player chooses "n" from [1, 2]') + \
        'heuristic "n" = roll(d6)\n'
    game = Game(compile_entry(one_file_edition(tmp_path, text)), 1, 1, [HeuristicAgent(1, 1)])
    game.start()
    game.state.forced_dice = [4]
    with pytest.raises(CivError) as exc:
        game.run_phase("roll", None)
    assert exc.value.diagnostics[0].code == "RUN023" and game.state.forced_dice == [4]


# ---- fail texts and braces never filled --------------------------------------------------------------------
def test_fail_fills_in_its_text(tmp_path):
    game = Game(compile_entry(one_file_edition(tmp_path, BASE)), 1, 1, [RandomAgent(1, 1)])
    game.start()
    game.state.forced_dice = [6]
    with pytest.raises(CivError) as exc:
        game.run_phase("roll", None)
    d = exc.value.diagnostics[0]
    assert d.code == "RUN030" and d.message == "P1 rolled a six (6)" and d.span.line == 7


@pytest.mark.parametrize("text,found", [
    ('log "a {player.x"', "the `log` text has a brace that is not filled in"),
    ('fail "{} never"', "the `fail` text has a brace that is not filled in"),
    ('log "the end }"', "the `log` text has a brace"),
    ('log "x" + "{player.x}"', None),  # (a log takes one text: this is a syntax error, see below)
    ('let q = "{player} wins"', "the text \"{player}\" is not filled in"),
])
def test_braces_that_cannot_be_filled_are_lnt008(tmp_path, text, found):
    body = BASE.replace('  if player.x == 6', f"  {text}\n  if player.x == 6")
    if found is None:
        with pytest.raises(CivError):
            diagnostics(tmp_path, body)
        return
    diags = diagnostics(tmp_path, body)
    assert [d.code for d in diags] == ["LNT008"] and found in diags[0].message and diags[0].span.line == 7


def test_texts_with_braces_that_are_no_template_are_fine(tmp_path):
    body = BASE.replace('  if player.x == 6', '  log "{player.x} is {len(\\"ab\\")}"\n  let q = "{1}"\n'
                        '  let r = "a } b"\n  if player.x == 6')
    assert diagnostics(tmp_path, body) == []


# ---- a thing's name used as a key ----------------------------------------------------------------------------
KEYS = """
game "keys" { players: 1 }
kind box { face: int }
box ones { face: 1 }
box twos { face: 2 }
player var ones = none
player var twos = none
player var spare = none
phase fill { for b in entities("box") { player[b] = b.face } }
sequence { phases: fill }
"""


def test_a_player_variable_named_after_a_listed_thing_is_used(tmp_path):
    diags = diagnostics(tmp_path, KEYS)
    assert [(d.code, d.message) for d in diags] == [("LNT001", "variable `spare` is never used")]


def test_things_of_a_kind_never_listed_do_not_count(tmp_path):
    diags = diagnostics(tmp_path, KEYS.replace('for b in entities("box")', 'for b in ["ones"]'))
    assert sorted(d.message for d in diags if d.code == "LNT001") == ["variable `spare` is never used",
                                                                       "variable `twos` is never used"]


# ---- count and ** --------------------------------------------------------------------------------------------
def evaluate(tmp_path, expr: str):
    text = BASE + f"global var out = none\nsetup {{ out = {expr} }}\n"
    game = Game(compile_entry(one_file_edition(tmp_path, text)), 1, 1, [RandomAgent(1, 1)])
    game.start()
    return game.state.vars["out"]


@pytest.mark.parametrize("expr,expected", [
    ("count([1, 6, 6, 3], 6)", 2), ("count([1, 6, 6, 3])", 4), ("count([], 1)", 0),
    ("count([[1], [2], [1]], [1])", 2), ('count(["a", "b"], "c")', 0),
    ("2 ** 10", 1024), ("-2 ** 2", -4), ("(-2) ** 3", -8), ("2 ** 3 ** 2", 512), ("2 ** -1", 0.5),
    ("1.5 ** 2", 2.25), ("10 ** 0", 1), ("2 * 3 ** 2", 18), ("4 ** -1 * 4", 1),
])
def test_count_and_power(tmp_path, expr, expected):
    assert evaluate(tmp_path, expr) == expected


@pytest.mark.parametrize("expr,code,words", [
    ("2 ** 5000", "RUN014", "bits"), ("10 ** 1300", "RUN014", "bits"), ("2 ** 0.5", "RUN001", "whole number"),
    ('"a" ** 2', "RUN001", "cannot raise a text"), ("0 ** -1", "RUN001", "division by zero"),
    ("10.0 ** 400", "RUN014", "too large"), ("count([1], 1, 2)", "ARG001", "1 to 2 arguments"),
])
def test_bad_powers_and_counts_are_diagnostics(tmp_path, expr, code, words):
    with pytest.raises(CivError) as exc:
        evaluate(tmp_path, expr)
    d = exc.value.diagnostics[0]
    assert d.code == code and words in d.message and d.span is not None


def test_a_power_past_the_bound_is_refused_before_it_is_computed(tmp_path):
    with pytest.raises(CivError) as exc:
        evaluate(tmp_path, "3 ** 100000000000")
    assert exc.value.diagnostics[0].code == "RUN014"


# ---- --simulate groups failures that are alike ---------------------------------------------------------------
def test_failures_alike_are_one_diagnostic_with_a_few_logs(tmp_path):
    entry = one_file_edition(tmp_path, BASE.replace("victory { max_rounds: 3 }", "victory { max_rounds: 30 }"))
    logs = tmp_path / "logs"
    diags, ok, edition = simulate(entry, 40, 1, logs, jobs=1)
    assert len(diags) == 1 and ok < 40
    d = diags[0]
    failed = 40 - ok
    assert d.code == "SIM001" and f"{failed} of 40 games failed alike (seeds " in d.message
    assert "[RUN030]" in d.message and d.span.line == 7
    written = sorted(Path(logs).iterdir())
    assert len(written) == MAX_LOGS and all(str(p) in d.hint for p in written)
    assert f"--edition {entry.parent}" in d.hint  # not a shipped edition: played by its folder


def test_one_failure_reads_as_before():
    d = Diagnostic("RUN001", "division by zero", None)
    one = _group_diagnostic("tiny", "tiny", 5, [(2, 3, d, 4, "race")], None, None)
    assert one.message == "tiny: game with 2 player(s), seed 3, failed in round 4, phase `race`: [RUN001] division by zero"
    assert one.hint == "reproduce with `civdsl play --edition tiny --players 2 --seed 3`"


@pytest.mark.parametrize("start", ['"zero"', "1.5", "true"])
def test_a_counter_that_starts_at_no_whole_number_is_a_diagnostic_at_its_declaration(tmp_path, start):
    """`play` does not run the type check: the game's start reports the counter's line, never a crash."""
    entry = one_file_edition(tmp_path, f'game "G" {{ edition: "t" players: 1..2 }}\n'
                                       f'player counter score in 0.. = {start}\n'
                                       'phase p { player.score += 1 }\nsequence { phases: p }\n')
    with pytest.raises(CivError) as caught:
        Game(compile_entry(entry), 1, 0, [RandomAgent(0, 0)], logging=False).run()
    d = caught.value.diagnostics[0]
    assert (d.code, d.span.line) == ("RUN001", 2) and "counter `score` holds whole numbers" in d.message


def test_check_simulate_plays_the_games_with_an_option_switched_on(tmp_path, capsys):
    """`check --simulate N --option NAME`: the option's rules run in the simulated games (here the option
    breaks the game, so the plain games pass and the option's fail), and the reproduce hint names it."""
    from cli_run import run
    entry = one_file_edition(tmp_path, 'game "G" { edition: "t" players: 1..2 }\n'
                                       'player counter score in 0.. = 0\n'
                                       'phase p { player.score += 1 }\n'
                                       'sequence { phases: p }\n'
                                       'victory { max_rounds: 3 rank: [player.score] }\n'
                                       'option broken "Broken" {\n'
                                       '  replace phase p { player.score += 1 // 0 }\n'
                                       '}\n')
    code, out = run(capsys, "check", "--simulate", "3", "--jobs", "1", entry)
    assert code == 0 and "3/3 simulated games ended cleanly" in out
    code, out = run(capsys, "check", "--simulate", "3", "--jobs", "1", "--option", "broken",
                    "--log-dir", tmp_path / "logs", entry)
    assert code == 1 and "--option broken: 0/3 simulated games ended cleanly" in out
    assert "SIM001" in out and "division by zero" in out and "--option broken" in out.split("reproduce with")[1]
    code, out = run(capsys, "check", "--simulate", "1", "--option", "nosuch", entry)
    assert code != 0 and "CFG010" in out and "no option `nosuch`" in out

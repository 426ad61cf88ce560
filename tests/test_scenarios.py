"""Every scenario shipped under rulesets/ runs inside the test suite too, and the runner itself is tested."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from civdsl.engine.agents import RandomAgent, ScriptedAgent
from civdsl.interfaces.cli import main
from civdsl.language.diagnostics import CivError
from civdsl.tools.scenario import build_game, find_scenarios, load_scenario, run_scenario

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = find_scenarios([str(ROOT / "rulesets"), str(ROOT / "examples")])


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: str(p.relative_to(ROOT)))
def test_shipped_scenario(path):
    outcome = run_scenario(load_scenario(str(path)))
    assert outcome.passed, "\n".join(outcome.problems)


def test_every_shipped_scenario_cites_its_source():
    assert SCENARIOS
    for path in SCENARIOS:
        assert load_scenario(str(path)).data.get("source"), path


def _write(tmp_path, text, name="s.yaml"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


HARVEST = """scenario: harvest
source: test
edition: warp-spawn-solitaire
state:
  P1: {agriculture: 4, food: 0, advances: []}
run: {phase: harvest, player: P1}
expect:
  P1: {food: FOOD}
"""


def test_wrong_expectation_fails_with_a_diff_naming_the_rule(tmp_path, capsys):
    p = _write(tmp_path, HARVEST.replace("FOOD", "13"))
    assert main(["test", str(p)]) == 1
    out = capsys.readouterr().out
    assert "P1.food: expected 13, got 12" in out
    assert "last changed at warp-spawn-solitaire/rules.civ:" in out
    assert "0 passed, 1 failed" in out


def test_right_expectation_passes(tmp_path, capsys):
    p = _write(tmp_path, HARVEST.replace("FOOD", "12"))
    assert main(["test", str(p)]) == 0
    assert "1 passed, 0 failed" in capsys.readouterr().out


def test_bad_scenario_file_gets_a_located_diagnostic(tmp_path):
    p = _write(tmp_path, HARVEST.replace("FOOD", "12").replace("run: {phase", "run: {phse"))
    with pytest.raises(CivError) as exc:
        load_scenario(str(p))
    d = exc.value.diagnostics[0]
    assert d.code == "SCN002" and d.span.line == 6 and "phse" in d.message


def test_unknown_counter_in_state_suggests_the_name(tmp_path):
    p = _write(tmp_path, HARVEST.replace("FOOD", "12").replace("{agriculture: 4", "{agricultur: 4"))
    with pytest.raises(CivError) as exc:
        run_scenario(load_scenario(str(p)))
    d = exc.value.diagnostics[0]
    assert d.code == "SCN006" and d.span.line == 5 and "agriculture" in (d.hint or "")


def test_expected_error_and_unused_dice(tmp_path):
    p = _write(tmp_path, HARVEST.replace("FOOD", "12").replace("run:", "dice: [3]\nrun:"))
    outcome = run_scenario(load_scenario(str(p)))
    assert not outcome.passed and "fixed dice were never rolled" in outcome.problems[0]
    p2 = _write(tmp_path, """scenario: illegal
source: test
edition: warp-spawn-solitaire
run: {call: "lose_city(P1, 7)"}
expect:
  error: {code: RUN001}
""", "e.yaml")
    assert run_scenario(load_scenario(str(p2))).passed


def test_a_failing_action_is_rolled_back(tmp_path):
    """lose_city lowers the city count, then fails on a bad winner: nothing may stay half-applied."""
    p = _write(tmp_path, """scenario: rollback
source: test
edition: warp-spawn-solitaire
state:
  P1: {cities: 2, wonders: []}
run: {call: "lose_city(P1, 7)"}
expect:
  error: {code: RUN001}
  P1: {cities: 2}
""", "rb.yaml")
    assert run_scenario(load_scenario(str(p))).passed


# --- pieces on map areas, and decisions that script the run only ------------------------------------

BOARD = ROOT / "tests" / "data" / "scenarios" / "board"
BOARD_SCENARIOS = find_scenarios([str(BOARD)])


def _board_line(text: str) -> int:
    """The line of board/game.civ holding `text`, so tests name rule locations without hard-coding them."""
    lines = (BOARD / "game.civ").read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def _board(tmp_path, body: str, name="b.yaml"):
    """A scenario of a copy of the board edition beside it (a scenario's edition lies near it)."""
    if not (tmp_path / "board").exists():
        shutil.copytree(BOARD, tmp_path / "board")
    return _write(tmp_path, f"scenario: board\nsource: test\nedition: board\n{body}", name)


def _diag(path):
    with pytest.raises(CivError) as exc:
        run_scenario(load_scenario(str(path)))
    return exc.value.diagnostics[0]


@pytest.mark.parametrize("path", BOARD_SCENARIOS, ids=lambda p: p.name)
def test_board_scenario_passes(path):
    outcome = run_scenario(load_scenario(str(path)))
    assert outcome.passed, "\n".join(outcome.problems)


def test_board_scenarios_exist():
    assert {p.name for p in BOARD_SCENARIOS} >= {"pieces-sail.yaml", "decisions-skip-setup.yaml"}


def test_state_pieces_replace_the_whole_board(tmp_path):
    plain = build_game(load_scenario(str(_board(tmp_path, "run: {phase: sail}\nexpect: {}\n", "plain.yaml"))))
    assert plain.state.pieces.total(0, "token") == 2 and plain.state.pieces.total(1, "token") == 2  # the set-up's
    p = _board(tmp_path, """state:
  pieces:
    Thebes: {P1: {token: 3, ship: 1}}
    Memphis: {P2: {city: 1, token: 0}}
run: {phase: sail}
expect: {}
""")
    game = build_game(load_scenario(str(p)))
    assert game.state.pieces.items() == [(("Memphis", 1, "city"), 1), (("Thebes", 0, "ship"), 1),
                                         (("Thebes", 0, "token"), 3)]
    empty = build_game(load_scenario(str(_board(tmp_path, "state: {pieces: {}}\nrun: {phase: sail}\nexpect: {}\n",
                                                "empty.yaml"))))
    assert empty.state.pieces.items() == []


def test_pieces_move_by_the_rules_and_are_checked(tmp_path):
    p = _board(tmp_path, """state:
  pieces:
    Thebes: {P1: {token: 3, ship: 1}, P2: {token: 1}}
run: {phase: sail}
expect:
  pieces:
    Thebes: {P1: {token: 0, ship: 1}, P2: {}}
    Memphis: {P1: {token: 3}, P2: {token: 1, city: 0}}
    Sinai: {}
""")
    assert run_scenario(load_scenario(str(p))).passed


def test_wrong_piece_count_fails_naming_the_rule(tmp_path, capsys):
    p = _board(tmp_path, """state:
  pieces:
    Thebes: {P1: {token: 3, ship: 1}}
run: {phase: sail}
expect:
  pieces:
    Memphis: {P1: {token: 2}}
    Thebes: {P1: {token: 1, ship: 2}}
""")
    assert main(["test", str(p)]) == 1
    out = capsys.readouterr().out
    place, take = _board_line('place("Memphis"'), _board_line('take("Thebes"')
    assert f"pieces Memphis P1 token: expected 2, got 3   (last changed at board/game.civ:{place})" in out
    assert f"pieces Thebes P1 token: expected 1, got 0   (last changed at board/game.civ:{take})" in out
    assert "pieces Thebes P1 ship: expected 2, got 1   (unchanged by the run)" in out
    assert "0 passed, 1 failed" in out
    outcome = run_scenario(load_scenario(str(p)))
    assert outcome.rules == [f"board/game.civ:{place}", f"board/game.civ:{take}"]


def test_empty_area_and_empty_owner_must_hold_no_pieces(tmp_path):
    p = _board(tmp_path, """state:
  pieces:
    Thebes: {P1: {token: 3, ship: 1}, P2: {token: 1}}
    Sinai: {P2: {ship: 2}}
run: {phase: sail}
expect:
  pieces:
    Memphis: {P2: {}}
    Thebes: {P1: {}, P2: {}}
    Sinai: {}
""")
    outcome = run_scenario(load_scenario(str(p)))
    place, take = _board_line('place("Memphis"'), _board_line('take("Thebes"')
    assert outcome.problems == [
        f"pieces Memphis P2: expected no pieces, got token 1   (last changed at board/game.civ:{place})",
        f"pieces Thebes P1: expected no pieces, got ship 1   (last changed at board/game.civ:{take})",
        "pieces Sinai: expected no pieces, got P2 ship 2   (unchanged by the run)",
    ]
    p2 = _board(tmp_path, """state:
  pieces:
    Thebes: {P1: {token: 3}}
    Sinai: {P1: {ship: 1}, P2: {city: 1}}
run: {phase: sail}
expect:
  pieces:
    Sinai: {}
""", "b2.yaml")
    problems = run_scenario(load_scenario(str(p2))).problems
    assert problems == ["pieces Sinai: expected no pieces, got P1 ship 1, P2 city 1   (unchanged by the run)"]


@pytest.mark.parametrize("where", ["state", "expect"])
def test_unknown_area_is_scn010_with_a_suggestion(tmp_path, where):
    body = ("run: {phase: sail}\nstate:\n  pieces:\n    Memfis: {P1: {token: 1}}\nexpect: {}\n" if where == "state"
            else "run: {phase: sail}\nexpect:\n  pieces:\n    Memfis: {P1: {token: 1}}\n")
    d = _diag(_board(tmp_path, body))
    assert d.code == "SCN010" and "Memfis" in d.message
    assert (d.span.line, d.span.col) == (7, 5) and d.hint == "did you mean `Memphis`?"
    d2 = _diag(_board(tmp_path, body.replace("Memfis", "Atlantis"), "far.yaml"))
    assert d2.code == "SCN010" and d2.hint == "known areas: Memphis, Sinai, Thebes"


@pytest.mark.parametrize("count", ["-1", "three", "1.5", "true", "[2]"])
@pytest.mark.parametrize("where", ["state", "expect"])
def test_bad_piece_count_is_scn005(tmp_path, where, count):
    body = (f"run: {{phase: sail}}\nstate:\n  pieces:\n    Thebes: {{P1: {{ship: 1, token: {count}}}}}\nexpect: {{}}\n"
            if where == "state" else
            f"run: {{phase: sail}}\nexpect:\n  pieces:\n    Thebes: {{P1: {{ship: 0, token: {count}}}}}\n")
    d = _diag(_board(tmp_path, body))
    assert d.code == "SCN005" and "whole number of at least 0" in d.message
    assert (d.span.line, d.span.col) == (7, 28)  # the kind's key


@pytest.mark.parametrize("where", ["state", "expect"])
def test_unknown_player_in_pieces_is_scn004(tmp_path, where):
    body = ("run: {phase: sail}\nstate:\n  pieces:\n    Thebes: {P3: {token: 1}}\nexpect: {}\n" if where == "state"
            else "run: {phase: sail}\nexpect:\n  pieces:\n    Thebes: {P3: {}}\n")
    d = _diag(_board(tmp_path, body))
    assert d.code == "SCN004" and "P3" in d.message and "2-player" in d.message
    assert (d.span.line, d.span.col) == (7, 14)
    # the same key is fine in a 3-player game
    assert run_scenario(load_scenario(str(_board(tmp_path, "players: 3\n" + body, "three.yaml")))).passed


@pytest.mark.parametrize("pieces, line, what", [
    ("Thebes: {global: {token: 1}}", 7, "got 'global'"),
    ("Thebes: {P1: 3}", 7, "expected a mapping, got integer 3"),
    ("Thebes:", 7, "expected a mapping, got nothing"),
    ("Thebes: {P1: {1: 2}}", 7, "expected a string, got integer 1"),
])
def test_misshapen_pieces_break_the_schema(tmp_path, pieces, line, what):
    p = _board(tmp_path, f"run: {{phase: sail}}\nstate:\n  pieces:\n    {pieces}\nexpect: {{}}\n")
    with pytest.raises(CivError) as exc:
        load_scenario(str(p))
    d = exc.value.diagnostics[0]
    assert d.code == "SCN002" and d.span.line == line and what in d.message


def test_a_non_text_owner_key_is_a_diagnostic_not_a_crash(tmp_path):
    p = _write(tmp_path, HARVEST.replace("FOOD", "12").replace("  P1: {agriculture", "  1: {agriculture"))
    with pytest.raises(CivError) as exc:
        load_scenario(str(p))
    d = exc.value.diagnostics[0]
    assert d.code == "SCN002" and "expected a string, got integer 1" in d.message


def test_decisions_script_the_run_and_not_the_setup(tmp_path):
    """The set-up asks every player for a `home`: those questions go to random agents from the seed."""
    script = "decisions:\n  P1: [\"no\"]\nrun: {phase: ask, player: P1}\nexpect:\n  P1: {answer: \"no\"}\n"
    p = _board(tmp_path, script)
    game = build_game(load_scenario(str(p)))
    assert [type(a) for a in game.agents] == [ScriptedAgent, RandomAgent]
    assert game.agents[0].answers == ["no"]  # nothing was used up by the set-up
    assert [pl.agent for pl in game.state.players] == ["scripted", "random"]
    plain = build_game(load_scenario(str(_board(tmp_path, "run: {phase: ask}\nexpect: {}\n", "plain.yaml"))))
    homes = [pl.vars["home"] for pl in plain.state.players]
    assert [pl.vars["home"] for pl in game.state.players] == homes  # the set-up does not depend on the script
    assert all(h in ("Thebes", "Memphis") for h in homes)
    outcome = run_scenario(load_scenario(str(p)))
    assert outcome.passed, outcome.problems


def test_unused_decisions_are_still_reported(tmp_path):
    p = _board(tmp_path, "decisions:\n  P1: [\"no\", \"yes\"]\nrun: {phase: ask, player: P1}\n"
                         "expect:\n  P1: {answer: \"no\"}\n")
    assert run_scenario(load_scenario(str(p))).problems == ["P1 has 1 scripted decisions left: ['yes']"]


def test_a_call_reads_fields_of_things_it_lists(tmp_path):
    """The call is compiled into the game's own program: things named by `entities(..)` have their fields."""
    path = _write(tmp_path, 'scenario: "orders"\nsource: test\nedition: avalon-hill-1981\nplayers: 3\n'
                            'run: {call: "[e.order for e in entities(\\"epoch\\")]"}\nexpect: {result: [1, 2, 3, 4, 5]}\n')
    outcome = run_scenario(load_scenario(str(path)))
    assert outcome.passed, outcome.problems


def test_scenarios_of_one_edition_share_its_compiled_rules_until_a_file_changes(tmp_path):
    rules = tmp_path / "board"
    shutil.copytree(BOARD, rules)
    p = _write(tmp_path, f"scenario: board\nsource: test\nedition: {rules}\nrun: {{phase: sail}}\nexpect: {{}}\n")
    first = build_game(load_scenario(str(p))).program
    assert build_game(load_scenario(str(p))).program is first
    entry = rules / "game.civ"
    entry.write_text(entry.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    assert build_game(load_scenario(str(p))).program is not first


def test_neutral_pieces_are_set_and_checked_under_the_owner_neutral(tmp_path, capsys):
    p = _board(tmp_path, """state:
  pieces:
    Thebes: {neutral: {raider: 2}, P1: {token: 1}}
run: {phase: sail}
expect:
  pieces:
    Thebes: {neutral: {raider: 3}}
""")
    game = build_game(load_scenario(str(p)))
    assert game.state.pieces.items() == [(("Thebes", -1, "raider"), 2), (("Thebes", 0, "token"), 1)]
    assert main(["test", str(p)]) == 1
    assert "pieces Thebes neutral raider: expected 3, got 2" in capsys.readouterr().out

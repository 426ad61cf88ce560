"""`measure(name, record)` and `victory { label: }`: what a ruleset says is worth counting, recorded
apart from the log, undone with a failing step, never taken while a heuristic looks ahead."""
from __future__ import annotations

import pytest
from one_file import one_file_edition

from civdsl.api import compile_entry
from civdsl.engine.agents import make_agents
from civdsl.engine.interpreter import Game
from civdsl.language.diagnostics import CivError

HEAD = 'game "M" { edition: "m" players: 2 }\nplayer counter vp = 0\nglobal counter turns = 0\n'


def game_of(tmp_path, body: str, extra: str = "", agents=None, **kw) -> Game:
    text = (HEAD + extra + "phase main {\n" + body + "\n}\nsequence { phases: main }\n"
            "victory { max_rounds: 2 score: player.vp label: \"house \" + str(player.seat) }\n")
    prog = compile_entry(one_file_edition(tmp_path, text))
    return Game(prog, 2, 0, make_agents(agents or [], 2, 0), **kw)


def test_measurements_are_recorded_with_round_rule_and_player_names(tmp_path):
    game = game_of(tmp_path, "  turns += 1\n  for p in players { p.vp += p.seat\n"
                             "    measure(\"gain\", {player: p, value: p.seat, kind: \"vp\"}) }")
    result = game.run()
    gains = [m for m in game.measures if m["name"] == "gain"]
    assert len(gains) == 2 * game.state.counters["turns"]
    assert gains[0] == {"round": 1, "name": "gain", "fields": {"player": "P1", "value": 1, "kind": "vp"},
                        "rule": "t/game.civ:7"}
    assert {m["round"] for m in gains} == {1, 2}
    assert result.labels == {"P1": "house 1", "P2": "house 2"}
    assert not any(e["type"] == "measure" for e in game.events)  # not in the log
    assert "label" not in str(game.events[-1])  # nor the labels: logs are unchanged


def test_a_failing_step_takes_its_measurements_back(tmp_path):
    game = game_of(tmp_path, "  turns += 1\n  measure(\"before\")\n  if turns == 3 { turns = 1 // 0 }")
    with pytest.raises(CivError):
        game.run()
    assert [m["name"] for m in game.measures] == ["before", "before"]  # the third step was undone


def test_a_heuristic_looking_ahead_measures_nothing(tmp_path):
    extra = ("procedure look(p) {\n  measure(\"looked\", {player: p})\n  return 1\n}\n"
             "heuristic \"pick\" = look(player)\n")
    game = game_of(tmp_path, "  for p in players {\n    let c = p chooses \"pick\" from [1, 2]\n"
                             "    measure(\"chose\", {player: p, value: c}) }", extra, agents=["heuristic"])
    game.run()
    assert {m["name"] for m in game.measures} == {"chose"}


def test_a_fork_carries_the_measurements_so_far(tmp_path):
    game = game_of(tmp_path, "  measure(\"step\")", logging=False)
    game.play_round()
    twin = game.fork()
    twin.play_round()
    assert len(twin.measures) == 2 * len(game.measures) and len(game.measures) > 0


@pytest.mark.parametrize("call, message", [("measure(3)", "needs a name"), ('measure("x", 5)', "a record of values")])
def test_a_wrong_measurement_is_a_rule_error(tmp_path, call, message):
    game = game_of(tmp_path, "  " + call)
    with pytest.raises(CivError) as exc:
        game.run()
    assert exc.value.diagnostics[0].code == "RUN001" and message in exc.value.diagnostics[0].message

"""Agents: the human agent at a terminal (with its map summary), the heuristic agent's use of the
ruleset's heuristics, and `greedy` as the heuristic agent's older name."""
from __future__ import annotations

import copy
import io
from pathlib import Path

import pytest

from civdsl.api import compile_entry
from civdsl.engine.agents import (
    AGENT_ALIASES,
    AGENT_NAMES,
    GreedyAgent,
    HeuristicAgent,
    HumanAgent,
    RandomAgent,
    make_agents,
    map_summary,
    option_label,
)
from civdsl.engine.interpreter import Game
from civdsl.language.diagnostics import CivError

DATA = Path(__file__).resolve().parent / "data"
TINY = DATA / "rulesets" / "tiny" / "game.civ"
ATLAS = DATA / "agents" / "atlas" / "game.civ"


def test_human_agent_numbers_the_options_retries_and_shows_state():
    prog = compile_entry(TINY)
    out = io.StringIO()
    human = HumanAgent(stdin=io.StringIO("?\n9\nx\n2\n" * 40), stdout=out)
    game = Game(prog, 2, 1, [human, RandomAgent(1, 2)], max_rounds=1)
    game.run()
    text = out.getvalue()
    assert "P1: how to move" in text and "  1. walk" in text and "  2. run" in text
    assert "  score: 0\n  hand: -\n" in text  # `?` shows the player's own state, as words rather than dicts
    assert "{" not in text
    assert "please type a number from 1 to 2" in text
    assert "choose a number (? to see your state): " in text  # no map: no `m` command offered
    decisions = [e for e in game.events if e["type"] == "decision" and e["player"] == "P1"]
    assert decisions and all(e["value"] == "run" for e in decisions)


def test_heuristic_agent_follows_the_heuristic():
    prog = compile_entry(TINY)
    game = Game(prog, 2, 3, [HeuristicAgent(3, 1), HeuristicAgent(3, 2)], max_rounds=3)
    game.run()
    moves = [e["value"] for e in game.events if e["type"] == "decision"]
    assert moves and set(moves) == {"run"}  # heuristic "how to move" scores run 1, walk 0
    assert [p.agent for p in game.state.players] == ["heuristic", "heuristic"]


# ---- names: heuristic, and greedy as an alias ------------------------------------------------------------
def test_heuristic_is_a_documented_agent_name_and_greedy_its_alias():
    assert "heuristic" in AGENT_NAMES and "greedy" not in AGENT_NAMES
    assert AGENT_ALIASES == {"greedy": "heuristic"}
    assert GreedyAgent is HeuristicAgent
    for name in ("heuristic", "greedy"):
        agents = make_agents([name], 3, 7)
        assert [type(a) for a in agents] == [HeuristicAgent] * 3
        assert {a.name for a in agents} == {"heuristic"}


@pytest.mark.parametrize("entry", [TINY, DATA / "rulesets" / "choices" / "game.civ"], ids=lambda p: p.parent.name)
def test_greedy_plays_exactly_the_games_heuristic_plays(entry):
    prog = compile_entry(entry)
    for seed in range(4):
        logs = []
        for name in ("heuristic", "greedy"):
            game = Game(prog, 2, seed, make_agents([name], 2, seed), max_rounds=5)
            game.run()
            logs.append(game.events)
        assert logs[0] == logs[1]


def test_unknown_agent_name_suggests_the_closest():
    with pytest.raises(CivError) as caught:
        make_agents(["heuristc"], 2, 0)
    [d] = caught.value.diagnostics
    assert d.code == "CFG012" and d.message == "unknown agent `heuristc`"
    assert d.hint.startswith("did you mean `heuristic`?") and "random, heuristic, human" in d.hint


def test_a_heuristic_may_not_roll_dice(tmp_path):
    folder = tmp_path / "rulesets" / "dicey"
    folder.mkdir(parents=True)
    (folder / "game.civ").write_text(
        'game "Dicey" { edition: "dicey" players: 2 }\n'
        "die d6 = 1..6\n"
        'phase main { let a = player chooses "pick" from ["a", "b"] }\n'
        "sequence { phases: main }\n"
        'heuristic "pick" = roll(d6)\n'
        "victory { max_rounds: 1 }\n", encoding="utf-8")
    game = Game(compile_entry(folder / "game.civ"), 2, 0, make_agents(["heuristic"], 2, 0))
    with pytest.raises(CivError) as caught:
        game.run()
    [d] = caught.value.diagnostics
    assert d.code == "RUN023" and d.message.startswith("a heuristic may not use randomness")
    assert d.span.line == 5  # the heuristic, not the decision
    assert not any(e["type"] == "roll" for e in game.events)


# ---- the human agent's map summary ------------------------------------------------------------------------
def atlas_game(stdin: str):
    out = io.StringIO()
    human = HumanAgent(stdin=io.StringIO(stdin), stdout=out)
    game = Game(compile_entry(ATLAS), 2, 0, [human, RandomAgent(0, 2)])
    return game, out


def test_human_agent_labels_area_options_with_what_stands_there():
    game, out = atlas_game("1\n")
    game.run()
    lines = out.getvalue().splitlines()
    assert "  1. Thebes — limit 2, flood_plain; P1: 1 city" in lines      # true flags by name, lists left out
    assert "  2. Sinai — limit 1; P2: 3 token" in lines
    assert "  3. Delta — coast" in lines                                  # nobody there
    assert "  4. stay" in lines                                           # not an area: as it was
    assert any(l.startswith("choose a number (? to see your state, m for your map areas): ") for l in lines)
    assert game.state.vars["moves"] == ["Thebes"]
    assert game.state.pieces.at("Thebes", 0, "token") == 1


def test_human_agent_m_command_lists_the_players_areas_and_every_piece_there():
    game, out = atlas_game("m\n4\n")
    game.run()
    text = out.getvalue()
    summary = text.split("m for your map areas): ", 1)[1].splitlines()
    assert summary[:3] == [
        "  P1 has pieces on 2 area(s):",
        "    Memphis — limit 3, city_site black; P1: 2 token; P2: 1 city",  # false flags left out
        "    Thebes — limit 2, flood_plain; P1: 1 city",
    ]
    assert "Sinai —" not in "\n".join(summary[:3])  # only P2 stands there
    assert game.state.vars["moves"] == ["stay"]


def test_map_summary_without_pieces_or_without_a_map():
    game, _ = atlas_game("")
    game.start()
    p1, p2 = game.state.players
    for (area, owner, kind), n in game.state.pieces.items():
        if owner == 0:
            game.state.pieces[(area, owner, kind)] = 0
    assert map_summary(game, p1) == ["P1 has no pieces on the map"]
    assert map_summary(game, p2)[0] == "P2 has pieces on 2 area(s):"
    plain = Game(compile_entry(TINY), 1, 0, [RandomAgent(0, 1)])
    plain.start()
    assert map_summary(plain, plain.state.players[0]) == ["this game has no map"]
    assert option_label(plain, "walk", "walk") == "walk"


def test_a_thing_named_like_an_area_is_not_described_as_the_area():
    game, _ = atlas_game("")
    game.start()
    assert option_label(game, "Memphis", "Memphis") == "Memphis"
    assert option_label(game, "Thebes", "Thebes").startswith("Thebes — limit 2")


def test_long_area_labels_stay_on_one_short_line():
    game, _ = atlas_game("")
    game.start()
    for i in range(12):
        game.state.pieces[("Delta", 1, f"kind{i:02}")] = i + 1
    label = option_label(game, "Delta", "Delta")
    assert label.startswith("Delta — coast; P2: 1 kind00, 2 kind01")
    assert len(label) <= 100 and label.endswith("…") and "\n" not in label


def test_long_attributes_are_clipped_before_the_pieces():
    game, _ = atlas_game("")
    game.start()
    board = game.state.maps["board"] = copy.copy(game.state.maps["board"])  # (the program's map stays as it was)
    board.areas = {**board.areas, "Thebes": {**board.areas["Thebes"], **{f"note{i}": "x" * 8 for i in range(12)}}}
    label = option_label(game, "Thebes", "Thebes")
    assert label.startswith("Thebes — limit 2, flood_plain, note0 xxxxxxxx")
    assert label.endswith("…; P1: 1 city") and len(label) <= 100  # the pieces stay in sight

"""Avalon Hill Civilization (1981): the board rules (ships 9, movement 10, conflict 11, cities 12-14).

The rules themselves are pinned by the scenarios in rulesets/avalon-hill-1981/scenarios/ (move-*, ship-*,
conflict-*, city-*, surplus-*, support-*). This file checks the map facts those scenarios rely on, so that a
change of map.json that would make a scenario pass or fail for the wrong reason is caught here, and that the
heuristic agent (rulesets/civ-core/heuristics_board.civ) expands, sails and builds cities.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from civdsl.api import load_program
from civdsl.engine.agents import make_agents
from civdsl.engine.interpreter import Game
from civdsl.engine.mapdata import load_map
from civdsl.language.diagnostics import Span

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "rulesets" / "avalon-hill-1981" / "data" / "map.json"


@pytest.fixture(scope="module")
def board():
    return load_map(MAP, Span(str(MAP), 1, 1))


def kind(board, a, b):
    return board.borders[a].get(b)


def test_straits_and_coasts_the_ship_scenarios_use(board):
    # move-voyage-ferries-two-loads, move-landed-tokens-stay: the Strait of Messina is water only.
    assert kind(board, "Campania", "Milazzo") == "water"
    # move-overland-cannot-embark: Samnium walks into Campania.
    assert kind(board, "Samnium", "Campania") in ("land", "both")
    # move-ship-never-crosses-land (10.10): Roma and Rubicon, both coastal, share an all-land boundary.
    assert kind(board, "Roma", "Rubicon") == "land"
    assert board.areas["Roma"]["water"] and board.areas["Rubicon"]["water"]
    # move-open-sea-*: Knossos and Cyrene face the Eastern Mediterranean, an open sea (10.7).
    assert board.areas["Eastern Mediterranean"]["open_sea"]
    assert kind(board, "Knossos", "Eastern Mediterranean") == "water"
    assert kind(board, "Cyrene", "Eastern Mediterranean") in ("water", "both")
    # move-greek-coastline-*: Delphi's east coast faces Athens, Chalkis and Thessaly, its west coast Ithaka
    # and Corinth (23.3); Chalkis and Ithaka both touch Delphi by water.
    east, west = board.areas["Delphi"]["coastlines"]
    assert {"Athens", "Chalkis", "Thessaly"} <= set(east) and {"Ithaka", "Corinth"} <= set(west)
    assert kind(board, "Chalkis", "Delphi") == "water" and kind(board, "Ithaka", "Delphi") == "water"


def test_limits_and_sites_the_scenarios_use(board):
    limits = {"Sparta": 1, "Argos": 1, "Athens": 2, "Corinth": 2, "Phaestos": 2, "Knossos": 3,
              "Thebes": 3, "Buhen": 3, "Susa": 3, "Upper Egypt": 4}
    assert {a: board.areas[a]["limit"] for a in limits} == limits
    assert board.areas["Thebes"]["city_site"] and board.areas["Buhen"]["city_site"]
    assert not board.areas["Upper Egypt"]["city_site"] and not board.areas["Pannonia"]["city_site"]


def test_heuristic_players_expand_sail_and_build_cities():
    players, seed = 7, 11
    game = Game(load_program("avalon-hill-1981"), players, seed, make_agents(["heuristic"], players, seed),
                check_invariants=True, max_rounds=12)
    game.run()
    texts = [e["text"] for e in game.events if e.get("type") == "log"]
    builders = {t.split()[0] for t in texts if " builds a city in " in t}
    assert builders == {p.name for p in game.state.players}
    assert sum(" builds a city in " in t for t in texts) >= 15
    assert any("'s ship sails to " in t for t in texts)

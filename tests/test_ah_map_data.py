"""Avalon Hill Civilization (1981): the board data in rulesets/avalon-hill-1981/data/map.json.

The map is loaded with civdsl's own loader, then checked against what the rulebook states about the
board (rule numbers in the comments) and against itself. How the data was derived, and what is still
uncertain, is in docs/editions/avalon-hill-1981-data.md.
"""
from __future__ import annotations

import json
from collections import deque
from pathlib import Path

import pytest

from civdsl.engine.mapdata import BORDER_TYPES, load_map
from civdsl.language.diagnostics import Span

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "rulesets" / "avalon-hill-1981" / "data" / "map.json"

NATIONS = ["Africa", "Italy", "Illyria", "Thrace", "Crete", "Asia", "Assyria", "Babylon", "Egypt"]
# Nations that may be played, per number of players (rules 4.5 and 25-29). Five players: every nation
# not starting entirely on the western panel (26.3) - worked out from the data in the test below.
NATIONS_BY_PLAYERS = {
    "7": set(NATIONS),
    "6": set(NATIONS),
    "4": {"Egypt", "Babylon", "Assyria", "Asia"},
    "3": {"Italy", "Africa", "Illyria", "Thrace", "Crete"},
    "2": {"Italy", "Africa", "Illyria", "Thrace"},
}
# Start areas of an allowed nation that the play-area data puts out of play (documented in map.json's
# notes): in the 4-player game Jalo lies west of the dotted line.
KNOWN_START_AREAS_OUT = {("4", "Jalo")}


@pytest.fixture(scope="module")
def raw():
    return json.loads(MAP.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def board():
    return load_map(MAP, Span(str(MAP), 1, 1))


def reachable(board, start, kinds=("land", "water", "both")):
    seen, todo = {start}, deque([start])
    while todo:
        here = todo.popleft()
        for there, kind in board.borders[here].items():
            if kind in kinds and there not in seen:
                seen.add(there)
                todo.append(there)
    return seen


def start_areas(board):
    out = {n: [] for n in NATIONS}
    for name, attrs in board.areas.items():
        for nation in attrs["start"]:
            out[nation].append(name)
    return out


def test_loads_with_civdsl_loader(board, raw):
    assert len(board.areas) == len(raw["areas"]) == 131
    assert set(board.areas) == set(raw["areas"])


def test_every_border_names_existing_areas_once(raw):
    seen = set()
    for a, b, kind in raw["borders"]:
        assert a in raw["areas"] and b in raw["areas"], (a, b)
        assert a != b
        assert kind in BORDER_TYPES
        pair = frozenset((a, b))
        assert pair not in seen, f"border {a}-{b} listed twice"
        seen.add(pair)


def test_listed_uncertain_and_rejected_borders_are_consistent(raw):
    borders = {frozenset((a, b)): kind for a, b, kind in raw["borders"]}
    for entry in raw["uncertain_borders"]:
        pair = frozenset(entry["areas"])
        assert borders.get(pair) == entry["type"], entry
        assert entry["reason"]
    for entry in raw["rejected_borders"]:
        assert frozenset(entry["areas"]) not in borders, entry


def test_counts_block_matches_the_data(raw):
    kinds = [k for _, _, k in raw["borders"]]
    counts = raw["counts"]
    assert counts["borders"] == len(kinds)
    for kind in BORDER_TYPES:
        assert counts[f"{kind}_borders"] == kinds.count(kind)
    assert counts["population_capacity"] == sum(a["limit"] for a in raw["areas"].values()) == 250


def test_attributes_present_with_expected_types(board):
    for name, a in board.areas.items():
        assert isinstance(a["land"], bool) and isinstance(a["water"], bool) and isinstance(a["open_sea"], bool), name
        assert isinstance(a["limit"], int) and a["limit"] >= 0, name
        assert a["city_site"] in (None, "black", "white"), name
        assert a["flood_plain"] is None or isinstance(a["flood_plain"], str), name
        assert isinstance(a["volcano"], list) and isinstance(a["start"], list), name
        assert a["panel"] in (None, "west", "central-west", "central-east", "east"), name
        assert a["dotted_side"] in ("west", "east", "both"), name
        assert set(a["out_of_play"]) == {"2", "3", "4", "5", "6", "7"}, name
        assert a["land"] or a["water"], name
        for key in ("reconstructed", "uncertain"):
            if key in a:
                assert a[key] and all(attr in a for attr in a[key]), (name, key)


def test_graph_is_connected(board):
    first = next(iter(board.areas))
    assert reachable(board, first) == set(board.areas)


def test_every_start_area_reaches_every_other(board):
    starts = [area for areas in start_areas(board).values() for area in areas]
    for area in starts:
        assert set(starts) <= reachable(board, area), area


def test_start_areas_per_nation(board):
    starts = start_areas(board)
    assert set(starts) == set(NATIONS)
    # 4.5: a choice of start areas for every nation except Thrace.
    assert len(starts["Thrace"]) == 1
    assert all(len(starts[n]) >= 2 for n in NATIONS if n != "Thrace")
    # 2.2.9: the Crete start areas are on the island of Crete.
    assert all(board.areas[a]["island"] for a in starts["Crete"])
    assert {len(v) for v in starts.values()} <= {1, 2, 3, 6}


def test_islands_are_reached_only_by_water(board):
    islands = [n for n, a in board.areas.items()
               if a["land"] and not any(k in ("land", "both") for k in board.borders[n].values())]
    assert islands, "the board has single-area islands (Corsica, Lemnos, Rhodes, ...)"
    for name in islands:
        kinds = set(board.borders[name].values())
        assert kinds == {"water"}, (name, kinds)
        assert board.areas[name]["island"] and board.areas[name]["water"], name


def test_island_attribute_matches_land_components(board):
    for name, a in board.areas.items():
        if not a["land"]:
            assert not a["island"]
            continue
        component = reachable(board, name, ("land", "both"))
        assert a["island"] == (len(component) <= 3), name


def test_open_sea(board):
    seas = [n for n, a in board.areas.items() if a["open_sea"]]
    assert len(seas) == 8
    for name in seas:
        a = board.areas[name]
        assert not a["land"] and a["water"], name
        assert a["limit"] == 0 and a["city_site"] is None, name
        assert a["flood_plain"] is None and a["volcano"] == [] and a["start"] == [], name
        assert set(board.borders[name].values()) == {"water"}, name
    for name, a in board.areas.items():
        assert a["open_sea"] == (not a["land"]), name
        if a["land"]:
            assert a["limit"] >= 1, name


def test_water_borders_join_areas_with_water(board):
    for name, out in board.borders.items():
        for other, kind in out.items():
            if kind in ("water", "both"):
                assert board.areas[name]["water"] and board.areas[other]["water"], (name, other)
            if kind in ("land", "both"):
                assert board.areas[name]["land"] and board.areas[other]["land"], (name, other)


def test_city_sites(board):
    sites = [a["city_site"] for a in board.areas.values() if a["city_site"]]
    assert len(sites) == 55
    assert sites.count("black") == 47 and sites.count("white") == 8
    # 2.2.5 / 22.2.7.1: white sites are the ones vulnerable to Flood, so they lie on flood plains.
    for name, a in board.areas.items():
        if a["city_site"] == "white":
            assert a["flood_plain"], name


def test_four_flood_plains_each_one_land_region(board):
    plains = {}
    for name, a in board.areas.items():
        if a["flood_plain"]:
            plains.setdefault(a["flood_plain"], set()).add(name)
    assert len(plains) == 4  # 2.2.6
    assert sum(len(v) for v in plains.values()) == 17
    for plain, members in plains.items():
        seen, todo = set(), [next(iter(members))]
        while todo:
            here = todo.pop()
            seen.add(here)
            todo += [n for n, k in board.borders[here].items() if n in members and n not in seen and k != "water"]
        assert seen == members, plain


def test_three_volcanoes_two_straddling(board):
    touched = {}
    for name, a in board.areas.items():
        for volcano in a["volcano"]:
            touched.setdefault(volcano, []).append(name)
    assert len(touched) == 3  # 2.2.8
    assert sorted(len(v) for v in touched.values()) == [1, 2, 2]  # 2.2.8, 22.2.4.1 NOTE
    for areas in touched.values():
        if len(areas) == 2:
            assert board.borders[areas[0]].get(areas[1]) in ("land", "both"), areas


def test_greek_double_coastline(board):
    """23.3: one area in central Greece has two distinct coastlines."""
    with_coasts = [n for n, a in board.areas.items() if "coastlines" in a]
    assert with_coasts == ["Delphi"]
    coasts = board.areas["Delphi"]["coastlines"]
    assert len(coasts) == 2 and all(coasts)
    assert not set(coasts[0]) & set(coasts[1])
    water_neighbours = {n for n, k in board.borders["Delphi"].items() if k in ("water", "both")}
    assert set(coasts[0]) | set(coasts[1]) == water_neighbours


def test_piracy_water_network(board):
    """22.2.11.2: a ship in the Black Sea reaches the Mediterranean, not the Persian Gulf."""
    black = reachable(board, "Black Sea", ("water", "both"))
    assert {"Central Mediterranean", "Eastern Mediterranean", "Western Mediterranean", "Adriatic Sea",
            "Aegean Sea"} <= black
    assert not {"Charax", "Chaldaea", "Caspian Sea", "Red Sea"} & black


def test_out_of_play_keeps_allowed_start_areas(board):
    starts = start_areas(board)
    allowed = dict(NATIONS_BY_PLAYERS)
    # 26.1/26.3: five players - no western panel; nations starting entirely on it cannot be played.
    western = {n for n, areas in starts.items() if all(board.areas[a]["panel"] == "west" for a in areas)}
    assert western == {"Italy", "Africa", "Illyria"}
    allowed["5"] = set(NATIONS) - western
    exceptions = set()
    for players, nations in allowed.items():
        assert len(nations) >= int(players)
        for nation in nations:
            in_play = [a for a in starts[nation] if not board.areas[a]["out_of_play"][players]]
            assert in_play, (players, nation)
            exceptions |= {(players, a) for a in starts[nation] if board.areas[a]["out_of_play"][players]}
    assert exceptions == KNOWN_START_AREAS_OUT


def test_out_of_play_matches_the_panel_rules(board):
    for name, a in board.areas.items():
        out = a["out_of_play"]
        assert not out["6"] and not out["7"], name
        assert out["2"] == out["3"], name
        if a["panel"] == "west":
            assert out["5"] and out["4"] and not out["3"], name
        if a["panel"] == "east":
            assert out["3"] and not out["4"] and not out["5"], name
        if a["dotted_side"] == "both":
            assert a["open_sea"] and not any(out.values()), name
        assert out["4"] == (a["dotted_side"] == "west"), name
        assert out["3"] == (a["dotted_side"] == "east"), name

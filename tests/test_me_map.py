"""Mega Empires: The West: the board data in rulesets/mega-empires-the-west/data/map.json.

The map is loaded with civdsl's own loader, then checked against what the rulebook states about the
board (chapter references in the comments) and against itself. It reads only the repository's map.json
(tools/me_map.py builds it from the reference data at build time). How the data was derived, and what
is reconstructed or uncertain, is in docs/editions/mega-empires-the-west-data.md.
"""
from __future__ import annotations

import copy
import json
from collections import deque
from pathlib import Path

import pytest

from civdsl.engine.mapdata import BORDER_TYPES, load_map
from civdsl.language.diagnostics import Span

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "rulesets" / "mega-empires-the-west" / "data" / "map.json"

CIVS = ["Minoa", "Assyria", "Celt", "Carthage", "Hatti", "Rome", "Iberia", "Hellas", "Egypt"]
# Ch. 5, Map Board Setups: the civilizations in play per number of players.
CIVS_BY_PLAYERS = {
    "5": {"Minoa", "Assyria", "Hatti", "Hellas", "Egypt"},
    "6": {"Minoa", "Carthage", "Hatti", "Rome", "Iberia", "Hellas"},
    "7": {"Minoa", "Assyria", "Carthage", "Hatti", "Rome", "Hellas", "Egypt"},
    "8": set(CIVS) - {"Celt"},
    "9": set(CIVS),
}
START_AREAS = {
    "Minoa": "Knossos", "Assyria": "Assyria", "Celt": "Germania Inferior", "Carthage": "Carthage",
    "Hatti": "Hattusa", "Rome": "Rome", "Iberia": "Iberus", "Hellas": "Macedonia", "Egypt": "Tanis",
}
# Areas in play per number of players (land + open seas), as reported to the lead.
AREAS_IN_PLAY = {"5": 95, "6": 109, "7": 126, "8": 142, "9": 164}
ATTRS = ("land", "water", "open_sea", "limit", "city_site", "flood_plain", "volcano", "start", "region",
         "coastal", "out_of_play")


def load_raw():
    return json.loads(MAP.read_text(encoding="utf-8"))


def neighbours(data):
    """Area -> {neighbour: border type}, built from the border list both ways."""
    nb = {n: {} for n in data["areas"]}
    for a, b, kind in data["borders"]:
        nb.setdefault(a, {})[b] = kind
        nb.setdefault(b, {})[a] = kind
    return nb


def reachable(nb, start, allowed):
    seen, todo = {start}, deque([start])
    while todo:
        here = todo.popleft()
        for there in nb[here]:
            if there in allowed and there not in seen:
                seen.add(there)
                todo.append(there)
    return seen


def problems(data):
    """Every structural problem of a map dict (empty when the map is sound). Used on the real file and,
    below, on broken copies, so the checks themselves are tested."""
    out = []
    areas = data["areas"]
    seen = set()
    for i, border in enumerate(data["borders"]):
        if not (isinstance(border, list) and len(border) == 3 and border[2] in BORDER_TYPES):
            out.append(f"border #{i} malformed: {border}")
            continue
        a, b, _ = border
        if a not in areas or b not in areas:
            out.append(f"border to a missing area: {a}-{b}")
        if a == b:
            out.append(f"self border: {a}")
        key = frozenset((a, b))
        if key in seen:
            out.append(f"duplicate border: {a}-{b}")
        seen.add(key)
    if out:
        return out
    nb = neighbours(data)
    # Ch. 3, Additional Notes.
    for a, b in (("Chalcis", "Athens"), ("Boeotia", "Eretria")):
        if b in nb.get(a, {}):
            out.append(f"rulebook non-adjacency broken: {a}-{b}")
    for name, at in areas.items():
        missing = [k for k in ATTRS if k not in at]
        if missing:
            out.append(f"{name}: missing {missing}")
            continue
        if not (isinstance(at["limit"], int) and 0 <= at["limit"] <= 4):
            out.append(f"{name}: limit {at['limit']} outside 0..4")  # ch. 3 C
        if at["city_site"] not in (None, "black", "white"):
            out.append(f"{name}: bad city_site")
        if at["city_site"] is not None and not at["land"]:
            out.append(f"{name}: city site off land")
        if at["city_site"] == "white" and at["flood_plain"] is None:
            out.append(f"{name}: white city site off a flood plain")  # ch. 3 J
        if at["open_sea"] and (at["land"] or at["limit"] != 0):
            out.append(f"{name}: open sea with land or a limit")  # ch. 3 D
        if at["coastal"] and not (at["land"] and at["water"]):
            out.append(f"{name}: coastal without land and water")
        has_water_border = any(k in ("water", "both") for k in nb[name].values())
        if at["water"] != has_water_border:
            out.append(f"{name}: water flag {at['water']} but water border {has_water_border}")
        if at["open_sea"] and any(k != "water" for k in nb[name].values()):
            out.append(f"{name}: open sea with a land border")
        if set(at["out_of_play"]) != set(CIVS_BY_PLAYERS):
            out.append(f"{name}: out_of_play keys")
    if out:
        return out
    for civ in CIVS:
        region = {n for n, at in areas.items() if at["region"] == civ}
        starts = [n for n, at in areas.items() if civ in at["start"]]
        if not region:
            out.append(f"{civ}: empty region")
        if len(starts) != 1 or starts[0] not in region:
            out.append(f"{civ}: start areas {starts} not one area of its region")
    for k, civs in CIVS_BY_PLAYERS.items():
        live = {n for n, at in areas.items() if not at["out_of_play"][k]}
        starts = [n for n, at in areas.items() if set(at["start"]) & civs]
        if len(starts) != len(civs) or not set(starts) <= live:
            out.append(f"{k} players: start areas {starts} not all in play")
            continue
        for s in starts:
            comp = reachable(nb, s, live)
            if not set(starts) <= comp:
                out.append(f"{k} players: from {s} cannot reach {sorted(set(starts) - comp)}")
            lost = {n for n in live if areas[n]["land"]} - comp
            if lost:
                out.append(f"{k} players: land areas in play unreachable from {s}: {sorted(lost)}")
    return out


@pytest.fixture(scope="module")
def raw():
    return load_raw()


def test_loads_with_civdsl_loader():
    board = load_map(MAP, Span(str(MAP), 1, 1))
    assert len(board.areas) == 164


def test_map_has_no_problems(raw):
    assert problems(raw) == []


def test_adjacency_symmetric_in_file(raw):
    # Each border appears once, so the graph is symmetric by construction; a border listed twice (once
    # per direction, maybe with different types) would be caught as a duplicate.
    keys = [frozenset(b[:2]) for b in raw["borders"]]
    assert len(keys) == len(set(keys))


def test_rulebook_non_adjacencies(raw):
    # Ch. 3, Additional Notes: "The areas Chalcis and Athens are not considered adjacent. The same
    # applies to Boeotia and Eretria."
    nb = neighbours(raw)
    assert "Athens" not in nb["Chalcis"] and "Eretria" not in nb["Boeotia"]


def test_sinai_and_eastern_desert_not_coastal(raw):
    # Ch. 3, Additional Notes: coastal only when combined with THE EAST.
    for name in ("Sinai", "Eastern Desert"):
        assert raw["areas"][name]["land"] and not raw["areas"][name]["coastal"]


def test_start_areas(raw):
    found = {civ: [n for n, a in raw["areas"].items() if civ in a["start"]] for civ in CIVS}
    assert found == {civ: [a] for civ, a in START_AREAS.items()}
    for civ, area in START_AREAS.items():
        assert raw["areas"][area]["region"] == civ


def test_counts(raw):
    areas = raw["areas"]
    c = raw["counts"]
    assert c["areas"] == len(areas) == 164
    assert c["land_areas"] == sum(a["land"] for a in areas.values()) == 153
    assert c["open_sea_areas"] == sum(a["open_sea"] for a in areas.values()) == 11
    assert c["borders"] == len(raw["borders"])
    assert c["volcanoes"] == len({v for a in areas.values() for v in a["volcano"]}) == 3
    for k in CIVS_BY_PLAYERS:
        live = sum(not a["out_of_play"][k] for a in areas.values())
        assert live == c["areas_in_play"][k] == AREAS_IN_PLAY[k]
    for civ in CIVS:
        assert c["region_areas"][civ] == sum(a["region"] == civ for a in areas.values())


def test_in_play_follows_regions(raw):
    # Reconstructed reading of ch. 5: land in play iff its region's civ plays; open seas always (ch. 3).
    for name, a in raw["areas"].items():
        for k, civs in CIVS_BY_PLAYERS.items():
            expected = False if a["open_sea"] else a["region"] not in civs
            assert a["out_of_play"][k] == expected, (name, k)
        assert "out_of_play" in a["reconstructed"]


def test_volcanoes(raw):
    # Ch. 8, Volcanic Eruption: "There are 3 volcanoes on the map board, each of which is located on the
    # border of two areas, which are both affected." Vesuvius is the source's; Etna's two areas and Thera's
    # second area (Knossos) are reconstructed (the option `thera_alone` plays Thera alone).
    nb = neighbours(raw)
    by_id = {}
    for n, a in raw["areas"].items():
        for v in a["volcano"]:
            by_id.setdefault(v, []).append(n)
    assert {v: sorted(ns) for v, ns in by_id.items()} == {
        "Vesuvius": ["Campania", "Neapolis"], "Etna": ["Milazzo", "Syracuse"], "Thera": ["Knossos", "Thera"]}
    for ns in by_id.values():
        assert len(ns) == 2 and ns[1] in nb[ns[0]]
    marked = {n for n, a in raw["areas"].items() if "volcano" in a.get("reconstructed", [])}
    assert marked == {"Milazzo", "Syracuse", "Knossos"}


def test_flood_plains(raw):
    # Ch. 3 J: areas covered by one flood plain share an id; each flood plain is land-connected.
    nb = neighbours(raw)
    groups = {}
    for n, a in raw["areas"].items():
        if a["flood_plain"] is not None:
            assert a["land"] and "flood_plain" in a["reconstructed"]
            groups.setdefault(a["flood_plain"], set()).add(n)
    assert {k: len(v) for k, v in groups.items()} == {"Nile": 5, "Danube": 4, "Rhone": 3, "Po": 2}
    for members in groups.values():
        land_nb = {n: {m: k for m, k in nb[n].items() if k in ("land", "both")} for n in nb}
        start = next(iter(members))
        assert reachable(land_nb, start, members) == members


def test_coastal_matches_water_connection(raw):
    # Ch. 3 E: coastal = land with water (indirectly) connected to an open sea.
    areas, nb = raw["areas"], neighbours(raw)
    water_nb = {n: {m: k for m, k in nb[n].items() if k in ("water", "both")} for n in nb}
    for n, a in areas.items():
        if a["land"] and a["water"]:
            comp = reachable(water_nb, n, set(areas))
            assert a["coastal"] == any(areas[m]["open_sea"] for m in comp), n
        elif a["land"]:
            assert not a["coastal"]


def test_names_title_case_and_fixed(raw):
    for n in raw["areas"]:
        assert n == " ".join(w if w == "of" else w[:1].upper() + w[1:] for w in n.split(" ")), n
    for bad in ("Agean Sea", "Centra Mediterranean", "Massillia", "Aquatainia", "Apollionia", "Salamais"):
        assert bad not in raw["areas"]
    for good in ("Bay of Biscay", "Aegean Sea", "Central Mediterranean", "Massilia", "Aquitania", "Apollonia", "Salamis"):
        assert good in raw["areas"]


def test_repaired_one_way_edges(raw):
    nb = neighbours(raw)
    # The source listed these one way only; decided in tools/me_map.py (ONE_WAY).
    for a in ("Kanesh", "Bithynia", "Anatolia", "Phrygia", "Trapezus"):
        assert a in nb["Hattusa"]
    for a in ("Sahara", "Sabrata", "Tripoli", "Libya", "Jalo"):
        assert nb["Tripolitania"][a] == "land"
    assert nb["Aegean Sea"].keys() >= {"Thessalonica", "Chalcis", "Lemnos", "Knossos", "Thera", "Rhodes",
                                       "Lesbos", "Eretria", "Miletus", "Troy"}
    assert nb["Lycia"]["Galatia"] == "both"
    assert nb["Lugdunum"]["Massilia"] == "land"  # the water direction was dropped: Lugdunum is inland
    assert not raw["areas"]["Lugdunum"]["water"]
    # Dropped: the author's own tracing of the West board shows no contact.
    assert "Upper Rhine" not in nb["Belgica"] and "Massilia" not in nb["Cisalpina"]
    assert nb["Syracuse"]["Campania"] == "water"


# The checks must fail on broken maps.
def broken(raw, edit):
    data = copy.deepcopy(raw)
    edit(data)
    return problems(data)


def test_detects_duplicate_reverse_border(raw):
    a, b, kind = raw["borders"][0]
    assert broken(raw, lambda d: d["borders"].append([b, a, "water" if kind != "water" else "land"]))


def test_detects_border_to_missing_area(raw):
    assert broken(raw, lambda d: d["borders"].append(["Knossos", "Atlantis", "water"]))


def test_detects_rulebook_non_adjacency(raw):
    assert broken(raw, lambda d: d["borders"].append(["Athens", "Chalcis", "water"]))


def test_detects_unreachable_start(raw):
    def cut(d):
        d["borders"] = [b for b in d["borders"] if "Hattusa" not in b[:2]]
    assert any("Hattusa" in p for p in broken(raw, cut))


def test_detects_bad_limit_and_city_site(raw):
    assert broken(raw, lambda d: d["areas"]["Knossos"].update(limit=5))
    assert broken(raw, lambda d: d["areas"]["Aegean Sea"].update(city_site="black"))


def test_detects_empty_region(raw):
    def move(d):
        for a in d["areas"].values():
            if a["region"] == "Celt":
                a["region"] = "Rome"
    assert broken(raw, move)

"""Map geometry: every area of the drawn maps has a shape on the board (the Avalon Hill board's real
polygons, Mega Empires' schematic points); a bad geometry is a MAP diagnostic, never a traceback; and the
rules never see it (the loader only hangs it on the map graph)."""
from __future__ import annotations

import json
import sys
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft7Validator

from civdsl.compiler.compiler import compile_ruleset
from civdsl.engine import mapdata
from civdsl.engine.state import MapGraph
from civdsl.language.diagnostics import CivError, Span
from civdsl.language.loader import load_ruleset

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from map_geometry import inside  # noqa: E402  (the importer's own point-in-polygon test)

AH = ROOT / "rulesets" / "avalon-hill-1981" / "data" / "map.json"
ME = ROOT / "rulesets" / "mega-empires-the-west" / "data" / "map.json"
SPAN = Span("game.civ", 2, 1)
VALIDATOR = Draft7Validator(json.loads(resources.files("civdsl").joinpath("map.schema.json").read_text("utf-8")))


def _on_board(pt, geometry) -> bool:
    return 0 <= pt[0] <= geometry["width"] and 0 <= pt[1] <= geometry["height"]


# ---- the shipped maps ------------------------------------------------------------------------------------

@pytest.mark.parametrize("path", [AH, ME], ids=["avalon-hill-1981", "mega-empires-the-west"])
def test_every_area_of_a_drawn_map_has_a_shape_on_the_board(path):
    graph = mapdata.load_map(path, SPAN)
    geometry = graph.geometry
    assert geometry is not None and set(geometry["areas"]) == set(graph.areas)
    assert geometry["source"] and geometry["licence"]
    for name, shape in geometry["areas"].items():
        assert shape.get("polygons") or shape.get("at"), name
        for poly in shape.get("polygons", []):
            assert len(poly) >= 3, name
            assert all(_on_board(p, geometry) for p in poly), name
        for key in ("label", "at"):
            if key in shape:
                assert _on_board(shape[key], geometry), name


def test_the_avalon_hill_board_is_the_transcription_s_polygons_with_their_source():
    geometry = mapdata.load_map(AH, SPAN).geometry
    assert geometry["schematic"] is False and len(geometry["areas"]) == 131
    assert "johnchampaign/advanced-civilization" in geometry["source"] and "MIT" in geometry["licence"]
    for name, shape in geometry["areas"].items():
        assert len(shape["polygons"]) == 1
        assert inside(shape["label"], shape["polygons"][0]), f"the name of {name} is written outside it"


def test_the_mega_empires_map_is_a_schematic_said_so_in_its_notes():
    data = json.loads(ME.read_text("utf-8"))
    geometry = data["geometry"]
    assert geometry["schematic"] is True and len(geometry["areas"]) == 164
    assert all(set(s) == {"at"} for s in geometry["areas"].values())
    assert any(n.startswith("geometry: SCHEMATIC") for n in data["notes"])
    points = [tuple(s["at"]) for s in geometry["areas"].values()]
    assert len(set(points)) == len(points)  # no two nodes on one point
    close = [(a, b) for i, a in enumerate(points) for b in points[i + 1:]
             if (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 < 80 ** 2]
    assert not close, "nodes too close to read their names"


def test_geometry_changes_no_rule_data():
    """The rules read areas and borders: those are what they were before the geometry came (compared with
    the file read without its `geometry` key)."""
    for path in (AH, ME):
        graph = mapdata.load_map(path, SPAN)
        data = json.loads(path.read_text("utf-8"))
        assert graph.areas == data["areas"]
        assert sum(len(v) for v in graph.borders.values()) == 2 * len(data["borders"])
        assert graph == MapGraph(graph.areas, graph.borders)  # geometry is not part of a map's equality


def test_a_map_without_geometry_has_none(tmp_path):
    path = tmp_path / "board.json"
    path.write_text('{"areas": {"A": {}}}', encoding="utf-8")
    assert mapdata.load_map(path, SPAN).geometry is None


# ---- a bad geometry is a diagnostic ------------------------------------------------------------------------

def _board(geometry) -> str:
    return json.dumps({"areas": {"Athens": {}, "Sparta": {}}, "borders": [["Athens", "Sparta", "land"]],
                       "geometry": geometry})


def _shapes(**areas) -> dict:
    return {"width": 100, "height": 50, "areas": areas}


SQUARE = [[0, 0], [10, 0], [10, 10], [0, 10]]
BAD = {
    "not-an-object": (5, "MAP007", "geometry must be an object"),
    "no-width": ({"height": 5, "areas": {}}, "MAP007", 'geometry needs the key "width"'),
    "width-zero": ({"width": 0, "height": 5, "areas": {}}, "MAP007", "geometry.width must be at least 1"),
    "unknown-key": (_shapes(Athens={"at": [1, 1]}, Sparta={"at": [2, 2]}) | {"colour": "red"}, "MAP007",
                    "geometry.colour is not a key allowed here"),
    "two-points": (_shapes(Athens={"polygons": [[[0, 0], [1, 1]]]}, Sparta={"at": [1, 1]}), "MAP007",
                   "geometry.areas.Athens.polygons[0] has 2 items"),
    "a-point-a-text": (_shapes(Athens={"at": ["1", 2]}, Sparta={"at": [1, 1]}), "MAP007",
                       "geometry.areas.Athens.at[0] must be a number"),
    "a-point-of-three": (_shapes(Athens={"at": [1, 2, 3]}, Sparta={"at": [1, 1]}), "MAP007",
                         "geometry.areas.Athens.at has 3 items"),
    "unknown-area": (_shapes(Athens={"at": [1, 1]}, Sparta={"at": [2, 2]}, Spart={"at": [3, 3]}), "MAP011",
                     'geometry.areas.Spart is not an area of the map'),
    "missing-area": (_shapes(Athens={"polygons": [SQUARE]}), "MAP011",
                     'geometry.areas gives no shape for the area "Sparta"'),
    "off-the-board": (_shapes(Athens={"polygons": [SQUARE[:2] + [[10, 60]]]}, Sparta={"at": [2, 2]}), "MAP012",
                      "geometry.areas.Athens.polygons[0][2] is [10, 60], off the board (width 100, height 50)"),
    "negative": (_shapes(Athens={"at": [-1, 2]}, Sparta={"at": [2, 2]}), "MAP012", "off the board"),
    "label-off": (_shapes(Athens={"polygons": [SQUARE], "label": [101, 2]}, Sparta={"at": [2, 2]}), "MAP012",
                  "geometry.areas.Athens.label is [101, 2]"),
    "no-shape": (_shapes(Athens={}, Sparta={"at": [2, 2]}), "MAP012",
                 "geometry.areas.Athens has neither `polygons` nor a point `at`"),
}


@pytest.mark.parametrize("case", BAD, ids=list(BAD))
def test_a_bad_geometry_is_a_map_diagnostic(tmp_path, case):
    geometry, code, words = BAD[case]
    path = tmp_path / "board.json"
    path.write_text(_board(geometry), encoding="utf-8")
    with pytest.raises(CivError) as caught:
        mapdata.load_map(path, SPAN)
    diags = caught.value.diagnostics
    assert diags[0].code == code, [d.message for d in diags]
    assert words in diags[0].message, diags[0].message


def test_an_unknown_area_of_the_geometry_gets_a_did_you_mean(tmp_path):
    path = tmp_path / "board.json"
    path.write_text(_board(_shapes(Athens={"at": [1, 1]}, Sparta={"at": [2, 2]}, Spart={"at": [3, 3]})), "utf-8")
    with pytest.raises(CivError) as caught:
        mapdata.load_map(path, SPAN)
    assert caught.value.diagnostics[0].hint == 'did you mean "Sparta"?'


def test_a_bad_geometry_stops_the_ruleset_at_its_map_declaration(tmp_path):
    folder = tmp_path / "rules" / "m"
    folder.mkdir(parents=True)
    (folder / "game.civ").write_text('game "M" { players: 1 }\nmap board from "board.json"\n'
                                     'phase p { log "x" }\nsequence { phases: p }\n', encoding="utf-8")
    (folder / "board.json").write_text(_board(_shapes(Athens={"at": [1, 1]})), encoding="utf-8")
    _, diags = compile_ruleset(load_ruleset(folder / "game.civ"))
    assert [d.code for d in diags if d.severity == "error"] == ["MAP011"]
    assert diags[0].span.line == 2


def test_a_hostile_geometry_reports_at_most_one_point_an_area(tmp_path):
    many = [[1000 + i, 0] for i in range(20_000)]
    path = tmp_path / "board.json"
    path.write_text(_board(_shapes(Athens={"polygons": [many]}, Sparta={"polygons": [many]})), encoding="utf-8")
    with pytest.raises(CivError) as caught:
        mapdata.load_map(path, SPAN)
    assert [d.code for d in caught.value.diagnostics] == ["MAP012", "MAP012"]


_NUMBERS = st.one_of(st.integers(-5, 200), st.floats(-5, 200, allow_nan=False), st.sampled_from(["1", None, True]))
_POINTS = st.one_of(st.lists(_NUMBERS, min_size=0, max_size=3), _NUMBERS)
_SHAPE = st.dictionaries(st.sampled_from(["polygons", "label", "at", "x"]),
                         st.one_of(_POINTS, st.lists(st.lists(_POINTS, max_size=4), max_size=2)), max_size=3)
_GEOMETRY = st.one_of(
    st.fixed_dictionaries({"width": _NUMBERS, "height": _NUMBERS,
                           "areas": st.dictionaries(st.sampled_from(["Athens", "Sparta", ""]), _SHAPE, max_size=3)},
                          optional={"schematic": st.sampled_from([True, "yes"]), "source": st.sampled_from(["s", 1])}),
    _NUMBERS)


@settings(max_examples=300, deadline=None)
@given(_GEOMETRY)
def test_any_geometry_is_read_or_refused_with_diagnostics_and_the_quick_check_agrees(geometry):
    data = {"areas": {"Athens": {}, "Sparta": {}}, "geometry": geometry}
    assert mapdata.quick_check(data) == VALIDATOR.is_valid(data)
    problems = mapdata.schema_problems(data)
    if not problems:
        graph, problems = mapdata._build(data)
        assert graph.geometry is geometry
    for code, *_ in problems:
        assert code in ("MAP004", "MAP007", "MAP011", "MAP012")

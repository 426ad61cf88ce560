"""Map files are hostile input: every malformed map is a MAP diagnostic at the `map` declaration, with the
path to the offending element, never an exception; the map schema shipped in the package describes the
shipped maps; a good map is still read quickly and once per process."""
from __future__ import annotations

import json
import time
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft7Validator

from civdsl.compiler.compiler import compile_ruleset
from civdsl.engine import mapdata
from civdsl.language.diagnostics import CivError, Span
from civdsl.language.limits import room_to_recurse
from civdsl.language.loader import load_ruleset

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted((ROOT / "rulesets").glob("*/data/*.json"))
TEST_MAPS = sorted((ROOT / "tests" / "data").rglob("board.json"))
SCHEMA = json.loads(resources.files("civdsl").joinpath("map.schema.json").read_text(encoding="utf-8"))
VALIDATOR = Draft7Validator(SCHEMA)
SPAN = Span("game.civ", 2, 1)


def _ruleset(tmp_path: Path, board: str | bytes | None) -> Path:
    folder = tmp_path / "rules" / "m"
    folder.mkdir(parents=True)
    (folder / "game.civ").write_text('game "M" { players: 1 }\nmap board from "board.json"\n'
                                     'phase p { log "x" }\nsequence { phases: p }\n', encoding="utf-8")
    if isinstance(board, bytes):
        (folder / "board.json").write_bytes(board)
    elif board is not None:
        (folder / "board.json").write_text(board, encoding="utf-8")
    return folder / "game.civ"


def diagnostics_of(tmp_path: Path, board: str | bytes | None):
    _, diags = compile_ruleset(load_ruleset(_ruleset(tmp_path, board)))
    return diags


AB = '{"areas": {"A": {}, "B": {}}, '
# (map file text, the codes reported, a part of the first message: the path to what is wrong)
MALFORMED = {
    "borders-a-number": (AB + '"borders": 5}', ["MAP005"], "borders must be an array, not the number 5"),
    "border-endpoint-an-object": (AB + '"borders": [["A", {"x": 1}, "land"]]}', ["MAP005"],
                                  "borders[0][1] must be a string, not an object"),
    "border-endpoint-a-list": (AB + '"borders": [["A", "B", "land"], [["A"], "B", "water"]]}', ["MAP005"],
                               "borders[1][0] must be a string, not an array"),
    "border-endpoint-a-number": (AB + '"borders": [[1, "B", "land"]]}', ["MAP005"], "borders[0][0] must be a string"),
    "border-too-short": (AB + '"borders": [["A", "B"]]}', ["MAP005"], "borders[0] has 2 items"),
    "border-too-long": (AB + '"borders": [["A", "B", "land", "x"]]}', ["MAP005"], "borders[0] has 4 items"),
    "border-an-object": (AB + '"borders": [{"from": "A", "to": "B"}]}', ["MAP005"], "borders[0] must be an array"),
    "border-type-unknown": (AB + '"borders": [["A", "B", "road"]]}', ["MAP005"],
                            'borders[0][2] must be one of land, water, both, not the string "road"'),
    "border-type-a-list": (AB + '"borders": [["A", "B", ["land"]]]}', ["MAP005"], "borders[0][2] must be one of"),
    "border-area-unknown": (AB + '"borders": [["A", "C", "land"]]}', ["MAP006"],
                            'borders[0][1] names "C", which is not an area of the map'),
    "border-with-itself": (AB + '"borders": [["A", "A", "land"]]}', ["MAP009"],
                           'borders[0] is a border of "A" with itself'),
    "border-given-twice": (AB + '"borders": [["A", "B", "land"], ["B", "A", "water"]]}', ["MAP009"],
                           "borders[1] gives the border of"),
    "areas-a-list": ('{"areas": []}', ["MAP004"], "areas must be an object, not an array"),
    "areas-missing": ('{"regions": {}}', ["MAP004", "MAP007"], 'needs the key "areas"'),
    "area-a-number": ('{"areas": {"A": 3}}', ["MAP004"], "areas.A must be an object, not the number 3"),
    "area-name-empty": ('{"areas": {"": {}}}', ["MAP004"], 'areas has the key ""'),
    "top-level-a-list": ("[1, 2]", ["MAP004"], "must be an object, not an array"),
    "top-level-a-string": ('"map"', ["MAP004"], "must be an object, not the string"),
    "unknown-top-level-key": ('{"areas": {}, "Borders": []}', ["MAP007"], "Borders is not a key allowed here"),
    "limit-a-string": ('{"areas": {"Aegean Sea": {"limit": "two"}}}', ["MAP007"],
                       'areas["Aegean Sea"].limit must be an integer, not the string "two"'),
    "limit-negative": ('{"areas": {"A": {"limit": -1}}}', ["MAP007"], "areas.A.limit must be at least 0"),
    "volcano-a-string": ('{"areas": {"A": {"volcano": "Etna"}}}', ["MAP007"], "areas.A.volcano must be an array"),
    "out-of-play-key": ('{"areas": {"A": {"out_of_play": {"five": true}}}}', ["MAP007"],
                        'areas.A.out_of_play has the key "five"'),
    "coastline-a-string": ('{"areas": {"A": {"coastlines": ["B"]}}}', ["MAP007"],
                           "areas.A.coastlines[0] must be an array"),
    "notes-a-number": ('{"areas": {}, "notes": 3}', ["MAP007"], "notes must be an array, not the number 3"),
    "counts-nested-wrong": ('{"areas": {}, "counts": {"in_play": {"5": "many"}}}', ["MAP007"],
                            'counts.in_play["5"] must be an integer'),
    "uncertain-border-without-reason": ('{"areas": {"A": {}, "B": {}}, "uncertain_borders": '
                                        '[{"areas": ["A", "B"], "type": "land"}]}', ["MAP007"],
                                        'uncertain_borders[0] needs the key "reason"'),
    "key-given-twice": ('{"areas": {"A": {}, "A": {"limit": 1}}}', ["MAP007"],
                        'areas gives the key "A" more than once'),
    "coastline-area-unknown": ('{"areas": {"A": {"coastlines": [["B"]]}}}', ["MAP010"],
                               'areas.A.coastlines[0][0] names "B", which is not an area of the map'),
    "reconstructed-attribute-missing": ('{"areas": {"A": {"reconstructed": ["limit"]}}}', ["MAP010"],
                                        'areas.A.reconstructed[0] names the attribute "limit"'),
    "rejected-border-area-unknown": ('{"areas": {"A": {}}, "rejected_borders": [{"areas": ["A", "Z"], '
                                     '"reason": "r"}]}', ["MAP010"], "rejected_borders[0].areas[1]"),
    "deep-array": ("[" * 100_000 + "]" * 100_000, ["MAP008"], "100000 levels deep"),
    "deep-object": ('{"a":' * 100_000 + "1" + "}" * 100_000, ["MAP008"], "100000 levels deep"),
    "deep-unclosed": ("[" * 100_000, ["MAP008"], "levels deep"),
    "deep-inside-an-attribute": ('{"areas": {"A": {"x": ' + "[" * 40 + "]" * 40 + "}}}", ["MAP008"], "43 levels deep"),
    "nan": ('{"areas": {"A": {"limit": NaN}}}', ["MAP003"], "NaN is not a JSON number"),
    "infinity": ('{"areas": {"A": {"size": -Infinity}}}', ["MAP003"], "-Infinity is not a JSON number"),
    "float-overflow": ('{"areas": {"A": {"size": 1e999}}}', ["MAP003"], "too large"),
    "huge-integer": ('{"areas": {"A": {"limit": ' + "9" * 5000 + "}}}", ["MAP003"], "too many digits"),
    "lone-surrogate": ('{"areas": {"A\\ud800": {}}}', ["MAP003"], "unpaired surrogate"),
    "not-json": ("{not json", ["MAP003"], "is not valid JSON"),
    "empty-file": ("", ["MAP003"], "is not valid JSON"),
    "not-utf8": (b'{"areas": {"\xff": {}}}', ["MAP003"], "is not UTF-8 text"),
}


@pytest.mark.parametrize("name", list(MALFORMED))
def test_a_malformed_map_is_a_diagnostic_at_the_map_declaration(tmp_path, name):
    board, codes, message = MALFORMED[name]
    diags = diagnostics_of(tmp_path, board)
    assert [d.code for d in diags] == codes
    assert all(d.span.line == 2 and d.span.file.endswith("game.civ") for d in diags)
    assert "`board.json`" in diags[0].message and message in diags[0].message, diags[0].message


def test_the_old_codes_keep_their_meaning(tmp_path):
    assert [d.code for d in diagnostics_of(tmp_path, None)] == ["MAP001"]
    for board, code in [('{"areas": {"A": {}}, "borders": [["A", "B", "land"]]}', "MAP006"),
                        ('{"areas": {"A": {}, "B": {}}, "borders": [["A", "B", "air"]]}', "MAP005")]:
        path = tmp_path / "old.json"
        path.write_text(board, encoding="utf-8")
        with pytest.raises(CivError) as exc:
            mapdata.load_map(path, SPAN)
        assert [d.code for d in exc.value.diagnostics] == [code]


def test_hints_name_the_key_meant_and_the_border_shape(tmp_path):
    (d,) = diagnostics_of(tmp_path, '{"areas": {}, "Borders": []}')
    assert d.hint == "did you mean `borders`?"
    (d,) = diagnostics_of(tmp_path / "b", AB + '"borders": [["A", "Bee", "land"]]}')
    assert d.hint is None
    (d,) = diagnostics_of(tmp_path / "c", '{"areas": {"Thebes": {}, "B": {}}, "borders": [["Thebs", "B", "land"]]}')
    assert d.hint == 'did you mean "Thebes"?'
    (d,) = diagnostics_of(tmp_path / "d", AB + '"borders": 5}')
    assert "[area, area, type]" in d.hint


def test_every_problem_is_reported_in_path_order_and_a_flood_is_cut_short(tmp_path):
    diags = diagnostics_of(tmp_path, '{"areas": {"A": {"limit": "x", "land": 1}}, "notes": 1}')
    assert [d.message.split(": ", 1)[1].split(" ")[0] for d in diags] == ["areas.A.land", "areas.A.limit", "notes"]
    board = AB + '"borders": [' + ",".join(["5"] * 100_000) + "]}"
    diags = diagnostics_of(tmp_path / "flood", board)
    assert len(diags) == mapdata.MAX_MAP_PROBLEMS
    assert "borders[0] " in diags[0].message and "borders[19] " in diags[-1].message
    assert "the file has more" in diags[-1].message


def test_deep_nesting_is_refused_even_with_room_to_recurse(tmp_path):
    # The compiler reads maps while the recursion limit is raised for its own tree walks.
    path = tmp_path / "deep.json"
    path.write_text("[" * 1_000_000 + "]" * 1_000_000, encoding="utf-8")
    with room_to_recurse(), pytest.raises(CivError) as exc:
        mapdata.load_map(path, SPAN)
    assert [d.code for d in exc.value.diagnostics] == ["MAP008"]


def test_brackets_inside_strings_do_not_count_as_nesting(tmp_path):
    path = tmp_path / "ok.json"
    path.write_text(json.dumps({"areas": {"A": {"note": "[" * 1000 + '"{\\' * 50}}}), encoding="utf-8")
    assert mapdata.load_map(path, SPAN).areas["A"]["note"].startswith("[[[")
    assert mapdata.nesting_depth('{"a": "]]]]", "b": [[["\\"[[["]]]}') == 4


def test_an_unterminated_string_of_escapes_is_refused_quickly(tmp_path):
    path = tmp_path / "escapes.json"
    path.write_text('{"areas": {"' + '\\"' * 1_000_000, encoding="utf-8")
    start = time.perf_counter()
    with pytest.raises(CivError) as exc:
        mapdata.load_map(path, SPAN)
    assert time.perf_counter() - start < 5
    assert [d.code for d in exc.value.diagnostics] == ["MAP003"]


def test_an_unreadable_map_is_map001(tmp_path, monkeypatch):
    """A file its reader may not open (simulated: the tests may run as root, who reads anything)."""
    path = tmp_path / "secret.json"
    path.write_text('{"areas": {}}', encoding="utf-8")
    real_open = Path.open

    def refused(self, *args, **kwargs):
        if self == path:
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)
    monkeypatch.setattr(Path, "open", refused)
    with pytest.raises(CivError) as exc:
        mapdata.load_map(path, SPAN)
    assert [d.code for d in exc.value.diagnostics] == ["MAP001"]
    assert "cannot read map file" in exc.value.diagnostics[0].message and "Permission denied" in exc.value.diagnostics[0].message


def test_a_path_that_names_no_readable_file_is_map001(tmp_path):
    for path in (tmp_path, tmp_path / ("a" * 5000 + ".json"), tmp_path / "a\x00b\x1b.json"):
        with pytest.raises(CivError) as exc:
            mapdata.load_map(path, SPAN)
        (d,) = exc.value.diagnostics
        assert d.code == "MAP001" and len(d.message) < 200 and "\x1b" not in d.message


def test_a_byte_order_mark_is_allowed(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + b'{"areas": {"A": {}}}')
    assert list(mapdata.load_map(path, SPAN).areas) == ["A"]


# ---- the schema and the shipped maps ---------------------------------------------------------------------------

def test_the_schema_is_draft_07_and_shipped_in_the_package():
    Draft7Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert mapdata.map_schema() == SCHEMA


@pytest.mark.parametrize("path", SHIPPED + TEST_MAPS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_map_of_the_repository_follows_the_schema_and_passes_the_quick_check(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    assert [e.message for e in VALIDATOR.iter_errors(data)] == []
    assert mapdata.quick_check(data)  # a good map never waits for jsonschema
    graph = mapdata.load_map(path, SPAN)
    assert set(graph.areas) == set(data["areas"])


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_schema_documents_every_key_and_attribute_the_shipped_maps_use(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    assert set(data) <= set(SCHEMA["properties"])
    area = SCHEMA["definitions"]["area"]["properties"]
    used = {attr for attrs in data["areas"].values() for attr in attrs}
    assert used <= set(area), sorted(used - set(area))
    for name in used:
        assert area[name].get("description"), name


def _verdicts_agree(data) -> None:
    valid = VALIDATOR.is_valid(data)
    assert mapdata.quick_check(data) == valid, data
    if not valid:
        assert mapdata.schema_problems(data), data  # and jsonschema says what is wrong


def test_the_quick_check_agrees_with_jsonschema_on_every_malformed_case():
    for board, _, _ in MALFORMED.values():
        try:
            data = json.loads(board)
        except (ValueError, RecursionError, TypeError):
            continue
        if mapdata.nesting_depth(board) <= mapdata.MAX_MAP_DEPTH:
            _verdicts_agree(data)


_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(-2, 2, allow_nan=False),
                     st.sampled_from(["", "A", "B", "land", "water", "both", "road", "5"]))
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.sampled_from(["A", "B", "", "5", "limit", "x"]), inner, max_size=3)),
    max_leaves=8)
_ATTRS = st.dictionaries(st.sampled_from(
    ["land", "limit", "city_site", "flood_plain", "volcano", "out_of_play", "coastlines", "reconstructed", "free", ""]),
    _VALUES, max_size=4)
_MAPS = st.fixed_dictionaries(
    {"areas": st.one_of(st.dictionaries(st.sampled_from(["A", "B", ""]), _ATTRS, max_size=3), _VALUES)},
    optional={"borders": st.one_of(st.lists(st.one_of(
        st.lists(st.sampled_from(["A", "B", "land", "road"]), min_size=2, max_size=4), _VALUES), max_size=3), _VALUES),
        "counts": _VALUES, "notes": _VALUES, "sources": _VALUES, "rejected_borders": _VALUES, "extra": _VALUES})


@settings(max_examples=400, deadline=None)
@given(_MAPS)
def test_the_quick_check_never_passes_what_jsonschema_refuses(data):
    _verdicts_agree(data)


# ---- read once per process -----------------------------------------------------------------------------------

def test_a_map_is_read_once_while_its_file_is_unchanged(tmp_path):
    path = tmp_path / "board.json"
    path.write_text('{"areas": {"A": {}}}', encoding="utf-8")
    first = mapdata.load_map(path, SPAN)
    assert mapdata.load_map(path, SPAN) is first
    path.write_text('{"areas": {"A": {}, "B": {}}}', encoding="utf-8")
    assert list(mapdata.load_map(path, SPAN).areas) == ["A", "B"]
    path.write_text('{"areas": {"A": {}, "B": 5}}', encoding="utf-8")
    for _ in range(2):  # a broken map is never kept: it is reported each time
        with pytest.raises(CivError):
            mapdata.load_map(path, SPAN)

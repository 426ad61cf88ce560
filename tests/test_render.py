"""Pictures of games: `render_svg` writes well-formed SVG with every area of the board and every player's
pieces in their colours, the same bytes for the same scene, hostile words escaped; `render_png` gives a PNG
of the SVG's size; `civdsl render` draws a logged game and says clearly what is wrong with its input."""
from __future__ import annotations

import argparse
import copy
import json
import struct
import xml.etree.ElementTree as ET
from functools import lru_cache

import pytest

from civdsl.api import new_game
from civdsl.interfaces import render_cli
from civdsl.interfaces.render import render_png, render_svg
from civdsl.language.config import GameConfig
from civdsl.language.diagnostics import CivError
from civdsl.tools.gamelog import write_log
from civdsl.tools.scene import scene_of

NS = "{http://www.w3.org/2000/svg}"


@lru_cache(maxsize=None)
def _played(edition: str, players: int, rounds: int, agent: str = "heuristic"):
    cfg = GameConfig(edition=edition, players=players, seed=3, agents=[agent], max_rounds=rounds)
    game = new_game(cfg)
    game.run()
    return game


def _scene(edition: str, players: int, rounds: int, seat=None, agent: str = "heuristic") -> dict:
    return copy.deepcopy(scene_of(_played(edition, players, rounds, agent), seat))


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def _drawn_areas(root: ET.Element) -> set[str]:
    return {el.get("data-area") for el in root.iter() if el.get("data-area")}


def _fills(root: ET.Element) -> set[str]:
    return {el.get("fill") for el in root.iter() if el.get("fill")}


def _texts(root: ET.Element) -> list[str]:
    return [el.text or "" for el in root.iter(NS + "text")]


# ---- the board -------------------------------------------------------------------------------------------

def test_the_avalon_hill_board_every_area_and_every_player_s_pieces_in_their_colours():
    scene = _scene("avalon-hill-1981", 5, 4)
    board = scene["maps"]["board"]
    assert board["geometry"] and board["pieces"]
    root = _parse(render_svg(scene))
    assert _drawn_areas(root) == set(board["areas"])
    polygons = [el for el in root.iter(NS + "polygon") if el.get("data-area")]
    assert len(polygons) == len(board["areas"])  # one polygon an area on this board
    colours = {p["name"]: p["colour"] for p in scene["view"]["players"]}
    owners = {owner for _, owner, _, _ in board["pieces"]}
    assert owners and all(colours[o] in _fills(root) for o in owners)
    stacks = [n for _, _, _, n in board["pieces"] if n > 1]
    texts = _texts(root)
    assert all(str(n) in texts for n in stacks)  # counts written on the pieces


def test_a_map_panel_s_layers_shade_and_highlight_are_drawn():
    scene = _scene("avalon-hill-1981", 5, 2)
    panel = {"kind": "map", "title": "Board", "map": "board", "layers": [["open_sea", "fill"], ["volcano", "triangle"],
             ["flood_plain", "hatch"]], "pieces": [["token", "star"]], "shade": ["Sahara"], "highlight": ["Athens"]}
    scene["view"]["views"].insert(0, {"name": "b", "title": "B", "player": None, "label": None, "panels": [panel]})
    root = _parse(render_svg(scene))
    sea = next(el for el in root.iter(NS + "polygon") if el.get("data-area") == "Aegean Sea")
    land = next(el for el in root.iter(NS + "polygon") if el.get("data-area") == "Athens")
    assert sea.get("fill") != land.get("fill")
    assert any((el.get("fill") or "").startswith("url(#hatch") for el in root.iter(NS + "polygon"))
    assert any(el.get("stroke") == "#e6007e" for el in root.iter(NS + "polygon"))  # the highlight


def test_the_schematic_map_draws_areas_as_nodes_and_borders_as_lines():
    scene = _scene("mega-empires-the-west", 5, 3)
    board = scene["maps"]["board"]
    assert board["geometry"]["schematic"] is True
    root = _parse(render_svg(scene))
    nodes = [el for el in root.iter(NS + "circle") if el.get("data-area")]
    assert {el.get("data-area") for el in nodes} == set(board["areas"])
    lines = list(root.iter(NS + "line"))
    assert len(lines) >= len(board["borders"])


def test_a_game_without_a_board_is_drawn_as_its_players_sheets():
    scene = _scene("roll-through-the-ages", 3, 3, seat=1, agent="random")
    root = _parse(render_svg(scene))
    texts = _texts(root)
    for view in scene["view"]["views"]:
        for panel in view["panels"]:
            assert any(panel["title"] in t or t.rstrip("…") and panel["title"].startswith(t.rstrip("…"))
                       for t in texts), panel["title"]
    names = [p["name"] for p in scene["view"]["players"]]
    assert all(name in " ".join(texts) for name in names)


def test_the_sheets_beside_a_board_on_request():
    scene = _scene("avalon-hill-1981", 3, 2)
    plain, with_sheets = render_svg(scene), render_svg(scene, sheets=True)
    assert len(with_sheets) > len(plain)
    assert ET.fromstring(with_sheets) is not None


# ---- bytes ---------------------------------------------------------------------------------------------

def test_the_same_scene_gives_the_same_bytes():
    scene = _scene("avalon-hill-1981", 5, 4)
    again = json.loads(json.dumps(scene))
    assert render_svg(scene) == render_svg(again)
    assert render_png(scene) == render_png(again)


def test_the_png_is_a_png_of_the_svg_s_size():
    scene = _scene("warp-spawn-solitaire", 1, 2, agent="random")
    root = _parse(render_svg(scene))
    width, height = float(root.get("width")), float(root.get("height"))
    png = render_png(scene)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    w, h = struct.unpack(">II", png[16:24])
    assert (w, h) == (round(width), round(height))
    w2, _ = struct.unpack(">II", render_png(scene, scale=0.5)[16:24])
    assert w2 == round(width / 2)


HOSTILE = '</text><script>alert("x")</script>&amp; \x00\x07\ud800 \'quoted\''


def test_hostile_words_are_escaped_and_the_svg_still_parses():
    scene = _scene("avalon-hill-1981", 3, 2)
    scene["title"] = HOSTILE
    scene["view"]["players"][0]["label"] = HOSTILE
    scene["view"]["players"][1]["colour"] = '"/><script>'
    board = scene["maps"]["board"]
    board["areas"][HOSTILE] = {}
    board["geometry"] = dict(board["geometry"], areas=dict(board["geometry"]["areas"], **{HOSTILE: {"at": [5, 5]}}))
    board["pieces"].append([HOSTILE, scene["view"]["players"][0]["name"], HOSTILE, 3])
    scene["view"]["views"].append({"name": HOSTILE, "title": HOSTILE, "player": None, "label": HOSTILE, "panels": [
        {"kind": "text", "title": HOSTILE, "text": HOSTILE},
        {"kind": "table", "title": "t", "columns": [HOSTILE], "rows": [[HOSTILE]]},
        {"kind": "list", "title": "l", "items": [HOSTILE], "hidden": 2},
        {"kind": "track", "title": HOSTILE, "length": 5, "at": [[HOSTILE, 2, None]], "marks": [[HOSTILE, 1]]}]})
    svg = render_svg(scene, sheets=True)
    root = _parse(svg)
    assert not any(el.tag == NS + "script" for el in root.iter())
    assert "<script>" not in svg and "\x00" not in svg
    assert any("</text><script>" in t for t in _texts(root))  # shown as the words they are


@pytest.mark.parametrize("scene", [
    {}, {"view": 5}, {"maps": {"board": {"geometry": {"width": "x"}}}},
    {"maps": {"board": {"geometry": {"width": 10, "height": 10, "areas": {"A": {"polygons": [[[0, 0], "x"]]}}},
                        "pieces": [["A", None, "token", "many"], 5], "borders": [["A"], 7]}}},
    {"view": {"players": [{"name": "P1", "colour": "red"}], "views": [{"panels": [
        {"kind": "track", "length": -3, "at": [["x", "far", "P1"], ["y", 99, "P1"]]},
        {"kind": "dice", "items": [None, True, 2.5]}, {"kind": "counters", "items": [[1, 2], "x"]},
        {"kind": "nonsense"}, {"kind": "table", "columns": ["a", "b"], "rows": [[1], "x"]}]}]}},
], ids=["empty", "view-a-number", "bad-size", "bad-shapes-and-pieces", "odd-panels"])
def test_an_ill_formed_scene_draws_less_and_never_throws(scene):
    root = _parse(render_svg(scene))
    assert root.tag == NS + "svg"


# ---- the command ----------------------------------------------------------------------------------------

def _render_command(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    render_cli.add_parsers(parser.add_subparsers(dest="command"))
    return render_cli.COMMANDS["render"](parser.parse_args(["render", *argv]))


@pytest.fixture(scope="module")
def ah_log(tmp_path_factory):
    path = tmp_path_factory.mktemp("logs") / "ah.jsonl"
    cfg = GameConfig(edition="avalon-hill-1981", players=3, seed=2, agents=["heuristic"], max_rounds=3)
    game = new_game(cfg)
    game.run()
    write_log(str(path), game, cfg)
    return path


def test_civdsl_render_writes_svg_and_png(ah_log, tmp_path, capsys):
    assert _render_command(str(ah_log), "--round", "2", "-o", str(tmp_path / "b.svg")) == 0
    assert ET.parse(tmp_path / "b.svg").getroot().tag == NS + "svg"
    assert _render_command(str(ah_log), "--event", "300", "--seat", "P2", "-o", str(tmp_path / "b.png")) == 0
    assert (tmp_path / "b.png").read_bytes()[:4] == b"\x89PNG"
    assert "b.png: round" in capsys.readouterr().out


@pytest.mark.parametrize("argv, code", [
    (["{log}", "-o", "{tmp}/b.gif"], "RND001"),
    (["{log}", "-o", "{tmp}/missing/b.svg"], "RND002"),
    (["{log}", "-o", "{tmp}"], "RND001"),
    (["{tmp}/no-such.jsonl", "-o", "{tmp}/b.svg"], "LOG001"),
    (["{corrupt}", "-o", "{tmp}/b.svg"], "LOG004"),
    (["{log}", "--event", "99999999", "-o", "{tmp}/b.svg"], "SCE003"),
    (["{log}", "--round", "99", "-o", "{tmp}/b.svg"], "SCE002"),
    (["{log}", "--seat", "P9", "-o", "{tmp}/b.svg"], "LOG009"),
], ids=["extension", "no-folder", "a-folder", "no-log", "corrupt-log", "no-event", "no-round", "no-seat"])
def test_civdsl_render_explains_bad_input(ah_log, tmp_path, argv, code):
    corrupt = tmp_path / "corrupt.jsonl"
    corrupt.write_text("not json\n", encoding="utf-8")
    args = [a.format(log=ah_log, tmp=tmp_path, corrupt=corrupt) for a in argv]
    with pytest.raises(CivError) as caught:
        _render_command(*args)
    assert caught.value.diagnostics[0].code == code
    assert not (tmp_path / "b.svg").exists()

"""Warp Spawn's MAP VERSION (option `map`): one edition playing on another's board (the Avalon Hill 1981 map file)
with the Civ family library's geography — whole games with 1-4 players under the invariants, the board drawn, and
`civdsl diff` listing exactly the map rules."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from civdsl.api import load_program, new_game
from civdsl.language.config import GameConfig
from civdsl.language.parser import parse_file

ROOT = Path(__file__).resolve().parent.parent
EDITION = "warp-spawn-solitaire"
WS = ROOT / "rulesets" / EDITION
MAP_FILES = [WS / "map.civ", WS / "map_rules.civ", WS / "map_war.civ", WS / "map_views.civ",
             ROOT / "rulesets" / "civ-core" / "geography.civ"]
SPECIALTIES = ["army", "agriculture", "trade", "labor", "scholars"]


@pytest.fixture(scope="module")
def program():
    return load_program(EDITION, ["map"])


def play(program, players, agents, seed):
    cfg = GameConfig(edition=EDITION, players=players, seed=seed, agents=[agents], options=["map"])
    game = new_game(cfg, program, check_invariants=True)
    return game, game.run()


def texts(game):
    return [e.get("text", "") for e in game.events if e["type"] == "log"]


# (With 1 player and seed 1 the culture loses its only city to rebels early and never builds another: the
# game ends at the round cap, without a winner.)
@pytest.mark.parametrize("players,seed", [(1, 2), (2, 1), (3, 1), (4, 1)])
def test_the_heuristic_game_plays_to_the_end_on_the_board(program, players, seed):
    game, result = play(program, players, "heuristic", seed)
    assert result.reason == "victory" and result.winners
    log = texts(game)
    # "Put initial Populations and City into one territory": one settling per culture, on distinct territories.
    homes = [t.split(" settles in ")[1] for t in log if " settles in " in t]
    assert len(homes) == players and len(set(homes)) == players
    assert any(" moves " in t and " from " in t for t in log)          # the Move phase is played
    state = game.state
    for p in state.players:                                          # the tokens are the populations and cities
        for s in SPECIALTIES:
            assert sum(n for (a, o, k), n in state.pieces.items() if o == p.index and k == s) == p.counters[s]


@pytest.mark.parametrize("players,seed", [(1, 2), (2, 3), (3, 4), (4, 5)])
def test_random_games_keep_the_invariants(program, players, seed):
    _, result = play(program, players, "random", seed)
    assert result.reason in ("victory", "round cap")


def test_the_done_when_command(tmp_path):
    out = subprocess.run([sys.executable, "-m", "civdsl", "play", "--edition", EDITION, "--option", "map",
                          "--players", "3", "--agents", "heuristic", "--seed", "1", "--quiet",
                          "--log", str(tmp_path / "g.jsonl")], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    assert "Game over after" in out.stdout and ": victory." in out.stdout
    render = subprocess.run([sys.executable, "-m", "civdsl", "render", str(tmp_path / "g.jsonl"), "--round", "10",
                             "-o", str(tmp_path / "board.svg")], capture_output=True, text=True, cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert render.returncode == 0, render.stderr
    svg = (tmp_path / "board.svg").read_text()
    geometry = json.loads((ROOT / "rulesets" / "avalon-hill-1981" / "data" / "map.json").read_text())["geometry"]
    assert svg.count("<polygon") >= len(geometry["areas"])            # the Avalon Hill board's areas, drawn
    assert "Central Mediterranean" in svg and "Caspian Sea" in svg
    for kind in ("army", "agriculture", "city"):                       # Warp Spawn's tokens in the legend
        assert f">{kind}<" in svg


def test_the_plain_game_has_no_map(program):
    plain = load_program(EDITION)
    assert ("map", "board") not in plain.ruleset.decls and ("map", "board") in program.ruleset.decls
    assert ("phase", "move") not in plain.ruleset.decls and ("phase", "move") in program.ruleset.decls


def test_diff_lists_exactly_the_map_rules():
    out = subprocess.run([sys.executable, "-m", "civdsl", "diff", EDITION, EDITION, "--option", "map",
                          "--format", "json"], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    changes = json.loads(out.stdout)["changes"]
    cited = {(c["where"].rsplit(":", 1)[0], int(c["where"].rsplit(":", 1)[1])) for c in changes}
    files = {str(f.relative_to(ROOT)) for f in MAP_FILES}
    assert {f for f, _ in cited} <= files                              # every change is a map rule...
    declared = set()
    for f in MAP_FILES:
        for item in parse_file(str(f)).items:
            if type(item).__name__ != "Import":
                declared.add((str(f.relative_to(ROOT)), item.span.line))
    assert declared == cited                                           # ...and every map rule is a change
    kinds = {(c["kind"], c["name"], c["status"]) for c in changes}
    assert ("phase", "move", "added") in kinds and ("sequence", "", "changed") in kinds
    assert ("procedure", "sea_destinations", "added") in kinds        # the library's sea move, by import


def test_an_option_imports_its_files_only_when_it_is_on(tmp_path):
    from civdsl.api import compile_entry
    from civdsl.language.diagnostics import CivError
    from civdsl.language.loader import load_ruleset
    (tmp_path / "lib").mkdir()
    (tmp_path / "ed").mkdir()
    (tmp_path / "lib" / "x.civ").write_text("procedure bonus() { return 5 }\n")
    (tmp_path / "ed" / "game.civ").write_text(
        'game "E" { players: 1 }\nplayer counter n = 0\nphase p { player.n += 1 }\nsequence { phases: p }\n'
        'victory { max_rounds: 2 }\noption big "Big" {\n  import "../lib/x.civ"\n'
        '  replace phase p { player.n += bonus() }\n}\n')
    entry = tmp_path / "ed" / "game.civ"
    assert ("procedure", "bonus") not in load_ruleset(entry).decls
    assert ("procedure", "bonus") in load_ruleset(entry, ["big"]).decls
    compile_entry(entry)
    (tmp_path / "ed" / "game.civ").write_text((tmp_path / "ed" / "game.civ").read_text()
                                              .replace("../lib/x.civ", "../../outside.civ"))
    with pytest.raises(CivError) as exc:
        load_ruleset(entry, ["big"], root=tmp_path)
    assert exc.value.diagnostics[0].code.startswith("LOAD")

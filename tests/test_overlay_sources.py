"""A run-time error names the overlay line that gave the bad value, not only the line that used it."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from civdsl.api import load_program
from civdsl.engine.agents import RandomAgent
from civdsl.engine.interpreter import Game
from civdsl.language.diagnostics import CivError, render_text
from tests.cli_run import run
from tests.one_file import TINY


def _house(tmp_path: Path, text: str) -> Path:
    shutil.copytree(TINY, tmp_path / "rulesets" / "tiny")
    house = tmp_path / "house.civ"
    house.write_text('extends "rulesets/tiny/game.civ"\n\n' + text, encoding="utf-8")
    return house


def _play(edition: Path, house_rules=()):
    program = load_program(str(edition), house_rules=[str(h) for h in house_rules])
    with pytest.raises(CivError) as caught:
        Game(program, 2, 1, [RandomAgent(1, i) for i in range(2)], logging=False).run()
    return caught.value.diagnostics[0]


def _failure(tmp_path: Path, house_text: str):
    house = _house(tmp_path, house_text)
    return _play(tmp_path / "rulesets" / "tiny" / "game.civ", [house])


def test_a_parameter_set_by_an_overlay_is_named(tmp_path):
    d = _failure(tmp_path, 'modify param goal { value: "ten" }\n')
    assert d.code == "RUN001" and d.span.file.endswith("game.civ")
    assert [(Path(s.file).name, s.line) for s, _ in d.related] == [("house.civ", 3)]
    assert "`goal` is given its value here, by an overlay" in d.related[0][1]
    assert "house.civ:3:" in render_text([d])


def test_a_typed_thing_field_given_the_wrong_type_by_an_overlay_is_reported_at_the_overlay(tmp_path):
    d = _failure(tmp_path, 'modify card "Two" { points: "two" }\n')
    assert d.code == "TYP003" and (Path(d.span.file).name, d.span.line) == ("house.civ", 3)


def test_an_untyped_thing_field_set_by_an_overlay_is_named(tmp_path):
    shutil.copytree(TINY, tmp_path / "rulesets" / "tiny")
    game = tmp_path / "rulesets" / "tiny" / "game.civ"
    game.write_text(game.read_text().replace("kind card { points: int }", "kind card { points: any }"))
    house = tmp_path / "house.civ"
    house.write_text('extends "rulesets/tiny/game.civ"\n\nmodify param goal { value: 1000 }\n'
                     'modify card "Two" { points: "two" }\n', encoding="utf-8")
    d = _play(game, [house])
    assert d.code == "RUN001"  # (every value the failing rule read that an overlay set is named)
    assert sorted((Path(s.file).name, s.line) for s, _ in d.related) == [("house.civ", 3), ("house.civ", 4)]
    assert any('`points` of "Two"' in note for _, note in d.related)


def test_values_the_edition_declares_are_not_named(tmp_path):
    """Only overlays are named: an edition's own mistake is reported where it is used, alone."""
    folder = tmp_path / "rulesets" / "tiny"
    shutil.copytree(TINY, folder)
    game = folder / "game.civ"
    game.write_text(game.read_text().replace("param goal = 10", 'param goal = "ten"'))
    d = _play(game)
    assert d.code == "RUN001" and d.related == []


def test_the_cli_shows_the_overlay_line(tmp_path, capsys):
    house = _house(tmp_path, 'modify param goal { value: "ten" }\n')
    code, out = run(capsys, "play", "--edition", tmp_path / "rulesets" / "tiny" / "game.civ", "--house-rule", house,
                    "--players", "2", "--agents", "random", "--seed", "1", "-q")
    assert code != 0 and "Traceback" not in out
    assert "house.civ:3:" in out and "given its value here, by an overlay" in out


def test_a_scenario_run_that_fails_names_the_overlay_line(tmp_path, capsys):
    """The issue's example: a house rule gives the famine loss as a text; the famine scenario's failure
    names the house rule's line as well as the edition's line that computed with it."""
    root = Path(__file__).resolve().parent.parent
    (tmp_path / "house.civ").write_text('extends "avalon-hill-1981"\n\nmodify param famine_loss { value: "four" }\n')
    scenario = (root / "rulesets/variants/scenarios/gentle-calamities-famine.yaml").read_text()
    scenario = scenario.replace("house_rules: [../gentle-calamities.civ]", "house_rules: [house.civ]")
    (tmp_path / "famine.yaml").write_text(scenario.replace("../../../civdsl/scenario.schema.json", "x"))
    code, out = run(capsys, "test", tmp_path / "famine.yaml")
    assert code != 0 and "calamities.civ:" in out
    assert "house.civ:3:" in out and "`famine_loss` is given its value here, by an overlay" in out

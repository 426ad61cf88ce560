"""Overlays as the way editions and house rules are built: table rows and options changed by name,
house rules for a base edition applied to an edition built on it, shipped variants named in a config,
full config checks, fixed choices, the effective-rules hash, and `civdsl diff` headings and reasons."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from civdsl.api import check_config, play
from civdsl.interfaces.cli import main
from civdsl.language.config import load_config
from civdsl.language.diagnostics import CivError
from civdsl.language.loader import load_ruleset

TINY = Path(__file__).parent / "data" / "rulesets" / "tiny"

OPTION = '''
table bonus { 1: 1  2: 2  3..4: 3 }
option fast "Fast race" {
  modify param goal { value: 6 }
}
option slow "Slow race" {
  modify param goal { value: 20 }
}
'''


@pytest.fixture
def rulesets(tmp_path, monkeypatch):
    """A rulesets root holding `tiny` (with a table and two options) and one shipped variant."""
    root = tmp_path / "rules"
    shutil.copytree(TINY, root / "tiny")
    game = root / "tiny" / "game.civ"
    game.write_text(game.read_text(encoding="utf-8").replace("param goal = 10", "param goal = 10 + bonus[1]")
                    + OPTION, encoding="utf-8")
    (root / "variants").mkdir()
    (root / "variants" / "short-race.civ").write_text(
        'extends "tiny"\n# Shorter races for children.\nmodify param goal { value: 4 }\n', encoding="utf-8")
    monkeypatch.setenv("CIVDSL_RULESETS", str(root))
    return root


def overlay(root: Path, text: str, name: str = "house.civ") -> Path:
    path = root / "tiny" / name
    path.write_text('extends "game.civ"\n' + text, encoding="utf-8")
    return path


def test_modify_table_changes_and_adds_rows(rulesets):
    rs = load_ruleset(overlay(rulesets, "modify table bonus { 2: 5  6: 9 }\n"))
    rows = {(r.lo, r.hi): r.value.value for r in rs.decls[("table", "bonus")].rows}
    assert rows == {(1, 1): 1, (2, 2): 5, (3, 4): 3, (6, 6): 9}


def test_modify_table_row_cutting_a_range_is_an_error_with_both_places(rulesets):
    path = overlay(rulesets, "modify table bonus { 4: 7 }\n")
    with pytest.raises(CivError) as exc:
        load_ruleset(path)
    d = exc.value.diagnostics[0]
    assert d.code == "OVL005" and d.span.line == 2
    assert d.related and d.related[0][0].file.endswith("game.civ")


def test_options_are_replaced_and_removed_by_name(rulesets):
    rs = load_ruleset(overlay(rulesets, 'replace option fast "Faster" {\n  modify param goal { value: 3 }\n}\n'
                                        "remove option slow\n"))
    assert set(rs.options) == {"fast"} and rs.options["fast"].title == "Faster"
    with pytest.raises(CivError) as exc:
        load_ruleset(overlay(rulesets, "remove option slwo\n"))
    assert exc.value.diagnostics[0].code == "OVL001"
    assert "did you mean `slow`?" in exc.value.diagnostics[0].hint


def test_a_change_in_a_file_an_option_or_house_rule_imports_is_claimed_too(rulesets):
    """Two overlays changing one rule must say which wins (OVL004), also when a change is in a file an
    option or a house rule imports: the note names the other change, and `overrides` settles it."""
    game = rulesets / "tiny" / "game.civ"
    (rulesets / "tiny" / "gentle.civ").write_text("modify param goal { value: 8 }\n", encoding="utf-8")
    game.write_text(game.read_text(encoding="utf-8") + 'option gentle "Gentle" {\n  import "gentle.civ"\n}\n',
                    encoding="utf-8")
    for options in (["gentle", "fast"], ["fast", "gentle"]):
        with pytest.raises(CivError) as exc:
            load_ruleset(game, options=options)
        d = exc.value.diagnostics[0]
        assert d.code == "OVL004" and "both change param `goal`" in d.message
        assert {d.span.file.rsplit("/", 1)[-1], d.related[0][0].file.rsplit("/", 1)[-1]} == {"gentle.civ", "game.civ"}
    house = overlay(rulesets, 'import "gentle.civ"\n', "imports.civ")
    with pytest.raises(CivError) as exc:
        load_ruleset(game, options=["fast"], house_rules=[str(house)])
    assert exc.value.diagnostics[0].code == "OVL004"
    overlay(rulesets, 'overrides "fast"\nimport "gentle.civ"\n', "imports.civ")
    assert load_ruleset(game, options=["fast"], house_rules=[str(house)]).decls[("param", "goal")].value.value == 8


def test_selected_options_change_the_rules_hash(rulesets):
    entry = rulesets / "tiny" / "game.civ"
    assert load_ruleset(entry).digest() != load_ruleset(entry, options=["fast"]).digest()
    assert load_ruleset(entry, options=["fast"]).digest() == load_ruleset(entry, options=["fast"]).digest()


def test_a_shipped_variant_is_named_in_a_config_and_listed(rulesets, tmp_path, capsys):
    cfg = tmp_path / "game.yaml"
    cfg.write_text("edition: tiny\nplayers: 2\nhouse_rules: [short-race]\n", encoding="utf-8")
    config = load_config(str(cfg))
    assert config.house_rules == [str(rulesets / "variants" / "short-race.civ")]
    game, result = play(config, logging=False)
    assert game.program.ruleset.decls[("param", "goal")].value.value == 4
    assert main(["list"]) == 0
    assert "short-race" in capsys.readouterr().out


def test_a_house_rule_for_the_base_edition_applies_to_an_edition_built_on_it(rulesets, tmp_path):
    (rulesets / "tiny-plus").mkdir()
    (rulesets / "tiny-plus" / "game.civ").write_text(
        'extends "tiny"\nreplace game "Tiny plus" { edition: "tiny-plus" players: 1..4 }\n', encoding="utf-8")
    cfg = tmp_path / "game.yaml"
    cfg.write_text("edition: tiny-plus\nplayers: 2\nhouse_rules: [short-race]\n", encoding="utf-8")
    assert check_config(load_config(str(cfg))) == []


def test_check_config_reports_every_problem_at_its_line(rulesets, tmp_path):
    (tmp_path / "bad.civ").write_text('extends "tiny"\nmodify param goal { value: gaol }\n', encoding="utf-8")
    cfg = tmp_path / "game.yaml"
    cfg.write_text("edition: tiny\nplayers: 2\noptions: [fsat]\nhouse_rules: [bad.civ]\n", encoding="utf-8")
    diags = check_config(load_config(str(cfg)))
    found = {(d.code, Path(d.span.file).name, d.span.line) for d in diags}
    assert ("CFG010", "game.yaml", 3) in found
    assert ("UNK001", "bad.civ", 2) in found
    cfg.write_text("edition: tiny\nplayers: 7\n", encoding="utf-8")
    (d,) = check_config(load_config(str(cfg)))
    assert (d.code, d.span.line) == ("CFG015", 2)


CHOOSING = '''game "Choosing" { edition: "choosing" players: 2..3 }
player var colour = none
setup {
  for p in players {
    p.colour = p chooses "colour" from ["red", "green", "blue"]
  }
}
phase nothing { }
sequence { phases: nothing }
victory { winner: false  max_rounds: 1 }
'''


def test_choices_fix_a_seat_answer_and_a_wrong_one_is_reported_at_its_place(tmp_path):
    (tmp_path / "choosing").mkdir()
    (tmp_path / "choosing" / "game.civ").write_text(CHOOSING, encoding="utf-8")
    cfg = tmp_path / "game.yaml"
    cfg.write_text(f"edition: {tmp_path / 'choosing'}\nseed: 5\nchoices:\n  colour: [blue, null, green]\n",
                   encoding="utf-8")
    config = load_config(str(cfg))
    assert config.players == 3  # the list's length
    game, _ = play(config, logging=False)
    colours = [p.vars["colour"] for p in game.state.players]
    assert colours[0] == "blue" and colours[2] == "green" and colours[1] in ("red", "green", "blue")
    cfg.write_text(f"edition: {tmp_path / 'choosing'}\nchoices:\n  colour: [blue, purple]\n", encoding="utf-8")
    (d,) = check_config(load_config(str(cfg)))
    assert d.code == "CFG017" and (d.span.line, d.span.col) == (3, 18)
    assert "red, green, blue" in d.hint


def test_diff_groups_by_phase_and_kind_and_gives_the_reason(rulesets, capsys):
    path = overlay(rulesets, "# Errata: a longer race.\nmodify param goal { value: 12 }\n"
                             "# Errata: a third card.\ncard \"Three\" { points: 3 }\n"
                             "modify table bonus { 2: 4 }\n")
    assert main(["diff", "tiny", str(path), "--format", "json"]) == 0
    changes = {(c["kind"], c["name"]): c for c in json.loads(capsys.readouterr().out)["changes"]}
    assert changes[("param", "goal")]["group"] == "Victory"
    assert changes[("param", "goal")]["reason"] == "Errata: a longer race."
    assert changes[("param", "goal")]["where"].endswith("house.civ:3")
    assert changes[("card", "Three")]["group"] == "Cards" and changes[("card", "Three")]["status"] == "added"
    assert changes[("table", "bonus")]["details"] == ["row 2: 2 → 4"]
    assert main(["diff", "tiny", str(path), "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    assert "## Victory" in out and "- **changed** param `goal`: 10 + bonus[1] → 12 — Errata: a longer race." in out


def test_test_runs_scenarios_under_another_edition(rulesets, tmp_path, capsys):
    (rulesets / "tiny-long").mkdir()
    (rulesets / "tiny-long" / "game.civ").write_text(
        'extends "tiny"\nreplace game "Long" { edition: "tiny-long" players: 1..4 }\n'
        "modify param goal { value: 99 }\n", encoding="utf-8")
    sc = tmp_path / "goal.yaml"
    sc.write_text('scenario: "the goal"\nedition: tiny\nrun: {call: "goal"}\nexpect: {result: 11}\n',
                  encoding="utf-8")
    assert main(["test", str(sc)]) == 0
    assert main(["test", str(sc), "--edition", "tiny-long"]) == 1
    assert "expected 11, got 99" in capsys.readouterr().out

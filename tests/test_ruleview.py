"""`civdsl explain` and `civdsl diff` on an edition and a house rule that changes it."""
from __future__ import annotations

import json

import pytest

from civdsl.interfaces.cli import main

HOUSE = '''# cheaper cities and a richer Colossus
extends "warp-spawn-solitaire"
modify param city_gold { value: 15 }
modify wonder "Colossus" { gold_dice: 2 }
'''


@pytest.fixture
def config(tmp_path):
    (tmp_path / "house.civ").write_text(HOUSE, encoding="utf-8")
    cfg = tmp_path / "game.yaml"
    cfg.write_text("edition: warp-spawn-solitaire\nhouse_rules: [house.civ]\n", encoding="utf-8")
    return cfg


def test_explain_shows_the_effective_rule_and_its_chain(config, capsys):
    assert main(["explain", str(config), "param city_gold"]) == 0
    out = capsys.readouterr().out
    assert "param city_gold = 15" in out
    assert "defined   at rulesets/warp-spawn-solitaire/game.civ:" in out
    assert "modified  at " in out and "house.civ:3" in out


def test_explain_unknown_rule_suggests(capsys):
    assert main(["explain", "warp-spawn-solitaire", "harvst"]) == 2
    assert "did you mean `harvest`?" in capsys.readouterr().err


def test_diff_lists_exactly_the_changed_rules(config, capsys):
    assert main(["diff", "warp-spawn-solitaire", str(config), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    got = {(c["kind"], c["name"], c["status"]): c["details"] for c in data["changes"]}
    assert got == {("param", "city_gold", "changed"): ["25 → 15"],
                   ("wonder", "Colossus", "changed"): ["gold_dice: 1 → 2"]}


def test_diff_of_an_edition_with_itself_is_empty(capsys):
    assert main(["diff", "warp-spawn-solitaire", "warp-spawn-solitaire"]) == 0
    assert "0 rule(s) differ" in capsys.readouterr().out


def test_house_rule_for_another_edition_is_refused(tmp_path, capsys):
    (tmp_path / "h.civ").write_text('extends "some-other-edition"\nmodify param city_gold { value: 1 }\n')
    cfg = tmp_path / "g.yaml"
    cfg.write_text("edition: warp-spawn-solitaire\nhouse_rules: [h.civ]\n", encoding="utf-8")
    assert main(["play", str(cfg)]) == 2
    assert "CFG016" in capsys.readouterr().err


def test_two_house_rules_changing_one_rule_must_say_which_wins(tmp_path, capsys):
    (tmp_path / "a.civ").write_text('extends "warp-spawn-solitaire"\nmodify param city_gold { value: 15 }\n')
    (tmp_path / "b.civ").write_text('extends "warp-spawn-solitaire"\nmodify param city_gold { value: 10 }\n')
    cfg = tmp_path / "g.yaml"
    cfg.write_text("edition: warp-spawn-solitaire\nhouse_rules: [a.civ, b.civ]\n", encoding="utf-8")
    assert main(["check", str(cfg)]) == 1
    err = capsys.readouterr().out
    assert "b.civ:2:1: error[OVL004]: b.civ and a.civ both change param `city_gold`" in err
    assert "a.civ:2:1: a.civ changes it here" in err
    (tmp_path / "b.civ").write_text('extends "warp-spawn-solitaire"\noverrides "a.civ"\n'
                                    'modify param city_gold { value: 10 }\n')
    assert main(["check", str(cfg)]) == 0
    capsys.readouterr()
    assert main(["explain", str(cfg), "city_gold"]) == 0
    assert "param city_gold = 10" in capsys.readouterr().out

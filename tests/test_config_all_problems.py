"""A config's problems are reported in one run, as a rule file's are: the file's own (schema, house-rule
paths, edition and log paths) and those found by setting up the game (options, house rules that extend
another edition, the player count), each at its place. Before, a config with these mistakes needed a run
per class of problem: CFG004 first, then CFG010 and CFG016, then CFG015."""
from __future__ import annotations

import pytest

from civdsl.api import check_config
from civdsl.interfaces.cli import main
from civdsl.language.config import load_config, read_config
from civdsl.language.diagnostics import CivError

FIVE_MISTAKES = """\
edition: roll-through-the-ages
players: 9
seeed: 7
options: [tradin]
house_rules:
  - missing.civ
  - other.civ
"""


@pytest.fixture
def config(tmp_path):
    (tmp_path / "other.civ").write_text('extends "warp-spawn-solitaire"\n', encoding="utf-8")
    path = tmp_path / "game.yaml"
    path.write_text(FIVE_MISTAKES, encoding="utf-8")
    return path


def test_check_reports_every_mistake_of_a_config_in_one_run(config, capsys, monkeypatch):
    monkeypatch.chdir(config.parent)
    assert main(["check", "game.yaml"]) == 2   # (config problems are usage errors)
    out = capsys.readouterr().out
    found = [line.split(": ", 2)[:2] for line in out.splitlines() if "error[" in line]
    assert found == [["other.civ:1:1", "error[CFG016]"],
                     ["game.yaml:2:1", "error[CFG015]"],
                     ["game.yaml:3:1", "error[CFG002]"],
                     ["game.yaml:4:11", "error[CFG010]"],
                     ["game.yaml:6:5", "error[CFG004]"]]
    assert "checked 1 file(s): 5 error(s), 0 warning(s)" in out


def test_read_config_finds_the_files_problems_and_leaves_out_their_values(config):
    cfg, problems = read_config(str(config))
    assert [(d.code, d.span.line) for d in problems] == [("CFG002", 3), ("CFG004", 6)]
    assert cfg.edition and cfg.players == 9 and cfg.options == ["tradin"]
    assert [p.rsplit("/", 1)[-1] for p in cfg.house_rules] == ["other.civ"]   # the missing one is left out
    assert "house_rules" in cfg.dropped and "seeed" in cfg.dropped
    codes = sorted(d.code for d in check_config(cfg))
    assert codes == ["CFG010", "CFG015", "CFG016"]


def test_load_config_raises_all_the_files_problems_at_once(tmp_path):
    (tmp_path / "inner").mkdir()
    path = tmp_path / "inner" / "game.yaml"
    path.write_text("edition: ../../elsewhere\nplayers: 0\nhouse_rules: [nothere.civ]\nlog: ../../out.jsonl\n",
                    encoding="utf-8")
    with pytest.raises(CivError) as exc:
        load_config(str(path))
    assert [(d.code, d.span.line) for d in exc.value.diagnostics] == [
        ("CFG019", 1), ("CFG002", 2), ("CFG004", 3), ("LOG006", 4)]


def test_a_refused_edition_is_not_reported_again_as_missing(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text("edition: /etc\nplayers: 2\n", encoding="utf-8")
    cfg, problems = read_config(str(path))
    assert [d.code for d in problems] == ["CFG019"] and cfg.edition is None
    assert check_config(cfg) == []


def test_a_config_that_is_not_a_mapping_has_only_that_problem(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text("- edition: x\n", encoding="utf-8")
    cfg, problems = read_config(str(path))
    assert [d.code for d in problems] == ["CFG002"] and "*" in cfg.dropped
    assert check_config(cfg) == []


def test_a_clean_config_has_no_problems(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text("edition: roll-through-the-ages\nplayers: 2\noptions: [trading]\n", encoding="utf-8")
    cfg, problems = read_config(str(path))
    assert problems == [] and cfg.dropped == () and check_config(cfg) == []
    assert load_config(str(path)).options == ["trading"]

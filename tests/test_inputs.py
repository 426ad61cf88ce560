"""Input validation of configs, scenarios and game logs: every bad value is a diagnostic with its place
(issue 18, "Inputs not validated"): duplicate YAML keys, integer sizes, log header types."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import run, write
from one_file import tiny_in

from civdsl.language.config import load_config
from civdsl.language.diagnostics import CivError
from civdsl.language.yamlfile import parse_yaml

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "tests" / "data" / "rulesets" / "tiny"


def config_errors(tmp_path: Path, text: str) -> list:
    with pytest.raises(CivError) as caught:
        load_config(str(write(tmp_path / "game.yaml", text)))
    return caught.value.diagnostics


# --- duplicate keys ----------------------------------------------------------------------------------

def test_a_key_given_twice_is_an_error_naming_both_places(tmp_path):
    [d] = config_errors(tmp_path, "edition: warp-spawn-solitaire\nseed: 3\nedition: roll-through-the-ages\n")
    assert d.code == "CFG001" and "`edition` is given twice" in d.message
    assert (d.span.line, d.span.col) == (3, 1)
    [(first, note)] = d.related
    assert (first.line, first.col) == (1, 1) and "first" in note


def test_every_duplicate_is_reported_also_nested_ones(tmp_path):
    diags = config_errors(tmp_path, "edition: a\nchoices:\n  nation: [x]\n  nation: [y]\nseed: 1\nseed: 2\n")
    assert [(d.code, d.span.line, d.related[0][0].line) for d in diags] == [("CFG001", 4, 3), ("CFG001", 6, 5)]
    assert "`choices.nation`" in diags[0].message


def test_check_reports_the_duplicate_instead_of_playing_the_second(tmp_path, capsys):
    cfg = write(tmp_path / "game.yaml", f"edition: {tiny_in(tmp_path)}\nplayers: 2\nedition: warp-spawn-solitaire\n")
    code, out = run(capsys, "play", cfg)
    assert code == 2 and "error[CFG001]" in out and "note: " in out and "Game over" not in out


def test_keys_that_yaml_reads_as_the_same_value_are_duplicates(tmp_path):
    with pytest.raises(CivError) as caught:
        parse_yaml("true: 1\nyes: 2\n", "f.yaml")
    assert caught.value.diagnostics[0].code == "CFG001"


def test_merge_keys_may_be_overridden(tmp_path):
    _, data = parse_yaml("base: &b {food: 1, gold: 2}\nP1:\n  <<: *b\n  food: 3\n", "f.yaml")
    assert data["P1"] == {"food": 3, "gold": 2}


def test_a_scenario_key_given_twice_is_scn001(tmp_path, capsys):
    scenario = write(tmp_path / "s.yaml", "scenario: s\nsource: t\nedition: warp-spawn-solitaire\n"
                                          "run: {rounds: 1}\nexpect: {}\nrun: {game: true}\n")
    code, out = run(capsys, "test", scenario)
    assert code == 1 and "s.yaml:6:1: error[SCN001]" in out and "0 passed, 0 failed, 1 error(s)" in out


# --- integer sizes -----------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", ["9" * 5000, "0x" + "f" * 5000, "1" + "0" * 18, "-" + "9" * 30])
def test_a_huge_seed_is_a_config_error(tmp_path, capsys, seed):
    cfg = write(tmp_path / "game.yaml", f"edition: {tiny_in(tmp_path)}\nplayers: 2\nseed: {seed}\n")
    code, out = run(capsys, "play", cfg)
    assert code == 2 and "game.yaml:3:7: error[CFG002]: seed: expected an integer of at most 18 digits" in out
    assert "internal error" not in out and "Game over" not in out


def test_a_huge_value_is_not_echoed_in_full(tmp_path, capsys):
    cfg = write(tmp_path / "game.yaml", f"edition: {tiny_in(tmp_path)}\nplayers: 2\nseed: {'9' * 5000}\n")
    code, out = run(capsys, "play", cfg)
    assert code == 2 and "9" * 150 in out and "9" * 400 not in out  # the line is cut around the column
    assert max(len(line) for line in out.splitlines()) < 600


def test_a_huge_seed_on_the_command_line_is_a_config_error(capsys):
    code, out = run(capsys, "play", "--edition", TINY, "--players", "2", "--seed", "1" + "0" * 25)
    assert code == 2 and "--seed: expected an integer from 0 to 999999999999999999" in out


def test_the_largest_allowed_seed_plays(capsys):
    code, out = run(capsys, "play", "--edition", TINY, "--players", "2", "--seed", "9" * 18)
    assert code == 0, out


@pytest.mark.parametrize("text, where", [("players: 2.0", "players"), ("max_rounds: 3.0", "max_rounds")])
def test_integers_are_whole_numbers_as_written(tmp_path, text, where):
    [d] = config_errors(tmp_path, f"edition: warp-spawn-solitaire\n{text}\n")
    assert d.code == "CFG002" and d.message.startswith(f"{where}: expected an integer")


@pytest.mark.parametrize("body, message", [
    ("run: {rounds: 1}\ndice: [" + "6" * 5000 + "]", "dice[0]: expected an integer of at most 18 digits"),
    ("run: {rounds: 2.0}", "run.rounds: expected an integer"),
    ("run: {rounds: 1}\nseed: " + "7" * 40, "seed: expected an integer of at most 18 digits"),
])
def test_scenario_numbers_are_bounded(tmp_path, capsys, body, message):
    scenario = write(tmp_path / "s.yaml", f"scenario: s\nsource: t\nedition: warp-spawn-solitaire\nexpect: {{}}\n{body}\n")
    code, out = run(capsys, "test", scenario)
    assert code == 1 and "error[SCN002]: " + message in out, out
    assert "internal error" not in out


# --- the log path ------------------------------------------------------------------------------------

def test_a_log_name_with_a_nul_character_is_refused_before_the_game(tmp_path, capsys):
    cfg = write(tmp_path / "game.yaml", f'edition: {tiny_in(tmp_path)}\nplayers: 2\nlog: "a\\0b"\n')
    code, out = run(capsys, "play", cfg)
    assert code == 2 and "game.yaml:3:1: error[LOG006]" in out
    assert "Game over" not in out and "internal error" not in out


# --- log headers -------------------------------------------------------------------------------------

@pytest.fixture
def log(tmp_path, capsys) -> Path:
    path = tmp_path / "g.jsonl"  # (beside its edition, so that a replay finds it)
    code, out = run(capsys, "play", "--edition", tmp_path / tiny_in(tmp_path), "--players", "2", "--seed", "3",
                    "--log", path)
    assert code == 0, out
    return path


def _edit(log: Path, line: int = 0, **fields) -> None:
    lines = log.read_text(encoding="utf-8").splitlines()
    lines[line] = json.dumps(json.loads(lines[line]) | fields)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.parametrize("field, value", [
    ("max_rounds", "abc"), ("max_rounds", 0), ("options", "trading"), ("house_rules", "rules.civ"),
    ("players", "2"), ("players", 0), ("players", 10 ** 30), ("players", True), ("seed", -1), ("seed", 10 ** 40),
    ("seed", 1.5), ("agents", "random"), ("agents", ["random"]), ("agents", [1, 2]), ("edition", ["tiny"]),
    ("edition", ""), ("options", [None]), ("choices", {"nation": "Egypt"}), ("edition_entry", 5),
])
def test_a_log_header_field_of_the_wrong_type_is_refused(log, capsys, field, value):
    _edit(log, **{field: value})
    code, out = run(capsys, "replay", log)
    assert code == 2 and f"error[LOG007]: header field `{field}`" in out, out
    assert "internal error" not in out


def test_a_log_header_without_players_is_incomplete(log, capsys):
    lines = log.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    del head["players"]
    log.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n", encoding="utf-8")
    code, out = run(capsys, "replay", log)
    assert code == 2 and "error[LOG005]" in out and "`players`" in out


def test_a_malformed_decision_event_is_refused(log, capsys):
    lines = log.read_text(encoding="utf-8").splitlines()
    i = next(i for i, line in enumerate(lines) if json.loads(line).get("type") == "decision")
    _edit(log, i, options="2")
    code, out = run(capsys, "replay", log)
    assert code == 2 and f"g.jsonl:{i + 1}:1: error[LOG007]" in out and "internal error" not in out


def test_a_game_played_with_fixed_choices_replays(tmp_path, capsys):
    cfg = write(tmp_path / "game.yaml", "edition: avalon-hill-1981\nplayers: 3\nmax_rounds: 1\n"
                                        "choices:\n  nation: [Italy, Crete, null]\n")
    assert run(capsys, "play", cfg, "-q", "--log", tmp_path / "g.jsonl")[0] == 0
    code, out = run(capsys, "replay", tmp_path / "g.jsonl")
    assert code == 0 and out.startswith("OK"), out


@pytest.mark.parametrize("nested", ["[" * 100_000 + "]" * 100_000, '{"a":' * 100_000 + "1" + "}" * 100_000])
def test_a_log_line_nested_without_end_is_refused(log, capsys, nested):
    """The JSON reader recurses: a line nested 100,000 deep was a RecursionError ("internal error")."""
    with log.open("a", encoding="utf-8") as f:
        f.write(nested + "\n")
    code, out = run(capsys, "replay", log)
    assert code == 2 and "error[LOG004]" in out and "nests arrays and objects too deeply" in out, out
    assert "internal error" not in out

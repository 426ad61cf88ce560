"""The YAML game config: loading, schema diagnostics with key paths and YAML lines, safety, CLI merge."""
from __future__ import annotations

import json
import os
from importlib import resources

import pytest
from jsonschema import Draft7Validator

from civdsl.language.config import CONFIG_SCHEMA, GameConfig, config_schema, load_config, merge_cli, schema_text
from civdsl.language.diagnostics import CivError


def write(tmp_path, text: str, name: str = "game.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def diagnostics(path: str):
    with pytest.raises(CivError) as caught:
        load_config(path)
    return caught.value.diagnostics


def test_valid_config_loads_and_resolves_house_rules(tmp_path):
    (tmp_path / "house").mkdir()
    (tmp_path / "house" / "short.civ").write_text("", encoding="utf-8")
    path = write(tmp_path, """\
# yaml-language-server: $schema=./civdsl.schema.json
$schema: ./civdsl.schema.json
edition: some-edition
players: 3
seed: 7
agents: [random, greedy, human]
options: [short-game]
house_rules: [house/short.civ]
max_rounds: 40
log: game.jsonl
""")
    config = load_config(path)
    assert config == GameConfig(
        edition="some-edition", players=3, seed=7, agents=["random", "greedy", "human"],
        options=["short-game"], house_rules=[str(tmp_path / "house" / "short.civ")], max_rounds=40,
        log=str(tmp_path / "game.jsonl"), source=path,
    )
    assert os.path.isabs(config.house_rules[0])


def test_house_rules_are_relative_to_the_config_not_the_working_directory(tmp_path, monkeypatch):
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "extra.civ").write_text("", encoding="utf-8")
    write(tmp_path, "house_rules: [extra.civ]\n", "conf/game.yaml")
    monkeypatch.chdir(tmp_path)
    assert load_config("conf/game.yaml").house_rules == [str(tmp_path / "conf" / "extra.civ")]


def test_missing_house_rule_file_points_at_its_item(tmp_path):
    [d] = diagnostics(write(tmp_path, "house_rules:\n  - nothere.civ\n"))
    assert d.code == "CFG004"
    assert "house_rules[0]" in d.message and "nothere.civ" in d.message
    assert (d.span.line, d.span.col) == (2, 5)


def test_empty_file_gives_defaults(tmp_path):
    config = load_config(write(tmp_path, "# nothing set\n"))
    assert config.seed == 0 and config.agents == [] and config.edition is None


def test_single_agent_name_becomes_a_list(tmp_path):
    assert load_config(write(tmp_path, "agents: greedy\n")).agents == ["greedy"]


def test_wrong_type_for_players_names_the_key_and_its_line(tmp_path):
    path = write(tmp_path, "edition: e\nseed: 1\nplayers: three\n")
    [d] = diagnostics(path)
    assert d.code == "CFG002"
    assert d.message.startswith("players:") and "integer" in d.message and "'three'" in d.message
    assert (d.span.file, d.span.line, d.span.col) == (path, 3, 1)
    assert d.headline().startswith(f"{path}:3:1: error[CFG002]: players:")


def test_players_out_of_range(tmp_path):
    [d] = diagnostics(write(tmp_path, "players: 19\n"))
    assert d.message == "players: expected an integer from 1 to 18, got 19"


def test_unknown_key_is_rejected_with_a_suggestion(tmp_path):
    [d] = diagnostics(write(tmp_path, "players: 2\nseeed: 4\n"))
    assert d.code == "CFG002"
    assert d.message == "seeed: unknown key"
    assert d.span.line == 2
    assert d.hint == "did you mean 'seed'?"


def test_bad_agent_name_in_a_list_names_its_index(tmp_path):
    [d] = diagnostics(write(tmp_path, "agents:\n  - random\n  - gready\n"))
    assert d.code == "CFG002"
    assert d.message.startswith("agents[1]: expected one of random, heuristic, human, greedy")
    assert (d.span.line, d.span.col) == (3, 5)
    assert d.hint == "did you mean 'greedy'?"  # the older name of `heuristic` is still accepted


def test_heuristic_agent_name_is_accepted_and_misspellings_are_guessed(tmp_path):
    assert load_config(write(tmp_path, "agents: [heuristic, greedy]\n")).agents == ["heuristic", "greedy"]
    [d] = diagnostics(write(tmp_path, "agents: heuristc\n"))
    assert d.code == "CFG002"
    assert d.message == "agents: expected one of random, heuristic, human, greedy, mcts, got 'heuristc'"
    assert d.hint == "did you mean 'heuristic'?"
    with pytest.raises(CivError) as caught:
        merge_cli(GameConfig(), agents=["random", "heuristik"])
    [d] = caught.value.diagnostics
    assert d.message.startswith("--agents[1]: expected one of random, heuristic, human")
    assert d.hint == "did you mean 'heuristic'?"


def test_agents_of_the_wrong_type_says_both_accepted_forms(tmp_path):
    [d] = diagnostics(write(tmp_path, "agents: 3\n"))
    assert d.message == "agents: expected a string or a list, got integer 3"


def test_duplicate_option_points_at_the_repeat(tmp_path):
    [d] = diagnostics(write(tmp_path, "options: [a, b, a]\n"))
    assert d.message.startswith("options[2]:")
    assert (d.span.line, d.span.col) == (1, 17)


def test_all_schema_errors_are_reported_sorted_by_line(tmp_path):
    found = diagnostics(write(tmp_path, "seed: -1\nplayers: 0\nbogus: 1\nagents: [human, robot]\n"))
    assert [d.code for d in found] == ["CFG002"] * 4
    assert [d.span.line for d in found] == [1, 2, 3, 4]
    assert [d.message.split(":")[0] for d in found] == ["seed", "players", "bogus", "agents[1]"]


def test_top_level_must_be_a_mapping(tmp_path):
    [d] = diagnostics(write(tmp_path, "- players\n"))
    assert d.message == "(top level): expected a mapping, got a list"


def test_broken_yaml_gives_cfg001_with_its_line(tmp_path):
    path = write(tmp_path, "edition: e\nplayers: 2\n  seed: 3\n")
    [d] = diagnostics(path)
    assert d.code == "CFG001"
    assert d.span.file == path and d.span.line == 3
    assert "invalid YAML" in d.message


def test_python_object_tag_is_refused_not_executed(tmp_path):
    marker = tmp_path / "pwned"
    path = write(tmp_path, f'edition: !!python/object/apply:os.system ["touch {marker}"]\n')
    [d] = diagnostics(path)
    assert d.code == "CFG001" and "python/object" in d.message
    assert d.span.line == 1
    assert not marker.exists()


def test_self_referencing_alias_is_refused(tmp_path):
    [d] = diagnostics(write(tmp_path, "options: &a [*a]\n"))
    assert d.code == "CFG001"


def test_alias_bomb_is_refused(tmp_path):
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 9)]
    [d] = diagnostics(write(tmp_path, "\n".join(lines) + "\n"))
    assert d.code == "CFG001" and "aliases" in d.message


def test_missing_file_is_cfg003(tmp_path):
    [d] = diagnostics(str(tmp_path / "absent.yaml"))
    assert d.code == "CFG003" and "absent.yaml" in d.message


def test_oversized_file_is_refused(tmp_path):
    [d] = diagnostics(write(tmp_path, "#" * ((1 << 20) + 1)))
    assert d.code == "CFG003"


def test_schema_is_valid_draft07_and_describes_every_key():
    Draft7Validator.check_schema(CONFIG_SCHEMA)
    assert CONFIG_SCHEMA["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert CONFIG_SCHEMA["additionalProperties"] is False
    assert "edition" not in CONFIG_SCHEMA.get("required", [])
    assert set(CONFIG_SCHEMA["properties"]) == {
        "$schema", "edition", "players", "seed", "agents", "choices", "options", "house_rules", "max_rounds",
        "log"}
    for name, prop in CONFIG_SCHEMA["properties"].items():
        assert prop.get("description"), name


def test_schema_ships_in_the_package_and_prints_as_its_file():
    shipped = resources.files("civdsl").joinpath("config.schema.json").read_text(encoding="utf-8")
    assert config_schema() == CONFIG_SCHEMA == json.loads(shipped)
    assert schema_text() + "\n" == shipped


def test_merge_cli_overrides_only_given_values(tmp_path, monkeypatch):
    base = GameConfig(edition="a", players=2, seed=5, agents=["human"], source="game.yaml")
    monkeypatch.chdir(tmp_path)
    merged = merge_cli(base, edition=None, players=4, seed=None, agents="greedy", house_rules=["x.civ"])
    assert merged == GameConfig(edition="a", players=4, seed=5, agents=["greedy"],
                                house_rules=[str(tmp_path / "x.civ")], source="game.yaml")
    assert base.players == 2  # the original is left alone


def test_merge_cli_checks_values_against_the_schema():
    with pytest.raises(CivError) as caught:
        merge_cli(GameConfig(), players=40, max_rounds=0)
    assert sorted(d.message for d in caught.value.diagnostics) == [
        "--max-rounds: expected an integer of at least 1, got 0",
        "--players: expected an integer from 1 to 18, got 40",
    ]
    assert all(d.code == "CFG002" for d in caught.value.diagnostics)


def test_merge_cli_rejects_unknown_settings():
    with pytest.raises(TypeError):
        merge_cli(GameConfig(), colour="red")

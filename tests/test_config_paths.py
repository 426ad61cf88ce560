"""Every path written in a config — `edition:`, `house_rules:`, `log:` — is relative to the config file,
whatever folder the command runs from; paths on the command line are relative to the working directory.
Run as real processes from another working directory, as a user would."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from civdsl.language.config import CONFIG_SCHEMA, load_config
from civdsl.language.diagnostics import CivError

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "tests" / "data" / "rulesets" / "tiny"
HOUSE = "# a shorter race\nmodify param goal { value: 6 }\n"


def civdsl(cwd: Path, *argv) -> tuple[int, str]:
    done = subprocess.run([sys.executable, "-m", "civdsl", *map(str, argv)], cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=300)
    return done.returncode, done.stdout


@pytest.fixture
def folders(tmp_path) -> tuple[Path, Path]:
    """`cfg/` holding an edition, a house rule and `game.yaml` naming both and a log; `elsewhere/`, an empty
    folder to run from."""
    cfg = tmp_path / "cfg"
    shutil.copytree(TINY, cfg / "tiny")
    (cfg / "house").mkdir()
    (cfg / "house" / "short.civ").write_text(HOUSE, encoding="utf-8")
    (cfg / "game.yaml").write_text("edition: tiny\nplayers: 2\nseed: 3\nhouse_rules: [house/short.civ]\n"
                                   "log: g.jsonl\n", encoding="utf-8")
    (tmp_path / "elsewhere").mkdir()
    return cfg, tmp_path / "elsewhere"


def test_a_config_run_from_another_folder_finds_its_files_and_writes_its_log_beside_it(folders):
    cfg, elsewhere = folders
    code, out = civdsl(elsewhere, "play", "../cfg/game.yaml", "-q")
    assert code == 0, out
    log = cfg / "g.jsonl"
    assert log.is_file() and not list(elsewhere.iterdir())
    assert f"Log written to {log.resolve()}" in out  # the real place, no `..` in it
    head = json.loads(log.read_text(encoding="utf-8").splitlines()[0])  # names its files relative to itself
    assert head["edition"] == "tiny/game.civ" and head["house_rules"] == ["house/short.civ"]
    code, out = civdsl(cfg.parent, "replay", "cfg/g.jsonl")  # and it replays from a third folder
    assert code == 0, out


def test_check_of_a_config_from_another_folder(folders):
    cfg, elsewhere = folders
    code, out = civdsl(elsewhere, "check", "../cfg/game.yaml")
    assert code == 0, out


def test_command_line_paths_are_relative_to_the_working_directory(folders):
    cfg, elsewhere = folders
    code, out = civdsl(elsewhere, "play", "../cfg/game.yaml", "-q", "--log", "mine.jsonl")
    assert code == 0, out
    assert (elsewhere / "mine.jsonl").is_file() and not (cfg / "g.jsonl").exists()


@pytest.mark.parametrize("key,value,code", [("log", "../g.jsonl", "LOG006"),
                                            ("house_rules", "[../house.civ]", "CFG018"),
                                            ("edition", "../tiny", "CFG019")])
def test_a_config_may_not_reach_out_of_its_folder_from_anywhere(folders, key, value, code):
    cfg, elsewhere = folders
    shutil.copytree(TINY, cfg.parent / "tiny")
    (cfg.parent / "house.civ").write_text(HOUSE, encoding="utf-8")
    lines = [line for line in (cfg / "game.yaml").read_text(encoding="utf-8").splitlines()
             if not line.startswith(key + ":")]
    (cfg / "game.yaml").write_text("\n".join(lines + [f"{key}: {value}"]) + "\n", encoding="utf-8")
    status, out = civdsl(elsewhere, "play", "../cfg/game.yaml", "-q")
    assert status == 2 and out.startswith("../cfg/game.yaml:5:") and f"error[{code}]" in out, out
    assert "Game over" not in out and not list(cfg.parent.rglob("*.jsonl"))


def test_the_log_path_is_resolved_against_the_config_folder(folders, monkeypatch):
    cfg, elsewhere = folders
    monkeypatch.chdir(elsewhere)
    loaded = load_config("../cfg/game.yaml")
    assert loaded.log == str(cfg.resolve() / "g.jsonl")
    assert loaded.house_rules == [str(cfg.resolve() / "house" / "short.civ")]
    assert Path(loaded.edition) == (cfg / "tiny" / "game.civ").resolve()


def test_a_log_folder_that_does_not_exist_is_refused_before_the_game(folders):
    cfg, elsewhere = folders
    (cfg / "game.yaml").write_text("edition: tiny\nplayers: 2\nlog: nowhere/g.jsonl\n", encoding="utf-8")
    code, out = civdsl(elsewhere, "play", "../cfg/game.yaml", "-q")
    assert code == 2 and "game.yaml:3:1: error[LOG003]" in out and "Game over" not in out, out


def test_a_symbolic_link_out_of_the_config_folder_is_refused(folders, tmp_path):
    cfg, _ = folders
    if sys.platform == "win32":
        pytest.skip("symbolic links")
    (cfg / "out").symlink_to(tmp_path)
    (cfg / "game.yaml").write_text("edition: tiny\nlog: out/g.jsonl\n", encoding="utf-8")
    with pytest.raises(CivError) as err:
        load_config(str(cfg / "game.yaml"))
    assert err.value.diagnostics[0].code == "LOG006"


def test_the_schema_and_the_docs_say_paths_are_relative_to_the_config():
    props = CONFIG_SCHEMA["properties"]
    for key in ("edition", "house_rules", "log"):
        assert "this config file" in props[key]["description"], key
        assert "relative to the working directory" not in props[key]["description"].split("`--log`")[0], key
    page = (ROOT / "docs" / "config.md").read_text(encoding="utf-8")
    assert "Every path written in a config is relative to **the folder of the config file**" in page

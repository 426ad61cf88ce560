"""The path policy (civdsl/language/paths.py; docs/config.md, "Paths and files").

Rule files, configs, scenarios and logs may come from strangers. These tests give civdsl such files
pointing at a "secret" file and check two things each time: the path is refused with its diagnostic,
and the secret never appears in the output (civdsl quotes the source line of a syntax error, so a file
that was read as a rule file would show up). The legitimate layouts keep working.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from cli_run import run, write
from one_file import tiny_in

from civdsl.language.diagnostics import CivError, render_text
from civdsl.language.loader import load_ruleset

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "tests" / "data" / "rulesets" / "tiny"
SECRET = "TOP-SECRET-4711"
GAME = 'game "T" { edition: "t" players: 1 }\nphase p { }\nsequence { phases: p }\n'

needs_symlinks = pytest.mark.skipif(sys.platform == "win32", reason="symbolic links need privileges on Windows")


def secret(path: Path) -> Path:
    """A file whose first line is a syntax error in the rule language: read as a rule file, it is quoted."""
    return write(path, f"password = {SECRET}\n")


def failure(fn, *args, **kwargs) -> tuple[list[str], str]:
    with pytest.raises(CivError) as caught:
        fn(*args, **kwargs)
    return [d.code for d in caught.value.diagnostics], render_text(caught.value.diagnostics)


# --- house rules named by configs --------------------------------------------------------------------

@pytest.mark.parametrize("raw", ["../secret.txt", "../secret.civ", "ABS/secret.txt", "ABS/secret.civ",
                                 "../../../../../../../../../../../../etc/passwd"])
def test_a_config_cannot_name_a_house_rule_outside_its_folder(tmp_path, capsys, raw):
    secret(tmp_path / "secret.txt")
    secret(tmp_path / "secret.civ")
    raw = raw.replace("ABS", str(tmp_path))
    cfg = write(tmp_path / "conf" / "game.yaml", f"edition: {tiny_in(tmp_path / 'conf')}\nplayers: 2\nhouse_rules: [{json.dumps(raw)}]\n")
    code, out = run(capsys, "play", cfg)
    assert code == 2 and "error[CFG018]: house_rules[0]:" in out, out
    assert SECRET not in out and "root:" not in out
    code, out = run(capsys, "check", cfg)
    assert "CFG018" in out and SECRET not in out


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")
def test_a_config_cannot_print_the_environment(tmp_path, capsys):
    cfg = write(tmp_path / "game.yaml", f"edition: {tiny_in(tmp_path)}\nhouse_rules: [/proc/self/environ]\n")
    code, out = run(capsys, "play", cfg)
    assert code == 2 and "CFG018" in out
    assert "PATH=" not in out and "HOME=" not in out


@needs_symlinks
def test_a_symbolic_link_in_the_config_folder_does_not_lead_out(tmp_path, capsys):
    secret(tmp_path / "elsewhere" / "rule.civ")
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "rule.civ").symlink_to(tmp_path / "elsewhere" / "rule.civ")
    cfg = write(tmp_path / "conf" / "game.yaml", f"edition: {tiny_in(tmp_path / 'conf')}\nhouse_rules: [rule.civ]\n")
    code, out = run(capsys, "play", cfg)
    assert code == 2 and "CFG018" in out and "symbolic link" in out
    assert SECRET not in out


@needs_symlinks
def test_house_rules_inside_the_config_folder_still_load(tmp_path):
    from civdsl.language.config import load_config
    write(tmp_path / "conf" / "house" / "short.civ", "modify param goal { value: 6 }\n")
    (tmp_path / "conf" / "alias.civ").symlink_to(tmp_path / "conf" / "house" / "short.civ")
    cfg = write(tmp_path / "conf" / "game.yaml", f"edition: {tiny_in(tmp_path / 'conf')}\nhouse_rules: [house/short.civ, alias.civ]\n")
    config = load_config(str(cfg))
    assert config.house_rules == [str((tmp_path / "conf" / "house" / "short.civ").resolve())] * 2


def test_a_command_line_house_rule_must_be_a_rule_file(tmp_path, capsys):
    secret(tmp_path / "notes.txt")
    code, out = run(capsys, "play", "--edition", TINY, "--players", "2", "--house-rule", tmp_path / "notes.txt")
    assert code == 2 and "error[CFG018]: --house-rule:" in out and SECRET not in out


# --- editions named by configs, scenarios and logs ----------------------------------------------------

@pytest.mark.parametrize("raw", ["../secret.civ", "ABS/secret.civ", "/etc", "../outside"])
def test_a_config_cannot_name_an_edition_outside_its_folder(tmp_path, capsys, raw):
    secret(tmp_path / "secret.civ")
    secret(tmp_path / "outside" / "game.civ")
    cfg = write(tmp_path / "cfg" / "game.yaml", f"edition: {raw.replace('ABS', str(tmp_path))}\nplayers: 2\n")
    code, out = run(capsys, "play", cfg)
    assert code == 2 and "game.yaml:1:1: error[CFG019]: edition:" in out and "leads" in out, out
    assert SECRET not in out and "Game over" not in out


@needs_symlinks
def test_a_config_edition_through_a_symbolic_link_does_not_lead_out(tmp_path, capsys):
    secret(tmp_path / "outside" / "game.civ")
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "mine").symlink_to(tmp_path / "outside")
    cfg = write(tmp_path / "cfg" / "game.yaml", "edition: mine\nplayers: 2\n")
    code, out = run(capsys, "play", cfg)
    assert code == 2 and "CFG019" in out and "through a symbolic link" in out and SECRET not in out


def test_a_config_names_an_edition_by_name_or_inside_its_folder(tmp_path, capsys):
    for edition in (tiny_in(tmp_path), "./tiny/game.civ", "warp-spawn-solitaire"):
        cfg = write(tmp_path / "game.yaml", f"edition: {edition}\nplayers: 1\nmax_rounds: 2\n")
        code, out = run(capsys, "play", cfg, "--players", "2" if edition != "warp-spawn-solitaire" else "1", "-q")
        assert code == 0, (edition, out)


def test_a_scenario_cannot_name_an_edition_outside_the_folder_above_its_own(tmp_path, capsys):
    secret(tmp_path / "secret" / "game.civ")
    scenario = write(tmp_path / "proj" / "scenarios" / "s.yaml",
                     "scenario: s\nsource: test\nedition: ../../secret\nrun: {rounds: 1}\nexpect: {}\n")
    code, out = run(capsys, "test", scenario)
    assert code == 1 and "s.yaml:3:1: error[SCN012]: edition:" in out, out
    assert SECRET not in out


def test_a_log_header_cannot_name_an_edition_outside_its_folder(tmp_path, capsys):
    secret(tmp_path / "secret" / "game.civ")
    log = _with_header(_log(capsys, tmp_path / "logs" / "g.jsonl"), edition=str(tmp_path / "secret"))
    code, out = run(capsys, "replay", log)
    assert code == 2 and "error[LOG010]: header field `edition`" in out and "--edition" in out, out
    assert SECRET not in out
    code, out = run(capsys, "replay", log, "--edition", "warp-spawn-solitaire")  # the user names it
    assert code == 0 and out.startswith("OK"), out


def test_a_log_names_an_edition_beside_it_so_that_it_replays_where_it_is_moved(tmp_path, capsys):
    tiny_in(tmp_path / "game")
    log = tmp_path / "game" / "g.jsonl"
    assert run(capsys, "play", "--edition", tmp_path / "game" / "tiny", "--players", "2", "-q", "--log", log)[0] == 0
    assert json.loads(log.read_text(encoding="utf-8").splitlines()[0])["edition"] == "tiny"
    shutil.move(tmp_path / "game", tmp_path / "moved")
    code, out = run(capsys, "replay", tmp_path / "moved" / "g.jsonl")
    assert code == 0 and out.startswith("OK"), out


# --- house rules named by scenarios ------------------------------------------------------------------

SCENARIO = "scenario: s\nsource: test\nedition: warp-spawn-solitaire\nhouse_rules: [{}]\nrun: {{rounds: 1}}\nexpect: {{}}\n"


def test_a_scenario_cannot_name_a_house_rule_outside_its_rules(tmp_path, capsys):
    secret(tmp_path / "secret.civ")
    scenario = write(tmp_path / "proj" / "scenarios" / "s.yaml", SCENARIO.format("../../secret.civ"))
    code, out = run(capsys, "test", scenario)
    assert code == 1 and "error[SCN011]: house_rules[0]:" in out, out
    assert SECRET not in out


def test_a_scenario_names_house_rules_beside_its_folder_or_by_variant_name(tmp_path, capsys):
    write(tmp_path / "proj" / "short.civ", 'extends "warp-spawn-solitaire"\n')
    write(tmp_path / "proj" / "scenarios" / "a.yaml", SCENARIO.format("../short.civ"))
    write(tmp_path / "proj" / "scenarios" / "b.yaml", SCENARIO.format("warp-spawn-scholars"))
    code, out = run(capsys, "test", tmp_path / "proj")
    assert code == 0 and "2 passed, 0 failed" in out, out


# --- house rules named by log headers ----------------------------------------------------------------

def _log(capsys, path: Path, *extra) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    code, out = run(capsys, "play", "--edition", "warp-spawn-solitaire", "--max-rounds", "2", "-q",
                    "--log", path, *extra)
    assert code == 0, out
    return path


def _with_header(log: Path, **fields) -> Path:
    lines = log.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0]) | fields
    log.write_text("\n".join([json.dumps(head, separators=(",", ":"))] + lines[1:]) + "\n", encoding="utf-8")
    return log


@pytest.mark.parametrize("raw", ["../secret.civ", "ABS/secret.civ", "/etc/passwd", "../secret.txt"])
def test_a_log_header_cannot_name_a_house_rule_outside_its_folder(tmp_path, capsys, raw):
    secret(tmp_path / "secret.civ")
    secret(tmp_path / "secret.txt")
    log = _with_header(_log(capsys, tmp_path / "logs" / "g.jsonl"), house_rules=[raw.replace("ABS", str(tmp_path))])
    code, out = run(capsys, "replay", log)
    assert code == 2 and "error[LOG008]: header field `house_rules[0]`" in out, out
    assert SECRET not in out and "root:" not in out


def test_a_log_names_its_house_rules_so_that_it_replays_where_it_is_moved(tmp_path, capsys):
    write(tmp_path / "game" / "house" / "short.civ", 'extends "warp-spawn-solitaire"\nmodify param city_gold { value: 15 }\n')
    log = _log(capsys, tmp_path / "game" / "g.jsonl", "--house-rule", tmp_path / "game" / "house" / "short.civ",
               "--house-rule", "warp-spawn-scholars")
    assert json.loads(log.read_text(encoding="utf-8").splitlines()[0])["house_rules"] == [
        "house/short.civ", "warp-spawn-scholars"]
    shutil.move(tmp_path / "game", tmp_path / "moved")
    code, out = run(capsys, "replay", tmp_path / "moved" / "g.jsonl")
    assert code == 0 and out.startswith("OK"), out


# --- where logs are written --------------------------------------------------------------------------

def test_a_log_never_overwrites_a_file_that_is_not_a_log(tmp_path, capsys):
    victim = write(tmp_path / "notes.txt", "my notes\n")
    code, out = run(capsys, "play", "--edition", TINY, "--players", "2", "--log", victim)
    assert code == 2 and "error[LOG006]" in out and "--force" in out
    assert "Game over" not in out  # refused before the game was played
    assert victim.read_text(encoding="utf-8") == "my notes\n"


def test_a_config_log_is_checked_before_the_game_and_points_at_its_key(tmp_path, capsys):
    write(tmp_path / "notes.txt", "my notes\n")
    cfg = write(tmp_path / "game.yaml", f"edition: {tiny_in(tmp_path)}\nplayers: 2\nlog: {tmp_path / 'notes.txt'}\n")
    code, out = run(capsys, "play", cfg)
    assert code == 2 and "game.yaml:3:1: error[LOG006]" in out and "Game over" not in out
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "my notes\n"


@pytest.mark.parametrize("raw", ["../elsewhere.jsonl", "ABS/elsewhere.jsonl", "linked/g.jsonl"])
def test_a_config_writes_its_log_only_inside_its_folder(tmp_path, capsys, raw):
    (tmp_path / "cfg").mkdir()
    if not sys.platform == "win32":
        (tmp_path / "cfg" / "linked").symlink_to(tmp_path)
    cfg = write(tmp_path / "cfg" / "game.yaml",
                f"edition: warp-spawn-solitaire\nmax_rounds: 2\nlog: {raw.replace('ABS', str(tmp_path))}\n")
    code, out = run(capsys, "play", cfg)
    assert code == 2 and "game.yaml:3:1: error[LOG006]" in out and "leads out of" in out, out
    assert "Game over" not in out and not list(tmp_path.glob("*.jsonl"))


def test_a_config_log_is_relative_to_the_config_not_the_working_directory(tmp_path, capsys, monkeypatch):
    cfg = write(tmp_path / "cfg" / "game.yaml", "edition: warp-spawn-solitaire\nmax_rounds: 2\nlog: logs/g.jsonl\n")
    (tmp_path / "cfg" / "logs").mkdir()
    monkeypatch.chdir(tmp_path)
    code, out = run(capsys, "play", cfg, "-q")
    assert code == 0, out
    assert (tmp_path / "cfg" / "logs" / "g.jsonl").is_file() and not (tmp_path / "logs").exists()


def test_an_older_log_is_overwritten_and_force_overwrites_anything_but_a_folder(tmp_path, capsys):
    log = tmp_path / "g.jsonl"
    assert run(capsys, "play", "--edition", TINY, "--players", "2", "--seed", "1", "--log", log)[0] == 0
    assert run(capsys, "play", "--edition", TINY, "--players", "2", "--seed", "2", "--log", log)[0] == 0
    assert json.loads(log.read_text(encoding="utf-8").splitlines()[0])["seed"] == 2
    notes = write(tmp_path / "notes.txt", "my notes\n")
    assert run(capsys, "play", "--edition", TINY, "--players", "2", "--log", notes, "--force")[0] == 0
    assert notes.read_text(encoding="utf-8").startswith('{"type":"header"')
    code, out = run(capsys, "play", "--edition", TINY, "--players", "2", "--log", tmp_path, "--force")
    assert code == 2 and "LOG006" in out and "is a folder" in out and "Game over" not in out


@needs_symlinks
def test_a_log_is_not_written_through_a_symbolic_link(tmp_path, capsys):
    target = write(tmp_path / "victim.txt", "precious\n")
    (tmp_path / "g.jsonl").symlink_to(target)
    code, out = run(capsys, "play", "--edition", TINY, "--players", "2", "--log", tmp_path / "g.jsonl")
    assert code == 2 and "LOG006" in out and "symbolic link" in out
    assert target.read_text(encoding="utf-8") == "precious\n"


def test_a_log_in_a_missing_folder_is_refused_before_the_game(tmp_path, capsys):
    code, out = run(capsys, "play", "--edition", TINY, "--players", "2", "--log", tmp_path / "no" / "g.jsonl")
    assert code == 2 and "error[LOG003]" in out and "Game over" not in out


# --- paths in rule files -----------------------------------------------------------------------------

def test_extends_takes_an_edition_name_not_a_folder_found_from_the_working_directory(tmp_path, monkeypatch):
    secret(tmp_path / "elsewhere" / "game.civ")
    entry = write(tmp_path / "rulesets" / "ed" / "game.civ", 'extends "../../elsewhere"\n')
    monkeypatch.chdir(entry.parent)
    codes, text = failure(load_ruleset, entry)
    assert codes == ["LOAD006"] and SECRET not in text
    write(entry, f'extends "{tmp_path / "elsewhere"}"\n')
    codes, text = failure(load_ruleset, entry)
    assert codes == ["LOAD006"] and SECRET not in text


def test_extends_by_edition_name_and_by_relative_civ_path_still_work(tmp_path, monkeypatch):
    monkeypatch.setenv("CIVDSL_RULESETS", str(TINY.parent))
    write(tmp_path / "rulesets" / "base" / "game.civ", GAME)
    by_path = write(tmp_path / "rulesets" / "ed" / "game.civ", 'extends "../base/game.civ"\n')
    by_name = write(tmp_path / "rulesets" / "named" / "game.civ", 'extends "tiny"\nmodify param goal { value: 6 }\n')
    assert load_ruleset(by_path).game is not None
    assert load_ruleset(by_name).game is not None


def test_rule_files_import_only_rule_files(tmp_path):
    secret(tmp_path / "rulesets" / "ed" / "notes.txt")
    entry = write(tmp_path / "rulesets" / "ed" / "game.civ", GAME + 'import "notes.txt"\n')
    codes, text = failure(load_ruleset, entry)
    assert codes == ["LOAD006"] and SECRET not in text


def test_maps_are_json_files(tmp_path):
    from civdsl.api import compile_entry
    secret(tmp_path / "rulesets" / "ed" / "board.txt")
    entry = write(tmp_path / "rulesets" / "ed" / "game.civ", GAME + 'map board from "board.txt"\n')
    codes, text = failure(compile_entry, entry)
    assert "LOAD006" in codes and SECRET not in text


@needs_symlinks
def test_imports_do_not_follow_a_symbolic_link_out_of_the_rulesets_folder(tmp_path):
    secret(tmp_path / "outside" / "shared.civ")
    entry = write(tmp_path / "rulesets" / "ed" / "game.civ", GAME + 'import "shared.civ"\n')
    (entry.parent / "shared.civ").symlink_to(tmp_path / "outside" / "shared.civ")
    codes, text = failure(load_ruleset, entry)
    assert codes == ["LOAD003"] and SECRET not in text


def test_an_edition_in_the_home_folder_reaches_only_its_own_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("USERPROFILE", str(tmp_path))
    secret(tmp_path / "private" / "notes.civ")
    entry = write(tmp_path / "downloads" / "game.civ", GAME + 'import "../private/notes.civ"\n')
    codes, text = failure(load_ruleset, entry)
    assert codes == ["LOAD003"] and SECRET not in text


def test_an_edition_at_the_top_of_the_file_system_has_its_own_folder_as_root():
    from civdsl.language.paths import rules_root
    top = Path(Path.cwd().anchor)
    assert rules_root(top / "somewhere" / "game.civ") == top / "somewhere"
    assert rules_root(ROOT / "rulesets" / "avalon-hill-1981" / "game.civ") == ROOT / "rulesets"


# --- folders given to check and fmt ------------------------------------------------------------------

@needs_symlinks
def test_check_does_not_follow_symbolic_links_out_of_its_folder(tmp_path, capsys):
    secret(tmp_path / "outside" / "bad.civ")
    write(tmp_path / "proj" / "good.civ", GAME)
    (tmp_path / "proj" / "link.civ").symlink_to(tmp_path / "outside" / "bad.civ")
    (tmp_path / "proj" / "linkdir").symlink_to(tmp_path / "outside")
    (tmp_path / "proj" / "alias.civ").symlink_to(tmp_path / "proj" / "good.civ")  # inside: fine, checked once
    code, out = run(capsys, "check", tmp_path / "proj")
    assert SECRET not in out
    assert code == 0 and out.count("warning[LOAD007]") == 2 and "checked 1 file(s): 0 error(s)" in out, out


@needs_symlinks
def test_fmt_does_not_rewrite_files_outside_its_folder(tmp_path, capsys):
    ugly = "phase p {\n        let a = 1\n}\n"
    outside = write(tmp_path / "outside" / "ugly.civ", ugly)
    write(tmp_path / "proj" / "mine.civ", ugly)
    (tmp_path / "proj" / "ugly.civ").symlink_to(outside)
    code, out = run(capsys, "fmt", tmp_path / "proj")
    assert code == 0 and "1 file(s) reformatted" in out and "LOAD007" in out, out
    assert outside.read_text(encoding="utf-8") == ugly
    assert (tmp_path / "proj" / "mine.civ").read_text(encoding="utf-8") != ugly


@needs_symlinks
def test_test_does_not_follow_symbolic_links_out_of_its_folder(tmp_path, capsys):
    outside = write(tmp_path / "outside" / "evil.yaml", "edition: /nowhere\nrun: {rounds: 1}\nexpect: {}\n")
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "evil.yaml").symlink_to(outside)
    (tmp_path / "proj" / "more").symlink_to(tmp_path / "outside")
    code, out = run(capsys, "test", tmp_path / "proj")
    assert code == 0 and out.count("warning[LOAD007]") == 2 and "0 passed, 0 failed" in out, out


def test_check_of_a_config_checks_its_log_target(tmp_path, capsys):
    target = secret(tmp_path / "notes.txt")
    cfg = write(tmp_path / "game.yaml", f"edition: warp-spawn-solitaire\nlog: {target}\n")
    code, out = run(capsys, "check", cfg)
    assert code == 1 and "error[LOG006]" in out and SECRET not in out, out
    assert target.read_text(encoding="utf-8") == f"password = {SECRET}\n"


def test_every_shipped_config_and_variant_passes_the_policy():
    from civdsl.language.config import load_config
    for cfg in sorted((ROOT / "examples").glob("*.yaml")):
        load_config(str(cfg))  # raises on a refused house rule
    assert os.path.isdir(ROOT / "rulesets" / "variants")

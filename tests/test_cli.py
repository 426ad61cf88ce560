"""The `civdsl` command, in process (`civdsl.interfaces.cli.main`) and end to end (`python -m civdsl`)."""
from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from civdsl.interfaces.cli import main

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ROOT / "tests" / "data" / "rulesets"
TINY = RULESETS / "tiny"
GOLDEN = ROOT / "tests" / "golden"
SUBCOMMANDS = ["check", "play", "replay", "schema", "list"]


@pytest.fixture(autouse=True)
def _at_repo_root(monkeypatch):
    """Commands run from the repository root, as a contributor would; editions found in tests/data too."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("CIVDSL_RULESETS", str(RULESETS))


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def play_tiny(capsys, log: Path, *extra: str) -> tuple[int, str, str]:
    return run(capsys, "play", "--edition", "tests/data/rulesets/tiny", "--players", "2", "--seed", "3",
               "--log", str(log), *extra)


# ---- check ----------------------------------------------------------------------------------------------
def test_check_good_folder(capsys):
    code, out, err = run(capsys, "check", "tests/data/rulesets/tiny")
    assert code == 0
    assert "error[" not in out + err
    assert "1 file(s): 0 error(s)" in out + err


def test_check_bad_file(capsys):
    code, out, err = run(capsys, "check", "tests/golden/unknown_name/game.civ")
    assert code == 1
    assert re.search(r"unknown_name/game\.civ:6:19: error\[UNK001\]: unknown name `bonsu`", out + err)
    assert "did you mean `bonus`?" in out + err


def test_check_reports_every_file_of_a_folder(capsys):
    code, out, err = run(capsys, "check", "tests/golden/several_errors", "tests/golden/bad_order")
    assert code == 1
    codes = re.findall(r"error\[([A-Z]+\d+)\]", out + err)
    assert sorted(codes) == ["ARG001", "SYN004", "UNK001", "UNK003"]


def test_check_warnings_alone_exit_zero(capsys):
    code, out, err = run(capsys, "check", "tests/golden/phase_not_in_sequence")
    assert code == 0
    assert "warning[SEQ002]" in out + err


def test_check_missing_path(capsys):
    code, out, err = run(capsys, "check", "tests/no/such/folder")
    assert code == 2  # a usage error, like a bad config
    assert "no such file or folder: tests/no/such/folder" in err


def test_check_json(capsys):
    code, out, _ = run(capsys, "check", "--format", "json", "tests/golden/procedure_arity")
    assert code == 1
    data = json.loads(out)
    assert data["errors"] == 1 and data["warnings"] == 0 and data["files"] == 1
    (d,) = data["diagnostics"]
    assert (d["code"], d["severity"], d["line"], d["column"]) == ("ARG001", "error", 9, 3)
    assert d["file"].endswith("procedure_arity/game.civ")
    assert d["related"][0]["line"] == 4 and d["related"][0]["note"] == "declared here"


def test_check_json_clean(capsys):
    code, out, _ = run(capsys, "check", "--format", "json", "tests/data/rulesets/tiny")
    assert code == 0
    assert json.loads(out)["diagnostics"] == []


# ---- play, logs and replay ----------------------------------------------------------------------------------
def test_play_tiny(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    code, out, err = play_tiny(capsys, log)
    assert code == 0, err
    assert "Winner" in out or "No winner" in out
    assert "Tiny race" in out
    lines = log.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert header["type"] == "header" and header["seed"] == 3 and header["players"] == 2
    assert json.loads(lines[-1])["type"] == "end"


def test_play_edition_by_name(capsys):
    code, out, _ = run(capsys, "play", "--edition", "tiny", "--players", "3", "--seed", "1")
    assert code == 0
    assert "3 player(s)" in out


def test_same_command_gives_identical_logs(capsys, tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert play_tiny(capsys, a)[0] == 0
    assert play_tiny(capsys, b)[0] == 0
    assert a.read_bytes() == b.read_bytes()


def test_different_seeds_give_different_logs(capsys, tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    play_tiny(capsys, a)
    run(capsys, "play", "--edition", "tests/data/rulesets/tiny", "--players", "2", "--seed", "4", "--log", str(b))
    assert a.read_bytes() != b.read_bytes()


def test_replay_ok(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    play_tiny(capsys, log)
    code, out, err = run(capsys, "replay", str(log))
    assert code == 0, err
    assert out.startswith("OK")


def _tamper_first_decision(log: Path) -> None:
    lines = log.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        ev = json.loads(line)
        if ev.get("type") == "decision" and ev.get("options", 0) > 1:
            ev["choice"] = (ev["choice"] + 1) % ev["options"]
            lines[i] = json.dumps(ev, ensure_ascii=False, separators=(",", ":"))
            break
    else:
        pytest.fail("the log has no decision with a choice")
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_replay_detects_a_changed_decision(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    play_tiny(capsys, log)
    _tamper_first_decision(log)
    code, out, err = run(capsys, "replay", str(log))
    assert code == 1
    assert out.startswith("MISMATCH") or re.search(r"error\[[A-Z]+\d+\]", err)
    assert "internal error" not in err and "Traceback" not in err


def test_replay_refuses_changed_rules(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    play_tiny(capsys, log)
    lines = log.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["ruleset_hash"] = "0" * 16
    lines[0] = json.dumps(header)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "replay", str(log))
    assert code != 0
    assert "LOG002" in err


def test_replay_of_something_that_is_not_a_log(capsys, tmp_path):
    bogus = tmp_path / "x.jsonl"
    bogus.write_text('{"hello": 1}\n', encoding="utf-8")
    code, _, err = run(capsys, "replay", str(bogus))
    assert code == 2
    assert "LOG005" in err
    code, _, err = run(capsys, "replay", str(tmp_path / "missing.jsonl"))
    assert code == 2 and "LOG001" in err


def test_heuristic_and_greedy_agents_play_the_same_game(capsys, tmp_path):
    logs = {}
    for name in ("heuristic", "greedy"):
        logs[name] = tmp_path / f"{name}.jsonl"
        code, out, err = run(capsys, "play", "--edition", "warp-spawn-solitaire", "--players", "3",
                             "--agents", name, "--seed", "7", "--log", str(logs[name]))
        assert code == 0, err
        assert "agents heuristic, heuristic, heuristic" in out
    assert logs["heuristic"].read_bytes() == logs["greedy"].read_bytes()
    decisions = [json.loads(l) for l in logs["heuristic"].read_text(encoding="utf-8").splitlines()
                 if '"type":"decision"' in l]
    assert len(decisions) > 50


def test_play_help_names_the_heuristic_agent_and_quiet(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "random, heuristic" in out and "`greedy` is an older name" in out
    assert "--quiet" in out


# ---- round summaries ----------------------------------------------------------------------------------------
SUMMARY = "tests/data/agents/summary"


def test_play_tells_each_round_as_a_table_of_its_changes(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    code, out, err = run(capsys, "play", "--edition", SUMMARY, "--players", "3", "--log", str(log))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("Summary — 3 player(s)")
    assert lines[1:5] == ["round 1  nation   cities  ast  leads",
                          "P1       Egypt         1    0  no",
                          "P2       Crete         2    0  no",
                          "P3       Babylon       3    0  no"]
    assert lines[5].split() == ["round", "2", "nation", "cities", "ast", "leads"]
    assert lines[7].split() == ["P2", "Crete", "4", "(+2)", "1", "(+1)", "yes"]  # each number with its change
    events = [json.loads(l) for l in log.read_text(encoding="utf-8").splitlines()]
    summaries = [e for e in events if e["type"] == "summary"]
    assert [e["round"] for e in summaries] == [1, 2, 3]
    assert summaries[1]["players"] == [
        {"player": "P1", "nation": "Egypt", "cities": 2, "ast": 1, "leads": False},
        {"player": "P2", "nation": "Crete", "cities": 4, "ast": 1, "leads": True},
        {"player": "P3", "nation": "Babylon", "cities": 6, "ast": 1, "leads": True},
    ]
    assert summaries[0]["rule"] == "summary/game.civ:19"
    # each summary closes its round: the next event opens the next round (or ends the game)
    after = [events[events.index(e) + 1]["type"] for e in summaries]
    assert after == ["round", "round", "end"]
    code, out, err = run(capsys, "replay", str(log), "--edition", SUMMARY)  # (the log is not beside it)
    assert code == 0 and out.startswith("OK"), out + err


def test_quiet_play_prints_no_summary_lines_but_logs_them(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    code, out, err = run(capsys, "play", "--edition", SUMMARY, "--players", "2", "--quiet", "--log", str(log))
    assert code == 0, err
    assert not re.search(r"^round \d", out, re.M) and out.startswith("Summary — 2 player(s)")
    assert log.read_text(encoding="utf-8").count('"type":"summary"') == 3


def test_a_ruleset_without_summary_prints_no_round_lines(capsys, tmp_path):
    code, out, err = play_tiny(capsys, tmp_path / "game.jsonl")
    assert code == 0, err
    assert not re.search(r"^round \d+", out, re.M)  # no summary and no headlines: no round lines
    assert '"type":"summary"' not in (tmp_path / "game.jsonl").read_text(encoding="utf-8")


def test_summary_that_is_not_a_record_and_a_game_ended_by_rule(capsys):
    code, out, err = run(capsys, "play", "--edition", SUMMARY, "--players", "2", "--option", "plain")
    assert code == 0, err
    assert [line.split() for line in out.splitlines()[1:7]] == [
        ["round", "1", "value"], ["P1", "10"], ["P2", "20"], ["round", "2", "value"], ["P1", "20", "(+10)"],
        ["P2", "40", "(+20)"]]
    code, out, err = run(capsys, "play", "--edition", SUMMARY, "--players", "2", "--option", "ends")
    assert code == 0, err
    assert "ended by rule" in out
    # the last, interrupted round is summed up too: P2 did not play its part of round 2
    lines = out.splitlines()
    at = lines.index(next(line for line in lines if line.startswith("round 2")))
    assert [line.split() for line in lines[at + 1:at + 3]] == [["P1", "Egypt", "2", "(+1)", "0", "no"],
                                                              ["P2", "Crete", "2", "0", "no"]]


@pytest.mark.parametrize("option, code_", [("dicey", "RUN023"), ("broken", "RUN001")])
def test_a_bad_summary_is_a_diagnostic_at_the_summary(capsys, option, code_):
    code, out, err = run(capsys, "play", "--edition", SUMMARY, "--players", "2", "--option", option)
    assert code == 1
    assert f"error[{code_}]" in err and "Traceback" not in err
    assert re.search(r"summary/game\.civ:(27|31):\d+: error", err)
    if option == "dicey":
        assert "a round summary may not use randomness" in err


def test_summary_is_a_known_victory_field(capsys):
    code, out, err = run(capsys, "check", SUMMARY)
    assert "VIC001" not in out + err and " 0 error(s)" in out
    from civdsl.api import compile_entry
    prog = compile_entry(ROOT / SUMMARY / "game.civ")
    assert "summary" in prog.victory


def test_game_on_round_callback_gets_every_round():
    from civdsl.api import compile_entry
    from civdsl.engine.agents import make_agents
    from civdsl.engine.interpreter import Game
    prog = compile_entry(ROOT / SUMMARY / "game.civ")
    seen = []
    game = Game(prog, 2, 0, make_agents([], 2, 0), logging=False, on_round=lambda n, rows: seen.append((n, rows)))
    game.run()
    assert [n for n, _ in seen] == [1, 2, 3]
    assert seen[2][1] == [{"player": "P1", "nation": "Egypt", "cities": 3, "ast": 1, "leads": False},
                          {"player": "P2", "nation": "Crete", "cities": 6, "ast": 1, "leads": True}]
    assert game.events == []  # logging off: nothing logged, the callback still called


def test_config_with_a_bad_key(capsys, tmp_path):
    cfg = tmp_path / "game.yaml"
    cfg.write_text("edition: tiny\nplayrs: 2\n", encoding="utf-8")
    code, _, err = run(capsys, "play", str(cfg))
    assert code == 2
    assert "CFG002" in err and "playrs" in err
    assert "did you mean 'players'?" in err


def test_good_config_plays(capsys, tmp_path):
    cfg = tmp_path / "game.yaml"
    cfg.write_text("edition: tiny\nplayers: 2\nseed: 5\nagents: [random, greedy]\n", encoding="utf-8")
    code, out, err = run(capsys, "play", str(cfg))
    assert code == 0, err
    assert "seed 5" in out and "random, heuristic" in out  # `greedy` is the heuristic agent's older name


def test_unknown_edition_suggests_the_closest(capsys):
    code, _, err = run(capsys, "play", "--edition", "tinny")
    assert code == 2
    assert "CFG013" in err and "`tinny`" in err
    assert "did you mean `tiny`?" in err


def test_too_many_players(capsys):
    code, _, err = run(capsys, "play", "--edition", "tiny", "--players", "9")
    assert code == 2
    assert "CFG" in err


def test_schema_prints_json(capsys):
    code, out, _ = run(capsys, "schema")
    assert code == 0
    schema = json.loads(out)
    assert "edition" in schema["properties"]
    assert schema["$schema"].startswith("http://json-schema.org/draft-07")


def test_list(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0
    assert re.search(r"^\s+tiny\s+Tiny race", out, re.M)


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_help_of_every_subcommand(capsys, command):
    with pytest.raises(SystemExit) as caught:
        main([command, "--help"])
    assert caught.value.code == 0
    assert "usage: civdsl " + command in capsys.readouterr().out


def test_top_level_help_and_no_command(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["--help"])
    assert caught.value.code == 0
    out = capsys.readouterr().out
    for command in SUBCOMMANDS:
        assert command in out
    assert main([]) == 2


def test_unknown_option_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["check", "--frobnicate", "x"])
    assert caught.value.code == 2
    assert "error:" in capsys.readouterr().err


def test_check_huge_number_is_a_diagnostic(capsys, tmp_path):
    f = tmp_path / "huge.civ"
    f.write_text("param x = " + "9" * 5000 + "\n", encoding="utf-8")
    code, out, err = run(capsys, "check", str(f))
    assert code == 1
    assert "internal error" not in err
    assert re.search(r"error\[SYN\d+\]", out + err)


def test_diagnostics_do_not_echo_control_characters(capsys, tmp_path):
    f = tmp_path / "esc.civ"
    f.write_text("param x = 1\x1b[2J\n", encoding="utf-8")
    code, out, err = run(capsys, "check", str(f))
    assert code == 1
    assert "\x1b" not in out + err


# ---- end to end -----------------------------------------------------------------------------------------------
def _bad_inputs(tmp_path: Path) -> list[Path]:
    files = {
        "random.civ": random.Random(0).randbytes(4096),
        "empty.civ": b"",
        "binary.civ": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)),
        "nested.civ": ("param x = " + "(" * 5000 + "1" + ")" * 5000 + "\n").encode(),
        "huge.civ": ("param x = " + "9" * 100_000 + "\n").encode(),
        "nul.civ": b"param x = 1\x00\n",
    }
    paths = []
    for name, data in files.items():
        p = tmp_path / name
        p.write_bytes(data)
        paths.append(p)
    return paths


def civdsl(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "civdsl", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120, errors="replace")


def test_no_traceback_for_bad_rule_files(tmp_path):
    paths = _bad_inputs(tmp_path)
    proc = civdsl("check", *map(str, paths))
    assert "Traceback" not in proc.stderr + proc.stdout
    assert proc.returncode in (1, 2)
    for p in paths:
        single = civdsl("check", str(p))
        assert "Traceback" not in single.stderr + single.stdout, p.name
        assert single.returncode in (0, 1, 2), p.name
    # an empty file is a valid (empty) rule file
    assert civdsl("check", str(tmp_path / "empty.civ")).returncode == 0


def test_no_traceback_for_bad_play_and_replay_inputs(tmp_path):
    (tmp_path / "bad.yaml").write_text("edition: [unclosed\n", encoding="utf-8")
    (tmp_path / "bad.jsonl").write_bytes(random.Random(1).randbytes(512))
    (tmp_path / "random.civ").write_bytes(random.Random(2).randbytes(512))
    for args in (["play", str(tmp_path / "bad.yaml")], ["replay", str(tmp_path / "bad.jsonl")],
                 ["play", "--edition", str(tmp_path / "random.civ")], ["play", "--players", "-3", "--edition", "x"]):
        proc = civdsl(*args)
        assert "Traceback" not in proc.stderr + proc.stdout, args
        assert proc.returncode in (1, 2), (args, proc.stderr)
        assert re.search(r"error(\[[A-Z]+\d+\])?:", proc.stderr), (args, proc.stderr)


def test_end_to_end_play_and_replay(tmp_path):
    log = tmp_path / "g.jsonl"
    proc = civdsl("play", "--edition", str(TINY), "--players", "2", "--seed", "7", "--log", str(log))
    assert proc.returncode == 0, proc.stderr
    assert "Winner" in proc.stdout or "No winner" in proc.stdout
    proc = civdsl("replay", str(log), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("OK")


def test_a_log_made_with_a_relative_edition_path_replays_from_elsewhere(tmp_path, monkeypatch, capsys):
    log = tmp_path / "rel.jsonl"
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    assert main(["play", "--edition", "rulesets/warp-spawn-solitaire", "--players", "1", "--seed", "4",
                 "--max-rounds", "5", "--log", str(log)]) == 0
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert main(["replay", str(log)]) == 0
    assert capsys.readouterr().out.startswith("OK")


def test_diff_with_an_option_shows_what_the_option_changes(capsys):
    code, out, err = run(capsys, "diff", "avalon-hill-1981", "avalon-hill-1981", "--option",
                         "reading_epidemic_keeps_own_unit")
    assert code == 0, err
    assert out.startswith("avalon-hill-1981 → avalon-hill-1981 --option reading_epidemic_keeps_own_unit: 1 rule(s)")
    assert "changed procedure `only_people_of`" in out
    code, out, err = run(capsys, "diff", "avalon-hill-1981", "avalon-hill-1981", "--option", "nosuch")
    assert code == 2 and "error[CFG010]" in err


def test_list_shows_readings_apart_from_other_options(capsys):
    code, out, err = run(capsys, "list")
    line = next(line for line in out.splitlines() if line.strip().startswith("warp-spawn-solitaire"))
    assert "(options: map; readings: reading_mitigation_halves_invaders" in line
    line = next(line for line in out.splitlines() if line.strip().startswith("roll-through-the-ages"))
    assert line.endswith("(options: revised, trading)")  # (no readings: no `readings:` part)
    line = next(line for line in out.splitlines() if line.strip().startswith("mega-empires-the-west"))
    assert "(options: expert, short; readings: " in line and "thera_alone" in line.split("readings:")[1]

"""`civdsl play` tells its story and keeps a person in the loop, tested through a real pseudo-terminal
(pexpect) as a person meets it: the round tables and headlines, the sentence that says who won and why,
a human seat told what happened since its last decision, Ctrl-C saving the game, `--resume` going on,
`undo`, and bad logs refused without harm."""
from __future__ import annotations

import io
import json
import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

from civdsl.api import load_program, new_game
from civdsl.interfaces import cli
from civdsl.language.config import GameConfig

ROOT = Path(__file__).resolve().parent.parent
PROMPT = re.compile(r"choose 1–(\d+) \(")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def spawn(args: list[str], cwd: Path, **kw) -> pexpect.spawn:
    env = dict(os.environ, COLUMNS="120", LINES="40", CIVDSL_NO_CACHE="")
    return pexpect.spawn(sys.executable, ["-m", "civdsl", *args], cwd=str(cwd), env=env, encoding="utf-8",
                         timeout=120, dimensions=(40, 120), **kw)


def answer_prompts(child: pexpect.spawn, count: int | None = None) -> str:
    """Answer `1` at every prompt (`count` of them, or until the game ends); the text seen, colours removed."""
    seen, answered = [], 0
    while count is None or answered < count:
        at = child.expect([PROMPT, pexpect.EOF])
        seen.append(child.before + (child.after if at == 0 else ""))
        if at == 1:
            break
        child.sendline("1")
        answered += 1
    return ANSI.sub("", "".join(seen))


def test_the_readme_game_says_who_won_why_and_what_happened(tmp_path):
    child = spawn(["play", "--edition", "avalon-hill-1981", "--players", "7", "--agents", "heuristic", "--seed",
                   "11"], tmp_path)
    child.expect(pexpect.EOF)
    out = ANSI.sub("", child.before)
    child.close()
    assert child.exitstatus == 0, out[-2000:]
    assert re.search(r"round 1 .*tokens.*cities.*cards.*ast", out)          # a table per round, by nation
    assert re.search(r"^\W*Egypt \(P\d\)", out, re.M)
    assert re.search(r"• \w+ \(P\d\) is struck by [A-Z][\w ]+: loses \d+ unit point", out)   # the headlines
    assert re.search(r"• \w+ \(P\d\) acquires [A-Z][\w ]+ for \d+", out)
    winner = re.search(r"Winner: (\w+) \(P\d\), in round (\d+): first to move onto the finish square of the "
                       r"A\.S\.T\. \(21\.1\) — avalon-hill-1981/game\.civ:\d+", out)
    assert winner, out[-1500:]
    assert re.search(r"place .*player .*nation .*ast", out) and winner.group(1) in out.split("Standings")[1]


def test_a_human_plays_rtta_to_the_end_and_is_told_what_happened(tmp_path):
    child = spawn(["play", "--edition", "roll-through-the-ages", "--players", "2", "--agents", "human,heuristic",
                   "--seed", "2"], tmp_path)
    out = answer_prompts(child)
    child.close()
    assert child.exitstatus == 0, out[-2000:]
    assert "Your dice show" in out                                       # the question leads with the dice
    recaps = out.count("Since your last decision:")
    assert recaps > 5
    assert re.search(r"• P2 buys \w+ \(\d+ points\)", out)               # the other player's headlines
    assert re.search(r"yours: .*food \d+ → \d+", out)                    # the seat's own changes
    assert re.search(r"Winner: P\d, in round \d+: the highest score when the game ends", out)


def test_ctrl_c_saves_an_avalon_hill_game_and_resume_goes_on_the_next_day(tmp_path):
    log = tmp_path / "ah.jsonl"
    child = spawn(["play", "--edition", "avalon-hill-1981", "--players", "3", "--agents",
                   "human,heuristic,heuristic", "--seed", "4", "--log", str(log)], tmp_path)
    answer_prompts(child, 6)
    child.expect(PROMPT)
    child.sendintr()
    child.expect(pexpect.EOF)
    said = ANSI.sub("", child.before)
    child.close()
    assert child.exitstatus == 130, said
    assert f"interrupted: saved to {log}; go on later with: civdsl play --resume {log}" in said
    first = log.read_text(encoding="utf-8").splitlines()
    assert json.loads(first[0])["type"] == "header" and len(first) > 50
    asked = [json.loads(line) for line in first if '"player":"P1"' in line and '"type":"decision"' in line]
    assert len([d for d in asked if d["options"] > 1]) == 6

    child = spawn(["play", "--resume", str(log)], tmp_path)
    child.expect(r"\(resumed\)")
    answer_prompts(child, 3)
    child.expect(PROMPT)
    child.sendintr()
    child.sendintr()   # twice: the save is not cut in two
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    second = log.read_text(encoding="utf-8").splitlines()
    assert second[:len(first)] == first                                  # the same game, gone on
    answered = [json.loads(line) for line in second if '"player":"P1"' in line and '"type":"decision"' in line]
    assert len([d for d in answered if d["options"] > 1]) == 9
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def run_cli(monkeypatch, capsys, argv: list[str], stdin: str = ""):
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_undo_takes_back_a_decision_until_something_random_happens(monkeypatch, capsys):
    argv = ["play", "--edition", "roll-through-the-ages", "--players", "2", "--agents", "human,heuristic",
            "--seed", "2", "-q"]
    # round 1: keep all; round 2: the dice were rolled since, so no undo; re-roll some, then undo that
    code, out, err = run_cli(monkeypatch, capsys, argv, "1\nundo\n2\nundo\n1\n" + "1\n" * 400)
    assert code == 0, err
    assert "cannot undo: something random happened since (roll at roll-through-the-ages/turn.civ:" in out
    assert out.count("your last decision is taken back") == 1
    after = out.split("your last decision is taken back", 1)[1]
    assert "Roll some again?" in after.split("choose", 1)[0]             # asked again, the same question


def saved_game(monkeypatch, capsys, tmp_path) -> Path:
    log = tmp_path / "saved.jsonl"
    argv = ["play", "--edition", "roll-through-the-ages", "--players", "2", "--agents", "human,heuristic",
            "--seed", "2", "--log", str(log), "-q"]
    code, _out, err = run_cli(monkeypatch, capsys, argv, "1\n2\n1\nsave\n")
    assert code == 130 and "saved to" in err
    return log


@pytest.mark.parametrize("damage, code", [
    (lambda lines: lines[:-1] + [lines[-1][:25]], "LOG004"),                       # cut off mid-line
    (lambda lines: ['{"type": "something else"}'] + lines[1:], "LOG005"),          # not a civdsl log
    (lambda lines: lines[:40] + [lines[40].replace('"round":1', '"round":7')] + lines[41:], "LOG011"),
])
def test_a_damaged_or_foreign_log_is_refused_and_left_alone(monkeypatch, capsys, tmp_path, damage, code):
    log = saved_game(monkeypatch, capsys, tmp_path)
    lines = log.read_text(encoding="utf-8").splitlines()
    log.write_text("\n".join(damage(lines)) + "\n", encoding="utf-8")
    before = log.read_bytes()
    rc, out, err = run_cli(monkeypatch, capsys, ["play", "--resume", str(log)], "1\n" * 50)
    assert rc != 0 and f"error[{code}]" in err and "Traceback" not in err
    assert log.read_bytes() == before


def test_a_full_disk_leaves_the_earlier_save(monkeypatch, capsys, tmp_path):
    log = saved_game(monkeypatch, capsys, tmp_path)
    before = log.read_bytes()

    def full(fd):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "fsync", full)
    rc, out, err = run_cli(monkeypatch, capsys, ["play", "--resume", str(log)], "1\n" * 5 + "save\n")
    assert "cannot write log" in out + err and "No space left on device" in out + err
    assert log.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == [log.name]            # no temporary file left behind


def test_headlines_and_reasons_change_no_game():
    """The story is told from the same game: with it and without it, the log is the same."""
    prog = load_program("avalon-hill-1981")

    def events(story: bool):
        game = new_game(GameConfig(edition="avalon-hill-1981", players=3, seed=5, agents=["heuristic"],
                                   max_rounds=8), prog)
        game.story = story
        result = game.run()
        return json.dumps(game.events), result, [m.get("headline") for m in game.measures]
    quiet, _r, silent = events(False)
    told, result, lines = events(True)
    assert quiet == told and not any(silent)
    assert any(line and "acquires" in line for line in lines)


def test_resume_takes_its_settings_from_the_log(monkeypatch, capsys, tmp_path):
    log = saved_game(monkeypatch, capsys, tmp_path)
    rc, out, err = run_cli(monkeypatch, capsys, ["play", "--resume", str(log), "--players", "3", "--seed", "4"])
    assert rc == 2 and "error[RES001]" in err and "--players, --seed" in err


def test_a_headline_tells_only_the_measurements_its_condition_lets_through(tmp_path):
    from one_file import TINY, one_file_edition

    from civdsl.api import compile_entry
    from civdsl.engine.agents import make_agents
    from civdsl.engine.interpreter import Game
    text = (TINY / "game.civ").read_text().replace('log "{player} moves to {player.score}"',
                                                     'log "{player} moves to {player.score}"\n'
                                                     '  measure("move", {player: player, value: r})')
    prog = compile_entry(one_file_edition(tmp_path, text + '\nheadline "move" when m.value == 6 = '
                                                         '"{player} rolls a six and reaches {player.score}"\n'))
    game = Game(prog, 2, 3, make_agents(["heuristic"], 2, 3), max_rounds=30)
    game.story = True
    game.run()
    moves = [m for m in game.measures if m["name"] == "move"]
    told = [m for m in moves if "headline" in m]
    assert told and len(told) < len(moves)
    assert all(m["fields"]["value"] == 6 and m["headline"].startswith(m["fields"]["player"] + " rolls a six")
               for m in told)

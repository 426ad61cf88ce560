"""The "Write your own game" tutorial (docs/write-your-own-game.md) and its game, examples/yahtzee.

The page builds the game file by file: each civ/yaml block goes to the last `games/yahtzee/...` path the
text names before it, blocks of one file joined by a blank line, so the files written by the end of the
page must be exactly the shipped ones. Every `$ civdsl ...` transcript is run in a scratch folder
holding the files the page has written up to that point; an HTML comment
`<!-- edit: PATH: "OLD" => "NEW" -->` before a transcript changes a file for that transcript only (the
page's deliberate mistakes). A transcript whose prompts show answers (`... h help): 1 3`) gets those
answers as its input. The output must match the page, a line `...` standing for any number of lines.

The shipped game is a test too: it checks clean with `--strict`, its scenarios pass, and seeded games
end cleanly with every kind of player.
"""
from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from civdsl.api import load_program
from civdsl.engine.agents import make_agents
from civdsl.engine.interpreter import Game
from civdsl.tools.checker import check_paths
from civdsl.tools.scenario import run_paths

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "write-your-own-game.md"
GAME = ROOT / "examples" / "yahtzee"
PREFIX = "games/yahtzee/"
PIECE = re.compile(r"```(\w*)\n(.*?)```|<!-- edit: (\S+): (\".*?\") => (\".*?\") -->", re.S)
FILE = re.compile(r"`(" + re.escape(PREFIX) + r"[\w./-]+\.(?:civ|yaml))`")
ANSWER = re.compile(r"h help\): (.*)$")


def page_steps(text: str) -> list[tuple]:
    """The page in order: ("file", path, body) for each file block, ("run", command, shown lines, edits)
    for each transcript."""
    steps, start, edits = [], 0, {}
    for m in PIECE.finditer(text):
        before, start = text[start:m.start()], m.end()
        if m.group(3):  # an edit for the next transcript
            edits.setdefault(m.group(3), []).append((json.loads(m.group(4)), json.loads(m.group(5))))
            continue
        lang, body = m.group(1), m.group(2)
        names = FILE.findall(before)
        if lang in ("civ", "yaml") and names:
            steps.append(("file", names[-1], body))
        elif lang == "text" and body.startswith("$ "):
            runs: list = []
            for line in body.splitlines():
                if line.startswith("$ "):
                    runs.append([line[2:], []])
                else:
                    runs[-1][1].append(line)
            steps.extend(("run", command, shown, edits) for command, shown in runs)
            edits = {}
    return steps


def files_written(steps: list[tuple], upto: int | None = None) -> dict[str, str]:
    """The files as the page has written them before step `upto` (all of them: None)."""
    files: dict[str, str] = {}
    for step in steps[:upto]:
        if step[0] == "file":
            _, path, body = step
            files[path] = files[path] + "\n" + body if path in files else body
    return files


def write(folder: Path, files: dict[str, str], edits: dict) -> None:
    for path, body in files.items():
        for old, new in edits.get(path, ()):
            assert old in body, f"the page's edit of {path} does not apply: {old!r} is not in it"
            body = body.replace(old, new)
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(body, encoding="utf-8")


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether `actual` is `expected` with each `...` line standing for any number of lines (and `...`
    within a line for any text), as the house-rule tutorial's transcripts are read."""
    if not expected:
        return not actual
    if expected[0].strip() == "...":
        return any(matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    pattern = ".*".join(re.escape(part) for part in expected[0].split("..."))
    return bool(actual) and re.fullmatch(pattern, actual[0]) is not None and matches(expected[1:], actual[1:])


def run_civdsl(command: str, cwd: Path, answers: str | None = None) -> list[str]:
    argv = shlex.split(command)
    assert argv[0] == "civdsl"
    done = subprocess.run([sys.executable, "-m", "civdsl", *argv[1:]], cwd=cwd, input=answers or "",
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    return done.stdout.rstrip("\n").splitlines()


TEXT = PAGE.read_text(encoding="utf-8")
STEPS = page_steps(TEXT)
RUNS = [(i, step) for i, step in enumerate(STEPS) if step[0] == "run"]


def test_the_page_writes_the_shipped_game():
    files = files_written(STEPS)
    assert {PREFIX + name for name in ("game.civ", "boxes.civ", "turn.civ", "people.civ")} <= set(files)
    for path, body in files.items():
        shipped = GAME / path[len(PREFIX):]
        assert shipped.is_file(), f"the page writes {path}, which examples/yahtzee does not ship"
        assert body == shipped.read_text(encoding="utf-8"), \
            f"{path} on the page differs from {shipped.relative_to(ROOT)}: copy the file into the page"
    rule_files = {p.name for p in GAME.glob("*.civ")}
    assert {Path(p).name for p in files if p.endswith(".civ")} == rule_files, "the page must write every rule file"
    assert len(RUNS) >= 8


@pytest.mark.parametrize("index,step", RUNS, ids=[f"{i}: {s[1]}" for i, s in RUNS])
def test_transcript_matches_a_real_run(tmp_path, index, step):
    _, command, shown, edits = step
    write(tmp_path, files_written(STEPS, index), edits)
    answers = [m.group(1) for line in shown if (m := ANSWER.search(line))]
    actual = run_civdsl(command, tmp_path, "\n".join(answers) + "\n" if answers else None)
    shutil.rmtree(tmp_path / "civdsl-sim-logs", ignore_errors=True)
    assert matches(shown, actual), "\n".join(["page:", *shown, "", "real run:", *actual])


# ---- the shipped game ------------------------------------------------------------------------------------
def test_the_game_checks_clean_and_strict():
    diags, nfiles = check_paths([str(GAME)])
    assert nfiles == 4 and diags == []


def test_the_scenarios_pass():
    outcomes, diags = run_paths([str(GAME / "scenarios")])
    assert not diags and len(outcomes) >= 15
    failed = [f"{o.scenario.path}: {o.problems}" for o in outcomes if not o.passed]
    assert not failed, "\n".join(failed)


@pytest.mark.parametrize("agents", [["random"], ["heuristic"], ["heuristic", "random", "random"]])
def test_seeded_games_end_in_victory_with_every_box_filled(agents):
    program = load_program(str(GAME))
    for seed in range(3):
        players = len(agents) if len(agents) > 1 else 2
        game = Game(program, players, seed, make_agents(agents, players, seed), check_invariants=True)
        result = game.run()
        assert result.reason == "victory" and result.rounds == 13
        assert all(all(p.vars[b] is not None for b in program.by_kind["box"]) for p in game.state.players)


def test_the_heuristic_player_beats_the_random_one():
    program = load_program(str(GAME))
    scores = {"random": 0, "heuristic": 0}
    for seed in range(10):
        result = Game(program, 2, seed, make_agents(["heuristic", "random"], 2, seed), logging=False).run()
        for row in result.ranking:
            scores["heuristic" if row["player"] == "P1" else "random"] += row["score"]
    assert scores["heuristic"] > 2 * scores["random"]

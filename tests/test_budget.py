"""Bounded work and values: a rule that would compute, grow or loop without end stops quickly with a
diagnostic at its line (RUN010 step, RUN013 game, RUN014 value, RUN015 memory), and the state is as
before the failing step. Each rule here would hang or exhaust the machine without the bounds."""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from one_file import one_file_edition

from civdsl.api import compile_entry
from civdsl.engine.agents import make_agents
from civdsl.engine.budget import MAX_INT_BITS, MAX_SIZE
from civdsl.engine.interpreter import Game
from civdsl.interfaces.cli import main
from civdsl.language.diagnostics import CivError

HEAD = ('game "Budget" { edition: "budget" players: 1 }\nglobal var out = 0\nglobal var rounds = 0\n'
        "die d6 = 1..6\nglobal zone pile visible to all\n")
SEQUENCE = "\nsequence { phases: main }\nvictory { max_rounds: 3 }\n"


def game_of(tmp_path, main_phase: str, extra: str = "", **kw) -> Game:
    text = HEAD + extra + "\nphase main {\n  rounds += 1\n" + main_phase + "\n}\n" + SEQUENCE
    prog = compile_entry(one_file_edition(tmp_path, text))
    return Game(prog, 1, 0, make_agents([], 1, 0), **kw)


def failure(game: Game):
    """The diagnostic the game stops with, and how long it took to stop."""
    start = time.monotonic()
    with pytest.raises(CivError) as exc:
        game.run()
    return exc.value.diagnostics[0], time.monotonic() - start


def line_of(game: Game, needle: str) -> int:
    lines = Path(game.rs.entry).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


def stopped(tmp_path, rule: str, code: str, needle: str) -> Game:
    """The game of `rule`, stopped quickly with `code` at the line holding `needle`."""
    game = game_of(tmp_path, rule)
    d, took = failure(game)
    assert d.code == code, d
    assert d.span.line == line_of(game, needle)
    assert took < 10
    return game


@pytest.mark.parametrize("rule, needle", [
    ("  let x = 2\n  repeat 40 times { x = x * x }\n  out = x", "x = x * x"),          # 2**(2**40)
    ('  out = len("x" * 100000000000)', '"x" * 100000000000'),                          # 100 GB of text
    ("  let l = [1]\n  repeat 45 times { l = l + l }\n  out = len(l)", "l = l + l"),     # 2**45 items
    ("  for i in 1..1000000 { }", "for i in 1..1000000"),
    ('  let t = "ab"\n  repeat 40 times { t = t + t }\n  out = t', "t = t + t"),
    ("  let l = [1]\n  repeat 40 times { l = [l, l] }\n  out = l", "out = l"),  # 2**40 values when logged
    ("  out = roll(d6, 97000000)", "roll(d6"),                                     # 97 million dice at once
    ("  out = len(rolls(d6, 97000000))", "rolls(d6"),
])
def test_values_that_would_grow_without_end_stop_with_run014(tmp_path, rule, needle):
    game = stopped(tmp_path, rule, "RUN014", needle)
    assert game.state.vars["out"] == 0 and game.state.vars["rounds"] == 0  # the failing step is undone


SHARED = "  let l = [1..1000]\n  repeat 40 times { l = [l, l] }\n  let m = [1..1000]\n  repeat 40 times { m = [m, m] }\n"


@pytest.mark.parametrize("use", ["out = l == m", "out = l != m", "out = l < m", "out = l in [m]", "out = {a: l} == {a: m}",
                                 "out = index_of([m], l)", "out = max(l, m)", "out = sorted([l, m])",
                                 "out = unique([l, m])", "out = len([x for x in [l] where x == m])",
                                 "out = l == [m, m][len([m, m, m, m, m, m, m, m, m, m, m, m, m, m, m, m, m, m, m, m]) - 19]"])
def test_comparing_lists_that_share_lists_stops_with_run014(tmp_path, use):
    """Two lists built by doubling a reference are a trillion values each when walked; a comparison,
    search or sort walks them in C, where neither the budget nor an alarm reaches: it hung for hours."""
    stopped(tmp_path, SHARED + "  " + use, "RUN014", use)


def test_lists_of_lists_still_compare(tmp_path):
    game = game_of(tmp_path, "  let a = [[1, 2], [3]]\n  let r = {x: a}\n"
                   "  out = [a == [[1, 2], [3]], a != [[1, 2], [3]], [1, [2]] < [1, [3]], [3] in a, index_of(a, [3]),"
                   " max([[1, 2], [1, 3]]), sorted([[2], [1, 5]]), unique([a, a, r, {x: a}]), r == {x: [[1, 2], [3]]}]")
    game.run()
    assert game.state.vars["out"] == [True, False, True, True, 2, [1, 3], [[1, 5], [2]], [[[1, 2], [3]], {"x": [[1, 2], [3]]}], True]


def test_values_up_to_the_bounds_are_fine(tmp_path):
    rule = (f"  let x = 1\n  repeat {MAX_INT_BITS - 1} times {{ x = x * 2 }}\n  let t = \"x\" * {MAX_SIZE}\n"
            "  out = [x, t, len(unique((1..100000) + (1..100000)))]")
    game = game_of(tmp_path, rule)
    game.run()
    assert game.state.vars["out"] == [2 ** (MAX_INT_BITS - 1), "x" * MAX_SIZE, 100_000]


def test_a_step_that_fills_a_zone_keeps_one_copy_for_undo(tmp_path):
    """Undo keeps a zone's items once per step: a copy per change made filling a zone cost the square of
    its size (100,000 additions: 5 billion items kept, a MemoryError)."""
    game = game_of(tmp_path, "  repeat 100000 times { add 1 to pile }\n  out = len(pile)")
    start = time.monotonic()
    game.run()
    assert game.state.vars["out"] == 300_000 and time.monotonic() - start < 20


def test_a_failing_step_undoes_what_it_added_to_a_zone(tmp_path):
    game = game_of(tmp_path, "  repeat 3 times { add 1 to pile }\n  out = 1 // (rounds - 2)")
    with pytest.raises(CivError):
        game.run()
    assert len(game.state.zones["pile"]) == 3 and game.state.vars["rounds"] == 1  # round 2 undone


@pytest.mark.parametrize("rule, needle", [
    ("  out = len([[a * b for b in 1..100000] for a in 1..100000])", "for a in 1..100000"),
    ("  out = len([i for i in 1..100000 where i in 1..100000])", "where i in 1..100000"),
    ("  repeat 100000 times { repeat 100000 times { out += 1 } }", "out += 1"),
    ("  for i in 1..100000 { for j in 1..100000 { } }", "for j in 1..100000"),
])
def test_work_that_would_take_hours_stops_with_run010(tmp_path, rule, needle):
    stopped(tmp_path, rule, "RUN010", needle)


def test_a_constant_that_would_take_hours_stops_with_run010(tmp_path, capsys):
    extra = "param slow = len([[a * b for b in 1..100000] for a in 1..100000])\n"
    start = time.monotonic()
    with pytest.raises(CivError) as exc:
        game_of(tmp_path, "  out = slow", extra).run()
    assert exc.value.diagnostics[0].code == "RUN010"
    assert main(["check", str(tmp_path / "rulesets" / "t")]) == 1  # `check` evaluates the constants too
    assert "error[RUN010]" in capsys.readouterr().out
    assert time.monotonic() - start < 20


def test_a_game_that_never_ends_stops_with_run013(tmp_path):
    text = HEAD + "phase main {\n  rounds += 1\n  repeat 1000 times { out += 1 }\n}\nsequence { phases: main }\n"
    prog = compile_entry(one_file_edition(tmp_path, text))
    game = Game(prog, 1, 0, make_agents([], 1, 0), game_budget=100_000)
    d, _ = failure(game)
    assert d.code == "RUN013"
    assert "100000" in d.message
    # each round draws ~1,000 units: the game stops within its budget, mid-round
    assert 50 <= game.state.vars["rounds"] <= 100
    assert game.work <= 100_000


def test_the_cli_takes_a_game_budget(tmp_path, capsys):
    entry = one_file_edition(tmp_path, HEAD + "phase main {\n  repeat 1000 times { out += 1 }\n}\n"
                             "sequence { phases: main }\n")
    assert main(["play", "--edition", str(entry), "--game-budget", "50000", "-q"]) == 1
    err = capsys.readouterr().err
    assert "RUN013" in err and "--game-budget" in err
    with pytest.raises(SystemExit) as usage:
        main(["play", "--edition", str(entry), "--game-budget", "0"])
    assert usage.value.code == 2


def test_running_out_of_memory_is_run015_not_a_crash(tmp_path):
    # 300 lists of 100,000 numbers: within every work and size bound, ~1 GB in all
    entry = one_file_edition(tmp_path, HEAD + "phase main {\n  let lists = []\n"
                             "  repeat 300 times { lists = lists + [1..100000] }\n  out = len(lists)\n}\n" + SEQUENCE)
    run = subprocess.run([sys.executable, "-m", "civdsl", "--memory-limit", "400", "play", "--edition", str(entry)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1, run.stderr
    assert "RUN015" in run.stderr and "Traceback" not in run.stderr
    assert "lists = lists + [1..100000]" in run.stderr

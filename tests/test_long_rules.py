"""Long chains (`1 + 1 + ... + 1`, `a.b.b...`, `f()()...`, `x[1][1]...`) of up to the parser's limit go
through every tool that walks syntax trees — check, play, fmt, explain, diff — with a result, never a
RecursionError. (How fast a large legal file checks is measured by `benchmarks/bench.py`.)"""
from __future__ import annotations

import pytest
from one_file import one_file_edition

from civdsl.interfaces.cli import main
from civdsl.language.limits import MAX_EXPRESSION_DEPTH

TERMS = MAX_EXPRESSION_DEPTH - 10
HEAD = 'game "Long" { edition: "long"  players: 1 }\nglobal var out = 0\n'
TAIL = "\nsequence { phases: main }\nvictory { max_rounds: 1 }\n"
CHAINS = {
    "sum": ("param total = " + " + ".join(["1"] * TERMS) + "\nphase main {\n  out = total\n}\n", TERMS),
    "difference": ("phase main {\n  out = 0 - " + " - ".join(["1"] * TERMS) + "\n}\n", -TERMS),
    "attributes": ("param r = " + "{ b: " * 150 + "5" + " }" * 150 + "\nphase main {\n  out = r" + ".b" * 150
                   + "\n}\n", 5),
    "indexes": ("param xs = [[1]]\nphase main {\n  let y = [" + "[" * 150 + "7" + "]" * 150 + "]\n  out = y"
                + "[1]" * 151 + "\n}\n", 7),
    "negations": ("phase main {\n  out = " + "-" * (TERMS - 1) + "3\n}\n", 3 if (TERMS - 1) % 2 == 0 else -3),
    "conditions": ("phase main {\n  out = if " + " and ".join(["true"] * TERMS) + " then 1 else 0\n}\n", 1),
}


@pytest.mark.parametrize("name", sorted(CHAINS))
def test_long_chains_check_play_format_explain_and_diff(tmp_path, capsys, name):
    rules, expected = CHAINS[name]
    entry = one_file_edition(tmp_path, HEAD + rules + TAIL)
    assert main(["check", str(entry.parent)]) == 0, capsys.readouterr()
    assert main(["play", "--edition", str(entry.parent), "-q"]) == 0, capsys.readouterr()
    assert main(["fmt", "--check", str(entry)]) == 0, capsys.readouterr()
    assert main(["explain", str(entry.parent), "phase main"]) == 0, capsys.readouterr()
    other = one_file_edition(tmp_path, HEAD.replace('"long"', '"longer"') + rules + TAIL, "t2")
    assert main(["diff", str(entry.parent), str(other.parent)]) == 0, capsys.readouterr()
    out = capsys.readouterr()
    assert "internal error" not in out.out + out.err and "Recursion" not in out.out + out.err

    from civdsl.api import compile_entry
    from civdsl.engine.agents import make_agents
    from civdsl.engine.interpreter import Game
    game = Game(compile_entry(entry), 1, 0, make_agents([], 1, 0))
    game.run()
    assert game.state.vars["out"] == expected


@pytest.mark.parametrize("chain", ["a" + ".b" * TERMS, "f" + "()" * TERMS, "a" + "[1]" * TERMS])
def test_long_chains_that_cannot_run_are_located_diagnostics(tmp_path, capsys, chain):
    entry = one_file_edition(tmp_path, HEAD + "param a = 1\nprocedure f() {\n  return 1\n}\n"
                             + "phase main {\n  out = " + chain + "\n}\n" + TAIL)
    code = main(["check", str(entry.parent)])
    if code == 0:  # it compiles: running it stops at the rule
        code = main(["play", "--edition", str(entry.parent), "-q"])
    out = capsys.readouterr()  # (found by check's type check, on standard output, or by play, on errors)
    text = out.out + out.err
    assert code == 1 and "game.civ:" in text, out
    assert "internal error" not in text and "Recursion" not in text
    assert main(["fmt", "--check", str(entry)]) == 0

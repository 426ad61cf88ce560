"""The compiler: rules become Python functions that are compiled when first called, written once per
process and reused while everything they looked up is unchanged; deep rules still compile; generated
code reaches nothing but its private namespace."""
from __future__ import annotations

from pathlib import Path

import pytest
from one_file import one_file_edition

from civdsl.api import compile_entry, load_program
from civdsl.compiler import units
from civdsl.engine.agents import make_agents
from civdsl.engine.interpreter import Game
from civdsl.tools.checker import check_paths

GAME = 'game "t" {{ edition: "t" players: 1 }}\n{body}\nsequence {{ phases: main }}\n'


def write(tmp_path: Path, body: str) -> Path:
    return one_file_edition(tmp_path, GAME.format(body=body))


def play(entry: Path, rounds: int = 1) -> Game:
    game = Game(compile_entry(entry), 1, 1, make_agents([], 1, 1), max_rounds=rounds)
    game.run()
    return game


def test_functions_are_compiled_when_first_called():
    program = load_program("roll-through-the-ages")
    program.build()
    waiting = set(program.module.pending)
    assert "_p_score" in waiting and "_p_roll_dice" in waiting
    Game(program, 1, 1, make_agents(["random"], 1, 1), logging=False).run()
    assert "_p_roll_dice" not in program.module.pending  # played
    assert program.module.pending  # and rules the game never ran were never compiled


def test_rules_are_written_once_and_reused_by_another_program():
    load_program("warp-spawn-solitaire")
    written = sum(len(kept) for kept in units.UNITS.values())
    again = load_program("warp-spawn-solitaire")
    assert sum(len(kept) for kept in units.UNITS.values()) == written  # nothing written again
    Game(again, 1, 2, make_agents(["random"], 1, 2), logging=False).run()


def test_a_reused_rule_is_checked_again_when_what_it_uses_changes(tmp_path):
    body = ('param bonus = 2\nplayer counter score = 0\n'
            'procedure gain(p) {\n  p.score += bonus\n}\n'
            'phase main {\n  gain(player)\n}\n'
            'option plain "no bonus" {\n  remove param bonus\n}\n')
    entry = write(tmp_path, body)
    diags, _ = check_paths([str(entry.parent)])
    unknown = [d for d in diags if d.code == "UNK001"]
    assert len(unknown) == 1 and "`bonus`" in unknown[0].message and unknown[0].span.line == 5
    # the same procedure, reused as long as `bonus` is still a parameter
    assert play(entry).state.players[0].counters["score"] == 2


def test_deep_expressions_and_long_chains_compile(tmp_path):
    chain = " + ".join(["1"] * 150)
    nested = "(" * 120 + "1" + "".join(" + 1)" for _ in range(120))  # ((((1 + 1) + 1) + 1) ...)
    calls = "max(" * 60 + "1" + ", 2)" * 60
    body = (f'global var a = 0\nglobal var b = 0\nglobal var d = 0\nparam long = {chain}\n'
            f'phase main {{\n  a = long\n  b = [x + {nested} for x in [0, 1]][2]\n  d = {calls}\n}}\n')
    game = play(write(tmp_path, body))
    assert (game.state.vars["a"], game.state.vars["b"], game.state.vars["d"]) == (150, 122, 2)


def test_loops_nested_too_deep_for_python_are_a_diagnostic(tmp_path):
    loops = "".join("  " * i + f"for v{i} in [1] {{\n" for i in range(17)) + "".join("}\n" for _ in range(17))
    entry = write(tmp_path, "phase main {\n" + loops + "}\n")
    diags, _ = check_paths([str(entry.parent)])
    assert [d.code for d in diags if d.severity == "error"] == ["SYN013"]


def test_rule_text_never_becomes_code(tmp_path):
    text = "'); import os; os.system('echo pwned'); ('"
    body = f'global var seen = ""\nphase main {{\n  seen = "{text}"\n  log "{{seen}}"\n}}\n'
    game = play(write(tmp_path, body))
    assert game.state.vars["seen"] == text
    assert [e["text"] for e in game.events if e["type"] == "log"] == [text]


def test_generated_code_reaches_only_a_short_list_of_builtins():
    program = load_program("roll-through-the-ages")
    allowed = set(program.module.ns["__builtins__"])
    assert allowed <= {"type", "len", "list", "tuple", "range", "int", "str", "dict", "None", "True", "False",
                       "TypeError"}
    assert not {"open", "__import__", "eval", "exec", "compile", "getattr"} & allowed


@pytest.mark.parametrize("where, line", [("while", 4), ("inner", 7)])
def test_a_python_error_is_reported_at_the_rule_statement(tmp_path, where, line):
    cond = '"a" - 1 > 0' if where == "while" else "false"
    body = (f'global var x = 0\nphase main {{\n  let n = 0\n  while {cond} {{\n    n += 1\n  }}\n'
            f'  x = {"1" if where == "while" else chr(34) + "a" + chr(34) + " - 1"}\n}}\n')
    from civdsl.language.diagnostics import CivError
    with pytest.raises(CivError) as exc:
        play(write(tmp_path, body))
    d = exc.value.diagnostics[0]
    assert d.code == "RUN001" and d.span.line == line + 1  # (the game block takes the first line)

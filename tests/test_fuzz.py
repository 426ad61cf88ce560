"""Fuzzing: mutated rule files, scenarios and configs end in a diagnostic or a clean result, never a crash.

A bounded number of Hypothesis examples runs here; `python tools/fuzz.py --inputs 10000` is the long run.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import fuzz  # noqa: E402

CORPUS = fuzz.corpus()
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


@pytest.mark.parametrize("kind", ["rules", "scenario", "config"])
def test_mutated_inputs_never_crash(kind, tmp_path_factory):
    seeds = [c for c in CORPUS if c[0] == kind]
    assert seeds
    tmp = tmp_path_factory.mktemp(kind)

    @SETTINGS
    @given(st.sampled_from(seeds), st.randoms(use_true_random=False))
    def check(seed, rnd):
        _, where, text = seed
        fuzz.judge(kind, where, fuzz.mutate(text, rnd), tmp)

    check()


@pytest.mark.parametrize("text", [
    "phase p { while true { } }\nsequence { phases: p }\n",
    "param x = " + "(" * 10_000 + "1" + ")" * 10_000 + "\n",
    'map m from "../../etc/passwd"\n',
    'map m from "/etc/passwd"\n',
    "\x00\x01\x02 binary",
    "param big = 99999999999999999999999999999999999999 * 99999999999999999999999999999999\n",
])
def test_hostile_rule_files_end_with_a_clear_error(tmp_path, text):
    folder = tmp_path / "rulesets" / "hostile"
    folder.mkdir(parents=True)
    (folder / "game.civ").write_text('game "h" { edition: "hostile" players: 1 }\n' + text, encoding="utf-8")
    from civdsl.api import compile_entry
    from civdsl.engine.agents import make_agents
    from civdsl.engine.interpreter import Game
    from civdsl.language.diagnostics import CivError
    from civdsl.tools.checker import check_paths
    diags, _ = check_paths([str(folder)])
    if any(d.severity == "error" for d in diags):
        assert all(d.span is not None or d.code for d in diags)
        return
    prog = compile_entry(folder / "game.civ")
    with pytest.raises(CivError) as exc:
        Game(prog, 1, 0, make_agents([], 1, 0), max_rounds=3, budget=100_000).run()
    assert exc.value.diagnostics[0].code in ("RUN010", "RUN011")

"""Every scenario shipped under rulesets/ runs inside the test suite too, and the runner itself is tested."""
from __future__ import annotations

from pathlib import Path

import pytest

from civdsl.cli import main
from civdsl.diagnostics import CivError
from civdsl.scenario import find_scenarios, load_scenario, run_scenario

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = find_scenarios([str(ROOT / "rulesets"), str(ROOT / "examples")])


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: str(p.relative_to(ROOT)))
def test_shipped_scenario(path):
    outcome = run_scenario(load_scenario(str(path)))
    assert outcome.passed, "\n".join(outcome.problems)


def test_every_shipped_scenario_cites_its_source():
    assert SCENARIOS
    for path in SCENARIOS:
        assert load_scenario(str(path)).data.get("source"), path


def _write(tmp_path, text, name="s.yaml"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


HARVEST = """scenario: harvest
source: test
edition: warp-spawn-solitaire
state:
  P1: {agriculture: 4, food: 0, advances: []}
run: {phase: harvest, player: P1}
expect:
  P1: {food: FOOD}
"""


def test_wrong_expectation_fails_with_a_diff_naming_the_rule(tmp_path, capsys):
    p = _write(tmp_path, HARVEST.replace("FOOD", "13"))
    assert main(["test", str(p)]) == 1
    out = capsys.readouterr().out
    assert "P1.food: expected 13, got 12" in out
    assert "last changed at warp-spawn-solitaire/rules.civ:" in out
    assert "0 passed, 1 failed" in out


def test_right_expectation_passes(tmp_path, capsys):
    p = _write(tmp_path, HARVEST.replace("FOOD", "12"))
    assert main(["test", str(p)]) == 0
    assert "1 passed, 0 failed" in capsys.readouterr().out


def test_bad_scenario_file_gets_a_located_diagnostic(tmp_path):
    p = _write(tmp_path, HARVEST.replace("FOOD", "12").replace("run: {phase", "run: {phse"))
    with pytest.raises(CivError) as exc:
        load_scenario(str(p))
    d = exc.value.diagnostics[0]
    assert d.code == "SCN002" and d.span.line == 6 and "phse" in d.message


def test_unknown_counter_in_state_suggests_the_name(tmp_path):
    p = _write(tmp_path, HARVEST.replace("FOOD", "12").replace("{agriculture: 4", "{agricultur: 4"))
    with pytest.raises(CivError) as exc:
        run_scenario(load_scenario(str(p)))
    d = exc.value.diagnostics[0]
    assert d.code == "SCN006" and d.span.line == 5 and "agriculture" in (d.hint or "")


def test_expected_error_and_unused_dice(tmp_path):
    p = _write(tmp_path, HARVEST.replace("FOOD", "12").replace("run:", "dice: [3]\nrun:"))
    outcome = run_scenario(load_scenario(str(p)))
    assert not outcome.passed and "fixed dice were never rolled" in outcome.problems[0]
    p2 = _write(tmp_path, """scenario: illegal
source: test
edition: warp-spawn-solitaire
run: {call: "lose_city(P1, 7)"}
expect:
  error: {code: RUN001}
""", "e.yaml")
    assert run_scenario(load_scenario(str(p2))).passed


def test_a_failing_action_is_rolled_back(tmp_path):
    """lose_city lowers the city count, then fails on a bad winner: nothing may stay half-applied."""
    p = _write(tmp_path, """scenario: rollback
source: test
edition: warp-spawn-solitaire
state:
  P1: {cities: 2, wonders: []}
run: {call: "lose_city(P1, 7)"}
expect:
  error: {code: RUN001}
  P1: {cities: 2}
""", "rb.yaml")
    assert run_scenario(load_scenario(str(p))).passed

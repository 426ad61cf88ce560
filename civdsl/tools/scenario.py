"""Scenario files (`civdsl test`): the package `civdsl.tools.scenarios`, under its older name."""
from __future__ import annotations

from typing import Any

from .scenarios import (
    Outcome,
    Scenario,
    Step,
    build_game,
    find_scenarios,
    is_scenario_file,
    load_scenario,
    run_paths,
    run_scenario,
    scenario_schema,
)
from .scenarios.actions import run_action

__all__ = ["Outcome", "Scenario", "Step", "build_game", "find_scenarios", "is_scenario_file", "load_scenario",
           "run_paths", "run_scenario", "scenario_schema"]


def _run(game, sc: Scenario) -> Any:
    """Run a format 1 scenario's action on a game built by `build_game` (for tests)."""
    return run_action(game, sc, sc.steps()[0])

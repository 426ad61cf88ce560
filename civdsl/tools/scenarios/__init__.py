"""Scenario files: worked examples and rule tests that rule authors write in YAML (`civdsl test`).

A scenario names an edition, sets up a precise state (counters, variables, zones, the pieces on the
map), fixes dice (of the set-up and of the run) and decisions, runs one action — or, in format 2, a
list of `steps`, each an action with its own `expect` — and states what must hold afterwards. See
docs/scenarios.md. The parts: `files` (reading), `build` (the game and its injected state),
`consistency` (invariants on injected state), `actions`, `trace` (decisions asked and answered),
`expect` (comparisons), `runner`.
"""
from .build import build_game
from .files import Scenario, Step, find_scenarios, is_scenario_file, load_scenario, scenario_schema
from .runner import Outcome, run_paths, run_scenario

__all__ = ["Outcome", "Scenario", "Step", "build_game", "find_scenarios", "is_scenario_file", "load_scenario",
           "run_paths", "run_scenario", "scenario_schema"]

"""Scenario files: worked examples and rule tests that rule authors write in YAML (`civdsl test`).

A scenario names an edition, sets up a precise state (counters, variables, zones, the pieces on the
map), fixes dice (of the set-up and of the run) and decisions, runs one action — or, in format 2, a
list of `steps`, each an action with its own `expect` — and states what must hold afterwards. See
docs/scenarios.md. The parts: `files` (reading), `build` (the game and its injected state),
`consistency` (invariants on injected state), `actions`, `trace` (decisions asked and answered),
`expect` (comparisons), `runner`.
"""
from importlib import import_module

# Loaded on first use (PEP 562): the pytest plugin imports this package in every pytest run of a project
# with civdsl installed, and most of those runs hold no scenario.
_WHERE = {"build_game": "build", "Scenario": "files", "Step": "files", "find_scenarios": "files",
          "is_scenario_file": "files", "load_scenario": "files", "scenario_schema": "files",
          "Outcome": "runner", "run_paths": "runner", "run_scenario": "runner"}
__all__ = sorted(_WHERE)


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f".{_WHERE[name]}", __name__), name)

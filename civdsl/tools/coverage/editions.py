"""The shipped rulesets' coverage by their own scenarios: the figures published in the docs and the floor
CI holds them to (`tests/data/coverage-floor.json`, checked by `tests/test_coverage.py` and by
`tools/coverage_report.py --check`).

Each folder of the rulesets root that has a `scenarios/` folder (an edition, or the house-rule variants)
is measured by those scenarios alone: another edition's scenarios that happen to run its rules do not
count for it. A folder without scenarios of its own (a library of shared rules) is measured by the
scenarios of every folder whose rulesets load one of its files. Every `.civ` file of a folder counts,
also one no scenario's ruleset loads (all of it then never ran).
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from ..scenarios import run_paths
from . import recorder
from .results import FileCoverage, measure, of_files, percent

SLACK = 1.0  # percentage points a figure may rise above its floor before the floor must be raised


@dataclass
class Figure:
    """One folder's coverage: percentages of its rules, lines and branch arms that ran, the counts
    behind them, and the scenarios that measured it."""
    rules: float
    lines: float
    branches: float
    rules_total: int
    lines_total: int
    branches_total: int
    scenarios: int
    measured_by: list[str]


def rule_files_of(folder: Path) -> list[str]:
    return sorted(str(p.resolve()) for p in folder.rglob("*.civ") if "scenarios" not in p.relative_to(folder).parts)


def measure_folders(root: Path) -> dict[str, tuple[list[FileCoverage], int, list[str]]]:
    """Per folder of the rulesets root: its files' coverage, the number of scenarios that measured it,
    and the folders whose scenarios those are."""
    folders = sorted(p for p in root.iterdir() if p.is_dir() and rule_files_of(p))
    runs: dict[str, tuple[set[str], set[str], int]] = {}
    for folder in folders:
        scenarios = folder / "scenarios"
        if not scenarios.is_dir():
            continue
        recorder.start()
        try:
            outcomes, _ = run_paths([str(scenarios)])
        finally:
            hits, files = recorder.stop()
        runs[folder.name] = (hits, files, len(outcomes))
    out = {}
    for folder in folders:
        own = rule_files_of(folder)
        if folder.name in runs:
            by = [folder.name]
        else:
            by = [name for name, (_, files, _) in runs.items() if set(own) & files]
        hits = set().union(*(runs[name][0] for name in by)) if by else set()
        out[folder.name] = (measure(own, hits), sum(runs[name][2] for name in by), by)
    return out


def figures(root: Path) -> dict[str, Figure]:
    out = {}
    for name, (files, count, by) in measure_folders(root).items():
        t = of_files(files)
        out[name] = Figure(round(percent(t.rules_run, t.rules), 1), round(percent(t.lines_run, t.lines), 1),
                           round(percent(t.arms_run, t.arms), 1), t.rules, t.lines, t.arms, count, by)
    return out


# -- the floor ------------------------------------------------------------------------------------------------
HOW_TO_CHANGE = ("the floor is in {floor}: after a deliberate change (rules removed, scenarios moved), write "
                 "the measured figures there with `python tools/coverage_report.py --write-floor` and commit it")


def floor_of(found: dict[str, Figure]) -> dict[str, dict[str, float]]:
    """The floor for these figures: the figures themselves (to a tenth of a point; scenarios are
    deterministic, so the same rules and scenarios always measure the same)."""
    return {name: {"lines": f.lines, "branches": f.branches} for name, f in sorted(found.items())}


def write_floor(path: Path, found: dict[str, Figure]) -> None:
    path.write_text(json.dumps(floor_of(found), indent=2) + "\n", encoding="utf-8")


def against_floor(found: dict[str, Figure], floor: dict, floor_path: str) -> list[str]:
    """What is wrong with the figures against the floor: a figure below it (coverage dropped), one more
    than `SLACK` points above it (the floor must rise with it, or a later drop would go unnoticed), a
    folder without a floor or a floor without a folder."""
    problems = []
    for name in sorted(set(found) | set(floor)):
        if name not in floor:
            problems.append(f"{name}: no floor yet")
            continue
        if name not in found:
            problems.append(f"{name}: has a floor but no longer exists")
            continue
        for what in ("lines", "branches"):
            got, least = getattr(found[name], what), floor[name][what]
            if got < least:
                problems.append(f"{name}: {what} coverage by its scenarios dropped to {got:.1f}% "
                                f"(the floor is {least:.1f}%): add scenarios that run the new or changed rules")
            elif got > least + SLACK:
                problems.append(f"{name}: {what} coverage rose to {got:.1f}% (the floor is {least:.1f}%): "
                                "raise the floor so that it cannot silently drop back")
    if problems:
        problems.append(HOW_TO_CHANGE.format(floor=floor_path))
    return problems


def as_json(found: dict[str, Figure]) -> dict:
    return {name: asdict(f) for name, f in found.items()}

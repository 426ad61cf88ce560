"""Scenario files as pytest tests: `pytest rulesets/` runs every scenario under the folder as a test item.

Registered through the `pytest11` entry point, so it is active wherever civdsl is installed; `-p no:civdsl`
switches it off. It is the runner of `civdsl test` (`runner.run_scenario`) behind pytest's own collection,
so `-k`, `-x`, `--junitxml`, `--lf` and `-n N` (pytest-xdist) work as for any test.

Which YAML files are collected: pytest is pointed at whole projects, so a YAML file is a scenario only when
its top level holds both keys the scenario schema requires, `scenario:` and `edition:` (each at the start
of a line); other YAML files (configs, CI workflows, data) are left alone. A file collected that does not
load (bad YAML, a schema error) is one failing item that shows the diagnostic. Each file is one item,
named by the scenario's title; a failure shows the runner's differences (with the rule that last changed
each value) and, when a scripted answer was left unused or `--civdsl-trace` is given, the decisions.
"""
from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import yaml

from ...language.diagnostics import CivError, Diagnostic, display_path, render_text
from .files import Scenario, load_scenario

if TYPE_CHECKING:
    from .runner import Outcome

_TOP_KEY = re.compile(r"^(scenario|edition)\s*:", re.MULTILINE)
_HEAD = 64 * 1024   # the top-level keys are looked for in the first 64 KiB


class ScenarioWarning(UserWarning):
    """A warning of a scenario (the consistency pass on the state it sets): shown, never a failure."""


def looks_like_scenario(path: Path) -> bool:
    """A `.yaml`/`.yml` file whose top level has both `scenario:` and `edition:`, the scenario schema's
    required keys (read from the first 64 KiB; an unreadable file is not a scenario)."""
    if path.suffix not in (".yaml", ".yml"):
        return False
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            head = f.read(_HEAD)
    except OSError:
        return False
    return {m.group(1) for m in _TOP_KEY.finditer(head)} == {"scenario", "edition"}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("civdsl", "civdsl scenario files")
    group.addoption("--civdsl-edition", metavar="NAME", default=None,
                    help="run the scenarios under this edition instead of the one each names (as `civdsl test "
                         "--edition`)")
    group.addoption("--civdsl-trace", action="store_true", default=False,
                    help="show the decisions of a failing scenario's run even when no scripted answer was left")


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    if looks_like_scenario(file_path):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    """One scenario file: one item, or one failing item when the file does not load."""

    def collect(self):
        try:
            sc: Scenario | None = load_scenario(display_path(str(self.path)))
            problem = None
        except CivError as exc:
            sc, problem = None, exc
        name = sc.title if sc is not None else _title_of(self.path)
        yield ScenarioItem.from_parent(self, name=name, scenario=sc, problem=problem)


def _title_of(path: Path) -> str:
    """The title of a scenario that does not load, read from its `scenario:` line if it can be; else the
    file's name."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")[:_HEAD]
    except OSError:
        return path.name
    m = re.search(r"^scenario\s*:(.*)$", text, re.MULTILINE)
    try:
        value = yaml.safe_load(m.group(1)) if m else None
    except yaml.YAMLError:
        value = None
    return value.strip() if isinstance(value, str) and value.strip() else path.name


class ScenarioFailed(Exception):
    """The scenario ran and something it expects did not hold."""

    def __init__(self, outcome: Outcome):
        super().__init__("; ".join(outcome.problems))
        self.outcome = outcome


class ScenarioBroken(Exception):
    """The scenario file does not load, or names something its edition does not have (diagnostics)."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("; ".join(d.headline() for d in diagnostics))
        self.diagnostics = diagnostics


def failure_text(outcome: Outcome, trace: bool) -> str:
    """What `civdsl test` prints for the failed scenario, less its heading (pytest's header names the
    scenario), with the differences first: pytest's summary line shows the first line."""
    from .report import outcome_lines  # (the engine is loaded when a scenario runs, not with pytest)
    lines = outcome_lines(outcome, trace=trace)[1:]
    if outcome.scenario.data.get("source"):
        n = len(outcome.problems)
        lines = lines[1:1 + n] + lines[:1] + lines[1 + n:]
    return "\n".join(line[4:] if line.startswith("    ") else line for line in lines)


class ScenarioItem(pytest.Item):
    def __init__(self, *, scenario: Scenario | None, problem: CivError | None, **kw):
        super().__init__(**kw)
        self.scenario = scenario
        self.problem = problem

    def runtest(self) -> None:
        if self.problem is not None:
            raise ScenarioBroken(self.problem.diagnostics)
        try:
            from .runner import run_scenario
            outcome = run_scenario(self.scenario, self.config.getoption("civdsl_edition"))
        except CivError as exc:
            raise ScenarioBroken(exc.diagnostics) from None
        for w in outcome.warnings:
            warnings.warn(ScenarioWarning(f"{self.name}: {w}"), stacklevel=1)
        if not outcome.passed:
            raise ScenarioFailed(outcome)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ScenarioFailed):
            return failure_text(excinfo.value.outcome, self.config.getoption("civdsl_trace"))
        if isinstance(excinfo.value, ScenarioBroken):
            return render_text(excinfo.value.diagnostics)
        return super().repr_failure(excinfo, style)   # a bug in civdsl: pytest's traceback

    def reportinfo(self):
        """The file and the line of its `scenario:` key (0-based, as pytest counts): what `--junitxml` and
        the failure headers name."""
        line = 0
        if self.scenario is not None:
            line = self.scenario.span("scenario").line - 1
        elif self.problem is not None and self.problem.diagnostics and self.problem.diagnostics[0].span:
            line = self.problem.diagnostics[0].span.line - 1
        return self.path, line, f"scenario: {self.name}"

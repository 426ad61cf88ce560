"""Scenario files in the language server: on open and on save, a YAML file with a top-level
`scenario:` key is run as `civdsl test` runs it, and what it reports becomes diagnostics — a broken
file (`SCN...`) where the mistake is, a difference (`TST001`) at the step's `expect:` (or the `dice:` or
`decisions:` it is about), a warning (`TST002`) at the injected `state:`. The edition and house rules
are found under the path policy of scenarios: nothing outside it is read."""
from __future__ import annotations

from ...language.diagnostics import CivError, Diagnostic, Span
from ...tools.scenarios import load_scenario, run_scenario
from ...tools.scenarios.report import problem_diagnostics, warning_diagnostics

MAX_SCENARIO_CHARS = 1 << 20  # as for a scenario file on disk


def is_scenario_text(text: str) -> bool:
    """Whether the text is a scenario (a top-level `scenario:` key in its first lines)."""
    return any(line.startswith("scenario:") for line in text[:4000].splitlines())


def scenario_diagnostics(path: str, text: str) -> list[Diagnostic]:
    if len(text) > MAX_SCENARIO_CHARS:
        return [Diagnostic("SCN003", f"scenario file is larger than {MAX_SCENARIO_CHARS >> 20} MiB",
                           Span(path, 1, 1))]
    try:
        sc = load_scenario(path, text)
        outcome = run_scenario(sc)
    except CivError as exc:
        return exc.diagnostics
    except RecursionError:
        return [Diagnostic("SCN001", "values nested too deeply", Span(path, 1, 1))]
    return problem_diagnostics(outcome) + warning_diagnostics([outcome])

"""What `civdsl test` prints: each scenario's verdict with its differences, warnings and (with
`--trace`, or under a failure caused by an unused scripted answer) the decisions of its run."""
from __future__ import annotations

from ...language.diagnostics import Diagnostic
from .runner import Outcome


def outcome_lines(o: Outcome, quiet: bool = False, trace: bool = False) -> list[str]:
    """The lines of one scenario: nothing for a passing one when `quiet`."""
    sc = o.scenario
    if o.passed and quiet:
        return []
    out = [f"{'PASSED' if o.passed else 'FAILED'} {sc.path}: {sc.title}"]
    source = sc.data.get("source")
    if source and not o.passed:
        out.append(f"    source: {source}")
    out.extend(f"    {problem}" for problem in o.problems)
    out.extend(f"    warning: {w}" for w in o.warnings)
    if trace or (o.show_trace and not o.passed):
        out.append("    decisions (asked, and answered automatically when there was a single option):")
        out.extend(f"      {line}" for line in o.trace)
    return out


def summary(outcomes: list[Outcome], errors: int) -> str:
    failed = sum(1 for o in outcomes if not o.passed)
    warned = sum(len(o.warnings) for o in outcomes)
    return (f"{len(outcomes) - failed} passed, {failed} failed" + (f", {errors} error(s)" if errors else "")
            + (f", {warned} warning(s)" if warned else ""))


def outcome_json(o: Outcome, trace: bool = False) -> dict:
    out = {"file": o.scenario.path, "scenario": o.scenario.title, "format": o.scenario.format, "passed": o.passed,
           "problems": o.problems, "rules": o.rules, "warnings": o.warnings}
    if trace or (o.show_trace and not o.passed):
        out["trace"] = o.trace
    return out


def warning_diagnostics(outcomes: list[Outcome]) -> list[Diagnostic]:
    """The warnings of the scenarios as diagnostics at the `state:` they are about (for the CI
    annotation formats and the language server)."""
    return [Diagnostic("TST002", f"scenario \"{o.scenario.title}\": {w}", o.scenario.span(*at), "warning")
            for o in outcomes for w, at in zip(o.warnings, o.warning_places)]


def problem_diagnostics(o: Outcome) -> list[Diagnostic]:
    """Each difference of a failed scenario as a diagnostic at the part of the file it is about (the
    step's `expect:`, its `dice:` or `decisions:`), for the language server."""
    return [Diagnostic("TST001", problem, o.scenario.span(*at)) for problem, at in zip(o.problems, o.places)]

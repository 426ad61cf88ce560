"""What ran of each rule file: its sites (`sites`) against the keys recorded (`recorder`), counted the
way coverage.py counts Python — statements (here: lines), branches (arms), partial branches — plus the
rules themselves."""
from __future__ import annotations

from dataclasses import dataclass, field

from ...language.diagnostics import display_path
from .sites import Arm, Branch, FileSites, Rule, file_sites, rule_files


@dataclass
class FileCoverage:
    """One rule file's coverage."""
    path: str
    rules: list[tuple[Rule, bool]] = field(default_factory=list)
    lines: dict[int, bool] = field(default_factory=dict)             # line -> ran
    branches: list[tuple[Branch, list[bool]]] = field(default_factory=list)  # each arm: ran

    @property
    def name(self) -> str:
        """The file as users read it: relative to the working folder when inside it."""
        return display_path(self.path)

    # -- counts ------------------------------------------------------------------------------------------
    @property
    def rules_run(self) -> int:
        return sum(ran for _, ran in self.rules)

    @property
    def lines_run(self) -> int:
        return sum(self.lines.values())

    @property
    def arms(self) -> int:
        return sum(len(b.arms) for b, _ in self.branches)

    @property
    def arms_run(self) -> int:
        return sum(sum(ran) for _, ran in self.branches)

    @property
    def partial(self) -> int:
        """Lines that ran with a branch some arm of which never ran (coverage.py's BrPart)."""
        return len({b.line for b, ran in self.branches if self.lines.get(b.line) and not all(ran)})

    def missed_rules(self) -> list[Rule]:
        return [r for r, ran in self.rules if not ran]

    def missed_lines(self) -> list[int]:
        return sorted(n for n, ran in self.lines.items() if not ran)

    def missed_arms(self) -> list[tuple[int, Arm]]:
        """Arms that never ran, of branches on lines that ran (on a line that never ran, the line says it)."""
        return [(b.line, arm) for b, ran in self.branches if self.lines.get(b.line, True)
                for arm, yes in zip(b.arms, ran) if not yes]

    def branch_lines(self) -> dict[int, tuple[int, int]]:
        """Per line with branches: (arms that ran, arms)."""
        out: dict[int, tuple[int, int]] = {}
        for b, ran in self.branches:
            done, total = out.get(b.line, (0, 0))
            out[b.line] = (done + sum(ran), total + len(ran))
        return out


@dataclass
class Totals:
    rules: int = 0
    rules_run: int = 0
    lines: int = 0
    lines_run: int = 0
    arms: int = 0
    arms_run: int = 0
    partial: int = 0

    def add(self, f: FileCoverage) -> None:
        self.rules += len(f.rules)
        self.rules_run += f.rules_run
        self.lines += len(f.lines)
        self.lines_run += f.lines_run
        self.arms += f.arms
        self.arms_run += f.arms_run
        self.partial += f.partial


def of_files(files: list[FileCoverage]) -> Totals:
    t = Totals()
    for f in files:
        t.add(f)
    return t


def percent(done: int, total: int) -> float:
    """Done of total as a percentage (100 when there is nothing to do, as coverage.py says)."""
    return 100.0 * done / total if total else 100.0


def cover(done_lines: int, lines: int, done_arms: int, arms: int) -> float:
    """coverage.py's Cover: lines and arms that ran, of all lines and arms."""
    return percent(done_lines + done_arms, lines + arms)


def measure_file(sites: FileSites, hits: set[str]) -> FileCoverage:
    fc = FileCoverage(sites.path)
    fc.rules = [(r, any(k in hits for k in r.keys)) for r in sites.rules]
    fc.lines = {n: any(k in hits for k in keys) for n, keys in sorted(sites.lines.items())}
    fc.branches = [(b, [a.key in hits for a in b.arms]) for b in sorted(sites.branches, key=lambda b: b.line)]
    return fc


def measure(files, hits: set[str]) -> list[FileCoverage]:
    """The coverage of the rule files of the rulesets compiled while recording (`files`, and the
    files their options import), by the keys recorded (`hits`). Files with nothing that runs (only
    imports, or only what people see) are left out."""
    out = []
    for path in rule_files(files):
        sites = file_sites(path)
        if sites is not None and (sites.rules or sites.lines):
            out.append(measure_file(sites, hits))
    return sorted(out, key=lambda f: f.name)

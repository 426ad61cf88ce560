"""The text report: a table per rule file like `coverage report -m` — rules, lines, branches, partial
branches, the percentage and the Missing column (line ranges, and `42->else` for an arm of a branch
that never ran on a line that did) — then, per file, what never ran in words."""
from __future__ import annotations

from .results import FileCoverage, cover, of_files

HEADER = ("Rule file", "Rules", "Miss", "Lines", "Miss", "Branch", "BrPart", "Cover", "Missing")


def line_ranges(missed: list[int], lines: list[int]) -> list[str]:
    """Missed lines as ranges, a range running over lines that hold nothing (`12-14, 20`), as coverage.py
    writes them."""
    out, position = [], {n: i for i, n in enumerate(lines)}
    start = prev = None
    for n in missed:
        if prev is not None and position[n] == position[prev] + 1:
            prev = n
            continue
        if start is not None:
            out.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = n
    if start is not None:
        out.append(str(start) if start == prev else f"{start}-{prev}")
    return out


def missing(f: FileCoverage) -> str:
    """The Missing column: ranges of lines that never ran and `42->else` for each arm that never ran on
    a line that did, in the order of the file."""
    parts = [(int(r.split("-")[0]), 0, r) for r in line_ranges(f.missed_lines(), sorted(f.lines))]
    parts += [(line, 1, f"{line}->{arm.label}") for line, arm in f.missed_arms()]
    return ", ".join(text for *_, text in sorted(parts))


def pct(value: float) -> str:
    """A percentage as coverage.py shows it: whole, but never 100 unless all of it ran (nor 0 unless none)."""
    text = f"{value:.0f}%"
    if text == "100%" and value < 100:
        return "99%"
    if text == "0%" and value > 0:
        return "1%"
    return text


def table(files: list[FileCoverage]) -> list[str]:
    rows = []
    for f in files:
        rows.append((f.name, str(len(f.rules)), str(len(f.rules) - f.rules_run), str(len(f.lines)),
                     str(len(f.lines) - f.lines_run), str(f.arms), str(f.partial),
                     pct(cover(f.lines_run, len(f.lines), f.arms_run, f.arms)), missing(f)))
    t = of_files(files)
    total = ("TOTAL", str(t.rules), str(t.rules - t.rules_run), str(t.lines), str(t.lines - t.lines_run),
             str(t.arms), str(t.partial), pct(cover(t.lines_run, t.lines, t.arms_run, t.arms)), "")
    widths = [max(len(r[i]) for r in rows + [HEADER, total]) for i in range(len(HEADER) - 1)]

    def line(r):
        cells = [r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:-1], widths[1:])]
        return ("  ".join(cells) + "   " + r[-1]).rstrip()
    rule = "-" * len(line(total))
    return [line(HEADER), rule] + [line(r) for r in rows] + [rule, line(total)]


def never_ran(files: list[FileCoverage]) -> list[str]:
    """What never ran, in words, per file: the rules, then the arms of branches on lines that ran."""
    out = []
    for f in files:
        rules, arms = f.missed_rules(), f.missed_arms()
        if not rules and not arms:
            continue
        out.append(f"{f.name}:")
        said = [(r.line, 0, f"{r.name} never ran") for r in rules] + [(line, 1, arm.words) for line, arm in arms]
        out.extend(f"  line {line}: {words}" for line, _, words in sorted(said, key=lambda s: s[:2]))
    return out


def text_report(files: list[FileCoverage], details: bool = True) -> str:
    """The whole text report (`details`: also what never ran, in words)."""
    if not files:
        return "rule coverage: no rule file was compiled, so nothing was measured"
    t = of_files(files)
    head = (f"rule coverage: {t.rules_run}/{t.rules} rules, {t.lines_run}/{t.lines} lines, "
            f"{t.arms_run}/{t.arms} branch arms ran")
    lines = [head, ""] + table(files)
    missed = never_ran(files) if details else []
    if missed:
        lines += ["", "never ran:"] + missed
    return "\n".join(lines)
